/**
 * The `types` of a machine's setup without a cast, the one way a machine declares them (issue 39;
 * machine-types.test.ts pins it). setup only reads the type parameters of its `types` object; this
 * returns an empty one typed from a single spec, so a machine writes
 *
 *   setup({ types: machineTypes<{ context: OtpStepContext; events: OtpStepEvent; input: OtpStepInput }>(), … })
 *
 * instead of `{ context: {} as OtpStepContext, … }`. A key left out keeps setup's own default. Name every
 * invoked or spawned child by its id (`children: { verifyOtp: 'verifyOtp'; loadMore: 'load' }`): then
 * `snapshot.children.verifyOtp` is typed and an id given the wrong actor fails the type check.
 */
import type { AnyEventObject, EventObject, MachineContext, MetaObject, NonReducibleUnknown, SetupTypes } from 'xstate';

export interface MachineTypeSpec {
  context?: MachineContext;
  events?: EventObject;
  input?: unknown;
  output?: unknown;
  tags?: string;
  /** Every invoked or spawned child by its id: the actor's name (`snapshot.children.x` is then typed). */
  children?: Record<string, string>;
  emitted?: EventObject;
}

/** Each key of the spec, or setup's default when the spec leaves it out. */
export type SetupTypesOf<T extends MachineTypeSpec> = SetupTypes<
  T extends { context: infer V extends MachineContext } ? V : MachineContext,
  T extends { events: infer V extends EventObject } ? V : AnyEventObject,
  T extends { children: infer V extends Record<string, string> } ? V : Record<never, string>,
  T extends { tags: infer V extends string } ? V : string,
  T extends { input: infer V } ? V : NonReducibleUnknown,
  T extends { output: infer V } ? V : NonReducibleUnknown,
  T extends { emitted: infer V extends EventObject } ? V : EventObject,
  MetaObject
>;

export function machineTypes<T extends MachineTypeSpec>(): SetupTypesOf<T> {
  return {};
}
