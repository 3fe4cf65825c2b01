/**
 * The header Change Password flow's 'Verify OTP' modal (spec §2.10), driven by the passwordChange actor.
 * Cancel, Escape and close go to the code step, which asks first when a code is typed (issue 38: the
 * same "Unsaved changes" question as every form, over the modal) and otherwise gives up.
 */
import { useSelector } from '@xstate/react';
import { selectIsOtpModalOpen, selectOtpStepActor } from '../../../machines/forgot-password.machine';
import { selectIsAskingToClose, type OtpStepSnapshot } from '../../../machines/otp-step.machine';
import { useAppActor } from '../../app-actor';
import { LeaveQuestion } from '../shared/LeaveQuestion';
import { Modal } from '../shared/Modal';
import { useShellText } from '../shared/shell-text';
import * as css from './auth.css';
import { OtpFields } from './OtpFields';
import { useOtpPanel } from './otp-panel';

const selectAsking = (snapshot: OtpStepSnapshot | undefined) => (snapshot ? selectIsAskingToClose(snapshot) : false);

export function OtpModal() {
  const change = useAppActor('passwordChange');
  const open = useSelector(change, selectIsOtpModalOpen);
  const otp = useSelector(change, selectOtpStepActor);
  const step = useOtpPanel(otp);
  const asking = useSelector(otp ?? undefined, selectAsking);
  const text = useShellText();

  return (
    <Modal
      open={open}
      title={text.otpTitle}
      negativeLabel={text.cancel}
      positiveLabel={step?.verifying ? text.otpVerifying : text.otpConfirm}
      // The code step decides (it holds the code); while the code is still being sent, the flow is told as before.
      onNegative={() => (otp ? otp.send({ type: 'otp.close' }) : change.send({ type: 'otp.cancel' }))}
      onPositive={() => otp?.send({ type: 'otp.submit' })}
      positiveDisabled={!step?.canSubmit}
      busy={step?.verifying}
    >
      {otp && step
        ? <OtpFields actor={otp} step={step} />
        : <p className={css.status} role="status">{text.otpSending}</p>}
      {/* Nested in the modal (one stack of layers: Escape answers the top one, focus stays within). */}
      {otp && (
        <LeaveQuestion open={open && asking} onStay={() => otp.send({ type: 'otp.stay' })} onLeave={() => otp.send({ type: 'otp.leave' })} />
      )}
    </Modal>
  );
}
