/**
 * SQL of the rate_limits table: one atomic `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` per
 * check, so every server instance shares the counters. The rules (windows, limits) are in
 * server/domain/rate-limit.ts.
 */
import { sql } from 'drizzle-orm';
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
  };
}

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
