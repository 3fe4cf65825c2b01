/**
 * The public /set-password page (issue 18): the owner of a new account (or of a reset an admin
 * triggered) opens the one-time link, sees whose account it is, and sets a password under the rules
 * of spec §5 with the spec's messages. A used, expired or replaced link says so. I/O and navigation
 * come from src/adapters/admin-actors.ts.
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import { doneOutput, errorOf } from './actor-results';
import type { SetPasswordCheckResponse } from '../common/admin-contract';
import { ROUTES } from '../common/constants';
import { ADMIN_MESSAGES, MESSAGES } from '../common/messages';
import { isPasswordComplex } from '../common/password-rules';
import type { NavigateParams } from './auth.types';
import { failureMessage } from './notify';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

export interface SetPasswordInput {
  token: string;
}

export interface SetPasswordContext {
  token: string;
  username: string;
  newPassword: string;
  confirmPassword: string;
  error: string | null;
}

export type SetPasswordEvent =
  | { type: 'password.field'; field: 'newPassword' | 'confirmPassword'; value: string }
  | { type: 'password.submit' }
  | { type: 'password.signIn' };

export interface CheckTokenInput { token: string }
export interface SavePasswordInput { token: string; newPassword: string; confirmPassword: string }

const TO_LOGIN: NavigateParams = { to: ROUTES.login };

function checkTokenInput({ context }: { context: SetPasswordContext }): CheckTokenInput {
  return { token: context.token };
}
function savePasswordInput({ context }: { context: SetPasswordContext }): SavePasswordInput {
  return { token: context.token, newPassword: context.newPassword, confirmPassword: context.confirmPassword };
}

export const setPasswordMachine = setup({
  types: machineTypes<{
    context: SetPasswordContext; events: SetPasswordEvent; input: SetPasswordInput;
    children: { checkToken: 'checkToken'; savePassword: 'savePassword' };
  }>(),
  actors: {
    checkToken: providedLater<SetPasswordCheckResponse, CheckTokenInput>('checkToken'),
    savePassword: providedLater<void, SavePasswordInput>('savePassword'),
  },
  actions: {
    navigate: (_, _params: NavigateParams) => {},
    storeUsername: assign((_, params: SetPasswordCheckResponse) => ({ username: params.username })),
    setField: assign(({ event }) => (event.type === 'password.field' ? { [event.field]: event.value, error: null } : {})),
    showMismatch: assign({ error: MESSAGES.passwordMismatch }),
    showComplexity: assign({ error: MESSAGES.passwordComplexity }),
    storeError: assign((_, params: { error: unknown }) => ({ error: failureMessage(params.error, MESSAGES.passwordResetFailed) })),
    forgetPasswords: assign({ newPassword: '', confirmPassword: '' }),
  },
  guards: {
    mismatch: ({ context }) => context.newPassword !== context.confirmPassword,
    weak: ({ context }) => !isPasswordComplex(context.newPassword),
    linkDead: (_, params: { error: unknown }) => params.error instanceof Error && params.error.message === ADMIN_MESSAGES.setPasswordInvalid,
  },
}).createMachine({
  id: 'setPassword',
  description: 'A new account owner sets their password from a one-time link.',
  context: ({ input }) => ({ token: input.token, username: '', newPassword: '', confirmPassword: '', error: null }),
  initial: 'checking',
  states: {
    checking: {
      description: 'The link is checked: whose account, still valid?',
      invoke: {
        id: 'checkToken',
        src: 'checkToken',
        input: checkTokenInput,
        onDone: { target: 'editing', actions: { type: 'storeUsername', params: doneOutput } },
        onError: { target: 'invalid' },
      },
    },
    invalid: {
      description: 'The link was used, expired, replaced or never existed: ask the admin for a new one.',
      on: { 'password.signIn': { actions: { type: 'navigate', params: TO_LOGIN } } },
    },
    editing: {
      description: 'New and confirm password, with the spec rules shown as hints.',
      on: {
        'password.field': { actions: 'setField' },
        'password.submit': [
          { guard: 'mismatch', actions: 'showMismatch' },
          { guard: 'weak', actions: 'showComplexity' },
          { target: 'saving' },
        ],
      },
    },
    saving: {
      description: 'The password is with the server.',
      invoke: {
        id: 'savePassword',
        src: 'savePassword',
        input: savePasswordInput,
        onDone: { target: 'done', actions: 'forgetPasswords' },
        onError: [
          { guard: { type: 'linkDead', params: errorOf }, target: 'invalid', actions: 'forgetPasswords' },
          { target: 'editing', actions: { type: 'storeError', params: errorOf } },
        ],
      },
    },
    done: {
      description: 'The password is set; the owner goes on to sign in.',
      on: { 'password.signIn': { actions: { type: 'navigate', params: TO_LOGIN } } },
    },
  },
});

export type SetPasswordMachine = typeof setPasswordMachine;
export type SetPasswordSnapshot = SnapshotFrom<SetPasswordMachine>;

export type SetPasswordPhase = 'checking' | 'invalid' | 'editing' | 'saving' | 'done';
const PHASES: readonly SetPasswordPhase[] = ['checking', 'invalid', 'editing', 'saving', 'done'];
export const selectSetPasswordPhase = (s: SetPasswordSnapshot): SetPasswordPhase => PHASES.find((phase) => s.matches(phase)) ?? 'checking';
export const selectSetPasswordUsername = (s: SetPasswordSnapshot) => s.context.username;
export const selectSetPasswordError = (s: SetPasswordSnapshot) => s.context.error;
export const selectSetPasswordFields = (s: SetPasswordSnapshot) => ({ newPassword: s.context.newPassword, confirmPassword: s.context.confirmPassword });
