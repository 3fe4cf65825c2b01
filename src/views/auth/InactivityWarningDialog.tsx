/** The warning a minute before the inactivity timeout (spec §4.5 and issue 5), with a countdown. */
import { useSelector } from '@xstate/react';
import { selectIsWarning, selectWarningSecondsLeft } from '../../../machines/inactivity.machine';
import { useAppActor } from '../../app-actor';
import { Modal } from '../shared/Modal';
import { useShellText } from '../shared/shell-text';
import * as css from './auth.css';

export function InactivityWarningDialog() {
  const inactivity = useAppActor('inactivity');
  const open = useSelector(inactivity, selectIsWarning);
  const secondsLeft = useSelector(inactivity, selectWarningSecondsLeft);
  const text = useShellText();
  const stay = () => inactivity.send({ type: 'inactivity.stay' });
  return (
    <Modal open={open} title={text.inactivityTitle} positiveLabel={text.staySignedIn} onPositive={stay} onNegative={stay}>
      <p>{text.inactivityWarning}</p>
      <p className={css.note} aria-live="polite">{text.signingOutIn(secondsLeft)}</p>
    </Modal>
  );
}
