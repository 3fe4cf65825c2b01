import { describe, expect, it } from 'vitest';
import { runningChild } from './running-child';

describe('runningChild', () => {
  it('answers the child a machine always runs, and names one that is missing (a wiring bug)', () => {
    const child = { id: 'editor' };
    expect(runningChild(child, 'editor')).toBe(child);
    expect(() => runningChild(undefined, 'actions')).toThrow('The "actions" child is not running');
  });
});
