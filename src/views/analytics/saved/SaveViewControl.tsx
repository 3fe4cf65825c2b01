/**
 * "Save view" on every Dashboard 360 report page (issue 41): a dialog asks for a name and, for a
 * Dashboard 360 editor, whether to share the view with the site; the page's path and search (range,
 * filters, breakdown, sort) are saved. After a save the view's own link is shown. The flow is the
 * qoeSaveView machine's (machines/qoe-saved-view-save.machine.ts).
 */
import { Link, useLocation } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectRoles } from '../../../../machines/auth.machine';
import { selectSaveViewContext, selectSaveViewPhase, type QoeSaveViewMachine } from '../../../../machines/qoe-saved-view-save.machine';
import { AREAS } from '../../../../common/constants';
import { canEdit } from '../../../../common/roles';
import { QOE_SAVED_VIEW_MESSAGES as M } from '../../../../common/messages/qoe-alerts';
import { useAppActor } from '../../../app-actor';
import { usePageActor } from '../../../page-actors';
import { button, errorText, field, input, label } from '../../../theme/ui.css';
import { Modal } from '../../shared/Modal';
import type { ActorRefFrom } from 'xstate';
import { useHasPageLogic } from '../alerts/provided';

/** The search of the address as saved: every parameter as text. */
export function searchOf(search: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}

/** The slot of a report page's header (left out where its logic is not provided: another page's view test). */
export function SaveViewControl({ title }: { title: string }) {
  return useHasPageLogic('qoeSaveView') ? <SaveViewSlot title={title} /> : null;
}

function SaveViewSlot({ title }: { title: string }) {
  const writer = canEdit(useSelector(useAppActor('auth'), selectRoles), AREAS.dashboard360);
  const actor = usePageActor('qoeSaveView', { input: { canShare: writer } });
  return <SaveViewButton actor={actor} title={title} />;
}

export function SaveViewButton({ actor, title }: { actor: ActorRefFrom<QoeSaveViewMachine>; title: string }) {
  const location = useLocation();
  const phase = useSelector(actor, selectSaveViewPhase);
  const ctx = useSelector(actor, selectSaveViewContext);
  const open = () => actor.send({ type: 'saveView.open', path: location.pathname.replace(/\/$/, '') || '/analytics', search: searchOf(location.search), name: title });
  return (
    <>
      <button type="button" className={button.secondary} onClick={open}>{M.save}</button>
      {ctx.saved && phase === 'closed' && (
        <p role="status" style={{ margin: 0 }}>
          {M.saved(ctx.saved.name)} <Link to="/analytics/saved/$viewId" params={{ viewId: ctx.saved.id }}>{M.open}</Link>
          {' · '}<Link to="/analytics/saved">{M.listTitle}</Link>
        </p>
      )}
      <Modal open={phase !== 'closed'} title={M.saveTitle} negativeLabel={M.cancel} positiveLabel={M.confirmSave} busy={phase === 'saving'}
        onNegative={() => actor.send({ type: 'saveView.cancel' })} onPositive={() => actor.send({ type: 'saveView.submit' })}>
        <p>{M.saveIntro}</p>
        {ctx.error && <p role="alert" className={errorText}>{ctx.error}</p>}
        <label className={field}>
          <span className={label}>{M.name}</span>
          <input className={input} value={ctx.name} aria-invalid={ctx.nameError ? true : undefined}
            onChange={(e) => actor.send({ type: 'saveView.name', name: e.target.value })} />
          {ctx.nameError && <span className={errorText}>{ctx.nameError}</span>}
        </label>
        {ctx.canShare ? (
          <label className={field} style={{ flexDirection: 'row', alignItems: 'center' }}>
            <input type="checkbox" checked={ctx.shared} onChange={(e) => actor.send({ type: 'saveView.shared', shared: e.target.checked })} />
            <span>{M.shared}</span>
          </label>
        ) : <p>{M.sharedOnlyWriters}</p>}
      </Modal>
    </>
  );
}
