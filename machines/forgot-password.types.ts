/** The words of the password flows' machine (./forgot-password.machine.ts): context, events, the draft. */
import type { Credentials, Session } from './auth.types';

export type PasswordFlowMode = 'forgot' | 'change';

export interface PasswordDraft {
  newPassword: string;
  confirmPassword: string;
}

/** The signed-in user, as the app relays it from the `auth` actor (the change flow's starting point). */
export interface Account {
  username: string;
  credentials: Credentials;
}

export interface ForgotPasswordContext {
  /** Who is signed in, kept across flows; null when nobody is. */
  account: Account | null;
  mode: PasswordFlowMode;
  username: string;
  /** The signed-in user's token and key (change mode only). */
  credentials: Credentials | null;
  obscureMobileNumber: string;
  resetToken: string | null;
  draft: PasswordDraft;
  /** Change flow only: the password the signed-in user has now (ASVS 6.2.3). */
  currentPassword: string;
  error: string | null;
}

export type ForgotPasswordEvent =
  | { type: 'forgot.submit'; username: string }
  /** The header menu's Change Password, for whoever is signed in. */
  | { type: 'change.start' }
  /** Relayed by the app from the `auth` actor: who is signed in now (null: nobody). */
  | { type: 'account.changed'; session: Session | null }
  | { type: 'otp.cancel' }
  /** The page of the new-password form was opened with this reset token in its address. */
  | { type: 'reset.open'; token: string; mode?: PasswordFlowMode }
  | { type: 'reset.edit'; newPassword: string; confirmPassword: string }
  /** Change flow: the current password typed into the form. */
  | { type: 'reset.current'; currentPassword: string }
  | { type: 'reset.submit' }
  /** A navigation the form did not start (a link, Back; issue 38): asks first when something was typed. */
  | { type: 'reset.navigate' }
  /** The answers to "Unsaved changes". */
  | { type: 'reset.stay' }
  | { type: 'reset.leave' };

/** Everything of one flow (the account stays across flows). */
export type Flow = Omit<ForgotPasswordContext, 'account'>;

/** The start of a flow: which mode, for whom. */
export type FlowStart = Pick<Flow, 'mode' | 'username' | 'credentials'>;
