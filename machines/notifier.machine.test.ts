import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { UNDO_MESSAGES, UNDO_OFFER_MS } from '../common/revisions';
import { notifierMachine, selectNotification } from './notifier.machine';
import { undoMachine, type ApplyUndoInput } from './undo.machine';
import { pendingActor } from './test-harness/fakes';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { delayedEvents } from './test-harness/paths';

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

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function startWithUndo(applyUndo: (input: ApplyUndoInput) => Promise<unknown>) {
  const clock = new SimulatedClock();
  const logic = notifierMachine.provide({
    actors: { undo: undoMachine.provide({ actors: { applyUndo: fromPromise<unknown, ApplyUndoInput>(({ input }) => applyUndo(input)) } }) },
  });
  return { clock, actor: createActor(logic, { clock }).start() };
}

const OFFER = { type: 'notify.show', message: '2 items published.', severity: 'success', undo: { requestId: 'req-7', replyTo: 'contentBrowser' } } as const;

describe('notifier: Undo (issue 28)', () => {
  it('offers Undo with the message for UNDO_OFFER_MS, then hides it', () => {
    const { clock, actor } = startWithUndo(() => Promise.resolve());
    actor.send(OFFER);
    expect(selectNotification(actor.getSnapshot())).toMatchObject({ message: '2 items published.', undo: { requestId: 'req-7' }, undoing: false });
    clock.increment(UNDO_OFFER_MS - 1);
    expect(actor.getSnapshot().value).toBe('offering');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('hidden');
    expect(selectNotification(actor.getSnapshot())).toBeNull();
  });

  it('Undo asks the server once, shows "Undoing" meanwhile, then "Undone." for the display time', async () => {
    const calls: ApplyUndoInput[] = [];
    let finish: () => void = () => {};
    const { clock, actor } = startWithUndo((input) => { calls.push(input); return new Promise<void>((resolve) => { finish = resolve; }); });
    actor.send(OFFER);
    actor.send({ type: 'notify.undo' });
    actor.send({ type: 'notify.undo' });
    actor.send({ type: 'notify.dismiss' });
    expect(selectNotification(actor.getSnapshot())?.undoing).toBe(true);
    await flush();
    expect(calls).toEqual([{ requestId: 'req-7' }]);
    finish();
    await flush();
    expect(actor.getSnapshot().value).toBe('visible');
    expect(selectNotification(actor.getSnapshot())).toMatchObject({ message: UNDO_MESSAGES.undone, severity: 'success', undo: null });
    clock.increment(MESSAGE_DISPLAY_MS);
    expect(actor.getSnapshot().value).toBe('hidden');
  });

  it('a refused Undo shows why, as an error', async () => {
    const { actor } = startWithUndo(() => Promise.reject(new Error('The content item A changed since: undo refused.')));
    actor.send(OFFER);
    actor.send({ type: 'notify.undo' });
    await flush();
    expect(selectNotification(actor.getSnapshot())).toMatchObject({ message: 'The content item A changed since: undo refused.', severity: 'error', undo: null });
  });

  it('dismissing the offer or a new message ends the offer; the change stays', () => {
    const calls: ApplyUndoInput[] = [];
    const { actor } = startWithUndo(async (input) => { calls.push(input); });
    actor.send(OFFER);
    actor.send({ type: 'notify.dismiss' });
    expect(actor.getSnapshot().value).toBe('hidden');
    actor.send(OFFER);
    actor.send({ type: 'notify.show', message: 'Saved', severity: 'success' });
    expect(actor.getSnapshot().value).toBe('visible');
    expect(selectNotification(actor.getSnapshot())?.undo).toBeNull();
    expect(calls).toEqual([]);
  });
});

describe('notifier: every path', () => {
  const events = [
    { type: 'notify.show', message: 'Saved', severity: 'success' },
    OFFER,
    { type: 'notify.dismiss' },
    { type: 'notify.undo' },
    { type: 'xstate.done.actor.undo', output: { outcome: 'undone', message: UNDO_MESSAGES.undone } },
    { type: 'xstate.done.actor.undo', output: { outcome: 'failed', message: UNDO_MESSAGES.failed } },
    { type: 'xstate.done.actor.undo', output: { outcome: 'expired', message: '' } },
    ...delayedEvents(notifierMachine),
  ];
  itReachesEveryStateAndTransition(notifierMachine, {
    logic: notifierMachine.provide({ actors: { undo: undoMachine.provide({ actors: { applyUndo: pendingActor() } }) } }),
    events,
    // The message id counts up forever; a snapshot is its state and whether a message shows.
    serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.current === null, snapshot.context.current?.undoing === true]),
  });
});
