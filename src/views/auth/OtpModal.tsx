/** The header Change Password flow's 'Verify OTP' modal (spec §2.10), driven by the passwordChange actor. */
import { useSelector } from '@xstate/react';
import { selectIsOtpModalOpen, selectOtpStepActor } from '../../../machines/forgot-password.machine';
import { useAppActor } from '../../app-actor';
import { Modal } from '../shared/Modal';
import { useShellText } from '../shared/shell-text';
import * as css from './auth.css';
import { OtpFields } from './OtpFields';
import { useOtpPanel } from './otp-panel';

export function OtpModal() {
  const change = useAppActor('passwordChange');
  const open = useSelector(change, selectIsOtpModalOpen);
  const otp = useSelector(change, selectOtpStepActor);
  const step = useOtpPanel(otp);
  const text = useShellText();

  return (
    <Modal
      open={open}
      title={text.otpTitle}
      negativeLabel={text.cancel}
      positiveLabel={step?.verifying ? text.otpVerifying : text.otpConfirm}
      onNegative={() => change.send({ type: 'otp.cancel' })}
      onPositive={() => otp?.send({ type: 'otp.submit' })}
      positiveDisabled={!step?.canSubmit}
      busy={step?.verifying}
    >
      {otp && step
        ? <OtpFields actor={otp} step={step} />
        : <p className={css.status} role="status">{text.otpSending}</p>}
    </Modal>
  );
}
