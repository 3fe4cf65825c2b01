/**
 * Keeps the server's idle clock in step with the browser's (docs/security.md). The server measures
 * idleness with the same minutes but only sees requests; activity the browser counts (mouse, keys,
 * 'Stay signed in') reaches it as a session check at most once per KEEPALIVE_INTERVAL_MS, so a user
 * busy on one page is not found idle by the server at the next call. Runs as the `keepalive` system
 * actor; the `inactivity` actor reports activity to it.
 */
import { setup } from 'xstate';
import { machineTypes } from './machine-types';

/** At most one server session check per this many ms of continuous activity. */
export const KEEPALIVE_INTERVAL_MS = 20_000;

export type KeepaliveEvent = { type: 'keepalive.activity' };

export const keepaliveMachine = setup({
  types: machineTypes<{ events: KeepaliveEvent }>(),
  actions: {
    // Effect: src/adapters provides it (a session check with the stored credentials, if any); the default does nothing.
    pingServer: (_, _params: undefined) => {},
  },
  delays: {
    interval: KEEPALIVE_INTERVAL_MS,
  },
}).createMachine({
  id: 'keepalive',
  description: 'Passes user activity on to the server as a session check, at most once per interval.',
  initial: 'ready',
  states: {
    ready: {
      description: 'The next activity is passed on at once.',
      on: { 'keepalive.activity': { target: 'resting', actions: 'pingServer' } },
    },
    resting: {
      description: 'The server heard from this tab lately; activity is not passed on until the interval ends.',
      after: { interval: 'ready' },
    },
  },
});

export type KeepaliveMachine = typeof keepaliveMachine;
