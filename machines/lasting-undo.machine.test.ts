/**
 * Issue 38: a page's last change (the content library's bulk publish / unpublish), offered to undo on
 * the page while the server accepts it (UNDO_ACCEPT_MS) instead of only in its 8 s snackbar message;
 * undoing asks the server, says Undone. (or the server's words), and tells the page's actor to read again.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, SimulatedClock, type AnyActorRef, type AnyEventObject } from 'xstate';
import { UNDO_ACCEPT_MS, UNDO_MESSAGES } from '../common/revisions';
import {
  lastingUndoMachine, selectIsUndoingLasting, selectLastingChange, type LastingChange, type LastingUndoSnapshot,
} from './lasting-undo.machine';
import { delayedEvents } from './test-harness/paths';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';
import type { ApplyUndoInput } from './undo.machine';

const PUBLISH: LastingChange = { requestId: 'req-1', label: 'Undo publish of 2 items', replyTo: 'contentBrowser' };
const UNPUBLISH: LastingChange = { requestId: 'req-2', label: 'Undo unpublish of 1 item', replyTo: 'contentBrowser' };
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function start(undo: (input: ApplyUndoInput) => Promise<unknown> = async () => ({})) {
  const shown: unknown[] = [];
  const told: unknown[] = [];
  const undone: ApplyUndoInput[] = [];
  const clock = new SimulatedClock();
  const logic = lastingUndoMachine.provide({
    actors: { applyUndo: fromPromise<unknown, ApplyUndoInput>(async ({ input }) => { undone.push(input); return undo(input); }) },
  });
  const root = createActor(createMachine({
    invoke: [
      { id: 'notifier', systemId: 'notifier', src: createMachine({ on: { 'notify.show': { actions: ({ event }) => { shown.push(event); } } } }) },
      { id: 'contentBrowser', systemId: 'contentBrowser', src: createMachine({ on: { 'undo.done': { actions: ({ event }) => { told.push(event); } } } }) },
      { id: 'lastBulk', src: logic },
    ],
  }), { clock }).start();
  const actor = root.getSnapshot().children.lastBulk as AnyActorRef;
  const snapshot = () => actor.getSnapshot() as LastingUndoSnapshot;
  return { actor, snapshot, shown, told, undone, clock };
}

describe('lasting Undo (issue 38)', () => {
  it('offers nothing at first, then the change it is told; a newer change replaces it', () => {
    const { actor, snapshot } = start();
    expect(selectLastingChange(snapshot())).toBeNull();
    expect(selectLastingChange(undefined)).toBeNull();
    expect(selectIsUndoingLasting(undefined)).toBe(false);
    actor.send({ type: 'lastingUndo.keep', change: PUBLISH });
    expect(selectLastingChange(snapshot())).toEqual(PUBLISH);
    actor.send({ type: 'lastingUndo.keep', change: UNPUBLISH });
    expect(selectLastingChange(snapshot())).toEqual(UNPUBLISH);
  });

  it("undoes with the change's request id: Undone., the page's actor told, nothing offered any more", async () => {
    const { actor, snapshot, shown, told, undone } = start();
    actor.send({ type: 'lastingUndo.keep', change: PUBLISH });
    actor.send({ type: 'lastingUndo.undo' });
    expect(selectIsUndoingLasting(snapshot())).toBe(true);
    expect(selectLastingChange(snapshot())).toEqual(PUBLISH);
    await flush();
    expect(undone).toEqual([{ requestId: 'req-1' }]);
    expect(shown).toEqual([{ type: 'notify.show', message: UNDO_MESSAGES.undone, severity: 'success' }]);
    expect(told).toEqual([{ type: 'undo.done', requestId: 'req-1' }]);
    expect(selectLastingChange(snapshot())).toBeNull();
    expect(selectIsUndoingLasting(snapshot())).toBe(false);
  });

  it("a refused undo shows the server's words and keeps the offer; the page's actor is not told", async () => {
    const { actor, snapshot, shown, told } = start(async () => { throw new Error('Item 1 changed since: undo refused.'); });
    actor.send({ type: 'lastingUndo.keep', change: PUBLISH });
    actor.send({ type: 'lastingUndo.undo' });
    await flush();
    expect(shown).toEqual([{ type: 'notify.show', message: 'Item 1 changed since: undo refused.', severity: 'error' }]);
    expect(told).toEqual([]);
    expect(selectLastingChange(snapshot())).toEqual(PUBLISH);
  });

  it('the offer lapses after UNDO_ACCEPT_MS (restarted by a newer change), or when forgotten; undo then does nothing', () => {
    const { actor, snapshot, clock, undone } = start();
    actor.send({ type: 'lastingUndo.keep', change: PUBLISH });
    clock.increment(UNDO_ACCEPT_MS - 1);
    actor.send({ type: 'lastingUndo.keep', change: UNPUBLISH });
    clock.increment(UNDO_ACCEPT_MS - 1);
    expect(selectLastingChange(snapshot())).toEqual(UNPUBLISH);
    clock.increment(1);
    expect(selectLastingChange(snapshot())).toBeNull();
    actor.send({ type: 'lastingUndo.undo' });
    expect(undone).toEqual([]);
    actor.send({ type: 'lastingUndo.keep', change: PUBLISH });
    actor.send({ type: 'lastingUndo.forget' });
    expect(selectLastingChange(snapshot())).toBeNull();
  });
});

describe('lasting Undo: every path', () => {
  const events: AnyEventObject[] = [
    { type: 'lastingUndo.keep', change: PUBLISH }, { type: 'lastingUndo.undo' }, { type: 'lastingUndo.forget' },
    { type: 'xstate.done.actor.applyUndo', output: {} }, { type: 'xstate.error.actor.applyUndo', error: new Error('refused') },
    ...delayedEvents(lastingUndoMachine),
  ];
  itReachesEveryStateAndTransition(lastingUndoMachine, {
    events,
    logic: lastingUndoMachine.provide({ actors: { applyUndo: pendingActor() } }),
  });
});
