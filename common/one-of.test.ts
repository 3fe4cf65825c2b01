import { describe, expect, it } from 'vitest';
import { isOneOf, isRecord, keysOf, valueOf } from './one-of';

describe('one-of guards (issue 39: in place of casts)', () => {
  it('isOneOf: members only, by identity, whatever the type of the value', () => {
    const list = ['a', 'b'] as const;
    expect(isOneOf(list, 'a')).toBe(true);
    expect(isOneOf(list, 'b')).toBe(true);
    expect(isOneOf(list, 'c')).toBe(false);
    expect(isOneOf(list, 1)).toBe(false);
    expect(isOneOf(list, undefined)).toBe(false);
    expect(isOneOf([1, 2], '1')).toBe(false);
    expect(isOneOf([], 'a')).toBe(false);
  });

  it('isRecord: objects only (not null, not arrays, not primitives)', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord('x')).toBe(false);
    expect(isRecord(undefined)).toBe(false);
  });

  it('valueOf: own keys only', () => {
    const record = { one: 1, two: 2 };
    expect(valueOf(record, 'two')).toBe(2);
    expect(valueOf(record, 'three')).toBeUndefined();
    expect(valueOf(record, 'toString')).toBeUndefined();
    expect(valueOf(record, '__proto__')).toBeUndefined();
  });

  it('keysOf: the own keys in order', () => {
    expect(keysOf({ b: 1, a: 2 })).toEqual(['b', 'a']);
    expect(keysOf({})).toEqual([]);
  });
});
