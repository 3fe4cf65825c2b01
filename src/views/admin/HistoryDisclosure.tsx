/**
 * A History behind a button (Admin › Staff: the second-factor rule's, an account's in its edit dialog).
 * The disclosure machine (machines/history-disclosure.machine.ts) decides when the History is started
 * and read; this renders its button and, while open, the shared History panel (read-only here).
 */
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { STAFF_HISTORY_TEXT } from '../../../common/staff-revision-words';
import {
  selectDisclosedHistory, selectDisclosureAvailable, selectDisclosureOpen, type HistoryDisclosureRef,
} from '../../../machines/history-disclosure.machine';
import { button } from '../../theme/ui.css';
import { HistoryPanel } from '../shared/HistoryPanel';
import * as css from './admin.css';

export function HistoryDisclosure({ disclosure, region }: { disclosure: HistoryDisclosureRef | undefined; region: string }) {
  const id = useId();
  const open = useSelector(disclosure, selectDisclosureOpen);
  const available = useSelector(disclosure, selectDisclosureAvailable);
  const history = useSelector(disclosure, selectDisclosedHistory);
  if (!disclosure || !available) return null;
  return (
    <div className={css.historyDisclosure} role="region" aria-label={region}>
      <button type="button" className={`${button.secondary} ${css.small} ${css.historyToggle}`} aria-expanded={open} aria-controls={id}
        onClick={() => disclosure.send({ type: open ? 'disclosure.close' : 'disclosure.open' })}>
        {open ? STAFF_HISTORY_TEXT.hide : STAFF_HISTORY_TEXT.show}
      </button>
      <div id={id} hidden={!open}>{open && history && <HistoryPanel history={history} />}</div>
    </div>
  );
}
