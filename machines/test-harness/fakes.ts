/**
 * Fake I/O actors for machine tests: `fakeActor(fn)` answers with `fn(input)`; `pendingActor()`
 * never settles (path tests send the actor's outcome as an event instead).
 *
 * They return `AnyActorLogic` so one fake fits any slot of `machine.provide({ actors })`; the answers
 * themselves come from typed fixtures (test-harness/fixtures.ts), which keeps them wire-shaped.
 */
import { fromPromise, type AnyActorLogic } from 'xstate';

export function fakeActor<TInput = never>(answer: (input: TInput) => unknown): AnyActorLogic {
  return fromPromise<unknown, TInput>(async ({ input }) => answer(input));
}

export function pendingActor(): AnyActorLogic {
  return fromPromise(() => new Promise<never>(() => {}));
}
