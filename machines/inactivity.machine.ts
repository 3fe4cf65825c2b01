/**
 * Inactivity timeout (spec §4.5): any user activity restarts the timer; on expiry every cookie is
 * deleted and the user goes to /logout. The timer does not run on public or excluded paths. Beyond the
 * spec: a warning one minute before expiry ('Stay signed in'), and tabs share one activity clock and
 * one logout through broadcast actions the adapter implements; activity the user makes here is also
 * reported to the `keepalive` actor, which keeps the server's idle clock in step. Runs as the
 * `inactivity` system actor.
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import { machineTypes } from './machine-types';
import { INACTIVITY_WARNING_MS, ROUTES } from '../common/constants';
import type { NavigateParams } from './auth.types';
import { isExcludedPath } from '../common/public-paths';
import type { KeepaliveEvent } from './keepalive.machine';
import { tellSystemActor } from './system-actions';

export interface InactivityInput {
  timeoutMinutes: number;
  excludedPaths: readonly string[];
}

export interface InactivityContext {
  timeoutMs: number;
  excludedPaths: readonly string[];
  path: string;
  warningSecondsLeft: number;
}

export type InactivityEvent =
  /** mousemove, mousedown, keypress, touchstart or click in this tab (the adapter forwards them). */
  | { type: 'activity.local' }
  /** Activity in another tab. */
  | { type: 'activity.remote' }
  | { type: 'inactivity.stay' }
  | { type: 'path.changed'; path: string }
  /** Another tab logged out. */
  | { type: 'logout.remote' };

/** When the warning shows: one minute before expiry, or at once for a timeout of a minute or less. */
export function warningDelayMs(timeoutMs: number): number {
  return Math.max(0, timeoutMs - INACTIVITY_WARNING_MS);
}
export function warningDurationMs(timeoutMs: number): number {
  return Math.min(timeoutMs, INACTIVITY_WARNING_MS);
}

function initialContext({ input }: { input: InactivityInput }): InactivityContext {
  return { timeoutMs: input.timeoutMinutes * 60_000, excludedPaths: input.excludedPaths, path: '', warningSecondsLeft: 0 };
}

const TO_LOGOUT: NavigateParams = { to: ROUTES.logout };
/** The inactivity timer's own expiry: /logout says why the session ended. */
const TO_LOGOUT_INACTIVE: NavigateParams = { to: `${ROUTES.logout}?reason=inactivity` };
const ACTIVITY_TO_KEEPALIVE: { systemId: string; event: KeepaliveEvent } = { systemId: 'keepalive', event: { type: 'keepalive.activity' } };
/** What this tab's own activity does: tell the other tabs and the server's idle clock. */
const LOCAL_ACTIVITY = ['broadcastActivity', { type: 'reportActivity', params: ACTIVITY_TO_KEEPALIVE }] as const;

export const inactivityMachine = setup({
  types: machineTypes<{ context: InactivityContext; events: InactivityEvent; input: InactivityInput }>(),
  actions: {
    // Effects: src/adapters provides these; the defaults do nothing.
    /**
     * Ends the session at the server before the cookies that carry its credentials go (best effort,
     * survives the page leaving): /logout then finds nothing left to revoke.
     */
    revokeServerSession: (_, _params: undefined) => {},
    /** Every cookie reachable from the host and path variants, and the session values in storage. */
    deleteAllCookies: (_, _params: undefined) => {},
    broadcastActivity: (_, _params: undefined) => {},
    broadcastLogout: (_, _params: undefined) => {},
    navigate: (_, _params: NavigateParams) => {},
    reportActivity: tellSystemActor,
    // Context.
    setPath: assign(({ event }) => (event.type === 'path.changed' ? { path: event.path } : {})),
    startWarningCountdown: assign(({ context }) => ({ warningSecondsLeft: Math.ceil(warningDurationMs(context.timeoutMs) / 1000) })),
    tickWarning: assign(({ context }) => ({ warningSecondsLeft: Math.max(0, context.warningSecondsLeft - 1) })),
  },
  guards: {
    isExcludedPath: ({ context, event }) => event.type === 'path.changed' && isExcludedPath(event.path, context.excludedPaths),
    hasSecondsLeft: ({ context }) => context.warningSecondsLeft > 1,
  },
  delays: {
    warningDelay: ({ context }) => warningDelayMs(context.timeoutMs),
    warningDuration: ({ context }) => warningDurationMs(context.timeoutMs),
  },
}).createMachine({
  id: 'inactivity',
  description: 'Signs the user out after the configured minutes without activity, warning a minute before.',
  context: initialContext,
  initial: 'excluded',
  states: {
    excluded: {
      description: 'On a public or excluded path (or before the first path is known): no timer runs.',
      on: {
        'path.changed': [
          { guard: 'isExcludedPath', actions: 'setPath' },
          { target: 'active', actions: 'setPath' },
        ],
      },
    },
    active: {
      description: 'The timer runs; activity here or in another tab restarts it.',
      after: { warningDelay: 'warning' },
      on: {
        'activity.local': { target: 'active', reenter: true, actions: LOCAL_ACTIVITY },
        'activity.remote': { target: 'active', reenter: true },
        'path.changed': [
          { guard: 'isExcludedPath', target: 'excluded', actions: 'setPath' },
          { actions: 'setPath' },
        ],
        'logout.remote': { target: 'expired', actions: ['deleteAllCookies', { type: 'navigate', params: TO_LOGOUT }] },
      },
    },
    warning: {
      description: "The last minute: the dialog asks whether to 'Stay signed in'. Passive activity in this tab does not dismiss it.",
      entry: 'startWarningCountdown',
      after: {
        warningDuration: {
          target: 'expired',
          actions: ['revokeServerSession', 'deleteAllCookies', 'broadcastLogout', { type: 'navigate', params: TO_LOGOUT_INACTIVE }],
        },
      },
      on: {
        'inactivity.stay': { target: 'active', actions: LOCAL_ACTIVITY },
        'activity.remote': { target: 'active' },
        'path.changed': [
          { guard: 'isExcludedPath', target: 'excluded', actions: 'setPath' },
          { actions: 'setPath' },
        ],
        // Another tab already logged out and told everyone: do not broadcast back.
        'logout.remote': { target: 'expired', actions: ['deleteAllCookies', { type: 'navigate', params: TO_LOGOUT }] },
      },
      initial: 'counting',
      states: {
        counting: {
          description: 'The dialog counts the seconds down.',
          after: {
            1000: { guard: 'hasSecondsLeft', target: 'counting', reenter: true, actions: 'tickWarning' },
          },
        },
      },
    },
    expired: {
      description: 'Timed out or logged out elsewhere: cookies deleted, on the way to /logout.',
      on: {
        'path.changed': [
          { guard: 'isExcludedPath', target: 'excluded', actions: 'setPath' },
          { target: 'active', actions: 'setPath' },
        ],
      },
    },
  },
});

export type InactivityMachine = typeof inactivityMachine;
export type InactivitySnapshot = SnapshotFrom<InactivityMachine>;

export const selectIsWarning = (snapshot: InactivitySnapshot) => snapshot.matches('warning');
export const selectWarningSecondsLeft = (snapshot: InactivitySnapshot) => snapshot.context.warningSecondsLeft;
export const selectIsTimerRunning = (snapshot: InactivitySnapshot) => snapshot.matches('active') || snapshot.matches('warning');
export const selectIsExpired = (snapshot: InactivitySnapshot) => snapshot.matches('expired');
