/**
 * A History behind a button (Admin › Staff: the second-factor rule's, an account's in its edit dialog;
 * the subscriber page: each subscription's and refunded payment's). The disclosure machine
 * (machines/history-disclosure.machine.ts) decides when the History is started and read; this renders
 * its button and, while open, the shared History panel (read-only where the kind cannot be restored).
 *
 * `about` names the object in the button's accessible name ("Show history" + " of the Basic Monthly
 * subscription") where several disclosures share a page; `names` are the linked records' names the
 * page knows (HistoryPanel).
 */
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { HISTORY_PANEL_MESSAGES } from '../../../common/revisions';
import {
  selectDisclosedHistory, selectDisclosureAvailable, selectDisclosureOpen, type HistoryDisclosureRef,
} from '../../../machines/history-disclosure.machine';
import { button } from '../../theme/ui.css';
import * as css from './history-disclosure.css';
import { HistoryPanel } from './HistoryPanel';
import type { LinkedNames } from './revision-text';

export interface HistoryDisclosureProps {
  disclosure: HistoryDisclosureRef | undefined;
  /** The region's accessible name ("History of the second-factor rule"). */
  region: string;
  /** Words naming the object after the button's text, for its accessible name ("of the Basic Monthly subscription"). */
  about?: string;
  names?: LinkedNames;
}

export function HistoryDisclosure({ disclosure, region, about, names }: HistoryDisclosureProps) {
  const id = useId();
  const open = useSelector(disclosure, selectDisclosureOpen);
  const available = useSelector(disclosure, selectDisclosureAvailable);
  const history = useSelector(disclosure, selectDisclosedHistory);
  if (!disclosure || !available) return null;
  const text = open ? HISTORY_PANEL_MESSAGES.hide : HISTORY_PANEL_MESSAGES.show;
  return (
    <div className={css.disclosure} role="region" aria-label={region}>
      <button type="button" className={`${button.secondary} ${css.toggle}`} aria-expanded={open} aria-controls={id}
        {...(about ? { 'aria-label': `${text} ${about}` } : {})}
        onClick={() => disclosure.send({ type: open ? 'disclosure.close' : 'disclosure.open' })}>
        {text}
      </button>
      <div id={id} hidden={!open}>{open && history && <HistoryPanel history={history} {...(names ? { names } : {})} />}</div>
    </div>
  );
}
