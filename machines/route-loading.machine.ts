/**
 * Route-change progress indicator (spec §4.7): off; on when a route change starts; off when it
 * completes or fails.
 */
import { setup } from 'xstate';
import { machineTypes } from './machine-types';

export type RouteLoadingEvent =
  | { type: 'route.start' }
  | { type: 'route.done' }
  | { type: 'route.error' };

export const routeLoadingMachine = setup({
  types: machineTypes<{ events: RouteLoadingEvent }>(),
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
