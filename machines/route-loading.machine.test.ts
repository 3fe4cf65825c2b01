import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { routeLoadingMachine, selectRouteLoading } from './route-loading.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';

describe('route loading (spec §4.7)', () => {
  it('is off, on at route change start, off at completion', () => {
    const actor = createActor(routeLoadingMachine).start();
    expect(selectRouteLoading(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'route.start' });
    expect(selectRouteLoading(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'route.done' });
    expect(selectRouteLoading(actor.getSnapshot())).toBe(false);
  });

  it('turns off on a routing error', () => {
    const actor = createActor(routeLoadingMachine).start();
    actor.send({ type: 'route.start' });
    actor.send({ type: 'route.error' });
    expect(selectRouteLoading(actor.getSnapshot())).toBe(false);
  });
});

describe('route loading: every path', () => {
  const events = [{ type: 'route.start' }, { type: 'route.done' }, { type: 'route.error' }];
  itReachesEveryStateAndTransition(routeLoadingMachine, { events });
});
