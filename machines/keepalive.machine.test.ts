import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { KEEPALIVE_INTERVAL_MS, keepaliveMachine } from './keepalive.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { delayedEvents } from './test-harness/paths';

function start() {
  let pings = 0;
  const clock = new SimulatedClock();
  const actor = createActor(keepaliveMachine.provide({ actions: { pingServer: () => { pings += 1; } } }), { clock }).start();
  return { actor, clock, pings: () => pings };
}

describe('keepalive', () => {
  it('passes the first activity on at once', () => {
    const { actor, pings } = start();
    actor.send({ type: 'keepalive.activity' });
    expect(pings()).toBe(1);
  });

  it('passes on at most one activity per interval', () => {
    const { actor, clock, pings } = start();
    actor.send({ type: 'keepalive.activity' });
    clock.increment(KEEPALIVE_INTERVAL_MS - 1);
    actor.send({ type: 'keepalive.activity' });
    expect(pings()).toBe(1);
    clock.increment(1);
    actor.send({ type: 'keepalive.activity' });
    expect(pings()).toBe(2);
  });
});

describe('keepalive: every path', () => {
  itReachesEveryStateAndTransition(keepaliveMachine, {
    events: [{ type: 'keepalive.activity' }, ...delayedEvents(keepaliveMachine)],
  });
});
