/**
 * Issue 28, the network actor: a launch, a withdrawal and a copy each name their request; a withdrawal
 * is confirmed first and refused where it cannot apply. Issue 38: their message goes after
 * MESSAGE_DISPLAY_MS like every network message (spec §4.6) and carries no Undo; the last change stays
 * offered to undo beside the networks (selectLastChange, network.undoLast) for UNDO_ACCEPT_MS; once
 * undone the networks and the data shown are read again.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, SimulatedClock, type AnyActorRef } from 'xstate';
import type { Network, Service } from '../common/contract';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import { UNDO_ACCEPT_MS, UNDO_MESSAGES } from '../common/revisions';
import type { ApplyUndoInput } from './undo.machine';
import type { LaunchGap } from '../common/appcms';
import { lastingUndoMachine, selectIsUndoingLasting, selectLastingChange } from './lasting-undo.machine';
import { networkChangeMachine } from './network-change.machine';
import {
  networkMachine, selectDefaultNetworkRefusal, selectLastChangeActor, selectNetworks, selectPendingChange, type FetchServiceInput, type NetworkSnapshot, type PublishNetworkInput,
} from './network.machine';

const offered = (actor: AnyActorRef) => selectLastingChange(selectLastChangeActor(actor.getSnapshot() as NetworkSnapshot)?.getSnapshot());
const undoing = (actor: AnyActorRef) => selectIsUndoingLasting(selectLastChangeActor(actor.getSnapshot() as NetworkSnapshot)?.getSnapshot());

const MAIN: Network = { name: 'Main Network', identifier: 'main', image: '/main.png', isActive: true, isDefault: true };
const KIDS: Network = { name: 'Kids', identifier: 'kids', image: '/kids.png', isActive: false, isDefault: false };
const SPORTS: Network = { name: 'Sports', identifier: 'sports', image: '/sports.png', isActive: true, isDefault: false };
const SERVICE = { id: 's', siteInternalName: 'demo', isLaunched: true, networks: [MAIN, KIDS, SPORTS] } as unknown as Service;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function start(fail = false, options: { undo?: (input: ApplyUndoInput) => Promise<unknown>; canWrite?: boolean; clock?: SimulatedClock } = {}) {
  const shown: Record<string, unknown>[] = [];
  const undone: ApplyUndoInput[] = [];
  const withdrawn: PublishNetworkInput[] = [];
  const fetches: unknown[] = [];
  const logic = networkMachine.provide({
    actors: {
      fetchService: fromPromise<Service, FetchServiceInput>(async ({ input }) => { fetches.push(input); return SERVICE; }),
      change: networkChangeMachine.provide({
        actors: {
          withdrawNetwork: fromPromise<void, PublishNetworkInput>(async ({ input }) => {
            withdrawn.push(input);
            if (fail) throw new Error('Sports is not launched.');
          }),
          publishNetwork: fromPromise<void, PublishNetworkInput>(async () => undefined),
          checkReadiness: fromPromise<LaunchGap[], PublishNetworkInput>(async () => []),
        },
      }),
      lastChange: lastingUndoMachine.provide({
        actors: { applyUndo: fromPromise<unknown, ApplyUndoInput>(async ({ input }) => { undone.push(input); return (options.undo ?? (async () => ({})))(input); }) },
      }),
    },
  });
  const notifier = createMachine({ on: { 'notify.show': { actions: ({ event }) => { shown.push(event); } } } });
  const root = createActor(createMachine({
    invoke: [
      { id: 'notifier', systemId: 'notifier', src: notifier },
      { id: 'network', systemId: 'network', src: logic, input: { site: 'demo', savedNetworkId: 'sports', canWrite: options.canWrite ?? true } },
    ],
  }), options.clock ? { clock: options.clock } : {}).start();
  const actor = root.getSnapshot().children.network as AnyActorRef;
  return { actor, shown, withdrawn, fetches, undone };
}

describe('network: withdraw and Undo offers (issue 28)', () => {
  it('withdraws after confirmation, marks the network not launched; its 3-second message has no Undo, the lasting offer has', async () => {
    const { actor, shown, withdrawn } = start();
    await flush();
    actor.send({ type: 'network.withdraw' });
    expect(selectPendingChange(actor.getSnapshot())).toEqual({ kind: 'withdraw', identifier: 'sports', name: 'Sports' });
    actor.send({ type: 'network.confirm' });
    await flush();
    expect(withdrawn).toEqual([{ site: 'demo', network: 'sports', requestId: expect.stringMatching(UUID) }]);
    expect(selectNetworks(actor.getSnapshot()).find((n) => n.identifier === 'sports')?.isActive).toBe(false);
    expect(shown.at(-1)).toEqual({ type: 'notify.show', message: OWN_MESSAGES.networkWithdrawn('Sports'), severity: 'success', durationMs: MESSAGE_DISPLAY_MS });
    expect(offered(actor)).toEqual({
      requestId: withdrawn[0]!.requestId, label: OWN_MESSAGES.networkUndoLast.withdraw, replyTo: 'network', text: OWN_MESSAGES.networkLastChange.withdraw('Sports'),
    });
    // Now not launched: a second withdrawal is refused with why, and nothing is sent.
    actor.send({ type: 'network.withdraw' });
    expect(shown.at(-1)).toMatchObject({ message: OWN_MESSAGES.networkIsNotLaunched('Sports'), severity: 'info' });
    expect(withdrawn).toHaveLength(1);
  });

  it('Cancel withdraws nothing; a refusal says why and offers no Undo; the default is refused', async () => {
    const { actor, shown, withdrawn } = start(true);
    await flush();
    actor.send({ type: 'network.withdraw' });
    actor.send({ type: 'network.cancel' });
    expect(withdrawn).toEqual([]);
    actor.send({ type: 'network.withdraw' });
    actor.send({ type: 'network.confirm' });
    await flush();
    expect(shown.at(-1)).toEqual({
      type: 'notify.show', message: `${OWN_MESSAGES.networkWithdrawFailed('Sports')} Sports is not launched.`, severity: 'error', durationMs: expect.any(Number),
    });
    actor.send({ type: 'network.select', identifier: 'main' });
    actor.send({ type: 'network.withdraw' });
    expect(shown.at(-1)).toMatchObject({ message: MESSAGES.isDefaultNetwork('Main Network'), severity: 'warning' });
  });

  it('a launch: "Successfully launched Kids" for 3 seconds, no Undo in it; undo.done (the snackbar\'s) reads the networks again', async () => {
    const { actor, shown, fetches } = start();
    await flush();
    actor.send({ type: 'network.select', identifier: 'kids' });
    actor.send({ type: 'network.launch' });
    await flush();
    actor.send({ type: 'network.confirm' });
    await flush();
    const launched = shown.find((e) => e.message === MESSAGES.launched('Kids'));
    expect(launched).toEqual({ type: 'notify.show', message: MESSAGES.launched('Kids'), severity: 'success', durationMs: MESSAGE_DISPLAY_MS });
    expect(offered(actor)).toEqual({
      requestId: expect.stringMatching(UUID), label: OWN_MESSAGES.networkUndoLast.launch, replyTo: 'network', text: OWN_MESSAGES.networkLastChange.launch('Kids'),
    });
    const before = fetches.length;
    actor.send({ type: 'undo.done', requestId: 'x' });
    await flush();
    expect(fetches).toHaveLength(before + 1);
  });

  it('the lasting Undo of the last change (issue 38): names its request, says Undone., reads the networks again and offers nothing more', async () => {
    const { actor, shown, fetches, undone } = start();
    await flush();
    expect(offered(actor)).toBeNull();
    actor.send({ type: 'network.select', identifier: 'kids' });
    actor.send({ type: 'network.launch' });
    await flush();
    actor.send({ type: 'network.confirm' });
    await flush();
    const change = offered(actor)!;
    const before = fetches.length;
    actor.send({ type: 'network.undoLast' });
    expect(undoing(actor)).toBe(true);
    await flush();
    expect(undone).toEqual([{ requestId: change.requestId }]);
    expect(shown.at(-1)).toEqual({ type: 'notify.show', message: UNDO_MESSAGES.undone, severity: 'success', durationMs: MESSAGE_DISPLAY_MS });
    expect(fetches).toHaveLength(before + 1);
    expect(offered(actor)).toBeNull();
    expect(undoing(actor)).toBe(false);
  });

  it('a refused lasting Undo says why (the server\'s words) and keeps the offer; it lapses after UNDO_ACCEPT_MS', async () => {
    const clock = new SimulatedClock();
    const { actor, shown } = start(false, { clock, undo: async () => { throw new Error('The network Kids changed since: undo refused.'); } });
    await flush();
    actor.send({ type: 'network.select', identifier: 'kids' });
    actor.send({ type: 'network.launch' });
    await flush();
    actor.send({ type: 'network.confirm' });
    await flush();
    actor.send({ type: 'network.undoLast' });
    await flush();
    expect(shown.at(-1)).toMatchObject({ message: 'The network Kids changed since: undo refused.', severity: 'error' });
    expect(offered(actor)?.label).toBe(OWN_MESSAGES.networkUndoLast.launch);
    clock.increment(UNDO_ACCEPT_MS - 1);
    expect(offered(actor)).not.toBeNull();
    clock.increment(1);
    expect(offered(actor)).toBeNull();
  });

  it('a read-only role is offered no lasting Undo and is refused one; the default network\'s refusal shows only to a writer', async () => {
    const reader = start(false, { canWrite: false });
    await flush();
    reader.actor.send({ type: 'network.select', identifier: 'main' });
    expect(selectDefaultNetworkRefusal(reader.actor.getSnapshot())).toBeNull();
    expect(offered(reader.actor)).toBeNull();
    reader.actor.send({ type: 'network.undoLast' });
    expect(reader.shown.at(-1)).toMatchObject({ message: OWN_MESSAGES.networkReadOnly, severity: 'error' });
    const writer = start();
    await flush();
    expect(selectDefaultNetworkRefusal(writer.actor.getSnapshot())).toBeNull();
    writer.actor.send({ type: 'network.select', identifier: 'main' });
    expect(selectDefaultNetworkRefusal(writer.actor.getSnapshot())).toBe(MESSAGES.isDefaultNetwork('Main Network'));
  });

  it('the offer is forgotten when the role may no longer write or the site changes', async () => {
    const { actor } = start();
    await flush();
    actor.send({ type: 'network.withdraw' });
    actor.send({ type: 'network.confirm' });
    await flush();
    expect(offered(actor)?.label).toBe(OWN_MESSAGES.networkUndoLast.withdraw);
    actor.send({ type: 'network.siteChanged', site: 'demo', canWrite: true });
    expect(offered(actor)?.label).toBe(OWN_MESSAGES.networkUndoLast.withdraw);
    actor.send({ type: 'network.siteChanged', site: 'demo', canWrite: false });
    expect(offered(actor)).toBeNull();
  });

  it('the next change replaces the last one offered to undo', async () => {
    const { actor } = start();
    await flush();
    actor.send({ type: 'network.withdraw' });
    actor.send({ type: 'network.confirm' });
    await flush();
    expect(offered(actor)?.label).toBe(OWN_MESSAGES.networkUndoLast.withdraw);
    actor.send({ type: 'network.launch' });
    await flush();
    actor.send({ type: 'network.confirm' });
    await flush();
    expect(offered(actor)).toMatchObject({ label: OWN_MESSAGES.networkUndoLast.launch, text: OWN_MESSAGES.networkLastChange.launch('Sports') });
  });
});
