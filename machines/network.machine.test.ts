/**
 * Headless tests of the network machine. Two layers:
 * 1. Every transition of the machine's graph (from xstate/graph, per start-up scenario), reached by
 *    its shortest path and driven on a real actor with fake I/O actors and a SimulatedClock (no real
 *    delays); each step must land where the pure graph says. A transition already driven in an
 *    equivalent state (same state value, change asked about, event, target and message: in another
 *    scenario too) and an event no active state handles (nothing can happen) are not driven again;
 *    a state is driven on its own only when no longer path goes through it.
 * 2. Behaviour tests that pin the spec's messages, flags and effects.
 * Every actor either layer drives feeds `createCoverage` (npm run test:paths); the last test asserts
 * the walk (each scenario's, walked once, or walked there when run alone) reaches every state and
 * takes every transition.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup, SimulatedClock, type AnyEventObject, type InspectionEvent } from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import type { Network, NetworkDataKind, Service } from '../common/contract';
import { MESSAGE_DISPLAY_MS } from '../common/constants';
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import {
  CredentialsMissingError, networkMachine, selectCanCopy, selectCopyPreview, selectCanLaunch, selectLaunchReadiness, selectCanWrite, selectCurrentNetwork, selectIsConfirming,
  selectLoading, selectMessage, selectNetworkData, selectNetworks, selectPendingChange, selectSyncSuccess,
  type FetchNetworkDataInput, type FetchServiceInput, type NetworkData, type NetworkEvent, type NetworkMachineInput, type NetworkSnapshot,
} from './network.machine';
import { networkChangeMachine, type NetworkChangeInput, type NetworkChangeOutcome } from './network-change.machine';
import { notifierMachine, selectNotification } from './notifier.machine';
import { createCoverage } from './test-harness/coverage';

const MAIN: Network = { name: 'Main Network', identifier: 'main', image: '/main.png', isActive: true, isDefault: true };
const KIDS: Network = { name: 'Kids', identifier: 'kids', image: '/kids.png', isActive: false, isDefault: false };
const SPORTS: Network = { name: 'Sports', identifier: 'sports', image: '/sports.png', isActive: true, isDefault: false };

const SERVICE: Service = {
  id: 'site-1', siteInternalName: 'demo', isLaunched: true, networks: [MAIN, KIDS, SPORTS],
  serviceName: 'Demo', serviceType: 'SVOD', serviceTypes: ['SVOD'], templateName: 'default', languageCode: 'en',
  forceLogin: false, isMonetizationModelEnabled: true, domainName: 'demo.example', siteBaseUrl: 'https://demo.example',
  backendUrl: 'https://api.demo.example',
};
const BRAND: NetworkData = { theme: { primaryColor: '#1370B3' } };
/** A change's own request id (issue 28: its Undo names it). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type ActorName = 'fetchService' | 'publishNetwork' | 'withdrawNetwork' | 'copyFromDefault' | 'previewCopy' | 'fetchNetworkData' | 'checkReadiness' | 'change';

interface Call { input: unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }

const noCalls = (): Record<ActorName, Call[]> => ({
  fetchService: [], publishNetwork: [], withdrawNetwork: [], copyFromDefault: [], previewCopy: [], fetchNetworkData: [], checkReadiness: [], change: [],
});

/** A fake I/O actor: each invocation waits in `calls()` until the test settles it. */
const fakeActor = <TOutput, TInput>(calls: () => Record<ActorName, Call[]>, name: ActorName) =>
  fromPromise<TOutput, TInput>(({ input }) => new Promise((resolve, reject) => {
    calls()[name].push({ input, resolve: (value) => resolve(value as TOutput), reject });
  }));

/** Fake I/O actors: each invocation waits until the test settles it. The `change` child is the real one with fake I/O. */
function fakeActors() {
  const calls = noCalls();
  const fake = <TOutput, TInput>(name: ActorName) => fakeActor<TOutput, TInput>(() => calls, name);
  const change = networkChangeMachine.provide({
    actors: {
      publishNetwork: fake('publishNetwork'),
      withdrawNetwork: fake('withdrawNetwork'),
      copyFromDefault: fake('copyFromDefault'),
      previewCopy: fake('previewCopy'),
      checkReadiness: fake('checkReadiness'),
    },
  });
  return {
    calls,
    actors: {
      fetchService: fake<Service, FetchServiceInput>('fetchService'),
      fetchNetworkData: fake<NetworkData | null, FetchNetworkDataInput>('fetchNetworkData'),
      change,
    },
  };
}

const coverage = createCoverage(networkMachine);

/** Lets settled fake actors report back: runs after every pending promise reaction. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function start(input: NetworkMachineInput, inspect: (event: InspectionEvent) => void = coverage.inspect) {
  const fakes = fakeActors();
  const saveSelectedNetwork = vi.fn();
  const forgetSelectedNetwork = vi.fn();
  const clock = new SimulatedClock();
  const machine = networkMachine.provide({
    actors: fakes.actors,
    actions: {
      saveSelectedNetwork: ({ context }) => saveSelectedNetwork(context.selectedId),
      forgetSelectedNetwork,
    },
  });
  const actor = createActor(machine, { input: { canWrite: true, ...input }, clock, inspect });
  actor.start();
  const settle = async (name: ActorName, outcome: { output?: unknown; error?: unknown }) => {
    const call = fakes.calls[name].at(-1);
    if (!call) throw new Error(`no pending ${name} call`);
    if ('error' in outcome) call.reject(outcome.error);
    else call.resolve(outcome.output);
    await flush();
  };
  return { actor, clock, calls: fakes.calls, settle, saveSelectedNetwork, forgetSelectedNetwork };
}

async function loaded(input: Partial<NetworkMachineInput> = {}) {
  const harness = start({ site: 'demo', savedNetworkId: null, ...input });
  await harness.settle('fetchService', { output: SERVICE });
  return harness;
}

// ---------------------------------------------------------------------------------------------
// 1. The graph: every transition, driven headlessly.

const AFTER_MESSAGE = (() => {
  const node = networkMachine.getStateNodeById('network.message.visible');
  const [after] = node.after;
  if (!after) throw new Error('message.visible has no delayed transition');
  return after.eventType;
})();

const ACTOR_STATES: Partial<Record<ActorName, (s: NetworkSnapshot) => boolean>> = {
  fetchService: (s) => s.matches({ networks: 'loading' }),
  fetchNetworkData: (s) => s.matches({ reads: 'reading' }),
  change: (s) => s.matches({ networks: { ready: 'changing' } }),
};

/** How a change can end, as the `change` child's output (its own paths: network-change.machine.test.ts). */
const CHANGE_ENDS: NetworkChangeOutcome[] = [
  { outcome: 'cancelled', message: null, lastChange: null, copied: null },
  { outcome: 'failed', message: { text: 'Failed to launch Kids', severity: 'error' }, lastChange: null, copied: null },
  { outcome: 'done', message: { text: 'Successfully copied brand from Main Network to Kids', severity: 'success' }, lastChange: { requestId: 'req-2', label: 'Undo copy', replyTo: 'network', text: 'The brand of Main Network was copied to Kids.' }, copied: KIDS },
];

const GRAPH_EVENTS: AnyEventObject[] = [
  { type: 'network.select', identifier: 'kids' },
  { type: 'network.select', identifier: 'main' },
  { type: 'network.select', identifier: 'ghost' },
  { type: 'network.launch' },
  { type: 'network.withdraw' },
  { type: 'undo.done', requestId: 'req-1' },
  { type: 'network.undoLast' },
  { type: 'network.copy', what: 'brand' },
  { type: 'network.copy', what: 'settings' },
  { type: 'network.confirm' },
  { type: 'network.cancel' },
  { type: 'network.read', kind: 'brand' },
  { type: 'network.view', kind: 'brand' },
  { type: 'network.view', kind: null },
  { type: 'network.reload' },
  { type: 'network.siteChanged', site: 'demo' },
  { type: 'network.siteChanged', site: 'demo', canWrite: true },
  { type: 'network.siteChanged', site: 'other' },
  { type: 'network.siteChanged', site: null },
  { type: 'xstate.done.actor.fetchService', output: SERVICE },
  { type: 'xstate.error.actor.fetchService', error: new Error('offline') },
  { type: 'xstate.error.actor.fetchService', error: new CredentialsMissingError() },
  ...CHANGE_ENDS.map((output) => ({ type: 'xstate.done.actor.change', output })),
  { type: 'xstate.done.actor.fetchNetworkData', output: BRAND },
  { type: 'xstate.done.actor.fetchNetworkData', output: null },
  { type: 'xstate.error.actor.fetchNetworkData', error: new Error('offline') },
  { type: AFTER_MESSAGE },
];

function actorOf(event: AnyEventObject): { name: ActorName; done: boolean } | null {
  const match = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
  return match ? { name: match[2] as ActorName, done: match[1] === 'done' } : null;
}

/** Only events the real actor can meet in that state: actor outcomes while it runs, the timer while a message shows. */
function possible(snapshot: NetworkSnapshot, event: AnyEventObject): boolean {
  if (event.type === 'network.message.posted') return false;
  if (event.type === AFTER_MESSAGE) return snapshot.matches({ message: 'visible' });
  const actor = actorOf(event);
  return actor ? ACTOR_STATES[actor.name]?.(snapshot) === true : true;
}

/**
 * What identifies a state for the walk: the state value plus the facts the guards depend on (a
 * site, a loaded list, whether the current network is the default or launched). Finer detail
 * (message texts, data) would multiply states without adding behaviour.
 */
function serialize(snapshot: NetworkSnapshot): string {
  const c = snapshot.context;
  const current = selectCurrentNetwork(snapshot);
  return JSON.stringify({
    value: snapshot.value,
    site: c.site !== null,
    loaded: c.networks.length > 0,
    canWrite: c.canWrite,
    // The change asked about decides what its end does (a launch, withdrawal or copy).
    pending: snapshot.matches({ networks: { ready: 'changing' } }) ? c.pending?.kind ?? null : null,
    current: current === null ? 'none' : current.isDefault ? 'default' : current.isActive ? 'launched' : 'not launched',
  });
}

/** A transition, as a test sees it: where from, on what, where to and what it said. */
function edgeSignature(from: NetworkSnapshot, event: AnyEventObject, to: NetworkSnapshot): string {
  return JSON.stringify({ from: from.value, pending: JSON.parse(serialize(from)).pending, event, to: to.value, message: to.context.message?.text ?? null });
}

/** Whether some active state node (the root included) has a transition on the event: otherwise nothing can happen. */
function handled(snapshot: NetworkSnapshot, event: AnyEventObject): boolean {
  return snapshot._nodes.some((node) => node.transitions.has(event.type));
}

const SCENARIOS: Record<string, NetworkMachineInput> = {
  'nothing saved': { site: 'demo', savedNetworkId: null, canWrite: true },
  'a saved network': { site: 'demo', savedNetworkId: 'kids', canWrite: true },
  'an unknown saved network': { site: 'demo', savedNetworkId: 'ghost', canWrite: true },
  'no site': { site: null, savedNetworkId: null, canWrite: true },
  'a read-only role': { site: 'demo', savedNetworkId: 'kids', canWrite: false },
};

/** One step of a path: the event and the state the pure graph says it lands in. */
interface Step { event: AnyEventObject; state: NetworkSnapshot }
type Adjacency = Record<string, { state: NetworkSnapshot; transitions: Record<string, Step> }>;

/**
 * One scenario's graph (xstate/graph), the shortest path to each of its states (breadth first from the
 * initial one) and the states another state's path goes through (its path is a prefix of that one's).
 */
function graphOf(input: NetworkMachineInput): { adjacency: Adjacency; pathTo: Map<string, Step[]>; passedThrough: Set<string> } {
  const options = { input, events: GRAPH_EVENTS, filterEvents: possible, serializeState: serialize };
  const adjacency = getAdjacencyMap(networkMachine, options as never) as unknown as Adjacency;
  const [initial] = Object.keys(adjacency);
  if (initial === undefined) throw new Error('the graph has no initial state');
  const pathTo = new Map<string, Step[]>([[initial, []]]);
  const passedThrough = new Set<string>();
  const queue = [initial];
  for (const key of queue) {
    for (const step of Object.values(adjacency[key]!.transitions)) {
      const next = serialize(step.state);
      if (pathTo.has(next)) continue;
      pathTo.set(next, [...pathTo.get(key)!, step]);
      passedThrough.add(key);
      queue.push(next);
    }
  }
  return { adjacency, pathTo, passedThrough };
}

/**
 * The network machine provided once for the whole walk (providing a machine costs more than driving
 * a path): each drive starts a fresh actor with fresh fake calls. The `change` child is itself a fake,
 * settled with its outcome (a stand-in the machine's types do not know).
 */
const walkCalls = { current: noCalls() };
const walkMachine = networkMachine.provide({
  actors: {
    fetchService: fakeActor<Service, FetchServiceInput>(() => walkCalls.current, 'fetchService'),
    fetchNetworkData: fakeActor<NetworkData | null, FetchNetworkDataInput>(() => walkCalls.current, 'fetchNetworkData'),
    change: fakeActor<NetworkChangeOutcome, NetworkChangeInput>(() => walkCalls.current, 'change') as unknown as typeof networkChangeMachine,
  },
  actions: { saveSelectedNetwork: () => {}, forgetSelectedNetwork: () => {} },
});

/** Drives one path on a fresh actor; each step must land where the pure graph says. */
async function drive(input: NetworkMachineInput, steps: readonly Step[], inspect: (event: InspectionEvent) => void) {
  walkCalls.current = noCalls();
  const clock = new SimulatedClock();
  const actor = createActor(walkMachine, { input, clock, inspect }).start();
  for (const { event, state } of steps) {
    const settled = actorOf(event);
    if (settled) {
      const call = walkCalls.current[settled.name].at(-1);
      if (!call) throw new Error(`no pending ${settled.name} call`);
      if (settled.done) call.resolve(event.output);
      else call.reject(event.error);
      await flush();
    } else if (event.type === AFTER_MESSAGE) {
      clock.increment(MESSAGE_DISPLAY_MS);
    } else {
      actor.send(event as NetworkEvent);
    }
    expect(serialize(actor.getSnapshot())).toBe(serialize(state));
  }
  actor.stop();
}

/** The walk's own measurement: every scenario's walk feeds it. */
const walked = createCoverage(networkMachine);
/** Transitions driven so far, across scenarios: an equivalent one is not driven twice. */
const drivenEdges = new Set<string>();
const walks = new Map<string, Promise<void>>();

/** Drives a path to every state of one scenario's graph and through every transition out of it. */
async function walkScenario(input: NetworkMachineInput) {
  const { adjacency, pathTo, passedThrough } = graphOf(input);
  for (const [key, { state: source, transitions }] of Object.entries(adjacency)) {
    const head = pathTo.get(key);
    expect(head, `a path to ${key}`).toBeDefined();
    const edges = Object.values(transitions).filter(({ event, state }) => {
      if (!handled(source, event)) return false;
      const signature = edgeSignature(source, event, state);
      if (drivenEdges.has(signature)) return false;
      drivenEdges.add(signature);
      return true;
    });
    // Each edge's path, and the path to each state found from this one, goes through this state and
    // checks each step on the way; a state with neither is reached on its own.
    if (edges.length === 0 && !passedThrough.has(key)) await drive(input, head!, walked.inspect);
    for (const edge of edges) await drive(input, [...head!, edge], walked.inspect);
  }
}

/** Each scenario is walked once, by its own test or by the coverage test when that runs alone. */
function walkOnce(scenario: string): Promise<void> {
  const input = SCENARIOS[scenario]!;
  const walk = walks.get(scenario) ?? walkScenario(input);
  walks.set(scenario, walk);
  return walk;
}

describe('network machine graph', () => {
  for (const scenario of Object.keys(SCENARIOS)) {
    it(`drives a path to every state and through every transition with ${scenario}`, async () => {
      await walkOnce(scenario);
    }, 60_000);
  }
});

// ---------------------------------------------------------------------------------------------
// 2. Behaviour.

describe('network machine: loading and choosing', () => {
  it('fetches the site\'s networks on load with the loading flag on, then makes the default current', async () => {
    const h = start({ site: 'demo', savedNetworkId: null });
    expect(selectLoading(h.actor.getSnapshot())).toBe(true);
    expect(h.calls.fetchService[0]?.input).toEqual({ site: 'demo' });
    await h.settle('fetchService', { output: SERVICE });
    expect(selectLoading(h.actor.getSnapshot())).toBe(false);
    expect(selectNetworks(h.actor.getSnapshot())).toHaveLength(3);
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.identifier).toBe('main');
  });

  it('makes the network saved in session storage current', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.identifier).toBe('kids');
  });

  it('clears an unknown saved identifier and shows "Network with identifier ghost not found"', async () => {
    const h = await loaded({ savedNetworkId: 'ghost' });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Network with identifier ghost not found');
    expect(h.forgetSelectedNetwork).toHaveBeenCalledTimes(1);
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.identifier).toBe('main');
  });

  it('shows "Failed to fetch networks" when the fetch fails', async () => {
    const h = start({ site: 'demo', savedNetworkId: null });
    await h.settle('fetchService', { error: new Error('offline') });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe(MESSAGES.failedToFetchNetworks);
    expect(selectNetworks(h.actor.getSnapshot())).toEqual([]);
  });

  it('saves a chosen network and makes it current', async () => {
    const h = await loaded();
    h.actor.send({ type: 'network.select', identifier: 'sports' });
    expect(h.saveSelectedNetwork).toHaveBeenCalledWith('sports');
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.identifier).toBe('sports');
  });

  it('clears the selection on an unknown identifier and says so', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.select', identifier: 'nope' });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Network with identifier nope not found');
    expect(h.forgetSelectedNetwork).toHaveBeenCalled();
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.identifier).toBe('main');
  });

  it('refuses a non-default network once the site is gone with "Site not found", but allows the default', async () => {
    const h = await loaded();
    h.actor.send({ type: 'network.siteChanged', site: null });
    h.actor.send({ type: 'network.select', identifier: 'kids' });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe(MESSAGES.siteNotFound);
    expect(h.saveSelectedNetwork).not.toHaveBeenCalled();
    h.actor.send({ type: 'network.select', identifier: 'main' });
    expect(h.saveSelectedNetwork).toHaveBeenCalledWith('main');
  });

  it('does not fetch without a site and refuses a launch with "Site not found"', async () => {
    const h = start({ site: null, savedNetworkId: null });
    expect(h.calls.fetchService).toHaveLength(0);
    h.actor.send({ type: 'network.launch' });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe(MESSAGES.siteNotFound);
  });

  it('keeps a network chosen while the networks load (a cold ?network= address) and makes it current once they arrive', async () => {
    const h = start({ site: 'demo', savedNetworkId: null });
    h.actor.send({ type: 'network.view', kind: 'brand' });
    h.actor.send({ type: 'network.select', identifier: 'kids' });
    expect(h.saveSelectedNetwork).toHaveBeenCalledWith('kids');
    // Nothing is read for it before the networks are known.
    expect(h.calls.fetchNetworkData).toHaveLength(0);
    await h.settle('fetchService', { output: SERVICE });
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.identifier).toBe('kids');
    expect(h.calls.fetchNetworkData.at(-1)?.input).toEqual({ site: 'demo', network: 'kids', kind: 'brand' });
    expect(selectMessage(h.actor.getSnapshot())).toBeNull();
  });

  it('says an identifier chosen while loading is unknown once the networks arrive, and makes the default current', async () => {
    const h = start({ site: 'demo', savedNetworkId: 'sports' });
    h.actor.send({ type: 'network.select', identifier: 'ghost' });
    await h.settle('fetchService', { output: SERVICE });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Network with identifier ghost not found');
    expect(h.forgetSelectedNetwork).toHaveBeenCalledTimes(1);
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.identifier).toBe('main');
  });

  it('loads the networks of a site that arrives later', async () => {
    const h = start({ site: null, savedNetworkId: null });
    h.actor.send({ type: 'network.siteChanged', site: 'demo' });
    expect(h.calls.fetchService[0]?.input).toEqual({ site: 'demo' });
  });
});

describe('network machine: launching', () => {
  it('refuses the default network with "Main Network is the default network."', async () => {
    const h = await loaded();
    h.actor.send({ type: 'network.launch' });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Main Network is the default network.');
    expect(selectIsConfirming(h.actor.getSnapshot())).toBe(false);
  });

  it('refuses a launched network, and a read-only role, without asking or calling the server; offers Launch only where it can be used', async () => {
    const launched = await loaded({ savedNetworkId: 'sports' });
    expect(selectCanLaunch(launched.actor.getSnapshot())).toBe(false);
    expect(selectCanCopy(launched.actor.getSnapshot())).toBe(true);
    launched.actor.send({ type: 'network.launch' });
    expect(selectMessage(launched.actor.getSnapshot())).toEqual({ text: 'Sports is already launched.', severity: 'info' });
    expect(selectIsConfirming(launched.actor.getSnapshot())).toBe(false);

    const readOnly = await loaded({ savedNetworkId: 'kids', canWrite: false });
    expect(selectCanWrite(readOnly.actor.getSnapshot())).toBe(false);
    expect(selectCanLaunch(readOnly.actor.getSnapshot())).toBe(false);
    expect(selectCanCopy(readOnly.actor.getSnapshot())).toBe(false);
    readOnly.actor.send({ type: 'network.launch' });
    expect(selectMessage(readOnly.actor.getSnapshot())?.text).toBe(OWN_MESSAGES.networkReadOnly);
    readOnly.actor.send({ type: 'network.copy', what: 'brand' });
    expect(selectIsConfirming(readOnly.actor.getSnapshot())).toBe(false);
    expect(readOnly.calls.publishNetwork).toHaveLength(0);
    expect(readOnly.calls.copyFromDefault).toHaveLength(0);

    // The default network is always live: Launch is not offered there (issue 30).
    const onDefault = await loaded();
    expect(selectCanLaunch(onDefault.actor.getSnapshot())).toBe(false);

    const writer = await loaded({ savedNetworkId: 'kids' });
    expect(selectCanLaunch(writer.actor.getSnapshot())).toBe(true);
    writer.actor.send({ type: 'network.siteChanged', site: 'demo', canWrite: false });
    expect(selectCanWrite(writer.actor.getSnapshot())).toBe(false);
  });

  it('says "No network selected" when there is no network at all', async () => {
    const h = start({ site: 'demo', savedNetworkId: null });
    await h.settle('fetchService', { output: { ...SERVICE, networks: [] } });
    h.actor.send({ type: 'network.launch' });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe(MESSAGES.noNetworkSelected);
  });

  it('shows what the network lacks before it can be confirmed, and launches anyway once confirmed (issue 30)', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.launch' });
    expect(selectLaunchReadiness(h.actor.getSnapshot())).toEqual({ phase: 'checking' });
    expect(h.calls.checkReadiness[0]?.input).toEqual({ site: 'demo', network: 'kids' });
    // No launch while the check runs.
    h.actor.send({ type: 'network.confirm' });
    expect(h.calls.publishNetwork).toHaveLength(0);
    await h.settle('checkReadiness', { output: ['brand', 'platform'] });
    expect(selectLaunchReadiness(h.actor.getSnapshot())).toEqual({ phase: 'checked', gaps: ['brand', 'platform'] });
    h.actor.send({ type: 'network.confirm' });
    expect(h.calls.publishNetwork[0]?.input).toEqual({ site: 'demo', network: 'kids', requestId: expect.stringMatching(UUID) });
    await h.settle('publishNetwork', { output: undefined });
    expect(selectLaunchReadiness(h.actor.getSnapshot())).toBeNull();
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Successfully launched Kids');
  });

  it('lets the operator launch or cancel when the check fails', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.launch' });
    await h.settle('checkReadiness', { error: new Error('offline') });
    expect(selectLaunchReadiness(h.actor.getSnapshot())).toEqual({ phase: 'failed' });
    h.actor.send({ type: 'network.cancel' });
    expect(selectIsConfirming(h.actor.getSnapshot())).toBe(false);
    expect(h.calls.publishNetwork).toHaveLength(0);
    h.actor.send({ type: 'network.launch' });
    await h.settle('checkReadiness', { error: new Error('offline') });
    h.actor.send({ type: 'network.confirm' });
    expect(h.calls.publishNetwork).toHaveLength(1);
  });

  it('asks for confirmation, launches, marks the network launched and says "Successfully launched Kids"', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.launch' });
    expect(selectIsConfirming(h.actor.getSnapshot())).toBe(true);
    expect(selectPendingChange(h.actor.getSnapshot())).toMatchObject({ kind: 'launch', name: 'Kids' });
    await h.settle('checkReadiness', { output: [] });
    h.actor.send({ type: 'network.confirm' });
    expect(selectLoading(h.actor.getSnapshot())).toBe(true);
    expect(h.calls.publishNetwork[0]?.input).toEqual({ site: 'demo', network: 'kids', requestId: expect.stringMatching(UUID) });
    await h.settle('publishNetwork', { output: undefined });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Successfully launched Kids');
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.isActive).toBe(true);
    expect(selectLoading(h.actor.getSnapshot())).toBe(false);
  });

  it('does nothing when the operator cancels', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.launch' });
    h.actor.send({ type: 'network.cancel' });
    expect(selectIsConfirming(h.actor.getSnapshot())).toBe(false);
    expect(h.calls.publishNetwork).toHaveLength(0);
  });

  it('says "Failed to launch Kids" when the call fails', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.launch' });
    await h.settle('checkReadiness', { output: [] });
    h.actor.send({ type: 'network.confirm' });
    await h.settle('publishNetwork', { error: new Error('nope') });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Failed to launch Kids');
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.isActive).toBe(false);
  });

  it('says "Authorization or API key missing" when credentials are missing', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.launch' });
    await h.settle('checkReadiness', { output: [] });
    h.actor.send({ type: 'network.confirm' });
    await h.settle('publishNetwork', { error: new CredentialsMissingError() });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe(MESSAGES.credentialsMissing);
  });
});

describe('network machine: copying from the default network', () => {
  it('copies brand after confirmation, sets sync success and forgets the data read before', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.read', kind: 'brand' });
    await h.settle('fetchNetworkData', { output: BRAND });
    h.actor.send({ type: 'network.copy', what: 'brand' });
    expect(selectPendingChange(h.actor.getSnapshot())).toMatchObject({ kind: 'copy', what: 'brand', defaultName: 'Main Network' });
    h.actor.send({ type: 'network.confirm' });
    expect(selectLoading(h.actor.getSnapshot())).toBe(true);
    expect(h.calls.copyFromDefault[0]?.input).toEqual({ site: 'demo', network: 'kids', what: 'brand', requestId: expect.stringMatching(UUID) });
    await h.settle('copyFromDefault', { output: KIDS });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Successfully copied brand from Main Network to Kids');
    expect(selectSyncSuccess(h.actor.getSnapshot())).toBe(true);
    expect(selectNetworkData('brand')(h.actor.getSnapshot())).toBeUndefined();
  });

  it('reads what the copy would change while asking, and clears it on cancel', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.copy', what: 'brand' });
    expect(selectCopyPreview(h.actor.getSnapshot())).toEqual({ phase: 'comparing' });
    expect(h.calls.previewCopy[0]?.input).toEqual({ site: 'demo', network: 'kids', what: 'brand' });
    const changes = [{ field: 'primaryColor', label: 'Primary colour', from: '#000000', to: '#1370B3' }];
    await h.settle('previewCopy', { output: changes });
    expect(selectCopyPreview(h.actor.getSnapshot())).toEqual({ phase: 'compared', changes });
    expect(selectIsConfirming(h.actor.getSnapshot())).toBe(true);
    h.actor.send({ type: 'network.cancel' });
    expect(selectCopyPreview(h.actor.getSnapshot())).toBeNull();
    // The preview went with the `change` child that read it.
    expect(h.actor.getSnapshot().children.change).toBeUndefined();
    expect(h.calls.copyFromDefault).toHaveLength(0);
  });

  it('still lets the operator confirm when the comparison cannot be read', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.copy', what: 'settings' });
    await h.settle('previewCopy', { error: new Error('offline') });
    expect(selectCopyPreview(h.actor.getSnapshot())).toEqual({ phase: 'failed' });
    h.actor.send({ type: 'network.confirm' });
    expect(h.calls.copyFromDefault[0]?.input).toEqual({ site: 'demo', network: 'kids', what: 'settings', requestId: expect.stringMatching(UUID) });
  });

  it('names settings in the success message when copying settings', async () => {
    const h = await loaded({ savedNetworkId: 'sports' });
    h.actor.send({ type: 'network.copy', what: 'settings' });
    h.actor.send({ type: 'network.confirm' });
    await h.settle('copyFromDefault', { output: SPORTS });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Successfully copied settings from Main Network to Sports');
  });

  it('refuses to copy onto the default network', async () => {
    const h = await loaded();
    h.actor.send({ type: 'network.copy', what: 'settings' });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Main Network is the default network.');
  });

  it('shows the server\'s message, or "Something went wrong!" without one, when the copy fails', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.copy', what: 'brand' });
    h.actor.send({ type: 'network.confirm' });
    await h.settle('copyFromDefault', { error: new Error('') });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe(MESSAGES.genericGraphqlError);
    expect(selectSyncSuccess(h.actor.getSnapshot())).toBe(false);
    h.actor.send({ type: 'network.copy', what: 'brand' });
    h.actor.send({ type: 'network.confirm' });
    await h.settle('copyFromDefault', { error: new Error('Site not found') });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Site not found');
  });
});

describe('network machine: per-network reads', () => {
  const read = (kind: NetworkDataKind) => ({ type: 'network.read', kind }) as const;

  it('reads the current network\'s data with the loading flag on', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send(read('brand'));
    expect(selectLoading(h.actor.getSnapshot())).toBe(true);
    expect(h.calls.fetchNetworkData[0]?.input).toEqual({ site: 'demo', network: 'kids', kind: 'brand' });
    await h.settle('fetchNetworkData', { output: BRAND });
    expect(selectNetworkData('brand')(h.actor.getSnapshot())).toEqual({ identifier: 'kids', data: BRAND, failed: false });
  });

  it('returns nothing for the default network without calling the server', async () => {
    const h = await loaded();
    h.actor.send(read('settings'));
    expect(h.calls.fetchNetworkData).toHaveLength(0);
    expect(selectNetworkData('settings')(h.actor.getSnapshot())).toEqual({ identifier: 'main', data: null, failed: false });
  });

  it('says "Kids: Failed to get settings for Kids" when the read fails', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send(read('settings'));
    await h.settle('fetchNetworkData', { error: new Error('offline') });
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Kids: Failed to get settings for Kids');
    expect(selectNetworkData('settings')(h.actor.getSnapshot())?.failed).toBe(true);
  });

  it('hides data that belongs to another network once the selection changes', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send(read('brand'));
    await h.settle('fetchNetworkData', { output: BRAND });
    h.actor.send({ type: 'network.select', identifier: 'sports' });
    expect(selectNetworkData('brand')(h.actor.getSnapshot())).toBeUndefined();
  });

  it('replaces a read in flight with a newer one', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send(read('brand'));
    h.actor.send({ type: 'network.select', identifier: 'sports' });
    h.actor.send(read('brand'));
    expect(h.calls.fetchNetworkData).toHaveLength(2);
    h.calls.fetchNetworkData[0]!.resolve({ stale: true });
    await h.settle('fetchNetworkData', { output: BRAND });
    expect(selectNetworkData('brand')(h.actor.getSnapshot())).toEqual({ identifier: 'sports', data: BRAND, failed: false });
  });
});

describe('network machine: the page on screen', () => {
  it('reads the viewed kind at once, again when the network changes, and again after a copy', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.view', kind: 'settings' });
    expect(h.calls.fetchNetworkData[0]?.input).toEqual({ site: 'demo', network: 'kids', kind: 'settings' });
    await h.settle('fetchNetworkData', { output: BRAND });
    h.actor.send({ type: 'network.select', identifier: 'sports' });
    expect(h.calls.fetchNetworkData[1]?.input).toEqual({ site: 'demo', network: 'sports', kind: 'settings' });
    await h.settle('fetchNetworkData', { output: BRAND });
    h.actor.send({ type: 'network.copy', what: 'settings' });
    h.actor.send({ type: 'network.confirm' });
    await h.settle('copyFromDefault', { output: null });
    expect(h.calls.fetchNetworkData[2]?.input).toEqual({ site: 'demo', network: 'sports', kind: 'settings' });
  });

  it('reads nothing once the page is left', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.view', kind: 'brand' });
    await h.settle('fetchNetworkData', { output: BRAND });
    h.actor.send({ type: 'network.view', kind: null });
    h.actor.send({ type: 'network.select', identifier: 'sports' });
    expect(h.calls.fetchNetworkData).toHaveLength(1);
  });
});

describe('network machine: messages', () => {
  it('clears the message after 3 seconds, restarting the time for a newer message', async () => {
    const h = await loaded();
    h.actor.send({ type: 'network.launch' });
    h.clock.increment(MESSAGE_DISPLAY_MS - 1);
    h.actor.send({ type: 'network.select', identifier: 'ghost' });
    h.clock.increment(MESSAGE_DISPLAY_MS - 1);
    expect(selectMessage(h.actor.getSnapshot())?.text).toBe('Network with identifier ghost not found');
    h.clock.increment(1);
    expect(selectMessage(h.actor.getSnapshot())).toBeNull();
  });

  it('sends every message to the notifier system actor', async () => {
    const fakes = fakeActors();
    const root = setup({ actors: { network: networkMachine.provide({ actors: fakes.actors as never }), notifier: notifierMachine } })
      .createMachine({
        invoke: [
          { src: 'notifier', systemId: 'notifier' },
          { src: 'network', systemId: 'network', input: { site: 'demo', savedNetworkId: null } },
        ],
      });
    const actor = createActor(root, { clock: new SimulatedClock() }).start();
    fakes.calls.fetchService[0]!.reject(new Error('offline'));
    await flush();
    const notifier = actor.system.get('notifier');
    expect(selectNotification(notifier.getSnapshot())).toMatchObject({
      message: MESSAGES.failedToFetchNetworks, severity: 'error', durationMs: MESSAGE_DISPLAY_MS,
    });
  });
});

describe('network machine: the site', () => {
  it('keeps the saved choice when the site arrives after start-up (session restore)', async () => {
    const h = start({ site: null, savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.siteChanged', site: 'demo' });
    await h.settle('fetchService', { output: SERVICE });
    expect(selectCurrentNetwork(h.actor.getSnapshot())?.identifier).toBe('kids');
    expect(h.forgetSelectedNetwork).not.toHaveBeenCalled();
  });

  it('forgets the choice when another site replaces the current one', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.siteChanged', site: 'other' });
    expect(h.forgetSelectedNetwork).toHaveBeenCalledTimes(1);
    expect(h.calls.fetchService.at(-1)?.input).toEqual({ site: 'other' });
  });

  it('ignores a repeated report of the same site', async () => {
    const h = await loaded({ savedNetworkId: 'kids' });
    h.actor.send({ type: 'network.siteChanged', site: 'demo' });
    expect(h.calls.fetchService).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// 3. Coverage. The behaviour tests above feed the shared measurement too; this test asserts on the
// walk's own, walking any scenario its test has not walked yet, so it also passes when run alone (`vitest -t`).

describe('network machine: coverage', () => {
  it('reaches every state and takes every transition', async () => {
    for (const scenario of Object.keys(SCENARIOS)) await walkOnce(scenario);
    expect(drivenEdges.size).toBeGreaterThan(50);
    const report = walked.report();
    expect(report.states.missing).toEqual([]);
    expect(report.transitions.missing).toEqual([]);
  }, 120_000);
});
