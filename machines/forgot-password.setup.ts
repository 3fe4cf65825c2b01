/** The setup of the password flows' machine (./forgot-password.machine.ts): its types, actors, actions and guards. */
import { and, assign, setup } from 'xstate';
import type {
  GenerateOtpInput, GenerateOtpOutput, NavigateParams, RequestPasswordOtpInput, RequestPasswordOtpOutput, ResetPasswordInput,
  ResetPasswordOutput,
} from './auth.types';
import { isFailure } from './actor-results';
import { EMPTY_DRAFT, emptyFlow } from './forgot-password.actions';
import type { Account, FlowStart, ForgotPasswordContext, ForgotPasswordEvent, PasswordDraft, PasswordFlowMode } from './forgot-password.types';
import { machineTypes } from './machine-types';
import { otpStepMachine } from './otp-step.machine';
import { notify, signalSignedOut } from './system-actions';
import { isPasswordComplex } from '../common/password-rules';
import { providedLater } from './unprovided';
import { passwordTyped } from './password-leaving';

export const forgotPasswordSetup = setup({
  types: machineTypes<{
    context: ForgotPasswordContext; events: ForgotPasswordEvent;
    children: { requestPasswordOtp: 'requestPasswordOtp'; generateOtp: 'generateOtp'; otpStep: 'otpStep'; resetPassword: 'resetPassword' };
  }>(),
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
    startFlow: assign((_, params: FlowStart) => ({ ...emptyFlow(), ...params })),
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
    isFailure,
    /** The address carries the token this form already holds (a reload, or the machine's own navigation). */
    isSameToken: ({ context, event }) => event.type === 'reset.open' && event.token === context.resetToken,
    arePasswordsDifferent: ({ context }) => context.draft.newPassword !== context.draft.confirmPassword,
    isPasswordWeak: ({ context }) => !isPasswordComplex(context.draft.newPassword),
    isCurrentPasswordEmpty: ({ context }) => context.currentPassword === '',
    /** Something was typed into the new-password form (issue 38: leaving asks first; every field is a secret, so nothing is kept). */
    isTyped: ({ context }) => passwordTyped(context),
    /** The change flow's form asks for the current password too (ASVS 6.2.3). */
    isCurrentPasswordMissing: and(['isChangeMode', 'isCurrentPasswordEmpty']),
  },
});
