/**
 * The authenticator-app step of sign-in (issue 19; issue 26: the `auth` machine's second-factor child
 * beside the SMS `otpStep`): the app's 6-digit code, or a recovery code after
 * `authenticator.useRecovery`, verified with the proof of the password step. Invoked by `auth` in
 * `signedOut.authenticator`, which forwards the view's `authenticator.*` events to it; it finishes with
 * the session token the server answered, and everything else stays inside it.
 */
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { doneOutput, isFailure } from './actor-results';
import type { VerifyOtpOutput } from './auth.types';
import { TOTP_MESSAGES, isRecoveryCode, isTotpCode } from '../common/totp';
import { OTP_FAILED } from './otp';
import { machineTypes } from './machine-types';
import { requestState } from './request-state';
import { notify } from './system-actions';
import { providedLater } from './unprovided';

export interface VerifyAuthenticatorInput {
  username: string;
  code: string;
  deviceId?: string;
}

export interface AuthenticatorStepInput {
  username: string;
  deviceId?: string;
}

/** What is typed, and whether it is a recovery code. */
export interface AuthenticatorEntry {
  code: string;
  recovery: boolean;
}

export interface AuthenticatorStepContext extends AuthenticatorStepInput {
  entry: AuthenticatorEntry;
  error: string | null;
  /** The session token the server answered for the code. */
  token: string;
}

export interface AuthenticatorStepOutput {
  accessToken: string;
}

export type AuthenticatorStepEvent =
  /** What is typed: digits only, at most six; a recovery code: letters, digits and one dash, at most 11. */
  | { type: 'authenticator.edit'; code: string }
  | { type: 'authenticator.submit' }
  | { type: 'authenticator.useRecovery' }
  | { type: 'authenticator.useApp' }
  /** The sign-in machine learnt the device id after the step started (a reload during the step). */
  | { type: 'authenticator.deviceKnown'; deviceId: string | undefined };

const NO_ENTRY: AuthenticatorEntry = { code: '', recovery: false };

function initialContext({ input }: { input: AuthenticatorStepInput }): AuthenticatorStepContext {
  return { ...input, entry: NO_ENTRY, error: null, token: '' };
}
function typedCode({ context, event }: { context: AuthenticatorStepContext; event: AuthenticatorStepEvent }) {
  if (event.type !== 'authenticator.edit') return { code: context.entry.code };
  const code = context.entry.recovery
    ? event.code.toLowerCase().replace(/[^a-z0-9-]/g, '').slice(0, 11)
    : event.code.replace(/\D/g, '').slice(0, 6);
  return { code };
}
function verifyInput({ context }: { context: AuthenticatorStepContext }): VerifyAuthenticatorInput {
  return { username: context.username, code: context.entry.code, ...(context.deviceId !== undefined ? { deviceId: context.deviceId } : {}) };
}
function formatMessage({ context }: { context: AuthenticatorStepContext }) {
  return { message: context.entry.recovery ? TOTP_MESSAGES.recoveryFormat : TOTP_MESSAGES.codeFormat };
}

export const authenticatorStepMachine = setup({
  types: machineTypes<{
    context: AuthenticatorStepContext; events: AuthenticatorStepEvent; input: AuthenticatorStepInput; output: AuthenticatorStepOutput;
    tags: 'submitting'; children: { verifyAuthenticator: 'verifyAuthenticator' };
  }>(),
  actors: {
    /** The authenticator app's code or a recovery code, with the login answer's proof (POST otp/verify, isLogin). */
    verifyAuthenticator: providedLater<VerifyOtpOutput, VerifyAuthenticatorInput>('verifyAuthenticator'),
  },
  actions: {
    notify,
    setCode: assign(({ context }, params: { code: string }) => ({ entry: { ...context.entry, code: params.code } })),
    setRecoveryMode: assign((_, params: { recovery: boolean }) => ({ entry: { code: '', recovery: params.recovery }, error: null })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    setDeviceId: assign(({ event }) => (event.type === 'authenticator.deviceKnown' ? { deviceId: event.deviceId } : {})),
    setToken: assign((_, params: { accessToken: string }) => ({ token: params.accessToken })),
  },
  guards: {
    isCodeComplete: ({ context }) => (context.entry.recovery ? isRecoveryCode(context.entry.code) : isTotpCode(context.entry.code)),
    isFailure,
  },
}).createMachine({
  id: 'authenticatorStep',
  description: "The authenticator-app step of sign-in: the app's code or a recovery code, verified with the password step's proof.",
  context: initialContext,
  initial: 'active',
  output: ({ context }) => ({ accessToken: context.token }),
  states: {
    active: {
      description: 'The step is open: the code is entered or being verified; the switch between the app and a recovery code works in both.',
      initial: 'entering',
      on: {
        'authenticator.deviceKnown': { actions: 'setDeviceId' },
        'authenticator.useRecovery': { target: '.entering', actions: { type: 'setRecoveryMode', params: { recovery: true } } },
        'authenticator.useApp': { target: '.entering', actions: { type: 'setRecoveryMode', params: { recovery: false } } },
      },
      states: {
        entering: {
          description: 'Waiting for the code; shows the last error, if any.',
          on: {
            'authenticator.edit': { actions: { type: 'setCode', params: typedCode } },
            'authenticator.submit': [
              { guard: 'isCodeComplete', target: 'verifying', actions: 'clearError' },
              { actions: { type: 'setError', params: formatMessage } },
            ],
          },
        },
        verifying: requestState({
          src: 'verifyAuthenticator',
          description: 'The code is with the server (with the proof of the password step).',
          tags: ['submitting'],
          input: verifyInput,
          retry: 'entering',
          refused: { message: OTP_FAILED },
          failed: { message: OTP_FAILED },
          succeeded: [{ target: '#authenticatorStep.verified', actions: { type: 'setToken', params: doneOutput } }],
        }),
      },
    },
    verified: {
      description: 'The server accepted the code; the sign-in machine takes the token from the output.',
      type: 'final',
    },
  },
});

export type AuthenticatorStepMachine = typeof authenticatorStepMachine;
export type AuthenticatorStepActorRef = ActorRefFrom<AuthenticatorStepMachine>;
export type AuthenticatorStepSnapshot = SnapshotFrom<AuthenticatorStepMachine>;

/** What the authenticator panel shows (nothing pending: an empty app-code entry). */
export function selectAuthenticatorPanel(snapshot: AuthenticatorStepSnapshot | undefined) {
  return {
    entry: snapshot?.context.entry ?? NO_ENTRY,
    verifying: snapshot?.hasTag('submitting') ?? false,
    error: snapshot?.context.error ?? null,
  };
}
