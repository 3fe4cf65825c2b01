import { describe, expect, it } from 'vitest';
import { translated } from './translated';

describe('translated (one error mapper for the editors\' requests)', () => {
  it('answers what the request answers, without calling the mapper', async () => {
    let mapped = 0;
    await expect(translated(async () => 42, (e) => { mapped++; return e; })).resolves.toBe(42);
    expect(mapped).toBe(0);
  });

  it('throws the mapped failure of a request that fails', async () => {
    const cause = new Error('refused');
    const failure = new Error('mapped');
    await expect(translated(async () => { throw cause; }, (e) => (e === cause ? failure : e))).rejects.toBe(failure);
  });
});
