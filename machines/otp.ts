/**
 * OTP rules shared by the sign-in and password machines (spec §5, §2.10): a code is exactly six
 * digits; Resend Code waits for a cooldown.
 */
import { OTP_LENGTH } from '../src/config';

const OTP_PATTERN = new RegExp(`^\\d{${OTP_LENGTH}}$`);

export function isOtpCode(value: string): boolean {
  return OTP_PATTERN.test(value);
}

/** What the 'Verify OTP' panel shows, the same for the sign-in and the password flows. */
export interface OtpStep {
  obscureMobileNumber: string;
  resendInSeconds: number;
  canResend: boolean;
  verifying: boolean;
  resending: boolean;
  error: string | null;
}

/** The masked tail to show: the server already masks the number; keep only its last four visible digits. */
export function phoneTail(obscureMobileNumber: string): string {
  const digits = obscureMobileNumber.replace(/\D/g, '');
  return digits ? `•••• ${digits.slice(-4)}` : obscureMobileNumber;
}
