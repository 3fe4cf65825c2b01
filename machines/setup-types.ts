/**
 * The entries of `setup({ types })` (context, events, input, children, ...) are read only by the type
 * checker: XState never looks at their values. `typed<T>()` is such an entry, so a machine declares
 * its types without an `as` cast:
 *
 *   setup({ types: { context: typed<ListContext>(), events: typed<ListEvent>() }, ... })
 */
export function typed<T>(): T {
  // No value of T exists here, and none is needed: the entry's type is all XState reads.
  return undefined!;
}
