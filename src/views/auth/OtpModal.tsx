/** The header Change Password flow's 'Verify OTP' modal (spec §2.10), driven by the passwordChange actor. */
import { shallowEqual, useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectIsOtpModalOpen, selectOtpStep, type ForgotPasswordMachine } from '../../../machines/forgot-password.machine';
import { useSystemActor } from '../../app-actor';
import { OTP_LENGTH } from '../../config';
import { MESSAGES } from '../../messages';
import { Modal } from '../shared/Modal';
import * as css from './auth.css';
import { OtpFields } from './OtpFields';

export function OtpModal() {
  const change = useSystemActor<ActorRefFrom<ForgotPasswordMachine>>('passwordChange');
  const open = useSelector(change, selectIsOtpModalOpen);
  const step = useSelector(change, selectOtpStep, shallowEqual);
  const [code, setCode] = useState('');

  function close() {
    setCode('');
    change.send({ type: 'otp.cancel' });
  }

  return (
    <Modal
      open={open}
      title={MESSAGES.otpTitle}
      negativeLabel="Cancel"
      positiveLabel={step?.verifying ? 'Verifying…' : MESSAGES.otpConfirm}
      onNegative={close}
      onPositive={() => change.send({ type: 'otp.submit', otp: code })}
      positiveDisabled={!step || code.length !== OTP_LENGTH}
      busy={step?.verifying}
    >
      {step
        ? <OtpFields step={step} code={code} onCodeChange={setCode} onResend={() => change.send({ type: 'otp.resend' })} />
        : <p className={css.status} role="status">Sending a code to your mobile phone…</p>}
    </Modal>
  );
}
