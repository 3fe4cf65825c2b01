/**
 * SQL of the rate_limits table: one atomic `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` per
 * check (per claimed lease for the per-token budget), so every server instance shares the counters. The rules (windows, limits) are in
 * server/domain/rate-limit.ts.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from './client';
import { rateLimits } from './schema';

/** Keys are capped so an attacker-chosen username cannot bloat the table. */
function storedKey(key: string): string {
  return key.length > 300 ? key.slice(0, 300) : key;
}

export function createRateLimitRepository(db: Db) {
  return {
    /** Counts one event of `key` in the window starting at windowStart; the count so far in it. */
    async countHit(key: string, windowStart: Date): Promise<number> {
      const [row] = await db
        .insert(rateLimits)
        .values({ key: storedKey(key), windowStart, count: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`CASE WHEN ${rateLimits.windowStart} = excluded.window_start THEN ${rateLimits.count} + 1 ELSE 1 END`,
            windowStart: sql`excluded.window_start`,
          },
        })
        .returning({ count: rateLimits.count });
      return row?.count ?? 1;
    },

    /**
     * Claims `units` of a fixed-window budget of `limit` for key in one atomic upsert (the per-token
     * budget's lease, server/domain/rate-limit.ts createLeasedBudget): the window's counter grows by
     * `units` (restarting at `units` in a new window) and never past `limit + units`, so
     * `min(units, limit - (returned - units))` of them, at least 0, were granted to this caller.
     */
    async claimBudget(key: string, windowStart: Date, units: number, limit: number): Promise<number> {
      const cap = Math.min(limit + units, 2 ** 31 - 1);
      const [row] = await db
        .insert(rateLimits)
        .values({ key: storedKey(key), windowStart, count: units })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`CASE WHEN ${rateLimits.windowStart} = excluded.window_start THEN least(${rateLimits.count} + ${units}::int, ${cap}::int) ELSE ${units}::int END`,
            windowStart: sql`excluded.window_start`,
          },
        })
        .returning({ count: rateLimits.count });
      return row?.count ?? units;
    },

    /**
     * Takes a cooldown slot: a row older than `cutoff` restarts at `now` with count 1; a younger one
     * counts up and keeps its start. Returns the stored count and start.
     */
    async takeCooldown(key: string, now: Date, cutoff: Date): Promise<{ count: number; windowStart: Date } | undefined> {
      const since = cutoff.toISOString();
      const [row] = await db
        .insert(rateLimits)
        .values({ key: storedKey(key), windowStart: now, count: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`CASE WHEN ${rateLimits.windowStart} <= ${since}::timestamptz THEN 1 ELSE ${rateLimits.count} + 1 END`,
            windowStart: sql`CASE WHEN ${rateLimits.windowStart} <= ${since}::timestamptz THEN excluded.window_start ELSE ${rateLimits.windowStart} END`,
          },
        })
        .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
      return row ? { count: row.count, windowStart: new Date(row.windowStart) } : undefined;
    },

    /**
     * One attempt of a back-off key, atomically: allowed (and counted, stamped `now`) while fewer than
     * freeAttempts are counted or the back-off since the last counted attempt has passed; undefined
     * (nothing counted) otherwise.
     */
    async takeBackoffSlot(key: string, now: Date, rule: { freeAttempts: number; baseSeconds: number; maxSeconds: number }): Promise<number | undefined> {
      const at = now.toISOString();
      const result = await db.execute<{ count: number }>(sql`
        INSERT INTO rate_limits (key, window_start, count) VALUES (${storedKey(key)}, ${at}::timestamptz, 1)
        ON CONFLICT (key) DO UPDATE SET count = rate_limits.count + 1, window_start = excluded.window_start
        WHERE rate_limits.count < ${rule.freeAttempts}
           OR rate_limits.window_start + make_interval(secs => least(${rule.maxSeconds}::float8,
                ${rule.baseSeconds}::float8 * power(2::float8, (rate_limits.count - ${rule.freeAttempts})::float8))) <= excluded.window_start
        RETURNING count`);
      const row = (result as unknown as { rows: { count: number }[] }).rows[0];
      return row ? Number(row.count) : undefined;
    },

    /** An open-ended counter stamped with its last event. */
    async increment(key: string, now: Date): Promise<number> {
      const [row] = await db
        .insert(rateLimits)
        .values({ key: storedKey(key), windowStart: now, count: 1 })
        .onConflictDoUpdate({ target: rateLimits.key, set: { count: sql`${rateLimits.count} + 1`, windowStart: sql`excluded.window_start` } })
        .returning({ count: rateLimits.count });
      return row?.count ?? 1;
    },

    async refund(key: string): Promise<void> {
      await db.update(rateLimits).set({ count: sql`greatest(${rateLimits.count} - 1, 0)` }).where(eq(rateLimits.key, storedKey(key)));
    },

    async clear(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, storedKey(key)));
    },
  };
}

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
