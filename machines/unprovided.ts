/**
 * Machines declare their I/O actors by name with a typed placeholder; the browser app (src/adapters)
 * and tests supply the real logic with `machine.provide({ actors })`. A placeholder that runs means
 * the provider was forgotten, and it says so.
 */
import { fromPromise, type NonReducibleUnknown } from 'xstate';

export function providedLater<TOutput, TInput = NonReducibleUnknown>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`The "${name}" actor must be supplied with machine.provide({ actors })`);
  });
}
