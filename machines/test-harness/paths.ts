/**
 * Path tests for machines with `invoke` and `after` (which `createTestModel` refuses):
 *
 * 1. `coveringPaths(machine, { events, input })` lists, with `getShortestPaths` from xstate/graph,
 *    the shortest path to every distinct snapshot, keeps those that reach a state or take a
 *    transition no shorter path did, and extends them by one event wherever that takes a transition
 *    not covered yet. Actor outcomes are events too (`xstate.done.actor.<id>` with an `output`,
 *    `xstate.error.actor.<id>` with an `error`); `delayedEvents(machine)` lists the `after` events.
 * 2. `drivePath(logic, path, options)` replays one path on a real actor: user and actor-outcome events
 *    are sent (the fake actors never settle on their own), delayed events advance a SimulatedClock by
 *    the delay, so every timer runs exactly as in the browser.
 */
import {
  createActor, SimulatedClock, transition,
  type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type InspectionEvent,
} from 'xstate';
import { getShortestPaths, type StatePath } from 'xstate/graph';
import { allStateNodes, transitionKey } from './coverage';

export type MachinePath = StatePath<AnyMachineSnapshot, EventObject>;

const AFTER_PREFIX = 'xstate.after.';

/** The `after` events of every state of the machine. */
export function delayedEvents(machine: AnyStateMachine): EventObject[] {
  const types = new Set(allStateNodes(machine).flatMap((node) => node.after.map((t) => t.eventType)));
  return [...types].map((type) => ({ type }));
}

function activeStateIds(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): string[] {
  return allStateNodes(machine).filter((node) => snapshot.matches(node.path.join('.') as never)).map((node) => node.id);
}

function takenKeys(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: EventObject): string[] {
  return machine.getTransitionData(snapshot as never, event).map(transitionKey);
}

export function coveringPaths(
  machine: AnyStateMachine,
  options: {
    events: readonly EventObject[];
    input?: unknown;
    /** For machines whose context grows without bound (counters): what makes two snapshots the same. */
    serializeState?: (snapshot: AnyMachineSnapshot) => string;
  },
): MachinePath[] {
  const shortest = (getShortestPaths(machine, {
    events: options.events,
    input: options.input,
    ...(options.serializeState ? { serializeState: options.serializeState } : {}),
  } as never) as MachinePath[])
    .sort((a, b) => a.steps.length - b.steps.length);
  const states = new Set<string>();
  const transitions = new Set<string>();
  const selected: MachinePath[] = [];

  for (const path of shortest) {
    const keys = path.steps.slice(1).flatMap((step, i) => takenKeys(machine, path.steps[i]!.state, step.event));
    const ids = path.steps.flatMap((step) => activeStateIds(machine, step.state));
    if (keys.some((key) => !transitions.has(key)) || ids.some((id) => !states.has(id))) {
      selected.push(path);
      keys.forEach((key) => transitions.add(key));
      ids.forEach((id) => states.add(id));
    }
  }
  for (const path of shortest) {
    for (const event of options.events) {
      const keys = takenKeys(machine, path.state, event);
      if (!keys.some((key) => !transitions.has(key))) continue;
      const [next] = transition(machine, path.state as never, event);
      selected.push({ state: next, steps: [...path.steps, { event, state: next }], weight: path.weight + 1 });
      keys.forEach((key) => transitions.add(key));
    }
  }
  return selected;
}

function delayOf(logic: AnyStateMachine, eventType: string, snapshot: AnyMachineSnapshot): number {
  const rest = eventType.slice(AFTER_PREFIX.length);
  const name = rest.slice(0, rest.indexOf('.'));
  if (/^\d+$/.test(name)) return Number(name);
  const delay = (logic.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay === 'number') return delay;
  if (typeof delay === 'function') return (delay as (args: { context: unknown; event: EventObject }) => number)({ context: snapshot.context, event: { type: eventType } });
  throw new Error(`Unknown delay "${name}"`);
}

/** Replays a path on a real actor of `logic` (the machine with fakes provided); returns the final snapshot. */
export function drivePath(
  logic: AnyStateMachine,
  path: MachinePath,
  options: { input?: unknown; inspect?: (event: InspectionEvent) => void } = {},
): AnyMachineSnapshot {
  const clock = new SimulatedClock();
  const actor = createActor(logic, { input: options.input, clock, inspect: options.inspect }).start();
  for (const { event } of path.steps) {
    if (event.type === 'xstate.init') continue;
    if (event.type.startsWith(AFTER_PREFIX)) clock.increment(delayOf(logic, event.type, actor.getSnapshot()));
    else actor.send(event);
  }
  const snapshot = actor.getSnapshot();
  actor.stop();
  return snapshot;
}

/** "login.submit → done:login → after 1000 ×30" for test names and failure messages. */
export function describePath(path: MachinePath): string {
  const labels = path.steps
    .filter((step) => step.event.type !== 'xstate.init')
    .map((step) => step.event.type
      .replace(/^xstate\.(done|error)\.actor\./, '$1:')
      .replace(/^xstate\.after\.([^.]+)\..*$/, 'after $1'));
  const runs: { label: string; count: number }[] = [];
  for (const label of labels) {
    const last = runs[runs.length - 1];
    if (last?.label === label) last.count += 1;
    else runs.push({ label, count: 1 });
  }
  return runs.map(({ label, count }) => (count > 1 ? `${label} ×${count}` : label)).join(' → ') || '(initial state)';
}

/** A state value as text: `signedOut.twoFactor.(code.idle + cooldown.ready)`. */
export function stateLabel(value: unknown): string {
  if (typeof value === 'string') return value;
  const parts = Object.entries(value as Record<string, unknown>).map(([key, child]) => `${key}.${stateLabel(child)}`);
  return parts.length === 1 ? parts[0]! : `(${parts.join(' + ')})`;
}

/** Test title of a path: where it ends and how it gets there. */
export function pathTitle(path: MachinePath): string {
  return `${stateLabel(path.state.value)} ⇐ ${describePath(path)}`;
}
