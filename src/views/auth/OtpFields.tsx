/**
 * The body of the 'Verify OTP' panel (spec §2.10), shared by /verify-number and the header modal:
 * instruction, masked phone tail, the six-digit input, Resend Code with its countdown, the rates note
 * and a disabled 'Wrong Number?'.
 */
import { useId } from 'react';
import { phoneTail, type OtpStep } from '../../../machines/otp';
import { OTP_LENGTH } from '../../config';
import { MESSAGES } from '../../messages';
import { button, errorText, field, input, label } from '../../theme/ui.css';
import * as css from './auth.css';

export interface OtpFieldsProps {
  step: OtpStep;
  code: string;
  onCodeChange: (code: string) => void;
  onResend: () => void;
}

export function OtpFields({ step, code, onCodeChange, onResend }: OtpFieldsProps) {
  const inputId = useId();
  const errorId = useId();
  const tail = phoneTail(step.obscureMobileNumber);
  return (
    <>
      <p className={css.text}>
        {MESSAGES.otpInstruction}
        {tail && <> (<span className={css.phone} data-testid="otp-phone">{tail}</span>)</>}
      </p>
      <div className={field}>
        <label htmlFor={inputId} className={label}>Verification code</label>
        <input
          id={inputId} name="otp" className={`${input} ${css.otpInput}`} value={code}
          inputMode="numeric" pattern="[0-9]*" maxLength={OTP_LENGTH} autoComplete="one-time-code" autoFocus
          aria-invalid={step.error ? true : undefined} aria-describedby={step.error ? errorId : undefined}
          onChange={(e) => onCodeChange(e.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH))}
        />
      </div>
      {step.error && <p id={errorId} className={errorText} role="alert">{step.error}</p>}
      <div className={css.actions}>
        <button type="button" className={button.ghost} onClick={onResend} disabled={!step.canResend} aria-live="polite">
          {step.resending ? 'Sending…' : step.canResend ? MESSAGES.otpResend : `Resend in ${step.resendInSeconds}s`}
        </button>
        <button type="button" className={button.ghost} disabled>{MESSAGES.otpWrongNumber}</button>
      </div>
      <p className={css.note}>{MESSAGES.otpRates}</p>
    </>
  );
}
