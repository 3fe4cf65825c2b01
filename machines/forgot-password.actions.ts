/**
 * The password flows' params: what each action and actor of ./forgot-password.machine.ts reads from
 * the context and the event, and the messages it shows.
 */
import type { DoneActorEvent, ErrorActorEvent } from 'xstate';
import { OTP_SNACKBAR_MS, ROUTES } from '../common/constants';
import { SIGN_IN_MESSAGES, SIGN_IN_OWN_MESSAGES } from '../common/messages/sign-in';
import type {
  GenerateOtpInput, GenerateOtpOutput, NavigateParams, RequestPasswordOtpInput, RequestPasswordOtpOutput, ResetPasswordInput,
  ResetPasswordOutput,
} from './auth.types';
import type { Account, FlowStart, ForgotPasswordContext, ForgotPasswordEvent, Flow, PasswordDraft } from './forgot-password.types';
import { failureMessage, type NotifyParams } from './notify';
import type { OtpStepInput, OtpStepOutput } from './otp-step.machine';

type Args = { context: ForgotPasswordContext; event: ForgotPasswordEvent };

export const EMPTY_DRAFT: PasswordDraft = { newPassword: '', confirmPassword: '' };

export function emptyFlow(): Flow {
  return { mode: 'forgot', username: '', credentials: null, obscureMobileNumber: '', resetToken: null, draft: EMPTY_DRAFT, currentPassword: '', error: null };
}
export function initialContext(): ForgotPasswordContext {
  return { account: null, ...emptyFlow() };
}
export function forgotFlow({ event }: Args): FlowStart {
  return { mode: 'forgot', username: event.type === 'forgot.submit' ? event.username.trim() : '', credentials: null };
}
export function changeFlow({ context }: Args): FlowStart {
  return { mode: 'change', username: context.account?.username ?? '', credentials: context.account?.credentials ?? null };
}
export function accountOf({ event }: Args): { account: Account | null } {
  if (event.type !== 'account.changed' || !event.session) return { account: null };
  const { username, accessToken, apiKey } = event.session;
  return { account: { username, credentials: { accessToken, apiKey } } };
}
export function openedToken({ context, event }: Args) {
  return { token: event.type === 'reset.open' ? event.token : '', mode: (event.type === 'reset.open' && event.mode) || context.mode };
}
export function currentPasswordOf({ event }: Args) {
  return { currentPassword: event.type === 'reset.current' ? event.currentPassword : '' };
}
export function draftOf({ event }: Args): PasswordDraft {
  return event.type === 'reset.edit' ? { newPassword: event.newPassword, confirmPassword: event.confirmPassword } : EMPTY_DRAFT;
}
export function forgotRefusal({ event }: { event: DoneActorEvent<RequestPasswordOtpOutput> }): NotifyParams {
  return { message: event.output.errorMessage || event.output.message || SIGN_IN_OWN_MESSAGES.serverUnavailable, severity: 'error' };
}
export function forgotAccepted({ event }: { event: DoneActorEvent<RequestPasswordOtpOutput> }): NotifyParams {
  return { message: event.output.message || SIGN_IN_OWN_MESSAGES.forgotPasswordAccepted, severity: 'success', durationMs: OTP_SNACKBAR_MS };
}
export function unreachable({ event }: { event: ErrorActorEvent }): NotifyParams {
  return { message: failureMessage(event.error, SIGN_IN_OWN_MESSAGES.serverUnavailable), severity: 'error' };
}
/** The server's reason when it gives one (e.g. the password must differ), else 'Password reset failed!'. */
export function resetRefusal({ event }: { event: DoneActorEvent<ResetPasswordOutput> }): NotifyParams {
  return { message: event.output.message || SIGN_IN_MESSAGES.passwordResetFailed, severity: 'error' };
}
export function codeSentTo({ event }: { event: DoneActorEvent<GenerateOtpOutput> }) {
  return { obscureMobileNumber: event.output.obscureMobileNumber ?? '' };
}
export function resetTokenOf({ context, event }: { context: ForgotPasswordContext; event: DoneActorEvent<OtpStepOutput> }) {
  return { token: event.output.accessToken, mode: context.mode };
}
export function requestInput({ context }: Args): RequestPasswordOtpInput {
  return { username: context.username };
}
export function generateInput({ context }: Args): GenerateOtpInput {
  return { username: context.username, isLogin: false, ...(context.credentials ? { credentials: context.credentials } : {}) };
}
export function otpStepInput({ context }: { context: ForgotPasswordContext }): OtpStepInput {
  return {
    username: context.username, isLogin: false, obscureMobileNumber: context.obscureMobileNumber,
    ...(context.credentials ? { credentials: context.credentials } : {}),
  };
}
export function resetInput({ context }: Args): ResetPasswordInput {
  return { token: context.resetToken ?? '', ...context.draft, ...(context.mode === 'change' ? { currentPassword: context.currentPassword } : {}) };
}
/** Where the new-password form lives: the forgot flow's page, or the header flow's (spec §2.2). */
export function newPasswordPage({ context, event }: { context: ForgotPasswordContext; event: DoneActorEvent<OtpStepOutput> }): NavigateParams {
  const page = context.mode === 'forgot' ? ROUTES.resetPassword : ROUTES.forgotPassword;
  return { to: `${page}?token=${encodeURIComponent(event.output.accessToken)}` };
}

export const RESET_FAILED: NotifyParams = { message: SIGN_IN_MESSAGES.passwordResetFailed, severity: 'error' };
export const RESET_DONE: NotifyParams = { message: SIGN_IN_OWN_MESSAGES.passwordResetSuccess, severity: 'success' };
/** What follows a successful reset in either mode. */
export const AFTER_RESET = [
  'forgetFlow', { type: 'navigate', params: { to: ROUTES.login } }, { type: 'notify', params: RESET_DONE },
] as const;
