/** The warning a minute before the inactivity timeout (spec §4.5 and issue 5), with a countdown. */
import { useSelector } from '@xstate/react';
import { selectIsWarning, selectWarningSecondsLeft } from '../../../machines/inactivity.machine';
import { useAppActor } from '../../app-actor';
import { OWN_MESSAGES } from '../../../common/messages';
import { Modal } from '../shared/Modal';
import * as css from './auth.css';

export function InactivityWarningDialog() {
  const inactivity = useAppActor('inactivity');
  const open = useSelector(inactivity, selectIsWarning);
  const secondsLeft = useSelector(inactivity, selectWarningSecondsLeft);
  const stay = () => inactivity.send({ type: 'inactivity.stay' });
  return (
    <Modal open={open} title="Are you still there?" positiveLabel={OWN_MESSAGES.staySignedIn} onPositive={stay} onNegative={stay}>
      <p>{OWN_MESSAGES.inactivityWarning}</p>
      <p className={css.note} aria-live="polite">Signing out in {secondsLeft} s.</p>
    </Modal>
  );
}
