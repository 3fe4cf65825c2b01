import { describe, expect, it } from 'vitest';
import { createLocalCacheBus, parseCacheEvent } from './db/cache-bus';

describe('cache bus payloads (server/db/cache-bus.ts)', () => {
  it('reads back each of our event kinds', () => {
    for (const kind of ['session', 'user', 'site-sessions', 'service'] as const) {
      expect(parseCacheEvent({ kind, id: 'a1' })).toEqual({ kind, id: 'a1' });
    }
    expect(parseCacheEvent({ kind: 'user', id: 'x'.repeat(200), extra: true })).toEqual({ kind: 'user', id: 'x'.repeat(200) });
  });

  it('refuses what is not one of ours', () => {
    for (const value of [
      null, undefined, 'session', 42, [], {}, { kind: 'session' }, { id: 'a1' }, { kind: 'sessions', id: 'a1' }, { kind: 1, id: 'a1' },
      { kind: 'user', id: '' }, { kind: 'user', id: 7 }, { kind: 'user', id: 'x'.repeat(201) },
    ]) {
      expect(parseCacheEvent(value)).toBeUndefined();
    }
  });

  it('the local bus is always listening and tells nobody', async () => {
    const bus = createLocalCacheBus();
    expect(bus.kind).toBe('local');
    expect(bus.listening).toBe(true);
    const heard: unknown[] = [];
    const unsubscribe = bus.subscribe({ event: (event) => heard.push(event), reset: () => heard.push('reset') });
    bus.publish({ kind: 'session', id: 'a1' });
    await bus.flush();
    unsubscribe();
    await bus.close();
    expect(heard).toEqual([]);
  });
});
