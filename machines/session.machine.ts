/**
 * Session check on app load (spec §4.3): except on public routes, the stored token and management key
 * are verified; 401/403 clears every cookie and goes to /logout; a second call names the cloud
 * provider, saved for the session. A network failure is not a verdict: the user keeps the session and
 * may retry. An invalid default-timezone cookie is removed. Later, any server call answered 401 or
 * 403 (the API clients report them) leads the same way. Runs as the `session` system actor.
 */
import { and, setup, type SnapshotFrom } from 'xstate';
import { doneOutput } from './actor-results';
import { ROUTES } from '../common/constants';
import { SIGN_IN_OWN_MESSAGES as OWN_MESSAGES } from '../common/messages/sign-in';
import type { NavigateParams, VerifySessionOutput, VerifySiteOutput } from './auth.types';
import type { NotifyParams } from './notify';
import { notify } from './system-actions';
import { isPublicPath } from '../common/public-paths';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

export type SessionEvent =
  /** Sent once by the app on load: the current path and the raw default-timezone cookie. */
  | { type: 'session.start'; path: string; defaultTimezone: unknown }
  | { type: 'session.retry' }
  /** Any server call answered 401: the session is gone, sign out at /logout. */
  | { type: 'session.unauthorized' }
  /** Any server call answered 403: this user may not do that here; back to the sign-in page. */
  | { type: 'session.forbidden' };

/** Spec §4.3: null, undefined (also as text) or an object (also as JSON text) is not a timezone. */
export function isInvalidTimezoneCookie(value: unknown): boolean {
  if (value === undefined) return false; // no cookie: nothing to remove
  if (value === null || typeof value === 'object') return true;
  if (typeof value !== 'string') return true;
  const text = value.trim();
  if (text === '' || text === 'null' || text === 'undefined' || text === '[object Object]') return true;
  if (!text.startsWith('{') && !text.startsWith('[')) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}

const UNREACHABLE: NotifyParams = { message: OWN_MESSAGES.serverUnavailable, severity: 'error' };

export const sessionMachine = setup({
  types: machineTypes<{ events: SessionEvent; children: { verifySession: 'verifySession'; verifySite: 'verifySite' } }>(),
  actors: {
    /** GET /api/auth/verify with the stored token and key; 401/403 answer `valid: false`, transport failures reject. */
    verifySession: providedLater<VerifySessionOutput>('verifySession'),
    /** GET /api/auth/verify/site: the cloud provider. */
    verifySite: providedLater<VerifySiteOutput>('verifySite'),
  },
  actions: {
    // Effects: src/adapters provides these; the defaults do nothing.
    clearAllCookies: (_, _params: undefined) => {},
    navigate: (_, _params: NavigateParams) => {},
    saveCloudProvider: (_, _params: VerifySiteOutput) => {},
    removeDefaultTimezone: (_, _params: undefined) => {},
    notify,
  },
  guards: {
    isPublicPath: ({ event }) => event.type === 'session.start' && isPublicPath(event.path),
    hasInvalidTimezone: ({ event }) => event.type === 'session.start' && isInvalidTimezoneCookie(event.defaultTimezone),
    isValid: (_, params: VerifySessionOutput) => params.valid,
  },
}).createMachine({
  id: 'session',
  description: 'Verifies the stored session once, when the app loads on a protected route, and follows 401/403 answers.',
  initial: 'idle',
  on: {
    'session.unauthorized': { actions: { type: 'navigate', params: { to: ROUTES.logout } } },
    'session.forbidden': { actions: { type: 'navigate', params: { to: ROUTES.login } } },
  },
  states: {
    idle: {
      description: 'Waiting for the app to say where it loaded.',
      on: {
        'session.start': [
          { guard: and(['isPublicPath', 'hasInvalidTimezone']), target: 'skipped', actions: 'removeDefaultTimezone' },
          { guard: 'isPublicPath', target: 'skipped' },
          { guard: 'hasInvalidTimezone', target: 'verifying', actions: 'removeDefaultTimezone' },
          { target: 'verifying' },
        ],
      },
    },
    skipped: {
      description: 'Loaded on a public route: nothing to verify.',
    },
    verifying: {
      description: 'The stored token and key are with the server; protected pages show the loading overlay.',
      invoke: {
        id: 'verifySession',
        src: 'verifySession',
        onDone: [
          { guard: { type: 'isValid', params: doneOutput }, target: 'verifyingSite' },
          { target: 'rejected', actions: ['clearAllCookies', { type: 'navigate', params: { to: ROUTES.logout } }] },
        ],
        onError: { target: 'unreachable', actions: { type: 'notify', params: UNREACHABLE } },
      },
    },
    verifyingSite: {
      description: 'The session is valid; asking which cloud provider serves the site.',
      invoke: {
        id: 'verifySite',
        src: 'verifySite',
        onDone: { target: 'verified', actions: { type: 'saveCloudProvider', params: doneOutput } },
        // The session itself is valid: an unknown provider must not lock the user out.
        onError: { target: 'verified' },
      },
    },
    verified: {
      description: 'The session is valid; the console is usable.',
    },
    rejected: {
      description: 'The server refused the session (401/403): cookies cleared, on the way to /logout.',
    },
    unreachable: {
      description: 'The server could not be reached: the session is kept and the check may be retried.',
      on: { 'session.retry': 'verifying' },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
export type SessionSnapshot = SnapshotFrom<SessionMachine>;

/**
 * True while the check runs: protected pages show the overlay. Not before `session.start` (a user who
 * signed in during this page load has nothing to verify, and the app never starts the check for them).
 */
export const selectIsVerifying = (snapshot: SessionSnapshot) =>
  snapshot.matches('verifying') || snapshot.matches('verifyingSite');
export const selectIsUnreachable = (snapshot: SessionSnapshot) => snapshot.matches('unreachable');
export const selectIsVerified = (snapshot: SessionSnapshot) => snapshot.matches('verified');
