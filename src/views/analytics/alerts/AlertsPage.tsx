/**
 * Dashboard 360 › Alerts (/analytics/alerts, issue 41): open incidents first (rule, metric with its
 * definition, threshold, started, peak, the filtered report), resolved ones below by page, the alert
 * rules, and for Dashboard 360 editors the rule editor, on/off, delete (asked first) and where alerts
 * are sent. A reader sees rules and incidents only. Every decision is the qoeAlerts machine's
 * (machines/qoe-alerts.machine.ts); this view renders it and sends it what the person does.
 */
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { MouseEvent, ReactNode } from 'react';
import {
  QOE_ALERT_DURATIONS, QOE_ALERTABLE_METRICS, selectAlertsBusy, selectAlertsContext, selectAlertsPhase, selectEditorOpen, selectNewSecret, selectRuleFilters, selectRuleHistory,
  type QoeAlertsActorRef,
} from '../../../../machines/qoe-alerts.machine';
import { selectRoles } from '../../../../machines/auth.machine';
import { AREAS } from '../../../../common/constants';
import { canEdit } from '../../../../common/roles';
import { formatDateTime } from '../../../../common/display-format';
import { isQoeMetricKey, type QoeAlertRule, type QoeIncident } from '../../../../common/qoe';
import { QOE_ALERT_MESSAGES as M } from '../../../../common/messages/qoe-alerts';
import { isOneOf } from '../../../../common/one-of';
import { useAppActor } from '../../../app-actor';
import { usePageActor } from '../../../page-actors';
import { button, field, input, label, errorText } from '../../../theme/ui.css';
import { HistoryPanel } from '../../shared/HistoryPanel';
import { Modal } from '../../shared/Modal';
import { useSiteTimeZone } from '../../shared/use-site-time-zone';
import * as acss from '../analytics.css';
import { OwnedQoeFilters } from '../QoeFilters';
import { useSiteToday } from '../useReport';
import { DeadLettersPanel } from './DeadLettersPanel';
import { filtersWords, formatMetricValue, metricDefinition, metricLabel, ruleTerms, unitWord } from './alert-format';
import * as css from './alerts.css';

export function AlertsPage() {
  const writer = canEdit(useSelector(useAppActor('auth'), selectRoles), AREAS.dashboard360);
  const today = useSiteToday();
  const actor = usePageActor('qoeAlerts', { input: { canEdit: writer, today } });
  return <AlertsView actor={actor} aside={<DeadLettersPanel />} />;
}

/** A link to an incident's filtered report, moving inside the console (its address is path and search). */
export function ReportLink({ path, children }: { path: string; children: string }) {
  const router = useRouter();
  const go = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void router.navigate({ href: path });
  };
  return <a href={path} onClick={go}>{children}</a>;
}

function Fact({ term, children }: { term: string; children: string }) {
  return <div className={css.fact}><dt className={css.factTerm}>{term}</dt><dd className={css.factValue}>{children}</dd></div>;
}

export function IncidentItem({ incident }: { incident: QoeIncident }) {
  const zone = useSiteTimeZone();
  const open = incident.state === 'open';
  return (
    <li className={open ? css.openItem : css.item} data-testid={`incident-${incident.id}`} data-state={incident.state}>
      <div className={css.itemHead}>
        <span className={css.itemName}>{incident.ruleName}</span>
        <span className={css.badge}>{open ? 'Open' : M.resolved}</span>
      </div>
      <div className={css.meta} title={metricDefinition(incident.metric)}>
        {ruleTerms(incident)} · {filtersWords(incident.filters)}
      </div>
      <p className={css.meta} style={{ margin: 0 }}>{metricLabel(incident.metric)}: {metricDefinition(incident.metric)}</p>
      <dl className={css.facts}>
        <Fact term={M.started}>{formatDateTime(incident.startedAt, zone)}</Fact>
        {incident.resolvedAt && <Fact term={M.resolved}>{formatDateTime(incident.resolvedAt, zone)}</Fact>}
        <Fact term={M.peak}>{formatMetricValue(incident.metric, incident.peakValue)}</Fact>
        <Fact term={M.latest}>{formatMetricValue(incident.metric, incident.lastValue)}</Fact>
        <Fact term={M.threshold}>{formatMetricValue(incident.metric, incident.threshold)}</Fact>
      </dl>
      <div><ReportLink path={incident.reportPath}>{M.openReport}</ReportLink></div>
    </li>
  );
}

/** aside: the data-health panel beside the incidents (the events not placed, issue 42), shown whether or not the alerts could be read. */
export function AlertsView({ actor, aside = null }: { actor: QoeAlertsActorRef; aside?: ReactNode }) {
  const phase = useSelector(actor, selectAlertsPhase);
  const ctx = useSelector(actor, selectAlertsContext);
  const busy = useSelector(actor, selectAlertsBusy);
  const editorOpen = useSelector(actor, selectEditorOpen);
  const history = useSelector(actor, selectRuleHistory);
  // One page of resolved incidents, as the server pages them (state=resolved).
  const resolved = ctx.resolved.items;
  const pages = Math.max(1, Math.ceil(ctx.resolved.total / Math.max(1, ctx.resolved.pageSize)));
  const target = ctx.rules.find((r) => r.id === ctx.targetId);
  const openOfTarget = ctx.open.filter((i) => i.ruleId === ctx.targetId).length;
  return (
    <main aria-busy={busy}>
      <div className={acss.header}><h1 className={acss.title}>{M.pageTitle}</h1></div>
      <p className={acss.summary}>{M.pageIntro}</p>
      {ctx.notice && <p role="status" className={css.notice}>{ctx.notice}</p>}
      {ctx.error && phase !== 'editing' && <p role="alert" className={css.failure}>{ctx.error}</p>}
      {phase === 'loading' && ctx.rules.length === 0 && ctx.open.length === 0 && <p className={acss.status}>{M.loading}</p>}
      {phase === 'failed' && <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'alerts.retry' })}>{M.retry}</button>}
      {/* One layout in every phase, so the aside stays mounted (its own reads kept) while the alerts are read again. */}
      <div className={css.layout}>
        <div className={css.sections}>
          {phase !== 'failed' && (<>
            <section className={css.section} aria-labelledby="open-incidents">
              <h2 id="open-incidents" className={css.sectionTitle}>{M.openTitle} ({ctx.open.length})</h2>
              {ctx.open.length === 0 ? <p className={acss.status}>{M.openEmpty}</p> : (
                <ul className={css.list} aria-label={M.openTitle}>{ctx.open.map((i) => <IncidentItem key={i.id} incident={i} />)}</ul>
              )}
            </section>
            <RulesSection actor={actor} rules={ctx.rules} canEdit={ctx.canEdit} editorOpen={editorOpen} />
            <section className={css.section} aria-labelledby="resolved-incidents">
              <h2 id="resolved-incidents" className={css.sectionTitle}>{M.resolvedTitle}</h2>
              {resolved.length === 0 ? <p className={acss.status}>{M.resolvedEmpty}</p> : (
                <ul className={css.list} aria-label={M.resolvedTitle}>{resolved.map((i) => <IncidentItem key={i.id} incident={i} />)}</ul>
              )}
              {pages > 1 && (
                <nav className={css.pager} aria-label={M.resolvedTitle}>
                  <button type="button" className={button.secondary} disabled={busy || ctx.resolved.page <= 1}
                    onClick={() => actor.send({ type: 'incidents.page', page: ctx.resolved.page - 1 })}>{M.previousPage}</button>
                  <span>{M.pageOf(ctx.resolved.page, pages)}</span>
                  <button type="button" className={button.secondary} disabled={busy || ctx.resolved.page >= pages}
                    onClick={() => actor.send({ type: 'incidents.page', page: ctx.resolved.page + 1 })}>{M.nextPage}</button>
                </nav>
              )}
            </section>
          </>)}
        </div>
        <div className={css.sections}>
          {phase !== 'failed' && editorOpen && <RuleEditor actor={actor} />}
          {aside}
          {phase !== 'failed' && history && ctx.historyOf && (
            <section className={css.section} aria-label={`${M.historyOf}: ${ctx.rules.find((r) => r.id === ctx.historyOf)?.name ?? ''}`}>
              <div className={css.sectionHead}>
                <h2 className={css.sectionTitle}>{M.historyOf}: {ctx.rules.find((r) => r.id === ctx.historyOf)?.name}</h2>
                <button type="button" className={button.ghost} onClick={() => actor.send({ type: 'rules.closeHistory' })}>{M.closeHistory}</button>
              </div>
              <HistoryPanel history={history} version={ctx.rules.find((r) => r.id === ctx.historyOf)?.version} />
            </section>
          )}
          {phase !== 'failed' && ctx.canEdit && ctx.settings && <SettingsForm actor={actor} />}
        </div>
      </div>
      <Modal open={phase === 'confirmingDelete' || phase === 'deleting'} title={M.deleteTitle(target?.name ?? '')} negativeLabel={M.cancel}
        positiveLabel={M.deleteConfirm} busy={phase === 'deleting'}
        onNegative={() => actor.send({ type: 'delete.cancel' })} onPositive={() => actor.send({ type: 'delete.confirm' })}>
        <p>{M.deleteBody(openOfTarget)}</p>
      </Modal>
      <Modal open={phase === 'confirmingRotate' || phase === 'rotatingSecret'} title={M.rotateTitle} negativeLabel={M.cancel}
        positiveLabel={M.rotateConfirm} busy={phase === 'rotatingSecret'}
        onNegative={() => actor.send({ type: 'rotate.cancel' })} onPositive={() => actor.send({ type: 'rotate.confirm' })}>
        <p>{M.rotateBody}</p>
      </Modal>
      <Modal open={phase === 'confirmingDiscard'} title={M.discardTitle} negativeLabel={M.keepEditing} positiveLabel={M.discardConfirm}
        onNegative={() => actor.send({ type: 'discard.cancel' })} onPositive={() => actor.send({ type: 'discard.confirm' })}>
        <p>{M.discardBody}</p>
      </Modal>
      <Modal open={phase === 'conflict' || phase === 'reloading'} title={M.conflictTitle} negativeLabel={M.conflictKeep} positiveLabel={M.conflictReload}
        busy={phase === 'reloading'}
        onNegative={() => actor.send({ type: 'conflict.keep' })} onPositive={() => actor.send({ type: 'conflict.reload' })}>
        <p>{M.conflictBody}</p>
      </Modal>
    </main>
  );
}

function RulesSection({ actor, rules, canEdit: writer, editorOpen }: { actor: QoeAlertsActorRef; rules: QoeAlertRule[]; canEdit: boolean; editorOpen: boolean }) {
  const zone = useSiteTimeZone();
  const phase = useSelector(actor, selectAlertsPhase);
  const idle = phase === 'idle';
  return (
    <section className={css.section} aria-labelledby="alert-rules">
      <div className={css.sectionHead}>
        <h2 id="alert-rules" className={css.sectionTitle}>{M.rulesTitle}</h2>
        {writer && !editorOpen && <button type="button" className={button.primary} disabled={!idle} onClick={() => actor.send({ type: 'rules.new' })}>{M.newRule}</button>}
      </div>
      {rules.length === 0 ? <p className={acss.status}>{writer ? M.rulesEmptyWriter : M.rulesEmpty}</p> : (
        <ul className={css.list} aria-label={M.rulesTitle}>
          {rules.map((rule) => (
            <li key={rule.id} className={css.item} data-testid={`rule-${rule.id}`}>
              <div className={css.itemHead}>
                <span className={css.itemName}>{rule.name}</span>
                <span className={css.badge}>{rule.enabled ? M.enabled : M.disabled}</span>
              </div>
              <div className={css.meta} title={metricDefinition(rule.metric)}>{ruleTerms(rule)}</div>
              <div className={css.meta}>{filtersWords(rule.filters)}</div>
              {rule.breachingSince && <div className={css.meta}>{M.breaching(formatDateTime(rule.breachingSince, zone))}</div>}
              <div className={css.actions}>
                {writer && <button type="button" className={button.secondary} disabled={!idle} aria-label={`${M.editRule}: ${rule.name}`}
                  onClick={() => actor.send({ type: 'rules.edit', id: rule.id })}>{M.editRule}</button>}
                {writer && <button type="button" className={button.secondary} disabled={!idle} aria-label={`${rule.enabled ? M.disable : M.enable}: ${rule.name}`}
                  onClick={() => actor.send({ type: 'rules.toggle', id: rule.id })}>{rule.enabled ? M.disable : M.enable}</button>}
                {writer && <button type="button" className={button.danger} disabled={!idle} aria-label={`${M.deleteRule}: ${rule.name}`}
                  onClick={() => actor.send({ type: 'rules.delete', id: rule.id })}>{M.deleteRule}</button>}
                <button type="button" className={button.ghost} aria-label={`${M.historyOf}: ${rule.name}`}
                  onClick={() => actor.send({ type: 'rules.history', id: rule.id })}>{M.historyOf}</button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function RuleEditor({ actor }: { actor: QoeAlertsActorRef }) {
  const ctx = useSelector(actor, selectAlertsContext);
  const phase = useSelector(actor, selectAlertsPhase);
  const ruleFilters = useSelector(actor, selectRuleFilters);
  const { draft, fieldErrors } = ctx;
  const saving = phase === 'saving';
  const title = ctx.editingId ? M.editorEditTitle(ctx.rules.find((r) => r.id === ctx.editingId)?.name ?? draft.name) : M.editorNewTitle;
  return (
    <form className={css.editor} aria-label={title} noValidate onSubmit={(e) => { e.preventDefault(); actor.send({ type: 'editor.save' }); }}>
      <h2 className={css.sectionTitle}>{title}</h2>
      {ctx.error && <p role="alert" className={css.failure}>{ctx.error}</p>}
      <label className={field}>
        <span className={label}>{M.name}</span>
        <input className={input} value={draft.name} maxLength={200} aria-invalid={fieldErrors.name ? true : undefined}
          onChange={(e) => actor.send({ type: 'draft.change', patch: { name: e.target.value } })} />
        {fieldErrors.name && <span className={errorText}>{fieldErrors.name}</span>}
      </label>
      <label className={field}>
        <span className={label}>{M.metric}</span>
        <select className={input} value={draft.metric}
          onChange={(e) => { if (isQoeMetricKey(e.target.value)) actor.send({ type: 'draft.change', patch: { metric: e.target.value } }); }}>
          {QOE_ALERTABLE_METRICS.map((m) => <option key={m} value={m}>{metricLabel(m)}</option>)}
        </select>
      </label>
      <p className={css.meta} style={{ margin: 0 }} data-testid="metric-definition">{metricDefinition(draft.metric)}</p>
      <div className={css.row}>
        <label className={field}>
          <span className={label}>{M.comparison}</span>
          <select className={input} value={draft.comparison}
            onChange={(e) => actor.send({ type: 'draft.change', patch: { comparison: e.target.value === 'below' ? 'below' : 'above' } })}>
            <option value="above">{M.above}</option>
            <option value="below">{M.below}</option>
          </select>
        </label>
        <label className={field}>
          <span className={label}>{M.thresholdLabel}{unitWord(draft.metric) && ` (${unitWord(draft.metric)})`}</span>
          <input className={input} inputMode="decimal" value={draft.threshold} aria-invalid={fieldErrors.threshold ? true : undefined}
            onChange={(e) => actor.send({ type: 'draft.change', patch: { threshold: e.target.value } })} />
          {fieldErrors.threshold && <span className={errorText}>{fieldErrors.threshold}</span>}
        </label>
        <label className={field}>
          <span className={label}>{M.duration}</span>
          <select className={input} value={draft.durationMinutes}
            onChange={(e) => { const n = Number(e.target.value); if (isOneOf(QOE_ALERT_DURATIONS, n)) actor.send({ type: 'draft.change', patch: { durationMinutes: n } }); }}>
            {QOE_ALERT_DURATIONS.map((d) => <option key={d} value={d}>{M.minutes(d)}</option>)}
          </select>
        </label>
      </div>
      <fieldset className={css.section} style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className={label}>{M.filters}</legend>
        {ruleFilters && <OwnedQoeFilters actor={ruleFilters} help={M.filtersHelp} />}
        {fieldErrors.filters && <span className={errorText}>{fieldErrors.filters}</span>}
      </fieldset>
      <label className={field} style={{ flexDirection: 'row', alignItems: 'center' }}>
        <input type="checkbox" checked={draft.enabled} onChange={(e) => actor.send({ type: 'draft.change', patch: { enabled: e.target.checked } })} />
        <span>{M.enabledLabel}</span>
      </label>
      <div className={css.actions}>
        <button type="submit" className={button.primary} disabled={saving}>{saving ? M.saving : M.save}</button>
        <button type="button" className={button.secondary} disabled={saving} onClick={() => actor.send({ type: 'editor.cancel' })}>{M.cancel}</button>
      </div>
    </form>
  );
}

function SettingsForm({ actor }: { actor: QoeAlertsActorRef }) {
  const ctx = useSelector(actor, selectAlertsContext);
  const phase = useSelector(actor, selectAlertsPhase);
  const sending = phase === 'sendingSettings';
  return (
    <form className={css.editor} aria-label={M.settingsTitle} noValidate onSubmit={(e) => { e.preventDefault(); actor.send({ type: 'settings.save' }); }}>
      <h2 className={css.sectionTitle}>{M.settingsTitle}</h2>
      <p className={css.meta} style={{ margin: 0 }}>{M.settingsIntro}</p>
      <label className={field}>
        <span className={label}>{M.webhookUrl}</span>
        <input className={input} type="url" value={ctx.settingsDraft.webhookUrl} aria-invalid={ctx.fieldErrors.webhookUrl ? true : undefined}
          onChange={(e) => actor.send({ type: 'settings.change', patch: { webhookUrl: e.target.value } })} />
        {ctx.fieldErrors.webhookUrl && <span className={errorText}>{ctx.fieldErrors.webhookUrl}</span>}
      </label>
      <label className={field}>
        <span className={label}>{M.emails}</span>
        <textarea className={input} rows={3} value={ctx.settingsDraft.emails} aria-invalid={ctx.fieldErrors.emails ? true : undefined}
          onChange={(e) => actor.send({ type: 'settings.change', patch: { emails: e.target.value } })} />
        {ctx.fieldErrors.emails && <span className={errorText}>{ctx.fieldErrors.emails}</span>}
      </label>
      <div><button type="submit" className={button.primary} disabled={sending || phase !== 'idle'}>{M.saveSettings}</button></div>
      <SigningSecret actor={actor} />
    </form>
  );
}

/** The webhook's signing secret: how a receiver checks a call, which secret is in use, its rotation, and a new secret shown once. */
function SigningSecret({ actor }: { actor: QoeAlertsActorRef }) {
  const ctx = useSelector(actor, selectAlertsContext);
  const phase = useSelector(actor, selectAlertsPhase);
  const fresh = useSelector(actor, selectNewSecret);
  const fingerprint = ctx.settings?.secretFingerprint ?? null;
  return (
    <section className={css.section} aria-labelledby="signing-secret">
      <h3 id="signing-secret" className={css.sectionTitle}>{M.secretTitle}</h3>
      <p className={css.meta} style={{ margin: 0 }} data-testid="secret-fingerprint">{fingerprint ? M.secretInUse(fingerprint) : M.secretNone}</p>
      {fresh && (
        <div className={css.notice} data-testid="new-secret" aria-live="polite">
          <strong>{M.newSecretTitle}</strong>
          <p style={{ margin: '4px 0' }}>{M.newSecretBody}</p>
          <code data-testid="webhook-secret" style={{ wordBreak: 'break-all', userSelect: 'all' }}>{fresh}</code>
          <div><button type="button" className={button.secondary} onClick={() => actor.send({ type: 'secret.dismiss' })}>{M.dismissSecret}</button></div>
        </div>
      )}
      {fingerprint && (
        <div><button type="button" className={button.secondary} disabled={phase !== 'idle'} onClick={() => actor.send({ type: 'secret.rotate' })}>{M.rotateSecret}</button></div>
      )}
      <h3 className={css.sectionTitle}>{M.signatureTitle}</h3>
      <p className={css.meta} style={{ margin: 0 }} data-testid="signature-help">{M.signatureHelp}</p>
    </section>
  );
}
