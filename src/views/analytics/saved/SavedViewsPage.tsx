/**
 * Dashboard 360 › Saved views (/analytics/saved, issue 41): the person's own views and those shared
 * with the site, each opened on its page with its range and filters; its owner renames, shares (an
 * editor) or makes private, and deletes it after a question. /analytics/saved/$viewId opens one view
 * from its address. The flow is the qoeSavedViews machine's (machines/qoe-saved-views.machine.ts).
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectRoles } from '../../../../machines/auth.machine';
import {
  savedViewHref, selectRenameSaving, selectSavedViewsContext, selectSavedViewsPhase, type QoeSavedViewsMachine,
} from '../../../../machines/qoe-saved-views.machine';
import { AREAS } from '../../../../common/constants';
import { canEdit } from '../../../../common/roles';
import { formatDateTime } from '../../../../common/display-format';
import { QOE_SAVED_VIEW_MESSAGES as M } from '../../../../common/messages/qoe-alerts';
import { parseQoeFilters } from '../../../../common/qoe';
import { useAppActor } from '../../../app-actor';
import { usePageActor } from '../../../page-actors';
import { button, errorText, field, input, label } from '../../../theme/ui.css';
import { Modal } from '../../shared/Modal';
import { useSiteTimeZone } from '../../shared/use-site-time-zone';
import { ANALYTICS_GROUPS } from '../../../config';
import * as acss from '../analytics.css';
import { filtersWords } from '../alerts/alert-format';
import * as css from '../alerts/alerts.css';

type SavedViewsRef = ActorRefFrom<QoeSavedViewsMachine>;

function useCanShare(): boolean {
  return canEdit(useSelector(useAppActor('auth'), selectRoles), AREAS.dashboard360);
}

export function SavedViewsPage() {
  const actor = usePageActor('qoeSavedViews', { input: { canShare: useCanShare() } });
  return <SavedViewsView actor={actor} />;
}

/** /analytics/saved/$viewId: reads the view and goes to its page (or says why not, above the list). */
export function SavedViewOpenPage({ viewId }: { viewId: string }) {
  const actor = usePageActor('qoeSavedViews', { input: { canShare: useCanShare(), openId: viewId } });
  return <SavedViewsView actor={actor} />;
}

const PAGE_TITLES = new Map(ANALYTICS_GROUPS.flatMap((g) => g.pages).map((p) => [p.path, p.title]));

function pageTitle(path: string): string {
  return PAGE_TITLES.get(path) ?? path;
}

function filtersOf(search: Record<string, string>): string {
  const parsed = parseQoeFilters(search.f);
  return parsed.ok ? filtersWords(parsed.filters) : '';
}

export function SavedViewsView({ actor }: { actor: SavedViewsRef }) {
  const phase = useSelector(actor, selectSavedViewsPhase);
  const ctx = useSelector(actor, selectSavedViewsContext);
  const renameSaving = useSelector(actor, selectRenameSaving);
  const zone = useSiteTimeZone();
  const target = ctx.views.find((v) => v.id === ctx.targetId);
  if (phase === 'opening' || phase === 'opened') return <p className={acss.status} role="status">{M.opening}</p>;
  const idle = phase === 'list';
  return (
    <main>
      <div className={acss.header}><h1 className={acss.title}>{M.listTitle}</h1></div>
      <p className={acss.summary}>{M.listIntro}</p>
      {ctx.notice && <p role="status" className={css.notice}>{ctx.notice}</p>}
      {ctx.error && <p role="alert" className={css.failure}>{ctx.error}</p>}
      {phase === 'loading' && ctx.views.length === 0 && <p className={acss.status}>{M.loading}</p>}
      {phase === 'failed' && <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'views.retry' })}>{M.retry}</button>}
      {phase !== 'loading' && phase !== 'failed' && ctx.views.length === 0 && <p className={acss.status}>{M.empty}</p>}
      {ctx.views.length > 0 && (
        <ul className={css.list} aria-label={M.listTitle} aria-busy={!idle}>
          {ctx.views.map((v) => (
            <li key={v.id} className={css.item} data-testid={`saved-view-${v.id}`}>
              <div className={css.itemHead}>
                <a className={css.itemName} href={savedViewHref(v)} onClick={(e) => {
                  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                  e.preventDefault();
                  actor.send({ type: 'views.open', id: v.id });
                }}>{v.name}</a>
                <span className={css.badge}>{v.shared ? M.sharedView : M.privateView}</span>
              </div>
              <div className={css.meta}>{pageTitle(v.path)}{filtersOf(v.search) && ` · ${filtersOf(v.search)}`}</div>
              <div className={css.meta}>{v.mine ? M.mine : M.sharedBy(v.ownerName)} · {formatDateTime(v.updatedAt, zone)}</div>
              {v.mine && (
                <div className={css.actions}>
                  <button type="button" className={button.secondary} disabled={!idle} aria-label={`${M.rename}: ${v.name}`}
                    onClick={() => actor.send({ type: 'views.rename', id: v.id })}>{M.rename}</button>
                  {(ctx.canShare || v.shared) && (
                    <button type="button" className={button.secondary} disabled={!idle} aria-label={`${v.shared ? M.unshare : M.share}: ${v.name}`}
                      onClick={() => actor.send({ type: 'views.share', id: v.id, shared: !v.shared })}>{v.shared ? M.unshare : M.share}</button>
                  )}
                  <button type="button" className={button.danger} disabled={!idle} aria-label={`${M.delete}: ${v.name}`}
                    onClick={() => actor.send({ type: 'views.delete', id: v.id })}>{M.delete}</button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <Modal open={phase === 'renaming'} title={M.renameTitle} negativeLabel={M.cancel} positiveLabel={M.rename} busy={renameSaving}
        onNegative={() => actor.send({ type: 'rename.cancel' })} onPositive={() => actor.send({ type: 'rename.submit' })}>
        <label className={field}>
          <span className={label}>{M.name}</span>
          <input className={input} value={ctx.name} aria-invalid={ctx.nameError ? true : undefined}
            onChange={(e) => actor.send({ type: 'rename.name', name: e.target.value })} />
          {ctx.nameError && <span className={errorText}>{ctx.nameError}</span>}
        </label>
      </Modal>
      <Modal open={phase === 'confirmingDelete' || phase === 'deleting'} title={M.deleteTitle(target?.name ?? '')} negativeLabel={M.cancel}
        positiveLabel={M.deleteConfirm} busy={phase === 'deleting'}
        onNegative={() => actor.send({ type: 'delete.cancel' })} onPositive={() => actor.send({ type: 'delete.confirm' })}>
        <p>{M.deleteBody(target?.shared ?? false)}</p>
      </Modal>
    </main>
  );
}
