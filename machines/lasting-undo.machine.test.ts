/**
 * Issue 38: a page's last change, offered to undo on the page while the server accepts it (UNDO_ACCEPT_MS)
 * instead of only in its message; undoing asks the server, says Undone. (or the server's words), and
 * tells the page's actor to read again. One machine for the content library's bulk publish / unpublish
 * (its `lastBulk` child) and the network switcher's last launch, withdrawal or copy (the `network`
 * actor's `lastChange` child, whose messages show for MESSAGE_DISPLAY_MS, spec §4.6).
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, SimulatedClock, type AnyActorRef, type AnyEventObject } from 'xstate';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { UNDO_ACCEPT_MS, UNDO_MESSAGES } from '../common/revisions';
import {
  lastingUndoMachine, selectIsUndoingLasting, selectLastingChange, type LastingChange, type LastingUndoInput, type LastingUndoSnapshot,
} from './lasting-undo.machine';
import { delayedEvents } from './test-harness/paths';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';
import type { ApplyUndoInput } from './undo.machine';

const PUBLISH: LastingChange = { requestId: 'req-1', label: 'Undo publish of 2 items', replyTo: 'contentBrowser' };
const UNPUBLISH: LastingChange = { requestId: 'req-2', label: 'Undo unpublish of 1 item', replyTo: 'contentBrowser' };
/** The network switcher's: what was changed, in words, beside the control. */
const LAUNCH: LastingChange = { requestId: 'req-3', label: 'Undo launch', replyTo: 'network', text: 'Kids was launched.' };
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs it beside a notifier and both pages' actors, as the content library's `lastBulk` or (with the network's input) the network's `lastChange`. */
function start(undo: (input: ApplyUndoInput) => Promise<unknown> = async () => ({}), input?: LastingUndoInput) {
  const shown: unknown[] = [];
  const told: Record<string, unknown[]> = { contentBrowser: [], network: [] };
  const undone: ApplyUndoInput[] = [];
  const clock = new SimulatedClock();
  const logic = lastingUndoMachine.provide({
    actors: { applyUndo: fromPromise<unknown, ApplyUndoInput>(async ({ input: asked }) => { undone.push(asked); return undo(asked); }) },
  });
  const page = (systemId: string) => ({
    id: systemId, systemId, src: createMachine({ on: { 'undo.done': { actions: ({ event }) => { told[systemId]!.push(event); } } } }),
  });
  const root = createActor(createMachine({
    invoke: [
      { id: 'notifier', systemId: 'notifier', src: createMachine({ on: { 'notify.show': { actions: ({ event }) => { shown.push(event); } } } }) },
      page('contentBrowser'),
      page('network'),
      { id: 'lastingUndo', src: logic, input },
    ],
  }), { clock }).start();
  const actor = root.getSnapshot().children.lastingUndo as AnyActorRef;
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
    expect(told).toEqual({ contentBrowser: [{ type: 'undo.done', requestId: 'req-1' }], network: [] });
    expect(selectLastingChange(snapshot())).toBeNull();
    expect(selectIsUndoingLasting(snapshot())).toBe(false);
  });

  it("a refused undo shows the server's words and keeps the offer; the page's actor is not told", async () => {
    const { actor, snapshot, shown, told } = start(async () => { throw new Error('Item 1 changed since: undo refused.'); });
    actor.send({ type: 'lastingUndo.keep', change: PUBLISH });
    actor.send({ type: 'lastingUndo.undo' });
    await flush();
    expect(shown).toEqual([{ type: 'notify.show', message: 'Item 1 changed since: undo refused.', severity: 'error' }]);
    expect(told).toEqual({ contentBrowser: [], network: [] });
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

describe('lasting Undo: the network switcher\'s last change (issue 38, spec §4.6)', () => {
  const NETWORK: LastingUndoInput = { messageDurationMs: MESSAGE_DISPLAY_MS };

  it('offers the change with its words; undoing says Undone. for 3 seconds and tells the network actor only', async () => {
    const { actor, snapshot, shown, told, undone } = start(undefined, NETWORK);
    actor.send({ type: 'lastingUndo.keep', change: LAUNCH });
    expect(selectLastingChange(snapshot())).toEqual(LAUNCH);
    actor.send({ type: 'lastingUndo.undo' });
    await flush();
    expect(undone).toEqual([{ requestId: 'req-3' }]);
    expect(shown).toEqual([{ type: 'notify.show', message: UNDO_MESSAGES.undone, severity: 'success', durationMs: MESSAGE_DISPLAY_MS }]);
    expect(told).toEqual({ contentBrowser: [], network: [{ type: 'undo.done', requestId: 'req-3' }] });
    expect(selectLastingChange(snapshot())).toBeNull();
  });

  it('a refused undo shows the server\'s words for 3 seconds and keeps the offer; the network actor is not told', async () => {
    const { actor, snapshot, shown, told } = start(async () => { throw new Error('The network Kids changed since: undo refused.'); }, NETWORK);
    actor.send({ type: 'lastingUndo.keep', change: LAUNCH });
    actor.send({ type: 'lastingUndo.undo' });
    await flush();
    expect(shown).toEqual([{ type: 'notify.show', message: 'The network Kids changed since: undo refused.', severity: 'error', durationMs: MESSAGE_DISPLAY_MS }]);
    expect(told).toEqual({ contentBrowser: [], network: [] });
    expect(selectLastingChange(snapshot())).toEqual(LAUNCH);
  });

  it('is forgotten when the site or role changes (lastingUndo.forget): nothing to undo', () => {
    const { actor, snapshot, undone } = start(undefined, NETWORK);
    actor.send({ type: 'lastingUndo.keep', change: LAUNCH });
    actor.send({ type: 'lastingUndo.forget' });
    expect(selectLastingChange(snapshot())).toBeNull();
    actor.send({ type: 'lastingUndo.undo' });
    expect(undone).toEqual([]);
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
