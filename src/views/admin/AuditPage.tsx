/**
 * /admin/audit: who did what to which object and when on this site (issue 28): filters (area, action,
 * who, object kind, object, dates), every row's object in words with a link to its page, its changes
 * as "field: before → after", paging, the CSV export of what the filters show, and how long entries
 * are kept.
 */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import {
  selectAuditDraft, selectAuditEntries, selectAuditError, selectAuditExporting, selectAuditExportNotice, selectAuditFilterError, selectAuditList,
  selectAuditLoading, selectAuditPaging, type AuditFilterField,
} from '../../../machines/staff-admin-audit.machine';
import {
  AUDIT_AREAS, AUDIT_AREA_KEYS, AUDIT_LOG_MESSAGES, auditActionsOfArea, auditChangeText, isAuditArea, type AuditLogEntry,
} from '../../../common/audit-actions';
import { auditFiltersOf, validateAuditSearch } from '../../../common/audit-search';
import { formatDateTime } from '../../../common/display-format';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { REVISION_KINDS } from '../../../common/revisions';
import { usePageActor } from '../../page-actors';
import { button, errorText, input, label } from '../../theme/ui.css';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import * as css from './admin.css';
import { ScrollBox } from '../shared/ScrollBox';

const KIND_OPTIONS = Object.entries(REVISION_KINDS).map(([kind, info]) => ({ kind, label: info.label.charAt(0).toUpperCase() + info.label.slice(1) }));

/** The object's cell: its words, linking to its page in the console when it has one. */
function ObjectCell({ object }: { object: AuditLogEntry['object'] }) {
  if (!object) return null;
  if (!object.link) return <>{object.words}</>;
  const [path = '', search = ''] = object.link.split('?');
  return <Link to={path} search={Object.fromEntries(new URLSearchParams(search))}>{object.words}</Link>;
}

function WhatCell({ entry }: { entry: AuditLogEntry }) {
  if (entry.changes.length === 0) return <span className={css.muted}>{entry.note}</span>;
  return (
    <ul style={{ margin: 0, paddingLeft: '1rem' }}>
      {entry.changes.map((change, i) => <li key={i}>{auditChangeText(change)}</li>)}
      {entry.note && <li className={css.muted}>{entry.note}</li>}
    </ul>
  );
}

/** The /admin/audit route (its search typed by validateAuditSearch in the router). */
const auditRoute = getRouteApi('/protected/admin/audit');

export function AuditPage() {
  // Validated again: the router keeps a value its validator drops beside the validated ones. The page
  // starts from the address (issue 38); the machine writes it back when filters or the page change.
  const search = auditRoute.useSearch({ select: validateAuditSearch });
  const [start] = useState(() => ({ filters: auditFiltersOf(search), page: search.page ?? 1 }));
  const actor = usePageActor('audit', { input: start });
  const list = useSelector(actor, selectAuditList);
  const entries = useSelector(list, selectAuditEntries);
  const error = useSelector(list, selectAuditError);
  const loading = useSelector(list, selectAuditLoading);
  const paging = useSelector(list, selectAuditPaging);
  const draft = useSelector(actor, selectAuditDraft);
  const filterError = useSelector(actor, selectAuditFilterError);
  const exporting = useSelector(actor, selectAuditExporting);
  const exportNotice = useSelector(actor, selectAuditExportNotice);
  const zone = useSiteTimeZone();
  const set = (field: AuditFilterField) => (e: { target: { value: string } }) => actor.send({ type: 'audit.filter', field, value: e.target.value });
  const actions = auditActionsOfArea(isAuditArea(draft.area) ? draft.area : null);

  return (
    <section aria-label="Audit log">
      <p className={css.muted}>{AUDIT_LOG_MESSAGES.retention}</p>
      <form className={css.toolbar} onSubmit={(e) => { e.preventDefault(); actor.send({ type: 'audit.apply' }); }}>
        <label>
          <span className={label}>Area</span>
          <select className={input} value={draft.area} onChange={set('area')} style={{ display: 'block' }}>
            <option value="">Any area</option>
            {AUDIT_AREA_KEYS.map((key) => <option key={key} value={key}>{AUDIT_AREAS[key]}</option>)}
          </select>
        </label>
        <label>
          <span className={label}>Action</span>
          <select className={input} value={draft.action} onChange={set('action')} style={{ display: 'block', maxWidth: '16rem' }}>
            <option value="">Any action</option>
            {actions.map((a) => <option key={a.action} value={a.action}>{a.label}</option>)}
          </select>
        </label>
        <label className={css.grow}>
          <span className={label}>Who</span>
          <input className={input} style={{ width: '100%' }} value={draft.who} placeholder="Name or e-mail" onChange={set('who')} />
        </label>
        <label>
          <span className={label}>Object</span>
          <select className={input} value={draft.objectKind} onChange={set('objectKind')} style={{ display: 'block' }}>
            <option value="">{AUDIT_LOG_MESSAGES.objectKinds}</option>
            {KIND_OPTIONS.map((o) => <option key={o.kind} value={o.kind}>{o.label}</option>)}
          </select>
        </label>
        <label className={css.grow}>
          <span className={label}>Object name</span>
          <input className={input} style={{ width: '100%' }} value={draft.object} placeholder="Name or id" onChange={set('object')} />
        </label>
        <label>
          <span className={label}>From</span>
          <input className={input} type="date" value={draft.from} onChange={set('from')} style={{ display: 'block' }} />
        </label>
        <label>
          <span className={label}>To</span>
          <input className={input} type="date" value={draft.to} onChange={set('to')} style={{ display: 'block' }} />
        </label>
        <button type="submit" className={button.primary}>Apply</button>
        <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'audit.clear' })}>Clear</button>
        <button type="button" className={button.secondary} disabled={exporting} onClick={() => actor.send({ type: 'audit.export' })}>
          {exporting ? 'Exporting…' : 'Export CSV'}
        </button>
      </form>
      {filterError && <p role="alert" className={errorText}>{filterError}</p>}
      {exportNotice && (
        <p role={exportNotice.severity === 'error' ? 'alert' : 'status'} className={`${css.notice} ${exportNotice.severity === 'error' ? css.failure : css.success}`}>
          {exportNotice.text}
        </p>
      )}
      {error && (
        <div role="alert">
          <p className={errorText}>{error}</p>
          <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'list.reload' })}>Retry</button>
        </div>
      )}
      {loading && <p className={css.muted}>Loading the audit log…</p>}
      {!error && (
        <ScrollBox className={css.tableWrap} label="Audit entries">
          <table className={css.table} aria-label="Audit entries">
            <thead>
              <tr>
                <th className={css.th}>When</th><th className={css.th}>Who</th><th className={css.th}>Action</th>
                <th className={css.th}>Object</th><th className={css.th}>What changed</th>
              </tr>
            </thead>
            <tbody>
              {!loading && entries.length === 0 && <tr><td className={css.td} colSpan={5}>{ADMIN_MESSAGES.noAudit}</td></tr>}
              {entries.map((e) => (
                <tr key={e.id} data-entry-id={e.id}>
                  <td className={css.td} style={{ whiteSpace: 'nowrap' }}><time dateTime={e.at}>{formatDateTime(e.at, zone)}</time></td>
                  <td className={css.td}>{e.actor?.username ?? 'System'}</td>
                  <td className={css.td}>{e.label}{e.area && <div className={css.muted}>{AUDIT_AREAS[e.area]}</div>}</td>
                  <td className={css.td}><ObjectCell object={e.object} /></td>
                  <td className={css.td}><WhatCell entry={e} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      <div className={css.pager}>
        <span className={css.muted}>Page {paging.page} of {paging.pages} · {paging.total} {paging.total === 1 ? 'entry' : 'entries'}</span>
        <button type="button" className={`${button.secondary} ${css.small}`} disabled={paging.previousOffset === null}
          onClick={() => paging.previousOffset !== null && actor.send({ type: 'list.page', offset: paging.previousOffset })}>Previous</button>
        <button type="button" className={`${button.secondary} ${css.small}`} disabled={paging.nextOffset === null}
          onClick={() => paging.nextOffset !== null && actor.send({ type: 'list.page', offset: paging.nextOffset })}>Next</button>
      </div>
    </section>
  );
}
