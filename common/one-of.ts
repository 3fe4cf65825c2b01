/**
 * Type guards that replace casts (issue 39): a value checked against a constant list, a plain object
 * read as a record, a constant record read by an untrusted key.
 */

/** Whether `value` is one of `list`'s members; narrows it to the list's member type. */
export function isOneOf<T>(list: readonly T[], value: unknown): value is T {
  return list.some((member) => member === value);
}

/** Whether `value` is an object (not null, not an array), to read its fields as unknowns. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A constant record's value under an untrusted key (own keys only: 'toString' finds nothing). */
export function valueOf<V>(record: { readonly [key: string]: V }, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A constant record's keys, typed as its keys. */
export function keysOf<K extends string>(record: { readonly [key in K]: unknown }): K[] {
  return Object.keys(record).filter((key): key is K => Object.hasOwn(record, key));
}
