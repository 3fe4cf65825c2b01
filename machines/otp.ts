/**
 * OTP rules shared by the sign-in and password machines (spec §5, §2.10): a code is exactly six
 * digits; Resend Code waits for a cooldown.
 */
import { OTP_LENGTH, OTP_SNACKBAR_MS } from '../src/config';
import { MESSAGES } from '../src/messages';
import type { NotifyParams } from './notify';

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

/** Snackbar outcomes of the code step (spec §2.10: hidden after 5 s). */
export const OTP_FAILED: NotifyParams = { message: MESSAGES.otpVerifyFailed, severity: 'error', durationMs: OTP_SNACKBAR_MS };
export const OTP_SENT: NotifyParams = { message: MESSAGES.otpSent, severity: 'success', durationMs: OTP_SNACKBAR_MS };
export const OTP_NOT_SENT: NotifyParams = { message: MESSAGES.otpNotSent, severity: 'error', durationMs: OTP_SNACKBAR_MS };

/**
 * The Resend Code countdown region, the same in the sign-in and password machines. Each machine's setup
 * provides the `hasSecondsLeft` guard and the `tickCooldown` action it names.
 */
export function resendCooldownRegion() {
  return {
    description: 'The visible countdown before Resend Code is allowed again.',
    initial: 'counting' as const,
    states: {
      counting: {
        description: 'Counting down one second at a time.',
        after: {
          1000: [
            { guard: 'hasSecondsLeft' as const, target: 'counting' as const, reenter: true, actions: 'tickCooldown' as const },
            { target: 'ready' as const, actions: 'tickCooldown' as const },
          ],
        },
      },
      ready: {
        description: 'Resend Code is allowed.',
      },
    },
  };
}
