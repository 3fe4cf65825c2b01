/**
 * OTP rules of the code step (spec §5, §2.10; machines/otp-step.machine.ts): a code is exactly six
 * digits; the snackbar outcomes; what the panel shows.
 */
import { OTP_LENGTH, OTP_SNACKBAR_MS } from '../common/constants';
import { SIGN_IN_MESSAGES as MESSAGES } from '../common/messages/sign-in';
import type { NotifyParams } from './notify';

const OTP_PATTERN = new RegExp(`^\\d{${OTP_LENGTH}}$`);

export function isOtpCode(value: string): boolean {
  return OTP_PATTERN.test(value);
}

/** What the 'Verify OTP' panel shows, the same for the sign-in and the password flows. */
export interface OtpStep {
  obscureMobileNumber: string;
  /** The digits typed so far. */
  code: string;
  resendInSeconds: number;
  canResend: boolean;
  /** Six digits typed and nothing under way: Confirm is offered. */
  canSubmit: boolean;
  verifying: boolean;
  resending: boolean;
  error: string | null;
}

/** The masked tail to show: the server already masks the number; keep only its last four visible digits. */
export function phoneTail(obscureMobileNumber: string): string {
  const digits = obscureMobileNumber.replace(/\D/g, '');
  return digits ? `•••• ${digits.slice(-4)}` : obscureMobileNumber;
}

/** Snackbar outcomes of the code step (spec §2.10: hidden after 5 s). */
export const OTP_FAILED: NotifyParams = { message: MESSAGES.otpVerifyFailed, severity: 'error', durationMs: OTP_SNACKBAR_MS };
export const OTP_SENT: NotifyParams = { message: MESSAGES.otpSent, severity: 'success', durationMs: OTP_SNACKBAR_MS };
export const OTP_NOT_SENT: NotifyParams = { message: MESSAGES.otpNotSent, severity: 'error', durationMs: OTP_SNACKBAR_MS };
