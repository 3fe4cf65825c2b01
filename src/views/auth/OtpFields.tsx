/**
 * The body of the 'Verify OTP' panel (spec §2.10), shared by /verify-number and the header modal:
 * instruction, masked phone tail, the six-digit input, Resend Code with its countdown, the rates note
 * and a disabled 'Wrong Number?'. What is typed lives in the code step's machine.
 */
import { useId } from 'react';
import { phoneTail, type OtpStep } from '../../../machines/otp';
import type { OtpStepActorRef } from '../../../machines/otp-step.machine';
import { OTP_LENGTH } from '../../../common/constants';
import { useShellText } from '../shared/shell-text';
import { button, errorText, field, input, label } from '../../theme/ui.css';
import * as css from './auth.css';

export interface OtpFieldsProps {
  actor: OtpStepActorRef;
  step: OtpStep;
}

export function OtpFields({ actor, step }: OtpFieldsProps) {
  const inputId = useId();
  const errorId = useId();
  const tail = phoneTail(step.obscureMobileNumber);
  const text = useShellText();
  return (
    <>
      <p className={css.text}>
        {text.otpInstruction}
        {tail && <> (<span className={css.phone} data-testid="otp-phone">{tail}</span>)</>}
      </p>
      <div className={field}>
        <label htmlFor={inputId} className={label}>{text.otpCodeLabel}</label>
        <input
          id={inputId} name="otp" className={`${input} ${css.otpInput}`} value={step.code}
          inputMode="numeric" pattern="[0-9]*" maxLength={OTP_LENGTH} autoComplete="one-time-code" autoFocus
          aria-invalid={step.error ? true : undefined} aria-describedby={step.error ? errorId : undefined}
          onChange={(e) => actor.send({ type: 'otp.edit', code: e.target.value })}
        />
      </div>
      {step.error && <p id={errorId} className={errorText} role="alert">{step.error}</p>}
      <div className={css.actions}>
        <button type="button" className={button.ghost} onClick={() => actor.send({ type: 'otp.resend' })} disabled={!step.canResend} aria-live="polite">
          {step.resending ? text.otpResendSending : step.canResend ? text.otpResend : text.otpResendIn(step.resendInSeconds)}
        </button>
        <button type="button" className={button.ghost} disabled>{text.otpWrongNumber}</button>
      </div>
      <p className={css.note}>{text.otpRates}</p>
    </>
  );
}
