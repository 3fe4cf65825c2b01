/**
 * What an invoked actor's done or error event carries, and the guard every request state asks of a
 * server answer. Written once for every machine (auth, its restore and step children, the password
 * flows, the session check) instead of a copy in each.
 *
 *   onDone: [{ guard: { type: 'isFailure', params: doneOutput }, … }, { actions: { type: 'setToken', params: doneOutput } }]
 */
import type { DoneActorEvent, ErrorActorEvent } from 'xstate';

/** The output of the actor that finished: params of a guard or an action of `onDone`. */
export function doneOutput<T>({ event }: { event: DoneActorEvent<T> }): T {
  return event.output;
}

/** Why the invoked actor failed: params of an action of `onError`. */
export function errorOf({ event }: { event: ErrorActorEvent }): { error: unknown } {
  return { error: event.error };
}

/** A server answer `{ success: false }` (a refusal, not a transport failure). */
export function isFailure(_: unknown, params: { success: boolean }): boolean {
  return !params.success;
}
