/**
 * State and transition coverage of a machine, measured on real actors.
 *
 *   const coverage = createCoverage(machine);
 *   createActor(machine.provide(...), { inspect: coverage.inspect }) // as many actors as you like
 *   ...drive them...
 *   coverage.report() // { states: { reached, total, missing }, transitions: { taken, total, missing } }
 *
 * A state counts as reached when some snapshot of a recorded actor is in it, or when a transition out of it
 * was taken (a state left at once by an eventless transition, such as a first state that chooses by
 * the input, is never in a snapshot; it was active all the same); a transition counts as
 * taken when a microstep of a recorded actor selected it (guarded alternatives count separately,
 * eventless and delayed transitions included). Keys are state node ids, so the base machine and its
 * `provide`d copies measure the same things.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, InspectionEvent } from 'xstate';
import { getStateNodes } from 'xstate/graph';

export interface CoverageReport {
  states: { reached: number; total: number; missing: string[] };
  transitions: { taken: number; total: number; missing: string[] };
}

function eventLabel(eventType: string): string {
  return eventType === '' ? 'always' : eventType;
}

/** A stable name for a transition: its source state, its event and its place among the alternatives. */
export function transitionKey(transition: AnyTransitionDefinition): string {
  const source = transition.source;
  const alternatives = transition.eventType === ''
    ? source.always ?? []
    : source.transitions.get(transition.eventType) ?? [];
  return `${source.id} on ${eventLabel(transition.eventType)} #${alternatives.indexOf(transition)}`;
}

/** Every state node except the root. */
export function allStateNodes(machine: AnyStateMachine): AnyStateNode[] {
  return getStateNodes(machine.root).filter((node) => node !== machine.root);
}

export function allTransitionKeys(machine: AnyStateMachine): string[] {
  const keys: string[] = [];
  for (const node of [machine.root, ...allStateNodes(machine)]) {
    for (const transitions of node.transitions.values()) keys.push(...transitions.map(transitionKey));
    keys.push(...(node.always ?? []).map(transitionKey));
  }
  return keys;
}

interface SnapshotLike {
  matches: (value: never) => boolean;
}

function isMachineSnapshot(snapshot: unknown): snapshot is SnapshotLike {
  return typeof (snapshot as Partial<SnapshotLike> | null)?.matches === 'function';
}

/** The state value that means "in this node", e.g. ['a', 'b'] -> { a: 'b' }. */
function valueOfPath(path: readonly string[]): unknown {
  const [head, ...rest] = path;
  return rest.length === 0 ? head : { [head as string]: valueOfPath(rest) };
}

/** Every coverage measured in this test process, by machine id (read by the path-coverage report). */
export const coverageRegistry = new Map<string, Array<() => CoverageReport>>();

export function createCoverage(machine: AnyStateMachine) {
  const nodes = allStateNodes(machine);
  const transitionKeys = allTransitionKeys(machine);
  const reachedStates = new Set<string>();
  const takenTransitions = new Set<string>();

  function recordSnapshot(snapshot: unknown): void {
    if (!isMachineSnapshot(snapshot)) return;
    for (const node of nodes) {
      if (!reachedStates.has(node.id) && snapshot.matches(valueOfPath(node.path) as never)) reachedStates.add(node.id);
    }
  }

  const coverage = {
    /** Pass as `createActor(logic, { inspect })`. */
    inspect(event: InspectionEvent): void {
      if (event.type === '@xstate.snapshot') recordSnapshot(event.snapshot);
      if (event.type === '@xstate.microstep') {
        recordSnapshot(event.snapshot);
        for (const transition of event._transitions) {
          takenTransitions.add(transitionKey(transition));
          for (let node: AnyStateNode | undefined = transition.source; node && node !== machine.root; node = node.parent) reachedStates.add(node.id);
        }
      }
    },
    report(): CoverageReport {
      return {
        states: {
          reached: nodes.filter((node) => reachedStates.has(node.id)).length,
          total: nodes.length,
          missing: nodes.map((node) => node.id).filter((id) => !reachedStates.has(id)),
        },
        transitions: {
          taken: transitionKeys.filter((key) => takenTransitions.has(key)).length,
          total: transitionKeys.length,
          missing: transitionKeys.filter((key) => !takenTransitions.has(key)),
        },
      };
    },
  };
  const reports = coverageRegistry.get(machine.id) ?? [];
  reports.push(coverage.report);
  coverageRegistry.set(machine.id, reports);
  return coverage;
}

export type Coverage = ReturnType<typeof createCoverage>;

/** Several measurements of one machine merged: a state or transition is missing only if all missed it. */
export function mergeReports(reports: readonly CoverageReport[]): CoverageReport {
  const [first, ...rest] = reports;
  if (!first) throw new Error('no coverage reports to merge');
  const missingStates = rest.reduce((acc, r) => acc.filter((id) => r.states.missing.includes(id)), first.states.missing);
  const missingTransitions = rest.reduce((acc, r) => acc.filter((k) => r.transitions.missing.includes(k)), first.transitions.missing);
  return {
    states: { reached: first.states.total - missingStates.length, total: first.states.total, missing: missingStates },
    transitions: { taken: first.transitions.total - missingTransitions.length, total: first.transitions.total, missing: missingTransitions },
  };
}
