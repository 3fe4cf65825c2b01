/**
 * The account's "Two-factor authentication" page (issue 19, ASVS 6.6.1): the authenticator app's
 * status, its enrolment (start → the secret and its QR code → a first code confirms it → the 10
 * recovery codes, shown once), disabling it (current password + a code or a recovery code) and new
 * recovery codes (an authenticator code). I/O and effects come from src/adapters/totp-actors.ts.
 *
 * When the loaded status says the app is set up (also after Done, once the recovery codes were
 * shown), `reportEnrolled` tells the sign-in machine (the `signIn` actor of the input, the page's
 * view passes the session-wide `auth` actor), which leaves its "enrolment required" state.
 */
import { assign, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import {
  TOTP_MESSAGES, isRecoveryCode, isTotpCode,
  type TotpPlainResponse, type TotpRecoveryCodesResponse, type TotpStartResponse, type TotpStatusResponse,
} from '../common/totp';
import { failureMessage } from './notify';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';
import type {
  EnrolledEvent, TotpCodeInput, TotpDisableInput, TotpEnrolmentContext, TotpEnrolmentEvent, TotpEnrolmentInput, TotpStatus,
} from './totp-enrolment.types';

export type * from './totp-enrolment.types';


type Args = { context: TotpEnrolmentContext; event: TotpEnrolmentEvent };

function statusOf({ event }: { event: DoneActorEvent<TotpStatusResponse> }) {
  const { enabled, pending, recoveryCodesLeft, required } = event.output;
  return { status: { enabled, pending, recoveryCodesLeft, required } };
}
function isEnabledOutput({ event }: { event: DoneActorEvent<TotpStatusResponse> }) {
  return { enabled: event.output.enabled };
}
function started({ event }: { event: DoneActorEvent<TotpStartResponse> }) {
  return { secret: event.output.secret, otpauthUri: event.output.otpauthUri };
}
function codesOf({ event }: { event: DoneActorEvent<TotpRecoveryCodesResponse> }) {
  return { recoveryCodes: event.output.recoveryCodes };
}
function messageOf({ event }: { event: DoneActorEvent<{ message: string }> }) {
  return { message: event.output.message };
}
function failure({ event }: { event: ErrorActorEvent }) {
  return { message: failureMessage(event.error, TOTP_MESSAGES.requestFailed) };
}
function loadFailure({ event }: { event: ErrorActorEvent }) {
  return { message: failureMessage(event.error, TOTP_MESSAGES.statusLoadFailed) };
}
function typedCode({ event }: Args) {
  return { code: event.type === 'totp.edit' ? event.code.trim().slice(0, 20) : '' };
}
function typedPassword({ event }: Args) {
  return { password: event.type === 'totp.editPassword' ? event.password : '' };
}
function codeInput({ context }: { context: TotpEnrolmentContext }): TotpCodeInput {
  return { code: context.code.replace(/\s/g, '') };
}
function disableInput({ context }: { context: TotpEnrolmentContext }): TotpDisableInput {
  return { password: context.password, code: context.code };
}
function recoveryCodesOf({ context }: { context: TotpEnrolmentContext }) {
  return { codes: context.recoveryCodes };
}

const ENROLLED: EnrolledEvent = { type: 'authenticator.enrolled' };
const CODE_FORMAT = { message: TOTP_MESSAGES.codeFormat };
const DISABLE_NEEDS = { message: TOTP_MESSAGES.disableNeedsCode };

export const totpEnrolmentMachine = setup({
  types: machineTypes<{
    context: TotpEnrolmentContext; events: TotpEnrolmentEvent; input: TotpEnrolmentInput;
    children: {
      fetchStatus: 'fetchStatus'; startEnrolment: 'startEnrolment'; confirmEnrolment: 'confirmEnrolment';
      disableAuthenticator: 'disableAuthenticator'; regenerateCodes: 'regenerateCodes';
    };
  }>(),
  actors: {
    fetchStatus: providedLater<TotpStatusResponse>('fetchStatus'),
    startEnrolment: providedLater<TotpStartResponse>('startEnrolment'),
    confirmEnrolment: providedLater<TotpRecoveryCodesResponse, TotpCodeInput>('confirmEnrolment'),
    disableAuthenticator: providedLater<TotpPlainResponse, TotpDisableInput>('disableAuthenticator'),
    regenerateCodes: providedLater<TotpRecoveryCodesResponse, TotpCodeInput>('regenerateCodes'),
  },
  actions: {
    // Effects: src/adapters provides these; the defaults do nothing.
    copyCodes: (_, _params: { codes: string[] }) => {},
    // An effect on an actor of another system (the page actor is not the root's child), as the view would send it.
    reportEnrolled: ({ context }) => context.signIn?.send(ENROLLED),
    // Context.
    setStatus: assign((_, params: { status: TotpStatus }) => ({ status: params.status })),
    setSecret: assign((_, params: { secret: string; otpauthUri: string }) => ({ secret: params.secret, otpauthUri: params.otpauthUri, code: '' })),
    setCode: assign((_, params: { code: string }) => ({ code: params.code })),
    setPassword: assign((_, params: { password: string }) => ({ password: params.password })),
    setRecoveryCodes: assign((_, params: { recoveryCodes: string[] }) => ({ recoveryCodes: params.recoveryCodes, copied: false, code: '', password: '' })),
    markCopied: assign({ copied: true }),
    /** Confirmed: the status says on at once, with the codes just made (the page reloads it after Done). */
    markEnabled: assign(({ context }) => ({
      status: { enabled: true, pending: false, recoveryCodesLeft: context.recoveryCodes.length, required: context.status?.required ?? false },
    })),
    setError: assign((_, params: { message: string }) => ({ error: params.message, notice: null })),
    setNotice: assign((_, params: { message: string }) => ({ notice: params.message, error: null })),
    clearMessages: assign({ error: null, notice: null }),
    /** Nothing secret outlives its step: the secret, the codes, what was typed. */
    forgetSecrets: assign({ secret: '', otpauthUri: '', code: '', password: '', recoveryCodes: [], copied: false }),
  },
  guards: {
    isEnabled: (_, params: { enabled: boolean }) => params.enabled,
    canStart: ({ context }) => context.status?.enabled === false,
    isSetUp: ({ context }) => context.status?.enabled === true,
    isAuthenticatorCode: ({ context }) => isTotpCode(context.code),
    canDisable: ({ context }) => context.password !== '' && (isTotpCode(context.code) || isRecoveryCode(context.code)),
  },
}).createMachine({
  id: 'totpEnrolment',
  description: "The account's authenticator app: status, enrolment with recovery codes, disabling it, new recovery codes.",
  context: ({ input }) => ({ signIn: input?.signIn ?? null, status: null, secret: '', otpauthUri: '', code: '', password: '', recoveryCodes: [], copied: false, error: null, notice: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The status of the authenticator app is being fetched.',
      invoke: {
        id: 'fetchStatus',
        src: 'fetchStatus',
        onDone: [
          {
            guard: { type: 'isEnabled', params: isEnabledOutput },
            target: 'idle',
            actions: [{ type: 'setStatus', params: statusOf }, 'reportEnrolled'],
          },
          { target: 'idle', actions: { type: 'setStatus', params: statusOf } },
        ],
        onError: { target: 'failed', actions: { type: 'setError', params: loadFailure } },
      },
    },
    failed: {
      description: 'The status could not be loaded; the user may try again.',
      on: { 'totp.retry': { target: 'loading', actions: 'clearMessages' } },
    },
    idle: {
      description: 'The status is shown: set up the app when it is off; disable it or make new recovery codes when it is on.',
      on: {
        'totp.start': { guard: 'canStart', target: 'starting', actions: 'clearMessages' },
        'totp.disable': { guard: 'isSetUp', target: 'disabling', actions: ['clearMessages', 'forgetSecrets'] },
        'totp.regenerate': { guard: 'isSetUp', target: 'regenerating', actions: ['clearMessages', 'forgetSecrets'] },
      },
    },
    starting: {
      description: 'The server is making a new secret.',
      invoke: {
        id: 'startEnrolment',
        src: 'startEnrolment',
        onDone: { target: 'showingSecret', actions: { type: 'setSecret', params: started } },
        onError: { target: 'idle', actions: { type: 'setError', params: failure } },
      },
    },
    showingSecret: {
      description: 'The QR code and the secret are shown; the first code from the app confirms them.',
      on: {
        'totp.edit': { actions: { type: 'setCode', params: typedCode } },
        'totp.submit': [
          { guard: 'isAuthenticatorCode', target: 'confirming', actions: 'clearMessages' },
          { actions: { type: 'setError', params: CODE_FORMAT } },
        ],
        'totp.cancel': { target: 'idle', actions: ['forgetSecrets', 'clearMessages'] },
      },
    },
    confirming: {
      description: 'The first code is with the server.',
      invoke: {
        id: 'confirmEnrolment',
        src: 'confirmEnrolment',
        input: codeInput,
        onDone: {
          target: 'showingRecoveryCodes',
          // Not reported yet: a required enrolment would leave the page before the codes are read. Done reloads the status, which reports it.
          actions: [{ type: 'setRecoveryCodes', params: codesOf }, 'markEnabled', { type: 'setNotice', params: messageOf }],
        },
        onError: { target: 'showingSecret', actions: [{ type: 'setError', params: failure }, { type: 'setCode', params: { code: '' } }] },
      },
    },
    showingRecoveryCodes: {
      description: 'The recovery codes, shown this once, with a copy button.',
      on: {
        'totp.copy': { actions: [{ type: 'copyCodes', params: recoveryCodesOf }, 'markCopied'] },
        'totp.done': { target: 'loading', actions: 'forgetSecrets' },
      },
    },
    disabling: {
      description: 'Disabling the app: the current password and a code from the app (or a recovery code).',
      initial: 'form',
      states: {
        form: {
          description: 'The password and the code are typed.',
          on: {
            'totp.edit': { actions: { type: 'setCode', params: typedCode } },
            'totp.editPassword': { actions: { type: 'setPassword', params: typedPassword } },
            'totp.submit': [
              { guard: 'canDisable', target: 'submitting', actions: 'clearMessages' },
              { actions: { type: 'setError', params: DISABLE_NEEDS } },
            ],
            'totp.cancel': { target: '#totpEnrolment.idle', actions: ['forgetSecrets', 'clearMessages'] },
          },
        },
        submitting: {
          description: 'The server checks them and removes the app.',
          invoke: {
            id: 'disableAuthenticator',
            src: 'disableAuthenticator',
            input: disableInput,
            onDone: { target: '#totpEnrolment.loading', actions: ['forgetSecrets', { type: 'setNotice', params: messageOf }] },
            onError: { target: 'form', actions: [{ type: 'setError', params: failure }, { type: 'setCode', params: { code: '' } }] },
          },
        },
      },
    },
    regenerating: {
      description: 'New recovery codes: a code from the app confirms it is the owner.',
      initial: 'form',
      states: {
        form: {
          description: 'The code is typed.',
          on: {
            'totp.edit': { actions: { type: 'setCode', params: typedCode } },
            'totp.submit': [
              { guard: 'isAuthenticatorCode', target: 'submitting', actions: 'clearMessages' },
              { actions: { type: 'setError', params: CODE_FORMAT } },
            ],
            'totp.cancel': { target: '#totpEnrolment.idle', actions: ['forgetSecrets', 'clearMessages'] },
          },
        },
        submitting: {
          description: 'The server checks the code and makes the new codes.',
          invoke: {
            id: 'regenerateCodes',
            src: 'regenerateCodes',
            input: codeInput,
            onDone: { target: '#totpEnrolment.showingRecoveryCodes', actions: [{ type: 'setRecoveryCodes', params: codesOf }, { type: 'setNotice', params: messageOf }] },
            onError: { target: 'form', actions: [{ type: 'setError', params: failure }, { type: 'setCode', params: { code: '' } }] },
          },
        },
      },
    },
  },
});

export type TotpEnrolmentMachine = typeof totpEnrolmentMachine;
export type TotpEnrolmentSnapshot = SnapshotFrom<TotpEnrolmentMachine>;

export type TotpEnrolmentPhase =
  | 'loading' | 'failed' | 'idle' | 'starting' | 'showingSecret' | 'confirming' | 'showingRecoveryCodes'
  | 'disabling' | 'disablingSubmit' | 'regenerating' | 'regeneratingSubmit';

export function selectTotpPhase(snapshot: TotpEnrolmentSnapshot): TotpEnrolmentPhase {
  if (snapshot.matches({ disabling: 'submitting' })) return 'disablingSubmit';
  if (snapshot.matches({ regenerating: 'submitting' })) return 'regeneratingSubmit';
  const phases = ['loading', 'failed', 'starting', 'showingSecret', 'confirming', 'showingRecoveryCodes', 'disabling', 'regenerating'] as const;
  return phases.find((phase) => snapshot.matches(phase)) ?? 'idle';
}
export const selectTotpStatus = (snapshot: TotpEnrolmentSnapshot) => snapshot.context.status;
export const selectTotpSecret = (snapshot: TotpEnrolmentSnapshot) => ({ secret: snapshot.context.secret, otpauthUri: snapshot.context.otpauthUri });
export const selectTotpCode = (snapshot: TotpEnrolmentSnapshot) => snapshot.context.code;
export const selectTotpPassword = (snapshot: TotpEnrolmentSnapshot) => snapshot.context.password;
export const selectRecoveryCodes = (snapshot: TotpEnrolmentSnapshot) => snapshot.context.recoveryCodes;
export const selectCodesCopied = (snapshot: TotpEnrolmentSnapshot) => snapshot.context.copied;
export const selectTotpError = (snapshot: TotpEnrolmentSnapshot) => snapshot.context.error;
export const selectTotpNotice = (snapshot: TotpEnrolmentSnapshot) => snapshot.context.notice;

/** The secret in groups of four for reading off the screen (authenticator apps ignore the spaces). */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}
