/**
 * Issue 28, the network actor: a launch, a withdrawal and a copy each name their request and offer
 * its Undo in the snackbar (replyTo network); a withdrawal is confirmed first and refused where it
 * cannot apply; once an Undo went through (`undo.done`) the networks and the data shown are read again.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, type AnyActorRef } from 'xstate';
import type { Network, Service } from '../common/contract';
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import type { LaunchGap } from '../common/appcms';
import { networkMachine, selectNetworks, selectPendingChange, type FetchServiceInput, type PublishNetworkInput } from './network.machine';

const MAIN: Network = { name: 'Main Network', identifier: 'main', image: '/main.png', isActive: true, isDefault: true };
const KIDS: Network = { name: 'Kids', identifier: 'kids', image: '/kids.png', isActive: false, isDefault: false };
const SPORTS: Network = { name: 'Sports', identifier: 'sports', image: '/sports.png', isActive: true, isDefault: false };
const SERVICE = { id: 's', siteInternalName: 'demo', isLaunched: true, networks: [MAIN, KIDS, SPORTS] } as unknown as Service;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function start(fail = false) {
  const shown: Record<string, unknown>[] = [];
  const withdrawn: PublishNetworkInput[] = [];
  const fetches: unknown[] = [];
  const logic = networkMachine.provide({
    actors: {
      fetchService: fromPromise<Service, FetchServiceInput>(async ({ input }) => { fetches.push(input); return SERVICE; }),
      withdrawNetwork: fromPromise<void, PublishNetworkInput>(async ({ input }) => {
        withdrawn.push(input);
        if (fail) throw new Error('Sports is not launched.');
      }),
      publishNetwork: fromPromise<void, PublishNetworkInput>(async () => undefined),
      checkReadiness: fromPromise<LaunchGap[], PublishNetworkInput>(async () => []),
    },
  });
  const notifier = createMachine({ on: { 'notify.show': { actions: ({ event }) => { shown.push(event); } } } });
  const root = createActor(createMachine({
    invoke: [
      { id: 'notifier', systemId: 'notifier', src: notifier },
      { id: 'network', systemId: 'network', src: logic, input: { site: 'demo', savedNetworkId: 'sports', canWrite: true } },
    ],
  })).start();
  const actor = root.getSnapshot().children.network as AnyActorRef;
  return { actor, shown, withdrawn, fetches };
}

describe('network: withdraw and Undo offers (issue 28)', () => {
  it('withdraws after confirmation, marks the network not launched and offers Undo of that request', async () => {
    const { actor, shown, withdrawn } = start();
    await flush();
    actor.send({ type: 'network.withdraw' });
    expect(selectPendingChange(actor.getSnapshot())).toEqual({ kind: 'withdraw', identifier: 'sports', name: 'Sports' });
    actor.send({ type: 'network.confirm' });
    await flush();
    expect(withdrawn).toEqual([{ site: 'demo', network: 'sports', requestId: expect.stringMatching(UUID) }]);
    expect(selectNetworks(actor.getSnapshot()).find((n) => n.identifier === 'sports')?.isActive).toBe(false);
    expect(shown.at(-1)).toMatchObject({
      message: OWN_MESSAGES.networkWithdrawn('Sports'), severity: 'success', undo: { requestId: withdrawn[0]!.requestId, replyTo: 'network' },
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

  it('a launch offers its Undo; undo.done reads the networks again', async () => {
    const { actor, shown, fetches } = start();
    await flush();
    actor.send({ type: 'network.select', identifier: 'kids' });
    actor.send({ type: 'network.launch' });
    await flush();
    actor.send({ type: 'network.confirm' });
    await flush();
    const launched = shown.find((e) => e.message === MESSAGES.launched('Kids'));
    expect(launched).toMatchObject({ undo: { requestId: expect.stringMatching(UUID), replyTo: 'network' } });
    const before = fetches.length;
    actor.send({ type: 'undo.done', requestId: 'x' });
    await flush();
    expect(fetches).toHaveLength(before + 1);
  });
});
