import { describe, expect, it } from 'vitest';
import { createActor, createMachine, SimulatedClock, type InspectionEvent } from 'xstate';
import { REALTIME_POLL_MS } from '../common/reports';
import { reportPollerMachine } from './report-poller.machine';
import { createCoverage } from './test-harness/coverage';

/** The poller only runs as a child (it sends to its parent), so it is driven inside one. */
function runInParent(inspect?: (event: InspectionEvent) => void) {
  const ticks: number[] = [];
  const clock = new SimulatedClock();
  const parent = createMachine({
    invoke: { src: reportPollerMachine },
    on: { 'poll.tick': { actions: () => ticks.push(clock.now()) } },
  });
  const actor = createActor(parent, { clock, inspect }).start();
  return { ticks, clock, actor };
}

describe('report poller', () => {
  it('tells its parent poll.tick every 15 s', () => {
    const { ticks, clock } = runInParent();
    for (let i = 0; i < 3; i++) clock.increment(REALTIME_POLL_MS);
    expect(ticks).toEqual([REALTIME_POLL_MS, REALTIME_POLL_MS * 2, REALTIME_POLL_MS * 3]);
  });

  it('stops ticking when its parent stops', () => {
    const { ticks, clock, actor } = runInParent();
    clock.increment(REALTIME_POLL_MS);
    actor.stop();
    clock.increment(REALTIME_POLL_MS * 2);
    expect(ticks).toHaveLength(1);
  });
});

describe('report poller: every path', () => {
  const coverage = createCoverage(reportPollerMachine);
  it('reaches waiting and takes the 15 s tick', () => {
    const { clock } = runInParent(coverage.inspect);
    clock.increment(REALTIME_POLL_MS);
    const report = coverage.report();
    expect(report.states.missing).toEqual([]);
    expect(report.transitions.missing).toEqual([]);
  });
});
