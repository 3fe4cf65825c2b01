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
import { assign, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { OTP_SNACKBAR_MS, ROUTES } from '../common/constants';
import { ACCOUNT_MESSAGES, MESSAGES, OWN_MESSAGES } from '../common/messages';
import type {
  Credentials, GenerateOtpInput, GenerateOtpOutput, NavigateParams, RequestPasswordOtpInput, RequestPasswordOtpOutput,
  ResetPasswordInput, ResetPasswordOutput, Session,
} from './auth.types';
import { failureMessage, type NotifyParams } from './notify';
import { OTP_NOT_SENT, OTP_SENT } from './otp';
import { otpStepMachine, type OtpStepActorRef, type OtpStepInput, type OtpStepOutput } from './otp-step.machine';
import { notify, signalSignedOut } from './system-actions';
import { isPasswordComplex, passwordRuleFailures, type PasswordRule } from '../common/password-rules';
import { providedLater } from './unprovided';

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
  | { type: 'reset.submit' };

type Args = { context: ForgotPasswordContext; event: ForgotPasswordEvent };

const EMPTY_DRAFT: PasswordDraft = { newPassword: '', confirmPassword: '' };

type Flow = Omit<ForgotPasswordContext, 'account'>;

function emptyFlow(): Flow {
  return { mode: 'forgot', username: '', credentials: null, obscureMobileNumber: '', resetToken: null, draft: EMPTY_DRAFT, currentPassword: '', error: null };
}
function initialContext(): ForgotPasswordContext {
  return { account: null, ...emptyFlow() };
}
function forgotFlow({ event }: Args): Pick<Flow, 'mode' | 'username' | 'credentials'> {
  return { mode: 'forgot', username: event.type === 'forgot.submit' ? event.username.trim() : '', credentials: null };
}
function changeFlow({ context }: Args): Pick<Flow, 'mode' | 'username' | 'credentials'> {
  return { mode: 'change', username: context.account?.username ?? '', credentials: context.account?.credentials ?? null };
}
function accountOf({ event }: Args): { account: Account | null } {
  if (event.type !== 'account.changed' || !event.session) return { account: null };
  const { username, accessToken, apiKey } = event.session;
  return { account: { username, credentials: { accessToken, apiKey } } };
}
function openedToken({ context, event }: Args) {
  return { token: event.type === 'reset.open' ? event.token : '', mode: (event.type === 'reset.open' && event.mode) || context.mode };
}
function currentPasswordOf({ event }: Args) {
  return { currentPassword: event.type === 'reset.current' ? event.currentPassword : '' };
}
function draftOf({ event }: Args): PasswordDraft {
  return event.type === 'reset.edit' ? { newPassword: event.newPassword, confirmPassword: event.confirmPassword } : EMPTY_DRAFT;
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
function resetTokenOf({ context, event }: { context: ForgotPasswordContext; event: DoneActorEvent<OtpStepOutput> }) {
  return { token: event.output.accessToken, mode: context.mode };
}
function requestInput({ context }: Args): RequestPasswordOtpInput {
  return { username: context.username };
}
function generateInput({ context }: Args): GenerateOtpInput {
  return { username: context.username, isLogin: false, ...(context.credentials ? { credentials: context.credentials } : {}) };
}
function otpStepInput({ context }: { context: ForgotPasswordContext }): OtpStepInput {
  return {
    username: context.username, isLogin: false, obscureMobileNumber: context.obscureMobileNumber,
    ...(context.credentials ? { credentials: context.credentials } : {}),
  };
}
function resetInput({ context }: Args): ResetPasswordInput {
  return { token: context.resetToken ?? '', ...context.draft, ...(context.mode === 'change' ? { currentPassword: context.currentPassword } : {}) };
}
/** Where the new-password form lives: the forgot flow's page, or the header flow's (spec §2.2). */
function newPasswordPage({ context, event }: { context: ForgotPasswordContext; event: DoneActorEvent<OtpStepOutput> }): NavigateParams {
  const page = context.mode === 'forgot' ? ROUTES.resetPassword : ROUTES.forgotPassword;
  return { to: `${page}?token=${encodeURIComponent(event.output.accessToken)}` };
}

const RESET_FAILED: NotifyParams = { message: MESSAGES.passwordResetFailed, severity: 'error' };
const RESET_DONE: NotifyParams = { message: OWN_MESSAGES.passwordResetSuccess, severity: 'success' };
/** What follows a successful reset in either mode. */
const AFTER_RESET = [
  'forgetFlow', { type: 'navigate', params: { to: ROUTES.login } }, { type: 'notify', params: RESET_DONE },
] as const;

export const forgotPasswordMachine = setup({
  types: {
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent,
  },
  actors: {
    requestPasswordOtp: providedLater<RequestPasswordOtpOutput, RequestPasswordOtpInput>('requestPasswordOtp'),
    generateOtp: providedLater<GenerateOtpOutput, GenerateOtpInput>('generateOtp'),
    /** The SMS code step; src provides its verifyOtp and generateOtp actors. */
    otpStep: otpStepMachine,
    resetPassword: providedLater<ResetPasswordOutput, ResetPasswordInput>('resetPassword'),
  },
  actions: {
    // Effects: src/adapters provides these; the defaults do nothing.
    navigate: (_, _params: NavigateParams) => {},
    /** Forget the signed-in session in the browser (cookies, storage, other tabs): the reset ended it at the server. */
    clearSession: (_, _params: undefined) => {},
    signalSignedOut,
    notify,
    // Context.
    setAccount: assign((_, params: { account: Account | null }) => ({ account: params.account })),
    startFlow: assign((_, params: Pick<Flow, 'mode' | 'username' | 'credentials'>) => ({ ...emptyFlow(), ...params })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    setObscureMobileNumber: assign((_, params: { obscureMobileNumber: string }) => ({ obscureMobileNumber: params.obscureMobileNumber })),
    setResetToken: assign((_, params: { token: string; mode: PasswordFlowMode }) => ({
      resetToken: params.token, mode: params.mode, draft: EMPTY_DRAFT, currentPassword: '', error: null,
    })),
    setDraft: assign((_, params: PasswordDraft) => ({ draft: params })),
    setCurrentPassword: assign((_, params: { currentPassword: string }) => ({ currentPassword: params.currentPassword })),
    /** Forgets the flow, the reset token included (spec §4.2 "clear the token"); the account stays. */
    forgetFlow: assign(() => emptyFlow()),
  },
  guards: {
    isChangeMode: ({ context }) => context.mode === 'change',
    isSignedIn: ({ context }) => context.account !== null,
    isUsernameMissing: ({ event }) => event.type === 'forgot.submit' && event.username.trim() === '',
    isFailure: (_, params: { success: boolean }) => !params.success,
    /** The address carries the token this form already holds (a reload, or the machine's own navigation). */
    isSameToken: ({ context, event }) => event.type === 'reset.open' && event.token === context.resetToken,
    arePasswordsDifferent: ({ context }) => context.draft.newPassword !== context.draft.confirmPassword,
    isPasswordWeak: ({ context }) => !isPasswordComplex(context.draft.newPassword),
    isCurrentPasswordMissing: ({ context }) => context.mode === 'change' && context.currentPassword === '',
  },
}).createMachine({
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
  states: {
    idle: {
      description: 'No flow under way: the forgot-password form, or the header menu, starts one.',
      on: {
        'forgot.submit': [
          { guard: 'isUsernameMissing', actions: { type: 'setError', params: { message: OWN_MESSAGES.usernameRequired } } },
          { target: 'requesting', actions: { type: 'startFlow', params: forgotFlow } },
        ],
        'change.start': { guard: 'isSignedIn', target: 'generating', actions: { type: 'startFlow', params: changeFlow } },
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
      description: "The 'Verify OTP' step (the otpStep child, isLogin false): the /verify-number?forgot=true page, or the header flow's modal.",
      on: {
        'otp.cancel': { target: 'idle', actions: 'forgetFlow' },
      },
      invoke: {
        id: 'otpStep',
        src: 'otpStep',
        input: otpStepInput,
        onDone: {
          target: 'newPassword',
          actions: [{ type: 'setResetToken', params: resetTokenOf }, { type: 'navigate', params: newPasswordPage }],
        },
      },
    },
    newPassword: {
      description: 'The new-password form, holding the reset token; the rule checklist follows the draft.',
      initial: 'editing',
      on: {
        'reset.edit': { actions: { type: 'setDraft', params: draftOf } },
        'reset.current': { actions: { type: 'setCurrentPassword', params: currentPasswordOf } },
      },
      states: {
        editing: {
          description: 'Typing the new password and its confirmation.',
          on: {
            'reset.submit': [
              { guard: 'arePasswordsDifferent', actions: { type: 'setError', params: { message: MESSAGES.passwordMismatch } } },
              { guard: 'isPasswordWeak', actions: { type: 'setError', params: { message: MESSAGES.passwordComplexity } } },
              { guard: 'isCurrentPasswordMissing', actions: { type: 'setError', params: { message: ACCOUNT_MESSAGES.currentPasswordRequired } } },
              { target: 'resetting', actions: 'clearError' },
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
  return (snapshot.children.otpStep as OtpStepActorRef | undefined) ?? null;
}
/** Whether the header may offer Change Password (someone is signed in). */
export const selectCanChangePassword = (snapshot: ForgotPasswordSnapshot) => snapshot.context.account !== null;
