/**
 * Forgot password (spec §4.2) and the header's Change Password (spec §2.9, §7.3): one machine, run
 * twice in the app system: `passwordReset` for the public flow, `passwordChange` for the signed-in
 * user's header flow.
 *
 * - forgot: username → /verify-number?forgot=true → code (isLogin false) → /reset-password?token=...
 * - change: generate a code for the signed-in user → the 'Verify OTP' modal → /forgot-password?token=...
 * Both end on the same new-password form: reset with the token, clear it, go to / with a success note.
 * The change flow's form also asks for the current password (ASVS 6.2.3); the server checks it.
 */
import type { SnapshotFrom } from 'xstate';
import { initialContext, accountOf, openedToken } from './forgot-password.actions';
import { forgotPasswordSetup } from './forgot-password.setup';
import { code, generating, requesting } from './forgot-password.state.code';
import { idle } from './forgot-password.state.idle';
import { newPassword } from './forgot-password.state.new-password';
import type { OtpStepActorRef } from './otp-step.machine';
import { passwordRuleFailures, type PasswordRule } from '../common/password-rules';

export type { Account, ForgotPasswordContext, ForgotPasswordEvent, PasswordDraft, PasswordFlowMode } from './forgot-password.types';

export const forgotPasswordMachine = forgotPasswordSetup.createMachine({
  id: 'forgotPassword',
  description: 'Proves who the user is with an SMS code, then sets a new password with the single-use reset token.',
  context: initialContext,
  initial: 'idle',
  on: {
    'reset.open': [
      { guard: 'isSameToken' },
      { target: '.newPassword', actions: { type: 'setResetToken', params: openedToken } },
    ],
    'account.changed': { actions: { type: 'setAccount', params: accountOf } },
  },
  states: { idle, requesting, generating, code, newPassword },
});

export type ForgotPasswordMachine = typeof forgotPasswordMachine;
export type ForgotPasswordSnapshot = SnapshotFrom<ForgotPasswordMachine>;

export type PasswordFlowStep = 'idle' | 'requesting' | 'generating' | 'code' | 'newPassword';

export function selectFlowStep(snapshot: ForgotPasswordSnapshot): PasswordFlowStep {
  const steps: PasswordFlowStep[] = ['requesting', 'generating', 'code', 'newPassword'];
  return steps.find((step) => snapshot.matches(step)) ?? 'idle';
}
export const selectMode = (snapshot: ForgotPasswordSnapshot) => snapshot.context.mode;
export const selectError = (snapshot: ForgotPasswordSnapshot) => snapshot.context.error;
export const selectIsRequesting = (snapshot: ForgotPasswordSnapshot) => snapshot.matches('requesting') || snapshot.matches('generating');
/** "Unsaved changes" is asked: a navigation away from the new-password form with typed passwords (issue 38). */
export const selectIsConfirmingLeave = (snapshot: ForgotPasswordSnapshot) => snapshot.matches({ newPassword: 'confirmingLeave' });
/** The form was left (Leave, or no form any more): the router's guard lets its navigation go on. */
export const selectHasLeftForm = (snapshot: ForgotPasswordSnapshot) => !snapshot.matches('newPassword');
export const selectIsResetting = (snapshot: ForgotPasswordSnapshot) => snapshot.matches({ newPassword: 'resetting' });
export const selectResetToken = (snapshot: ForgotPasswordSnapshot) => snapshot.context.resetToken;
export const selectDraft = (snapshot: ForgotPasswordSnapshot) => snapshot.context.draft;
/** The change flow's form asks for the current password too (ASVS 6.2.3); the forgot flow's does not. */
export const selectAsksCurrentPassword = (snapshot: ForgotPasswordSnapshot) => snapshot.context.mode === 'change';
export const selectCurrentPassword = (snapshot: ForgotPasswordSnapshot) => snapshot.context.currentPassword;
/** The rules the typed new password still misses (spec §5), for the live checklist. */
export const selectPasswordFailures = (snapshot: ForgotPasswordSnapshot): PasswordRule[] =>
  passwordRuleFailures(snapshot.context.draft.newPassword);
export const selectPasswordsMatch = (snapshot: ForgotPasswordSnapshot) =>
  snapshot.context.draft.newPassword === snapshot.context.draft.confirmPassword;
/** The header flow's 'Verify OTP' modal is open while its code is being sent or entered. */
export const selectIsOtpModalOpen = (snapshot: ForgotPasswordSnapshot) =>
  snapshot.context.mode === 'change' && (snapshot.matches('generating') || snapshot.matches('code'));

/** The running code step (its panel reads it), or null outside the code step. */
export function selectOtpStepActor(snapshot: ForgotPasswordSnapshot): OtpStepActorRef | null {
  if (!snapshot.matches('code')) return null;
  return snapshot.children.otpStep ?? null;
}
/** Whether the header may offer Change Password (someone is signed in). */
export const selectCanChangePassword = (snapshot: ForgotPasswordSnapshot) => snapshot.context.account !== null;
