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
  /**
   * Several inputs when the machine's first state depends on its input (e.g. one view opened from an
   * address or the list): the paths of each input are driven, and together they must cover the machine.
   */
  inputs?: readonly unknown[];
  serializeState?: (snapshot: AnyMachineSnapshot) => string;
}

export function itReachesEveryStateAndTransition(machine: AnyStateMachine, options: EveryPathOptions): void {
  const { events, logic = machine, serializeState } = options;
  const inputs = options.inputs ?? [options.input];
  const paths = inputs.flatMap((input, i) => coveringPaths(machine, { events, input, serializeState })
    .map((path) => ({ path, input, title: inputs.length > 1 ? `${pathTitle(path)} (input ${i + 1})` : pathTitle(path) })));
  const coverage = createCoverage(machine);

  it.each(paths.map(({ title, path, input }) => [title, path, input] as const))('reaches %s', (_, path, input) => {
    expect(drivePath(logic, path, { input }).value).toEqual(path.state.value);
  });

  // Drives every path itself, so it passes when run alone (`vitest -t`).
  it('covers every state and every transition of the machine', () => {
    for (const { path, input } of paths) drivePath(logic, path, { input, inspect: coverage.inspect });
    const report = coverage.report();
    expect(report.states.missing).toEqual([]);
    expect(report.transitions.missing).toEqual([]);
  });
}
