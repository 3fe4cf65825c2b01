/**
 * Forgot password (spec §4.2) and the header's Change Password (spec §2.9, §7.3): one machine, run
 * twice in the app system: `passwordReset` for the public flow, `passwordChange` for the signed-in
 * user's header flow.
 *
 * - forgot: username → /verify-number?forgot=true → code (isLogin false) → /reset-password?token=...
 * - change: generate a code for the signed-in user → the 'Verify OTP' modal → /forgot-password?token=...
 * Both end on the same new-password form: reset with the token, clear it, go to / with a success note.
 */
import { assign, enqueueActions, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { OTP_RESEND_COOLDOWN_S, OTP_SNACKBAR_MS, ROUTES } from '../src/config';
import { MESSAGES, OWN_MESSAGES } from '../src/messages';
import type {
  Credentials, GenerateOtpInput, GenerateOtpOutput, NavigateParams, RequestPasswordOtpInput, RequestPasswordOtpOutput,
  ResetPasswordInput, ResetPasswordOutput, VerifyOtpInput, VerifyOtpOutput,
} from './auth.types';
import { failureMessage, showNotification, type NotifyParams } from './notify';
import { isOtpCode, type OtpStep, OTP_FAILED, OTP_NOT_SENT, OTP_SENT, resendCooldownRegion } from './otp';
import { isPasswordComplex, passwordRuleFailures, type PasswordRule } from './password-rules';
import { providedLater } from './unprovided';

export type PasswordFlowMode = 'forgot' | 'change';

export interface PasswordDraft {
  newPassword: string;
  confirmPassword: string;
}

export interface ForgotPasswordContext {
  mode: PasswordFlowMode;
  username: string;
  /** The signed-in user's token and key (change mode only). */
  credentials: Credentials | null;
  obscureMobileNumber: string;
  resendInSeconds: number;
  resetToken: string | null;
  draft: PasswordDraft;
  error: string | null;
}

export type ForgotPasswordEvent =
  | { type: 'forgot.submit'; username: string }
  | { type: 'change.start'; username: string; accessToken: string; apiKey: string }
  | { type: 'otp.submit'; otp: string }
  | { type: 'otp.resend' }
  | { type: 'otp.cancel' }
  | { type: 'reset.open'; token: string }
  | { type: 'reset.edit'; newPassword: string; confirmPassword: string }
  | { type: 'reset.submit'; newPassword: string; confirmPassword: string };

type Args = { context: ForgotPasswordContext; event: ForgotPasswordEvent };

const EMPTY_DRAFT: PasswordDraft = { newPassword: '', confirmPassword: '' };

function initialContext(): ForgotPasswordContext {
  return {
    mode: 'forgot', username: '', credentials: null, obscureMobileNumber: '', resendInSeconds: 0,
    resetToken: null, draft: EMPTY_DRAFT, error: null,
  };
}
function forgotFlow({ event }: Args): Pick<ForgotPasswordContext, 'mode' | 'username' | 'credentials'> {
  return { mode: 'forgot', username: event.type === 'forgot.submit' ? event.username.trim() : '', credentials: null };
}
function changeFlow({ event }: Args): Pick<ForgotPasswordContext, 'mode' | 'username' | 'credentials'> {
  if (event.type !== 'change.start') throw new Error(`change flow started by ${event.type}`);
  return { mode: 'change', username: event.username, credentials: { accessToken: event.accessToken, apiKey: event.apiKey } };
}
function openedToken({ event }: Args) {
  return { token: event.type === 'reset.open' ? event.token : '' };
}
function draftOf({ event }: Args): PasswordDraft {
  return event.type === 'reset.edit' || event.type === 'reset.submit'
    ? { newPassword: event.newPassword, confirmPassword: event.confirmPassword }
    : EMPTY_DRAFT;
}
function doneOutput<T>({ event }: { event: DoneActorEvent<T> }): T {
  return event.output;
}
function forgotRefusal({ event }: { event: DoneActorEvent<RequestPasswordOtpOutput> }): NotifyParams {
  return { message: event.output.errorMessage || event.output.message || OWN_MESSAGES.serverUnavailable, severity: 'error' };
}
function forgotAccepted({ event }: { event: DoneActorEvent<RequestPasswordOtpOutput> }): NotifyParams {
  return { message: event.output.message || OWN_MESSAGES.forgotPasswordAccepted, severity: 'success', durationMs: OTP_SNACKBAR_MS };
}
function unreachable({ event }: { event: ErrorActorEvent }): NotifyParams {
  return { message: failureMessage(event.error, OWN_MESSAGES.serverUnavailable), severity: 'error' };
}
/** The server's reason when it gives one (e.g. the password must differ), else 'Password reset failed!'. */
function resetRefusal({ event }: { event: DoneActorEvent<ResetPasswordOutput> }): NotifyParams {
  return { message: event.output.message || MESSAGES.passwordResetFailed, severity: 'error' };
}
function codeSentTo({ event }: { event: DoneActorEvent<GenerateOtpOutput> }) {
  return { obscureMobileNumber: event.output.obscureMobileNumber ?? '' };
}
function resetTokenOf({ event }: { event: DoneActorEvent<VerifyOtpOutput> }) {
  return { token: event.output.accessToken };
}
function requestInput({ context }: Args): RequestPasswordOtpInput {
  return { username: context.username };
}
function generateInput({ context }: Args): GenerateOtpInput {
  return { username: context.username, isLogin: false, ...(context.credentials ? { credentials: context.credentials } : {}) };
}
function verifyInput({ context, event }: Args): VerifyOtpInput {
  if (event.type !== 'otp.submit') throw new Error(`OTP verification started by ${event.type}`);
  return { username: context.username, otp: event.otp, isLogin: false, ...(context.credentials ? { credentials: context.credentials } : {}) };
}
function resetInput({ context }: Args): ResetPasswordInput {
  return { token: context.resetToken ?? '', ...context.draft };
}
/** Where the new-password form lives: the forgot flow's page, or the header flow's (spec §2.2). */
function newPasswordPage({ context, event }: { context: ForgotPasswordContext; event: DoneActorEvent<VerifyOtpOutput> }): NavigateParams {
  const page = context.mode === 'forgot' ? ROUTES.resetPassword : ROUTES.forgotPassword;
  return { to: `${page}?token=${encodeURIComponent(event.output.accessToken)}` };
}

const RESET_FAILED: NotifyParams = { message: MESSAGES.passwordResetFailed, severity: 'error' };
const RESET_DONE: NotifyParams = { message: OWN_MESSAGES.passwordResetSuccess, severity: 'success' };
/** What follows a successful reset in either mode. */
const AFTER_RESET = [
  'clearResetToken', 'forgetFlow', { type: 'navigate', params: { to: ROUTES.login } }, { type: 'notify', params: RESET_DONE },
] as const;

export const forgotPasswordMachine = setup({
  types: {
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent,
  },
  actors: {
    requestPasswordOtp: providedLater<RequestPasswordOtpOutput, RequestPasswordOtpInput>('requestPasswordOtp'),
    generateOtp: providedLater<GenerateOtpOutput, GenerateOtpInput>('generateOtp'),
    verifyOtp: providedLater<VerifyOtpOutput, VerifyOtpInput>('verifyOtp'),
    resetPassword: providedLater<ResetPasswordOutput, ResetPasswordInput>('resetPassword'),
  },
  actions: {
    // Effects: src/adapters provides these; the defaults do nothing.
    navigate: (_, _params: NavigateParams) => {},
    /** Forget the reset token wherever src keeps it (spec §4.2 "clear the token"). */
    clearResetToken: (_, _params: undefined) => {},
    /** Forget the signed-in session in the browser (cookies, storage, other tabs): the reset ended it at the server. */
    clearSession: (_, _params: undefined) => {},
    /** Tells the `auth` system actor that nobody is signed in any more. */
    signalSignedOut: enqueueActions(({ enqueue, system }) => {
      const auth = system.get('auth');
      if (auth) enqueue.sendTo(auth, { type: 'auth.signedOut' });
    }),
    notify: enqueueActions(({ enqueue, system }, params: NotifyParams) => {
      const notifier = system.get('notifier');
      if (notifier) enqueue.sendTo(notifier, showNotification(params));
    }),
    // Context.
    startFlow: assign((_, params: Pick<ForgotPasswordContext, 'mode' | 'username' | 'credentials'>) => ({ ...initialContext(), ...params })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    setObscureMobileNumber: assign((_, params: { obscureMobileNumber: string }) => ({ obscureMobileNumber: params.obscureMobileNumber })),
    restartCooldown: assign({ resendInSeconds: OTP_RESEND_COOLDOWN_S }),
    tickCooldown: assign(({ context }) => ({ resendInSeconds: Math.max(0, context.resendInSeconds - 1) })),
    setResetToken: assign((_, params: { token: string }) => ({ resetToken: params.token, draft: EMPTY_DRAFT, error: null })),
    setDraft: assign((_, params: PasswordDraft) => ({ draft: params })),
    forgetFlow: assign(() => initialContext()),
  },
  guards: {
    isChangeMode: ({ context }) => context.mode === 'change',
    isUsernameMissing: ({ event }) => event.type === 'forgot.submit' && event.username.trim() === '',
    isOtpCode: ({ event }) => event.type === 'otp.submit' && isOtpCode(event.otp),
    isCooldownOver: ({ context }) => context.resendInSeconds === 0,
    hasSecondsLeft: ({ context }) => context.resendInSeconds > 1,
    isFailure: (_, params: { success: boolean }) => !params.success,
    arePasswordsDifferent: ({ event }) => event.type === 'reset.submit' && event.newPassword !== event.confirmPassword,
    isPasswordWeak: ({ event }) => event.type === 'reset.submit' && !isPasswordComplex(event.newPassword),
  },
}).createMachine({
  id: 'forgotPassword',
  description: 'Proves who the user is with an SMS code, then sets a new password with the single-use reset token.',
  context: initialContext,
  initial: 'idle',
  on: {
    'reset.open': { target: '.newPassword', actions: { type: 'setResetToken', params: openedToken } },
  },
  states: {
    idle: {
      description: 'No flow under way: the forgot-password form, or the header menu, starts one.',
      on: {
        'forgot.submit': [
          { guard: 'isUsernameMissing', actions: { type: 'setError', params: { message: OWN_MESSAGES.usernameRequired } } },
          { target: 'requesting', actions: { type: 'startFlow', params: forgotFlow } },
        ],
        'change.start': { target: 'generating', actions: { type: 'startFlow', params: changeFlow } },
      },
    },
    requesting: {
      description: 'Forgot flow: the username is with the server, which texts a code to a known account.',
      invoke: {
        id: 'requestPasswordOtp',
        src: 'requestPasswordOtp',
        input: requestInput,
        onDone: [
          {
            guard: { type: 'isFailure', params: doneOutput },
            target: 'idle',
            actions: [{ type: 'setError', params: forgotRefusal }, { type: 'notify', params: forgotRefusal }],
          },
          {
            target: 'code',
            actions: [
              { type: 'navigate', params: { to: `${ROUTES.verifyNumber}?forgot=true` } },
              { type: 'notify', params: forgotAccepted },
            ],
          },
        ],
        onError: { target: 'idle', actions: [{ type: 'setError', params: unreachable }, { type: 'notify', params: unreachable }] },
      },
    },
    generating: {
      description: 'Change flow: a code is being sent to the signed-in user (isLogin false, with their token and key).',
      invoke: {
        id: 'generateOtp',
        src: 'generateOtp',
        input: generateInput,
        onDone: [
          { guard: { type: 'isFailure', params: doneOutput }, target: 'idle', actions: { type: 'notify', params: OTP_NOT_SENT } },
          {
            target: 'code',
            actions: [{ type: 'setObscureMobileNumber', params: codeSentTo }, { type: 'notify', params: OTP_SENT }],
          },
        ],
        onError: { target: 'idle', actions: { type: 'notify', params: OTP_NOT_SENT } },
      },
    },
    code: {
      description: "The 'Verify OTP' step: the /verify-number?forgot=true page, or the header flow's modal.",
      type: 'parallel',
      entry: 'restartCooldown',
      on: {
        'otp.cancel': { target: 'idle', actions: 'forgetFlow' },
      },
      states: {
        form: {
          description: 'Entering, verifying and resending the code.',
          initial: 'idle',
          states: {
            idle: {
              description: 'Waiting for the six digits or a resend.',
              on: {
                'otp.submit': [
                  { guard: 'isOtpCode', target: 'verifying', actions: 'clearError' },
                  { actions: { type: 'setError', params: { message: OWN_MESSAGES.otpFormat } } },
                ],
                'otp.resend': { guard: 'isCooldownOver', target: 'resending', actions: 'clearError' },
              },
            },
            verifying: {
              description: 'The code is with the server (isLogin false); success answers the reset token.',
              invoke: {
                id: 'verifyOtp',
                src: 'verifyOtp',
                input: verifyInput,
                onDone: [
                  {
                    guard: { type: 'isFailure', params: doneOutput },
                    target: 'idle',
                    actions: [{ type: 'setError', params: OTP_FAILED }, { type: 'notify', params: OTP_FAILED }],
                  },
                  {
                    target: '#forgotPassword.newPassword',
                    actions: [{ type: 'setResetToken', params: resetTokenOf }, { type: 'navigate', params: newPasswordPage }],
                  },
                ],
                onError: { target: 'idle', actions: [{ type: 'setError', params: OTP_FAILED }, { type: 'notify', params: OTP_FAILED }] },
              },
            },
            resending: {
              description: 'A new code is being requested.',
              invoke: {
                id: 'resendOtp',
                src: 'generateOtp',
                input: generateInput,
                onDone: [
                  { guard: { type: 'isFailure', params: doneOutput }, target: 'idle', actions: { type: 'notify', params: OTP_NOT_SENT } },
                  // Re-entering the code step restarts the cooldown and its countdown.
                  { target: '#forgotPassword.code', reenter: true, actions: { type: 'notify', params: OTP_SENT } },
                ],
                onError: { target: 'idle', actions: { type: 'notify', params: OTP_NOT_SENT } },
              },
            },
          },
        },
        cooldown: resendCooldownRegion(),
      },
    },
    newPassword: {
      description: 'The new-password form, holding the reset token; the rule checklist follows the draft.',
      initial: 'editing',
      on: {
        'reset.edit': { actions: { type: 'setDraft', params: draftOf } },
      },
      states: {
        editing: {
          description: 'Typing the new password and its confirmation.',
          on: {
            'reset.submit': [
              { guard: 'arePasswordsDifferent', actions: [{ type: 'setDraft', params: draftOf }, { type: 'setError', params: { message: MESSAGES.passwordMismatch } }] },
              { guard: 'isPasswordWeak', actions: [{ type: 'setDraft', params: draftOf }, { type: 'setError', params: { message: MESSAGES.passwordComplexity } }] },
              { target: 'resetting', actions: [{ type: 'setDraft', params: draftOf }, 'clearError'] },
            ],
          },
        },
        resetting: {
          description: 'The new password is with the server, the reset token in Authorization.',
          invoke: {
            id: 'resetPassword',
            src: 'resetPassword',
            input: resetInput,
            onDone: [
              {
                guard: { type: 'isFailure', params: doneOutput },
                target: 'editing',
                actions: [{ type: 'setError', params: resetRefusal }, { type: 'notify', params: resetRefusal }],
              },
              {
                // Change flow: the server ended every session of the user, this one too, so sign out here as well.
                guard: 'isChangeMode',
                target: '#forgotPassword.idle',
                actions: ['clearSession', 'signalSignedOut', ...AFTER_RESET],
              },
              { target: '#forgotPassword.idle', actions: [...AFTER_RESET] },
            ],
            onError: { target: 'editing', actions: [{ type: 'setError', params: RESET_FAILED }, { type: 'notify', params: RESET_FAILED }] },
          },
        },
      },
    },
  },
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
export const selectIsResetting = (snapshot: ForgotPasswordSnapshot) => snapshot.matches({ newPassword: 'resetting' });
export const selectResetToken = (snapshot: ForgotPasswordSnapshot) => snapshot.context.resetToken;
export const selectDraft = (snapshot: ForgotPasswordSnapshot) => snapshot.context.draft;
/** The rules the typed new password still misses (spec §5), for the live checklist. */
export const selectPasswordFailures = (snapshot: ForgotPasswordSnapshot): PasswordRule[] =>
  passwordRuleFailures(snapshot.context.draft.newPassword);
export const selectPasswordsMatch = (snapshot: ForgotPasswordSnapshot) =>
  snapshot.context.draft.newPassword === snapshot.context.draft.confirmPassword;
/** The header flow's 'Verify OTP' modal is open while its code is being sent or entered. */
export const selectIsOtpModalOpen = (snapshot: ForgotPasswordSnapshot) =>
  snapshot.context.mode === 'change' && (snapshot.matches('generating') || snapshot.matches('code'));

export function selectOtpStep(snapshot: ForgotPasswordSnapshot): OtpStep | null {
  if (!snapshot.matches('code')) return null;
  return {
    obscureMobileNumber: snapshot.context.obscureMobileNumber,
    resendInSeconds: snapshot.context.resendInSeconds,
    canResend: snapshot.matches({ code: { form: 'idle', cooldown: 'ready' } }),
    verifying: snapshot.matches({ code: { form: 'verifying' } }),
    resending: snapshot.matches({ code: { form: 'resending' } }),
    error: snapshot.context.error,
  };
}
