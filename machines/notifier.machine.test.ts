import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { notifierMachine, selectNotification } from './notifier.machine';
import { itReachesEveryStateAndTransition } from './test-support/every-path';
import { delayedEvents } from './test-support/paths';

function start() {
  const clock = new SimulatedClock();
  const actor = createActor(notifierMachine, { clock }).start();
  return { clock, actor };
}

describe('notifier', () => {
  it('shows a message and hides it after the default 3 seconds', () => {
    const { clock, actor } = start();
    actor.send({ type: 'notify.show', message: 'Saved', severity: 'success' });
    expect(selectNotification(actor.getSnapshot())).toMatchObject({ message: 'Saved', severity: 'success' });
    clock.increment(MESSAGE_DISPLAY_MS - 1);
    expect(actor.getSnapshot().value).toBe('visible');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('hidden');
    expect(selectNotification(actor.getSnapshot())).toBeNull();
  });

  it('honours a configured display time', () => {
    const { clock, actor } = start();
    actor.send({ type: 'notify.show', message: 'OTP sent successfully!', severity: 'success', durationMs: 5000 });
    clock.increment(4999);
    expect(actor.getSnapshot().value).toBe('visible');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('hidden');
  });

  it('replaces a visible message and restarts its timer', () => {
    const { clock, actor } = start();
    actor.send({ type: 'notify.show', message: 'first', severity: 'info' });
    clock.increment(2000);
    actor.send({ type: 'notify.show', message: 'second', severity: 'error' });
    clock.increment(2000);
    expect(selectNotification(actor.getSnapshot())?.message).toBe('second');
    clock.increment(1000);
    expect(actor.getSnapshot().value).toBe('hidden');
  });

  it('hides on dismiss', () => {
    const { actor } = start();
    actor.send({ type: 'notify.show', message: 'x', severity: 'warning' });
    actor.send({ type: 'notify.dismiss' });
    expect(actor.getSnapshot().value).toBe('hidden');
  });
});

describe('notifier: every path', () => {
  const events = [
    { type: 'notify.show', message: 'Saved', severity: 'success' },
    { type: 'notify.dismiss' },
    ...delayedEvents(notifierMachine),
  ];
  itReachesEveryStateAndTransition(notifierMachine, {
    events,
    // The message id counts up forever; a snapshot is its state and whether a message shows.
    serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.current === null]),
  });
});
