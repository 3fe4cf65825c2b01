/**
 * Issue 38: the network switcher's last change, offered to undo beside the networks while the server
 * accepts it (UNDO_ACCEPT_MS); undoing asks the server, says Undone. (or the server's words) for
 * MESSAGE_DISPLAY_MS, and tells the `network` actor to read again.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, SimulatedClock, type AnyActorRef, type AnyEventObject } from 'xstate';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { UNDO_ACCEPT_MS, UNDO_MESSAGES } from '../common/revisions';
import {
  networkLastChangeMachine, selectIsUndoingChange, selectOfferedChange, type LastNetworkChange, type NetworkLastChangeSnapshot,
} from './network-last-change.machine';
import { delayedEvents } from './test-harness/paths';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';
import type { ApplyUndoInput } from './undo.machine';

const LAUNCH: LastNetworkChange = { kind: 'launch', requestId: 'req-1', text: 'Kids was launched.' };
const COPY: LastNetworkChange = { kind: 'copy', requestId: 'req-2', text: 'The brand of Main was copied to Kids.' };
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function start(undo: (input: ApplyUndoInput) => Promise<unknown> = async () => ({})) {
  const shown: unknown[] = [];
  const told: unknown[] = [];
  const undone: ApplyUndoInput[] = [];
  const clock = new SimulatedClock();
  const logic = networkLastChangeMachine.provide({
    actors: { applyUndo: fromPromise<unknown, ApplyUndoInput>(async ({ input }) => { undone.push(input); return undo(input); }) },
  });
  const root = createActor(createMachine({
    invoke: [
      { id: 'notifier', systemId: 'notifier', src: createMachine({ on: { 'notify.show': { actions: ({ event }) => { shown.push(event); } } } }) },
      { id: 'network', systemId: 'network', src: createMachine({ on: { 'undo.done': { actions: ({ event }) => { told.push(event); } } } }) },
      { id: 'lastChange', systemId: 'lastChange', src: logic },
    ],
  }), { clock }).start();
  const actor = root.getSnapshot().children.lastChange as AnyActorRef;
  const snapshot = () => actor.getSnapshot() as NetworkLastChangeSnapshot;
  return { actor, snapshot, shown, told, undone, clock };
}

describe('network last change (issue 38)', () => {
  it('offers nothing at first, then the change it is told; a newer change replaces it', () => {
    const { actor, snapshot } = start();
    expect(selectOfferedChange(snapshot())).toBeNull();
    expect(selectOfferedChange(undefined)).toBeNull();
    actor.send({ type: 'lastChange.keep', change: LAUNCH });
    expect(selectOfferedChange(snapshot())).toEqual(LAUNCH);
    actor.send({ type: 'lastChange.keep', change: COPY });
    expect(selectOfferedChange(snapshot())).toEqual(COPY);
  });

  it('undoes with the change\'s request id: Undone. for 3 seconds, the network actor told, nothing offered any more', async () => {
    const { actor, snapshot, shown, told, undone } = start();
    actor.send({ type: 'lastChange.keep', change: LAUNCH });
    actor.send({ type: 'lastChange.undo' });
    expect(selectIsUndoingChange(snapshot())).toBe(true);
    await flush();
    expect(undone).toEqual([{ requestId: 'req-1' }]);
    expect(shown).toEqual([{ type: 'notify.show', message: UNDO_MESSAGES.undone, severity: 'success', durationMs: MESSAGE_DISPLAY_MS }]);
    expect(told).toEqual([{ type: 'undo.done', requestId: 'req-1' }]);
    expect(selectOfferedChange(snapshot())).toBeNull();
    expect(selectIsUndoingChange(snapshot())).toBe(false);
  });

  it('a refused undo shows the server\'s words for 3 seconds and keeps the offer; the network actor is not told', async () => {
    const { actor, snapshot, shown, told } = start(async () => { throw new Error('The network Kids changed since: undo refused.'); });
    actor.send({ type: 'lastChange.keep', change: LAUNCH });
    actor.send({ type: 'lastChange.undo' });
    await flush();
    expect(shown).toEqual([{ type: 'notify.show', message: 'The network Kids changed since: undo refused.', severity: 'error', durationMs: MESSAGE_DISPLAY_MS }]);
    expect(told).toEqual([]);
    expect(selectOfferedChange(snapshot())).toEqual(LAUNCH);
  });

  it('the offer lapses after UNDO_ACCEPT_MS (restarted by a newer change), or when forgotten; undo then does nothing', () => {
    const { actor, snapshot, clock, undone } = start();
    actor.send({ type: 'lastChange.keep', change: LAUNCH });
    clock.increment(UNDO_ACCEPT_MS - 1);
    actor.send({ type: 'lastChange.keep', change: COPY });
    clock.increment(UNDO_ACCEPT_MS - 1);
    expect(selectOfferedChange(snapshot())).toEqual(COPY);
    clock.increment(1);
    expect(selectOfferedChange(snapshot())).toBeNull();
    actor.send({ type: 'lastChange.undo' });
    expect(undone).toEqual([]);
    actor.send({ type: 'lastChange.keep', change: LAUNCH });
    actor.send({ type: 'lastChange.forget' });
    expect(selectOfferedChange(snapshot())).toBeNull();
  });
});

describe('network last change: every path', () => {
  const events: AnyEventObject[] = [
    { type: 'lastChange.keep', change: LAUNCH }, { type: 'lastChange.undo' }, { type: 'lastChange.forget' },
    { type: 'xstate.done.actor.applyUndo', output: {} }, { type: 'xstate.error.actor.applyUndo', error: new Error('refused') },
    ...delayedEvents(networkLastChangeMachine),
  ];
  itReachesEveryStateAndTransition(networkLastChangeMachine, {
    events,
    logic: networkLastChangeMachine.provide({ actors: { applyUndo: pendingActor() } }),
  });
});
