/**
 * The session locks of a consumer flush (server/db/ingest-repository.ts sessionLockKey): a flush of
 * 10,000 sessions holds at most SESSION_LOCK_SLOTS advisory locks, not one per session (one each
 * filled PostgreSQL's shared lock table beside two consumers: "out of shared memory").
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SESSION_LOCK_SLOTS, sessionLockKey } from './db/ingest-repository';

describe('session lock slots', () => {
  const site = randomUUID();
  const sessions = Array.from({ length: 10_000 }, () => randomUUID());
  const keys = sessions.map((id) => sessionLockKey(site, id));

  it('gives one session the same key every time and a site one first half', () => {
    expect(sessions.slice(0, 50).map((id) => sessionLockKey(site, id))).toEqual(keys.slice(0, 50));
    expect(new Set(keys.map(([a]) => a)).size).toBe(1);
    expect(sessionLockKey(randomUUID(), sessions[0]!)[0]).not.toBe(keys[0]![0]);
  });

  it('holds at most SESSION_LOCK_SLOTS locks for a flush of 10,000 sessions, spread over the slots', () => {
    const slots = new Set(keys.map(([, b]) => b));
    expect(SESSION_LOCK_SLOTS).toBe(512);
    expect(slots.size).toBe(SESSION_LOCK_SLOTS);
    for (const slot of slots) {
      expect(Number.isInteger(slot)).toBe(true);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(SESSION_LOCK_SLOTS);
    }
  });
});
