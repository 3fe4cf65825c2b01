/**
 * Fixed-window rate limits and cooldowns kept in the rate_limits table: one atomic
 * `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` per check, so every server instance shares them.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';

export interface LimitRule {
  limit: number;
  windowSeconds: number;
}

export type RateLimitedAction = 'login' | 'generateOtp' | 'verifyOtp' | 'forgotPassword' | 'resetPassword';

export type RateLimitTable = Record<RateLimitedAction, { perUsername: LimitRule; perIp: LimitRule }>;

const FIFTEEN_MINUTES = 15 * 60;

/** The numbers documented in docs/security.md. */
export const DEFAULT_RATE_LIMITS: RateLimitTable = {
  login: { perUsername: { limit: 10, windowSeconds: FIFTEEN_MINUTES }, perIp: { limit: 30, windowSeconds: FIFTEEN_MINUTES } },
  generateOtp: { perUsername: { limit: 5, windowSeconds: FIFTEEN_MINUTES }, perIp: { limit: 20, windowSeconds: FIFTEEN_MINUTES } },
  verifyOtp: { perUsername: { limit: 10, windowSeconds: FIFTEEN_MINUTES }, perIp: { limit: 30, windowSeconds: FIFTEEN_MINUTES } },
  forgotPassword: { perUsername: { limit: 5, windowSeconds: FIFTEEN_MINUTES }, perIp: { limit: 20, windowSeconds: FIFTEEN_MINUTES } },
  resetPassword: { perUsername: { limit: 10, windowSeconds: FIFTEEN_MINUTES }, perIp: { limit: 20, windowSeconds: FIFTEEN_MINUTES } },
};

export interface HitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

export type CooldownResult = { acquired: true } | { acquired: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one event under key; allowed while the window's count stays within the rule. */
  hit(key: string, rule: LimitRule, now?: Date): Promise<HitResult>;
  /** Acquires a cooldown: succeeds at most once per `seconds` for a key. */
  cooldown(key: string, seconds: number, now?: Date): Promise<CooldownResult>;
}

function normaliseKey(key: string): string {
  return key.length > 300 ? key.slice(0, 300) : key;
}

export function createRateLimiter(db: Db): RateLimiter {
  return {
    async hit(key, rule, now = new Date()) {
      const windowMs = rule.windowSeconds * 1000;
      const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
      const [row] = await db
        .insert(rateLimits)
        .values({ key: normaliseKey(key), windowStart, count: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`CASE WHEN ${rateLimits.windowStart} = excluded.window_start THEN ${rateLimits.count} + 1 ELSE 1 END`,
            windowStart: sql`excluded.window_start`,
          },
        })
        .returning({ count: rateLimits.count });
      const count = row?.count ?? 1;
      const retryAfterSeconds = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000);
      return { allowed: count <= rule.limit, count, retryAfterSeconds };
    },

    async cooldown(key, seconds, now = new Date()) {
      const cutoff = new Date(now.getTime() - seconds * 1000).toISOString();
      const [row] = await db
        .insert(rateLimits)
        .values({ key: normaliseKey(key), windowStart: now, count: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`CASE WHEN ${rateLimits.windowStart} <= ${cutoff}::timestamptz THEN 1 ELSE ${rateLimits.count} + 1 END`,
            windowStart: sql`CASE WHEN ${rateLimits.windowStart} <= ${cutoff}::timestamptz THEN excluded.window_start ELSE ${rateLimits.windowStart} END`,
          },
        })
        .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
      if (!row || row.count === 1) return { acquired: true };
      const retryAfterSeconds = Math.max(1, Math.ceil((new Date(row.windowStart).getTime() + seconds * 1000 - now.getTime()) / 1000));
      return { acquired: false, retryAfterSeconds };
    },
  };
}
