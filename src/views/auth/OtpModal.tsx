/** The header Change Password flow's 'Verify OTP' modal (spec §2.10), driven by the passwordChange actor. */
import { useSelector } from '@xstate/react';
import { selectIsOtpModalOpen, selectOtpStepActor } from '../../../machines/forgot-password.machine';
import { useAppActor } from '../../app-actor';
import { MESSAGES } from '../../../common/messages';
import { Modal } from '../shared/Modal';
import * as css from './auth.css';
import { OtpFields } from './OtpFields';
import { useOtpPanel } from './otp-panel';

export function OtpModal() {
  const change = useAppActor('passwordChange');
  const open = useSelector(change, selectIsOtpModalOpen);
  const otp = useSelector(change, selectOtpStepActor);
  const step = useOtpPanel(otp);

  return (
    <Modal
      open={open}
      title={MESSAGES.otpTitle}
      negativeLabel="Cancel"
      positiveLabel={step?.verifying ? 'Verifying…' : MESSAGES.otpConfirm}
      onNegative={() => change.send({ type: 'otp.cancel' })}
      onPositive={() => otp?.send({ type: 'otp.submit' })}
      positiveDisabled={!step?.canSubmit}
      busy={step?.verifying}
    >
      {otp && step
        ? <OtpFields actor={otp} step={step} />
        : <p className={css.status} role="status">Sending a code to your mobile phone…</p>}
    </Modal>
  );
}
