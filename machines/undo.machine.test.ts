import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, SimulatedClock, type EventObject } from 'xstate';
import { UNDO_MESSAGES, UNDO_OFFER_MS } from '../common/revisions';
import { undoMachine, type ApplyUndoInput } from './undo.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { delayedEvents } from './test-harness/paths';
import { pendingActor } from './test-harness/fakes';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(applyUndo: (input: ApplyUndoInput) => Promise<unknown>, replyTo?: string) {
  const clock = new SimulatedClock();
  const seen: EventObject[] = [];
  const owner = createMachine({ on: { '*': { actions: ({ event }) => { seen.push(event); } } } });
  const logic = undoMachine.provide({ actors: { applyUndo: fromPromise<unknown, ApplyUndoInput>(({ input }) => applyUndo(input)) } });
  // The owner and the undo actor share a system, as the notifier's child and the contentBrowser do in the app.
  const parent = createMachine({
    invoke: [
      { id: 'owner', systemId: 'contentBrowser', src: owner },
      { id: 'undo', src: logic, input: { requestId: 'req-1', ...(replyTo ? { replyTo } : {}) } },
    ],
  });
  const root = createActor(parent, { clock }).start();
  const undo = root.getSnapshot().children.undo!;
  return { clock, undo, seen };
}

describe('undo', () => {
  it('offers Undo for UNDO_OFFER_MS, then lapses with the change kept', () => {
    const { clock, undo } = start(() => Promise.resolve());
    clock.increment(UNDO_OFFER_MS - 1);
    expect(undo.getSnapshot().value).toBe('offered');
    clock.increment(1);
    expect(undo.getSnapshot().value).toBe('expired');
    expect(undo.getSnapshot().output).toEqual({ outcome: 'expired', message: '' });
  });

  it('undoes with the change\'s request id and tells the actor that made the change', async () => {
    const calls: ApplyUndoInput[] = [];
    const { undo, seen } = start(async (input) => { calls.push(input); }, 'contentBrowser');
    undo.send({ type: 'undo.apply' });
    expect(undo.getSnapshot().value).toBe('undoing');
    await flush();
    expect(calls).toEqual([{ requestId: 'req-1' }]);
    expect(undo.getSnapshot().value).toBe('undone');
    expect(undo.getSnapshot().output).toEqual({ outcome: 'undone', message: UNDO_MESSAGES.undone });
    expect(seen).toContainEqual({ type: 'undo.done', requestId: 'req-1' });
  });

  it('tells the actor named by reference when it is no system actor (a page\'s machine)', async () => {
    const seen: unknown[] = [];
    const page = createActor(createMachine({ on: { '*': { actions: ({ event }) => { seen.push(event); } } } })).start();
    const logic = undoMachine.provide({ actors: { applyUndo: fromPromise<unknown, ApplyUndoInput>(async () => undefined) } });
    const undo = createActor(logic, { input: { requestId: 'req-2', replyRef: page } }).start();
    undo.send({ type: 'undo.apply' });
    await flush();
    expect(undo.getSnapshot().value).toBe('undone');
    expect(seen).toContainEqual({ type: 'undo.done', requestId: 'req-2' });
  });

  it('a refusal ends in failed with the server\'s words, and nobody is told', async () => {
    const { undo, seen } = start(() => Promise.reject(new Error('The content item A changed since: undo refused.')), 'contentBrowser');
    undo.send({ type: 'undo.apply' });
    await flush();
    expect(undo.getSnapshot().value).toBe('failed');
    expect(undo.getSnapshot().output).toEqual({ outcome: 'failed', message: 'The content item A changed since: undo refused.' });
    expect(seen.filter((e) => e.type === 'undo.done')).toEqual([]);
  });

  it('an unreachable server reads as the generic failure', async () => {
    const { undo } = start(() => Promise.reject(Object.assign(new Error('fetch failed'), { status: 0 })));
    undo.send({ type: 'undo.apply' });
    await flush();
    expect(undo.getSnapshot().output).toEqual({ outcome: 'failed', message: UNDO_MESSAGES.failed });
  });

  it('a dismissed offer lapses at once', () => {
    const { undo } = start(() => Promise.resolve());
    undo.send({ type: 'undo.dismiss' });
    expect(undo.getSnapshot().value).toBe('expired');
  });
});

describe('undo: every path', () => {
  const events = [
    { type: 'undo.apply' },
    { type: 'undo.dismiss' },
    { type: 'xstate.done.actor.applyUndo', output: {} },
    { type: 'xstate.error.actor.applyUndo', error: new Error('refused') },
    ...delayedEvents(undoMachine),
  ];
  itReachesEveryStateAndTransition(undoMachine, {
    events,
    input: { requestId: 'req-1', replyTo: 'contentBrowser' },
    logic: undoMachine.provide({ actors: { applyUndo: pendingActor() } }),
  });
});
