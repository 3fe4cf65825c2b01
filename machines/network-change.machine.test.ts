/**
 * The `change` child of the network machine on its own: one launch, withdrawal or copy, asked and
 * then made, ending with the outcome the `network` actor shows. The network machine's tests drive it
 * inside its parent (network.machine.test.ts, network-undo.test.ts); here every path of each kind.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise, type AnyEventObject } from 'xstate';
import type { DiffEntry, LaunchGap } from '../common/appcms';
import type { Network } from '../common/contract';
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import {
  networkChangeMachine, selectChangeAsking, selectChangeCopyPreview, selectChangeReadiness, selectChangeRunning,
  type NetworkChangeInput, type NetworkChangeOutcome,
} from './network-change.machine';
import { CredentialsMissingError, type CopyFromDefaultInput, type PendingChange, type PublishNetworkInput } from './network.types';
import { createCoverage } from './test-harness/coverage';
import { coveringPaths, drivePath, pathTitle } from './test-harness/paths';
import { pendingActor } from './test-harness/fakes';

const KIDS: Network = { name: 'Kids', identifier: 'kids', image: '/kids.png', isActive: false, isDefault: false };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LAUNCH: PendingChange = { kind: 'launch', identifier: 'kids', name: 'Kids' };
const WITHDRAW: PendingChange = { kind: 'withdraw', identifier: 'sports', name: 'Sports' };
const COPY: PendingChange = { kind: 'copy', what: 'settings', identifier: 'kids', name: 'Kids', defaultName: 'Main Network' };
const CHANGES: DiffEntry[] = [{ field: 'primaryColor', label: 'Primary colour', from: '#000000', to: '#1370B3' }];

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The child with I/O that answers as told (or fails with `fail`), recording each call's input. */
function start(change: PendingChange, answers: { fail?: unknown; gaps?: LaunchGap[]; preview?: DiffEntry[] | Error; copied?: Network | null } = {}) {
  const calls: Record<string, unknown[]> = {};
  const io = <TOutput, TInput>(name: string, answer: () => TOutput) => fromPromise<TOutput, TInput>(async ({ input }) => {
    (calls[name] ??= []).push(input);
    if (answers.fail !== undefined) throw answers.fail;
    return answer();
  });
  const logic = networkChangeMachine.provide({
    actors: {
      checkReadiness: fromPromise<LaunchGap[], PublishNetworkInput>(async ({ input }) => { (calls.checkReadiness ??= []).push(input); return answers.gaps ?? []; }),
      previewCopy: fromPromise<DiffEntry[], CopyFromDefaultInput>(async ({ input }) => {
        (calls.previewCopy ??= []).push(input);
        if (answers.preview instanceof Error) throw answers.preview;
        return answers.preview ?? [];
      }),
      publishNetwork: io<void, PublishNetworkInput>('publishNetwork', () => undefined),
      withdrawNetwork: io<void, PublishNetworkInput>('withdrawNetwork', () => undefined),
      copyFromDefault: io<Network | null, CopyFromDefaultInput>('copyFromDefault', () => answers.copied ?? null),
    },
  });
  const actor = createActor(logic, { input: { site: 'demo', change } }).start();
  actor.send({ type: 'change.open' });
  return { actor, calls, ended: toPromise(actor) };
}

describe('network change', () => {
  it('checks what a network lacks before its launch can be confirmed, then launches it with its own request id', async () => {
    const { actor, calls, ended } = start(LAUNCH, { gaps: ['brand'] });
    expect(selectChangeReadiness(actor.getSnapshot())).toEqual({ phase: 'checking' });
    // Not while the check runs.
    actor.send({ type: 'change.confirm' });
    expect(selectChangeRunning(actor.getSnapshot())).toBe(false);
    await flush();
    expect(selectChangeReadiness(actor.getSnapshot())).toEqual({ phase: 'checked', gaps: ['brand'] });
    expect(calls.checkReadiness).toEqual([{ site: 'demo', network: 'kids' }]);
    actor.send({ type: 'change.confirm' });
    expect(selectChangeRunning(actor.getSnapshot())).toBe(true);
    expect(selectChangeAsking(actor.getSnapshot())).toBe(false);
    const outcome = await ended;
    expect(calls.publishNetwork).toEqual([{ site: 'demo', network: 'kids', requestId: expect.stringMatching(UUID) }]);
    expect(outcome).toEqual({
      outcome: 'done',
      message: { text: 'Successfully launched Kids', severity: 'success' },
      lastChange: {
        requestId: expect.stringMatching(UUID), label: OWN_MESSAGES.networkUndoLast.launch, replyTo: 'network', text: OWN_MESSAGES.networkLastChange.launch('Kids'),
      },
      copied: null,
    });
  });

  it('ends cancelled, having changed nothing, when the operator cancels', async () => {
    const { actor, calls, ended } = start(WITHDRAW);
    expect(selectChangeAsking(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'change.cancel' });
    await expect(ended).resolves.toEqual({ outcome: 'cancelled', message: null, lastChange: null, copied: null });
    expect(calls.withdrawNetwork).toBeUndefined();
  });

  it('withdraws, or says why not with the server\'s words', async () => {
    const done = start(WITHDRAW);
    done.actor.send({ type: 'change.confirm' });
    await expect(done.ended).resolves.toMatchObject({
      outcome: 'done', message: { text: OWN_MESSAGES.networkWithdrawn('Sports'), severity: 'success' }, lastChange: { label: 'Undo withdrawal', replyTo: 'network', text: 'Sports was withdrawn.' },
    });
    const refused = start(WITHDRAW, { fail: new Error('Sports is not launched.') });
    refused.actor.send({ type: 'change.confirm' });
    await expect(refused.ended).resolves.toEqual({
      outcome: 'failed', message: { text: `${OWN_MESSAGES.networkWithdrawFailed('Sports')} Sports is not launched.`, severity: 'error' }, lastChange: null, copied: null,
    });
  });

  it('shows what a copy would change, copies, and names what was copied from where', async () => {
    const { actor, calls, ended } = start(COPY, { preview: CHANGES, copied: KIDS });
    expect(selectChangeCopyPreview(actor.getSnapshot())).toEqual({ phase: 'comparing' });
    await flush();
    expect(selectChangeCopyPreview(actor.getSnapshot())).toEqual({ phase: 'compared', changes: CHANGES });
    expect(calls.previewCopy).toEqual([{ site: 'demo', network: 'kids', what: 'settings' }]);
    actor.send({ type: 'change.confirm' });
    await expect(ended).resolves.toMatchObject({
      outcome: 'done',
      message: { text: MESSAGES.copied('settings', 'Main Network', 'Kids'), severity: 'success' },
      lastChange: { label: 'Undo copy', replyTo: 'network', text: 'The settings of Main Network was copied to Kids.' },
      copied: KIDS,
    });
    expect(calls.copyFromDefault).toEqual([{ site: 'demo', network: 'kids', what: 'settings', requestId: expect.stringMatching(UUID) }]);
  });

  it('lets a copy be confirmed when its comparison cannot be read', async () => {
    const { actor, ended } = start(COPY, { preview: new Error('offline') });
    await flush();
    expect(selectChangeCopyPreview(actor.getSnapshot())).toEqual({ phase: 'failed' });
    actor.send({ type: 'change.confirm' });
    await expect(ended).resolves.toMatchObject({ outcome: 'done' });
  });

  it('fails with "Authorization or API key missing" without credentials, else with the spec\'s message', async () => {
    const missing = start(LAUNCH, { fail: new CredentialsMissingError() });
    missing.actor.send({ type: 'change.confirm' });
    await flush();
    missing.actor.send({ type: 'change.confirm' });
    await expect(missing.ended).resolves.toMatchObject({ outcome: 'failed', message: { text: MESSAGES.credentialsMissing, severity: 'error' } });
    const launch = start(LAUNCH, { fail: new Error('nope') });
    await flush();
    launch.actor.send({ type: 'change.confirm' });
    await expect(launch.ended).resolves.toMatchObject({ message: { text: MESSAGES.failedToLaunch('Kids') } });
    const copy = start(COPY, { fail: new Error('') });
    copy.actor.send({ type: 'change.confirm' });
    await expect(copy.ended).resolves.toMatchObject({ message: { text: MESSAGES.genericGraphqlError } });
  });

  it('reads nothing of a snapshot it does not have', () => {
    expect(selectChangeReadiness(undefined)).toBeNull();
    expect(selectChangeCopyPreview(undefined)).toBeNull();
    expect(selectChangeRunning(undefined)).toBe(false);
    expect(selectChangeAsking(undefined)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Every path: each kind of change is its own graph (the kind is input); together they cover the machine.

const EVENTS: AnyEventObject[] = [
  { type: 'change.open' },
  { type: 'change.confirm' },
  { type: 'change.cancel' },
  { type: 'xstate.done.actor.checkReadiness', output: ['platform'] },
  { type: 'xstate.error.actor.checkReadiness', error: new Error('offline') },
  { type: 'xstate.done.actor.previewCopy', output: CHANGES },
  { type: 'xstate.error.actor.previewCopy', error: new Error('offline') },
  { type: 'xstate.done.actor.publishNetwork', output: undefined },
  { type: 'xstate.error.actor.publishNetwork', error: new Error('refused') },
  { type: 'xstate.error.actor.publishNetwork', error: new CredentialsMissingError() },
  { type: 'xstate.done.actor.withdrawNetwork', output: undefined },
  { type: 'xstate.error.actor.withdrawNetwork', error: new Error('refused') },
  { type: 'xstate.error.actor.withdrawNetwork', error: new CredentialsMissingError() },
  { type: 'xstate.done.actor.copyFromDefault', output: KIDS },
  { type: 'xstate.error.actor.copyFromDefault', error: new Error('') },
  { type: 'xstate.error.actor.copyFromDefault', error: new CredentialsMissingError() },
];

const PENDING = pendingActor();
const FAKED = networkChangeMachine.provide({
  actors: { checkReadiness: PENDING, previewCopy: PENDING, publishNetwork: PENDING, withdrawNetwork: PENDING, copyFromDefault: PENDING },
});
const INPUTS: NetworkChangeInput[] = [LAUNCH, WITHDRAW, COPY].map((change) => ({ site: 'demo', change }));
/** The request id is new for every change; the graph tells states apart without it. */
const serializeState = (snapshot: { value: unknown; context: { outcome: NetworkChangeOutcome } }) =>
  JSON.stringify({ value: snapshot.value, outcome: snapshot.context.outcome.outcome });

describe('network change: every path', () => {
  for (const input of INPUTS) {
    const paths = coveringPaths(networkChangeMachine, { events: EVENTS, input, serializeState: serializeState as never });
    it.each(paths.map((path) => [pathTitle(path), path] as const))(`${input.change.kind}: reaches %s`, (_, path) => {
      expect(drivePath(FAKED, path, { input }).value).toEqual(path.state.value);
    });
  }

  it('covers every state and every transition of the machine, over the three kinds', () => {
    const coverage = createCoverage(networkChangeMachine);
    for (const input of INPUTS) {
      for (const path of coveringPaths(networkChangeMachine, { events: EVENTS, input, serializeState: serializeState as never })) {
        drivePath(FAKED, path, { input, inspect: coverage.inspect });
      }
    }
    const report = coverage.report();
    expect(report.states.missing).toEqual([]);
    expect(report.transitions.missing).toEqual([]);
  });
});
