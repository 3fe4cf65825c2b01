/**
 * Logout (spec §4.4, §2.9): from the user menu after confirmation, or at once when /logout is reached
 * (directly, after inactivity or a rejected session). The server call may fail: cookies are cleared
 * and the user leaves all the same, with the error shown. Runs as the `logout` system actor.
 */
import { assign, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { machineTypes } from './machine-types';
import { ROUTES } from '../common/constants';
import { SIGN_IN_OWN_MESSAGES as OWN_MESSAGES } from '../common/messages/sign-in';
import type { NavigateParams } from './auth.types';
import { failureMessage, type NotifyParams } from './notify';
import { notify, signalSignedOut } from './system-actions';
import { providedLater } from './unprovided';

export type LogoutEvent =
  | { type: 'logout.request' }
  | { type: 'logout.cancel' }
  | { type: 'logout.confirm' }
  /** /logout reached directly; `reason: 'inactivity'` when the inactivity timer sent the user there. */
  | { type: 'logout.now'; reason?: LogoutReason };

export type LogoutReason = 'inactivity';

export interface LogoutContext {
  reason: LogoutReason | null;
}

function logoutFailure({ event }: { event: ErrorActorEvent }): NotifyParams {
  return { message: failureMessage(event.error, OWN_MESSAGES.serverUnavailable), severity: 'error' };
}

const TO_LOGIN: NavigateParams = { to: ROUTES.login };
const LOGGED_OUT: NotifyParams = { message: OWN_MESSAGES.loggedOut, severity: 'success' };
const SESSION_ENDED: NotifyParams = { message: OWN_MESSAGES.sessionExpired, severity: 'info' };
/** What happens after the server call, whatever its outcome. */
const LEAVE = [
  'clearAllCookies', 'signOutIdentityProvider', 'signalSignedOut', 'broadcastLogout', { type: 'navigate', params: TO_LOGIN },
] as const;

export const logoutMachine = setup({
  types: machineTypes<{ context: LogoutContext; events: LogoutEvent; children: { logout: 'logout' } }>(),
  actors: {
    /** POST /v3.0/user/auth/logout with Authorization and XApiKey from the stored cookies. */
    logout: providedLater<void>('logout'),
  },
  actions: {
    // Effects: src/adapters provides these; the defaults do nothing.
    clearAllCookies: (_, _params: undefined) => {},
    /** Firebase sign-out when the identity library is loaded (added with social sign-in). */
    signOutIdentityProvider: (_, _params: undefined) => {},
    broadcastLogout: (_, _params: undefined) => {},
    navigate: (_, _params: NavigateParams) => {},
    notify,
    /** Tells the `auth` system actor that nobody is signed in any more. */
    signalSignedOut,
    setReason: assign(({ event }) => ({ reason: event.type === 'logout.now' ? event.reason ?? null : null })),
  },
  guards: {
    endedByInactivity: ({ context }) => context.reason === 'inactivity',
  },
}).createMachine({
  id: 'logout',
  description: 'Ends the session at the server and in the browser, then goes to the sign-in page.',
  context: { reason: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'Nothing under way.',
      on: {
        'logout.request': { target: 'confirming', actions: 'setReason' },
        'logout.now': { target: 'loggingOut', actions: 'setReason' },
      },
    },
    confirming: {
      description: "The dialog asks 'Are you sure you want to logout?' with Cancel and 'Yes, Logout'.",
      on: {
        'logout.cancel': 'idle',
        'logout.confirm': 'loggingOut',
        'logout.now': { target: 'loggingOut', actions: 'setReason' },
      },
    },
    loggingOut: {
      description: 'The logout call is with the server ("Signing you out…").',
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: [
          { guard: 'endedByInactivity', target: 'idle', actions: [...LEAVE, { type: 'notify', params: SESSION_ENDED }] },
          { target: 'idle', actions: [...LEAVE, { type: 'notify', params: LOGGED_OUT }] },
        ],
        onError: { target: 'idle', actions: [{ type: 'notify', params: logoutFailure }, ...LEAVE] },
      },
    },
  },
});

export type LogoutMachine = typeof logoutMachine;
export type LogoutSnapshot = SnapshotFrom<LogoutMachine>;

export const selectIsConfirming = (snapshot: LogoutSnapshot) => snapshot.matches('confirming');
export const selectIsLoggingOut = (snapshot: LogoutSnapshot) => snapshot.matches('loggingOut');
