/**
 * The content library's lasting Undo of its last bulk publish / unpublish (issue 38): the snackbar's
 * message goes after 8 s, this control stays beside the bulk actions while the server accepts the undo,
 * until a newer bulk change replaces it or the library is left. The offer and the undo are the
 * `lastBulk` child's (machines/lasting-undo.machine.ts); this only shows them.
 */
import { useSelector } from '@xstate/react';
import { UNDO_MESSAGES } from '../../../common/revisions';
import { selectLastBulk } from '../../../machines/content-browser.machine';
import { selectIsUndoingLasting, selectLastingChange, type LastingUndoRef } from '../../../machines/lasting-undo.machine';
import { useAppActor } from '../../app-actor';
import { button } from '../../theme/ui.css';

function Offer({ actor }: { actor: LastingUndoRef }) {
  const change = useSelector(actor, selectLastingChange);
  const undoing = useSelector(actor, selectIsUndoingLasting);
  if (!change) return null;
  return (
    <button type="button" className={button.secondary} data-testid="content-last-bulk-undo" disabled={undoing} onClick={() => actor.send({ type: 'lastingUndo.undo' })}>
      {undoing ? UNDO_MESSAGES.undoing : change.label}
    </button>
  );
}

export function LastBulkUndo() {
  const browser = useAppActor('contentBrowser');
  const lastBulk = useSelector(browser, selectLastBulk);
  return lastBulk ? <Offer key={lastBulk.sessionId} actor={lastBulk} /> : null;
}
