import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { routeLoadingMachine, selectRouteLoading } from './route-loading.machine';
import { createCoverage } from './test-support/coverage';
import { coveringPaths, drivePath, pathTitle } from './test-support/paths';

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
  const paths = coveringPaths(routeLoadingMachine, { events });
  const coverage = createCoverage(routeLoadingMachine);

  it.each(paths.map((path) => [pathTitle(path), path] as const))('reaches %s', (_, path) => {
    expect(drivePath(routeLoadingMachine, path, { inspect: coverage.inspect }).value).toEqual(path.state.value);
  });

  it('covers every state and every transition of the machine', () => {
    const report = coverage.report();
    expect(report.states.missing).toEqual([]);
    expect(report.transitions.missing).toEqual([]);
  });
});
