/**
 * The path test every machine ends with: list covering paths with xstate/graph, drive each one on a
 * real actor (fake actors provided, SimulatedClock), then require 100% states and transitions.
 */
import { expect, it } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import { createCoverage } from './coverage';
import { coveringPaths, drivePath, pathTitle } from './paths';

export interface EveryPathOptions {
  /** User events and actor outcomes (`xstate.done.actor.<id>`, `xstate.error.actor.<id>`) to explore with. */
  events: readonly EventObject[];
  /** The machine with fakes provided; defaults to the machine itself. */
  logic?: AnyStateMachine;
  input?: unknown;
  serializeState?: (snapshot: AnyMachineSnapshot) => string;
}

export function itReachesEveryStateAndTransition(machine: AnyStateMachine, options: EveryPathOptions): void {
  const { events, logic = machine, input, serializeState } = options;
  const paths = coveringPaths(machine, { events, input, serializeState });
  const coverage = createCoverage(machine);

  it.each(paths.map((path) => [pathTitle(path), path] as const))('reaches %s', (_, path) => {
    expect(drivePath(logic, path, { input }).value).toEqual(path.state.value);
  });

  // Drives every path itself, so it passes when run alone (`vitest -t`).
  it('covers every state and every transition of the machine', () => {
    for (const path of paths) drivePath(logic, path, { input, inspect: coverage.inspect });
    const report = coverage.report();
    expect(report.states.missing).toEqual([]);
    expect(report.transitions.missing).toEqual([]);
  });
}
