/**
 * "My sessions" (issue 19, ASVS 7.4.5, 7.5.2): the signed-in user's active sessions (device, address,
 * last seen, this one marked), and ending any of them. Ending another session reloads the list;
 * ending the one in use asks first, then signs this browser out (the server has already revoked it).
 * I/O and navigation come from src/adapters/account-actors.ts.
 */
import {
  assign, setup,
  type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom,
} from 'xstate';
import { machineTypes } from './machine-types';
import type { EndSessionsResponse, StaffSession } from '../common/admin-contract';
import { ROUTES } from '../common/constants';
import { ACCOUNT_MESSAGES } from '../common/messages';
import type { NavigateParams } from './auth.types';
import { failureMessage } from './notify';
import { providedLater } from './unprovided';

export type OwnSession = StaffSession;

export interface OwnSessionsContext {
  sessions: OwnSession[];
  /** The session being ended, or waiting for the "this one" confirmation. */
  targetId: string | null;
  error: string | null;
  notice: string | null;
}

export type OwnSessionsEvent =
  | { type: 'sessions.retry' }
  | { type: 'sessions.end'; sessionId: string }
  | { type: 'sessions.confirm' }
  | { type: 'sessions.cancel' };

export interface EndOwnSessionInput { sessionId: string }

type Args = { context: OwnSessionsContext; event: OwnSessionsEvent };

function loaded({ event }: { event: DoneActorEvent<OwnSession[]> }) {
  return { sessions: event.output };
}
function loadFailure({ event }: { event: ErrorActorEvent }) {
  return { message: failureMessage(event.error, ACCOUNT_MESSAGES.sessionsFailed) };
}
function endFailure({ event }: { event: ErrorActorEvent }) {
  return { message: failureMessage(event.error, ACCOUNT_MESSAGES.sessionEndFailed) };
}
function targetOf({ event }: Args) {
  return { sessionId: event.type === 'sessions.end' ? event.sessionId : '' };
}
function endInput({ context }: { context: OwnSessionsContext }): EndOwnSessionInput {
  return { sessionId: context.targetId ?? '' };
}

const TO_LOGOUT: NavigateParams = { to: ROUTES.logout };

export const ownSessionsMachine = setup({
  types: machineTypes<{
    context: OwnSessionsContext; events: OwnSessionsEvent; children: { fetchSessions: 'fetchSessions'; endSession: 'endSession' };
  }>(),
  actors: {
    fetchSessions: providedLater<OwnSession[]>('fetchSessions'),
    endSession: providedLater<EndSessionsResponse, EndOwnSessionInput>('endSession'),
  },
  actions: {
    // Effects: src/adapters provides this; the default does nothing.
    navigate: (_, _params: NavigateParams) => {},
    setSessions: assign((_, params: { sessions: OwnSession[] }) => ({ sessions: params.sessions })),
    clearMessages: assign({ error: null, notice: null }),
    setTarget: assign((_, params: { sessionId: string }) => ({ targetId: params.sessionId, notice: null, error: null })),
    clearTarget: assign({ targetId: null }),
    setError: assign((_, params: { message: string }) => ({ error: params.message, notice: null })),
    setNotice: assign((_, params: { message: string }) => ({ notice: params.message, error: null })),
  },
  guards: {
    isCurrentSession: ({ context, event }) =>
      event.type === 'sessions.end' && context.sessions.some((s) => s.id === event.sessionId && s.current),
    endedCurrentSession: ({ context }) => context.sessions.some((s) => s.id === context.targetId && s.current),
  },
}).createMachine({
  id: 'ownSessions',
  description: "The signed-in user's own active sessions, and ending any of them.",
  context: { sessions: [], targetId: null, error: null, notice: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'The list of active sessions is being fetched.',
      invoke: {
        id: 'fetchSessions',
        src: 'fetchSessions',
        onDone: { target: 'list', actions: { type: 'setSessions', params: loaded } },
        onError: { target: 'failed', actions: { type: 'setError', params: loadFailure } },
      },
    },
    failed: {
      description: 'The list could not be loaded; the user may try again.',
      on: { 'sessions.retry': { target: 'loading', actions: 'clearMessages' } },
    },
    list: {
      description: 'The sessions are shown, this one marked; any may be ended.',
      on: {
        'sessions.end': [
          { guard: 'isCurrentSession', target: 'confirmingThis', actions: { type: 'setTarget', params: targetOf } },
          { target: 'ending', actions: { type: 'setTarget', params: targetOf } },
        ],
        'sessions.retry': { target: 'loading', actions: 'clearMessages' },
      },
    },
    confirmingThis: {
      description: 'Ending the session in use signs this browser out: the user confirms first.',
      on: {
        'sessions.confirm': { target: 'ending' },
        'sessions.cancel': { target: 'list', actions: 'clearTarget' },
      },
    },
    ending: {
      description: 'The server is revoking the chosen session.',
      invoke: {
        id: 'endSession',
        src: 'endSession',
        input: endInput,
        onDone: [
          { guard: 'endedCurrentSession', target: 'signedOut', actions: { type: 'navigate', params: TO_LOGOUT } },
          { target: 'loading', actions: ['clearTarget', { type: 'setNotice', params: { message: ACCOUNT_MESSAGES.sessionEnded } }] },
        ],
        // Already ended elsewhere, or the server refused: say so and show the list as it is now.
        onError: { target: 'loading', actions: ['clearTarget', { type: 'setError', params: endFailure }] },
      },
    },
    signedOut: {
      description: 'The session in use was ended: the browser goes to /logout, which forgets it here too.',
      type: 'final',
    },
  },
});

export type OwnSessionsMachine = typeof ownSessionsMachine;
export type OwnSessionsSnapshot = SnapshotFrom<OwnSessionsMachine>;

export type OwnSessionsPhase = 'loading' | 'failed' | 'list' | 'confirmingThis' | 'ending' | 'signedOut';

export function selectOwnSessionsPhase(snapshot: OwnSessionsSnapshot): OwnSessionsPhase {
  const phases: OwnSessionsPhase[] = ['loading', 'failed', 'confirmingThis', 'ending', 'signedOut'];
  return phases.find((phase) => snapshot.matches(phase)) ?? 'list';
}
export const selectOwnSessions = (snapshot: OwnSessionsSnapshot) => snapshot.context.sessions;
export const selectOwnSessionsError = (snapshot: OwnSessionsSnapshot) => snapshot.context.error;
export const selectOwnSessionsNotice = (snapshot: OwnSessionsSnapshot) => snapshot.context.notice;
export const selectEndingSessionId = (snapshot: OwnSessionsSnapshot) => snapshot.context.targetId;

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg\//, 'Edge'], [/OPR\/|Opera/, 'Opera'], [/Firefox\//, 'Firefox'], [/Chrome\/|CriOS\//, 'Chrome'], [/Safari\//, 'Safari'],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'], [/Android/, 'Android'], [/Windows/, 'Windows'], [/Mac OS X|Macintosh/, 'macOS'], [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux'],
];

/** A short name for the device of a session from its User-Agent: "Firefox on macOS"; the raw text when unknown. */
export function describeDevice(userAgent: string): string {
  const text = userAgent.trim();
  if (!text) return ACCOUNT_MESSAGES.unknownDevice;
  const browser = BROWSERS.find(([pattern]) => pattern.test(text))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(text))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? text.slice(0, 60);
}
