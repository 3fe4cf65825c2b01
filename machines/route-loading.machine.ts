/**
 * Route-change progress indicator (spec §4.7): off; on when a route change starts; off when it
 * completes or fails.
 */
import { setup, type EventObject, type MachineContext, type MetaObject, type NonReducibleUnknown, type SetupTypes } from 'xstate';

export type RouteLoadingEvent =
  | { type: 'route.start' }
  | { type: 'route.done' }
  | { type: 'route.error' };

/** Read by the type checker only (setup never reads the value). */
const types: SetupTypes<MachineContext, RouteLoadingEvent, Record<never, string>, string, NonReducibleUnknown, NonReducibleUnknown, EventObject, MetaObject> = {};

export const routeLoadingMachine = setup({
  types,
}).createMachine({
  id: 'routeLoading',
  description: 'Drives the progress bar shown while the router resolves a navigation.',
  initial: 'idle',
  states: {
    idle: {
      description: 'No navigation in progress: the progress bar is hidden.',
      on: { 'route.start': 'loading' },
    },
    loading: {
      description: 'A navigation started: the progress bar is shown.',
      on: { 'route.done': 'idle', 'route.error': 'idle', 'route.start': 'loading' },
    },
  },
});

export const selectRouteLoading = (snapshot: { matches: (state: 'loading') => boolean }) => snapshot.matches('loading');
