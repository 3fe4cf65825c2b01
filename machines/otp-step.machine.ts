/**
 * The SMS code step (spec §2.10, §4.1 step 3, §4.2): the six-digit entry, verifying it, Resend Code
 * after a cooldown, and the snackbar outcomes. One child machine, invoked by the sign-in machine
 * (`isLogin: true`, on /verify-number) and by the password machine (`isLogin: false`, on
 * /verify-number?forgot=true or in the header's 'Verify OTP' modal). It finishes with the token the
 * server answered for the code; everything else stays inside it.
 */
import { assign, sendParent, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { doneOutput, isFailure } from './actor-results';
import { OTP_LENGTH, OTP_RESEND_COOLDOWN_S } from '../common/constants';
import { SIGN_IN_OWN_MESSAGES as OWN_MESSAGES } from '../common/messages/sign-in';
import type { Credentials, GenerateOtpInput, GenerateOtpOutput, VerifyOtpInput, VerifyOtpOutput } from './auth.types';
import { isOtpCode, OTP_FAILED, OTP_NOT_SENT, OTP_SENT, type OtpStep } from './otp';
import { machineTypes } from './machine-types';
import { requestState } from './request-state';
import { notify } from './system-actions';
import { providedLater } from './unprovided';
import { codeTyped } from './password-leaving';

export interface OtpStepInput {
  username: string;
  /** true for sign-in, false for the password flows (the answer is then a reset token). */
  isLogin: boolean;
  /** The masked number the code went to, as the server gave it. */
  obscureMobileNumber: string;
  deviceId?: string;
  /** The header's Change Password flow sends the signed-in user's token and key. */
  credentials?: Credentials;
}

export interface OtpStepContext extends OtpStepInput {
  code: string;
  resendInSeconds: number;
  error: string | null;
  /** The token the server answered for the code. */
  token: string;
}

export interface OtpStepOutput {
  /** A session token (sign-in) or the single-use reset token (password flows). */
  accessToken: string;
}

export type OtpStepEvent =
  /** What is typed in the code box; anything but digits is dropped, and at most six are kept. */
  | { type: 'otp.edit'; code: string }
  | { type: 'otp.submit' }
  | { type: 'otp.resend' }
  /** The sign-in machine learnt the device id after the step started (a reload during the step). */
  | { type: 'otp.deviceKnown'; deviceId: string | undefined }
  /** Cancel, Escape or the close of the header's 'Verify OTP' modal (issue 38): asks first when a code is typed. */
  | { type: 'otp.close' }
  /** The answers to "Unsaved changes" about a typed code. */
  | { type: 'otp.stay' }
  | { type: 'otp.leave' };

function initialContext({ input }: { input: OtpStepInput }): OtpStepContext {
  return { ...input, code: '', resendInSeconds: OTP_RESEND_COOLDOWN_S, error: null, token: '' };
}
function typedCode({ event }: { event: OtpStepEvent }) {
  return { code: event.type === 'otp.edit' ? event.code.replace(/\D/g, '').slice(0, OTP_LENGTH) : '' };
}
function verifyInput({ context }: { context: OtpStepContext }): VerifyOtpInput {
  return {
    username: context.username, otp: context.code, isLogin: context.isLogin,
    ...(context.deviceId !== undefined ? { deviceId: context.deviceId } : {}),
    ...(context.credentials ? { credentials: context.credentials } : {}),
  };
}
function resendInput({ context }: { context: OtpStepContext }): GenerateOtpInput {
  return { username: context.username, isLogin: context.isLogin, ...(context.credentials ? { credentials: context.credentials } : {}) };
}

export const otpStepMachine = setup({
  types: machineTypes<{
    context: OtpStepContext; events: OtpStepEvent; input: OtpStepInput; output: OtpStepOutput;
    children: { verifyOtp: 'verifyOtp'; generateOtp: 'generateOtp' };
  }>(),
  actors: {
    verifyOtp: providedLater<VerifyOtpOutput, VerifyOtpInput>('verifyOtp'),
    generateOtp: providedLater<GenerateOtpOutput, GenerateOtpInput>('generateOtp'),
  },
  actions: {
    notify,
    setCode: assign((_, params: { code: string }) => ({ code: params.code })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    setDeviceId: assign(({ event }) => (event.type === 'otp.deviceKnown' ? { deviceId: event.deviceId } : {})),
    setToken: assign((_, params: { accessToken: string }) => ({ token: params.accessToken })),
    restartCooldown: assign({ resendInSeconds: OTP_RESEND_COOLDOWN_S }),
    tickCooldown: assign(({ context }) => ({ resendInSeconds: Math.max(0, context.resendInSeconds - 1) })),
    /** The step is given up: the invoking flow forgets it (the password machine's `otp.cancel`). */
    cancel: sendParent({ type: 'otp.cancel' }),
  },
  guards: {
    isOtpCode: ({ context }) => isOtpCode(context.code),
    isCooldownOver: ({ context }) => context.resendInSeconds === 0,
    hasSecondsLeft: ({ context }) => context.resendInSeconds > 1,
    isFailure,
    /** Some of the code is typed: closing the step would lose it (issue 38). */
    isCodeTyped: ({ context }) => codeTyped(context.code),
  },
}).createMachine({
  id: 'otpStep',
  description: 'The SMS code step shared by sign-in and the password flows: entry, verification and Resend Code.',
  context: initialContext,
  initial: 'entering',
  output: ({ context }) => ({ accessToken: context.token }),
  on: {
    'otp.deviceKnown': { actions: 'setDeviceId' },
  },
  states: {
    entering: {
      description: 'The code entry and the Resend Code cooldown run side by side.',
      type: 'parallel',
      entry: 'restartCooldown',
      states: {
        code: {
          description: 'Entering, verifying and resending the code.',
          initial: 'idle',
          states: {
            idle: {
              description: 'Waiting for the six digits or a resend.',
              on: {
                'otp.edit': { actions: { type: 'setCode', params: typedCode } },
                'otp.submit': [
                  { guard: 'isOtpCode', target: 'verifying', actions: 'clearError' },
                  { actions: { type: 'setError', params: { message: OWN_MESSAGES.otpFormat } } },
                ],
                'otp.resend': { guard: 'isCooldownOver', target: 'resending', actions: 'clearError' },
              },
            },
            verifying: requestState({
              src: 'verifyOtp',
              description: 'The code is with the server.',
              input: verifyInput,
              retry: 'idle',
              refused: { message: OTP_FAILED },
              failed: { message: OTP_FAILED },
              succeeded: [{ target: '#otpStep.verified', actions: { type: 'setToken', params: doneOutput } }],
            }),
            resending: requestState({
              src: 'generateOtp',
              description: 'A new code is being requested.',
              input: resendInput,
              retry: 'idle',
              refused: { message: OTP_NOT_SENT, to: ['notify'] },
              failed: { message: OTP_NOT_SENT, to: ['notify'] },
              // Re-entering the step restarts the cooldown and its countdown.
              succeeded: [{ target: '#otpStep.entering', reenter: true, actions: { type: 'notify', params: OTP_SENT } }],
            }),
          },
        },
        cooldown: {
          description: 'The visible countdown before Resend Code is allowed again.',
          initial: 'counting',
          states: {
            counting: {
              description: 'Counting down one second at a time.',
              after: {
                1000: [
                  { guard: 'hasSecondsLeft', target: 'counting', reenter: true, actions: 'tickCooldown' },
                  { target: 'ready', actions: 'tickCooldown' },
                ],
              },
            },
            ready: {
              description: 'Resend Code is allowed.',
            },
          },
        },
        closing: {
          description: "Cancel, Escape or close of the 'Verify OTP' modal (issue 38): with a code typed it asks first, as every form does.",
          initial: 'open',
          states: {
            open: {
              description: 'No question: closing with nothing typed gives the step up at once.',
              on: {
                'otp.close': [
                  { guard: 'isCodeTyped', target: 'asking' },
                  { actions: 'cancel' },
                ],
              },
            },
            asking: {
              description: 'A code is typed: Stay keeps it (the step goes on), Leave gives the step up.',
              on: {
                'otp.stay': 'open',
                'otp.leave': { actions: 'cancel' },
              },
            },
          },
        },
      },
    },
    verified: {
      description: 'The server accepted the code; the invoking machine takes the token from the output.',
      type: 'final',
    },
  },
});

export type OtpStepMachine = typeof otpStepMachine;
export type OtpStepActorRef = ActorRefFrom<OtpStepMachine>;
export type OtpStepSnapshot = SnapshotFrom<OtpStepMachine>;

/** Whether the step asks before a typed code is lost ("Unsaved changes": Stay or Leave). */
export const selectIsAskingToClose = (snapshot: OtpStepSnapshot) => snapshot.matches({ entering: { closing: 'asking' } });

/** What the 'Verify OTP' panel shows. */
export function selectOtpPanel(snapshot: OtpStepSnapshot): OtpStep {
  const verifying = snapshot.matches({ entering: { code: 'verifying' } });
  return {
    obscureMobileNumber: snapshot.context.obscureMobileNumber,
    code: snapshot.context.code,
    resendInSeconds: snapshot.context.resendInSeconds,
    canResend: snapshot.matches({ entering: { code: 'idle', cooldown: 'ready' } }),
    canSubmit: snapshot.matches({ entering: { code: 'idle' } }) && isOtpCode(snapshot.context.code),
    verifying,
    resending: snapshot.matches({ entering: { code: 'resending' } }),
    error: snapshot.context.error,
  };
}
