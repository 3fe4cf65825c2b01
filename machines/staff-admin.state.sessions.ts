/** The Staff page's `sessions` state (assembled in ./staff-admin.machine.ts). */
import { staffAdminSetup } from './staff-admin.actions';

export const sessionsState = staffAdminSetup.createStateConfig({
  description: "A dialog lists the account's active sessions (device, address, last seen).",
  initial: 'loading',
  on: { 'sessions.close': { target: 'idle', actions: ['closeSessions', 'reloadList'] } },
  states: {
    loading: {
      description: 'The sessions are being read.',
      tags: ['loading'],
      invoke: {
        id: 'fetchSessions',
        src: 'fetchSessions',
        input: ({ context }) => ({ id: context.sessionsOf?.id ?? '' }),
        onDone: { target: 'listing', actions: { type: 'storeSessions', params: ({ event }) => ({ sessions: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeSessionsError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      description: 'The sessions could not be read.',
      tags: ['error'],
      on: { 'sessions.retry': 'loading' },
    },
    listing: {
      description: 'The sessions are shown; an editor may end one (not the one they are using).',
      on: {
        'sessions.end': {
          guard: { type: 'canEndSession', params: ({ event }) => ({ sessionId: event.sessionId }) },
          target: 'ending',
        },
      },
    },
    ending: {
      description: 'One session is being ended.',
      tags: ['saving'],
      invoke: {
        id: 'endSession',
        src: 'endSession',
        input: ({ context, event }) => ({ id: context.sessionsOf?.id ?? '', sessionId: event.type === 'sessions.end' ? event.sessionId : '' }),
        onDone: { target: 'loading', actions: { type: 'storeActionDone', params: ({ event }) => ({ output: event.output }) } },
        onError: { target: 'listing', actions: { type: 'storeSessionsError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
