/** The types of the account's "Two-factor authentication" machine (totp-enrolment.machine.ts). */
import type { ActorRef, Snapshot } from 'xstate';
import type { TotpStatusResponse } from '../common/totp';

export type TotpStatus = Pick<TotpStatusResponse, 'enabled' | 'pending' | 'recoveryCodesLeft' | 'required'>;

/** What the sign-in machine hears from this page: the required authenticator app is set up. */
export interface EnrolledEvent {
  type: 'authenticator.enrolled';
}
/** The sign-in machine, as far as this page needs it. */
export type EnrolmentReceiver = ActorRef<Snapshot<unknown>, EnrolledEvent>;

/** Without a receiver (a machine test), `reportEnrolled` tells nobody. */
export type TotpEnrolmentInput = { signIn?: EnrolmentReceiver } | undefined;

export interface TotpEnrolmentContext {
  signIn: EnrolmentReceiver | null;
  status: TotpStatus | null;
  secret: string;
  otpauthUri: string;
  /** What is typed in the code box (an authenticator code, or a recovery code when disabling). */
  code: string;
  /** The current password (disabling only). */
  password: string;
  /** Shown once, right after confirming or regenerating. */
  recoveryCodes: string[];
  copied: boolean;
  error: string | null;
  notice: string | null;
}

export type TotpEnrolmentEvent =
  | { type: 'totp.retry' }
  | { type: 'totp.start' }
  | { type: 'totp.edit'; code: string }
  | { type: 'totp.editPassword'; password: string }
  | { type: 'totp.submit' }
  | { type: 'totp.cancel' }
  | { type: 'totp.copy' }
  | { type: 'totp.done' }
  | { type: 'totp.disable' }
  | { type: 'totp.regenerate' };

export interface TotpCodeInput { code: string }
export interface TotpDisableInput { password: string; code: string }
