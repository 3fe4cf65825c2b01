/**
 * Fixed-window rate limits and cooldowns. The counters live in the database (rate_limits, through
 * server/db/rate-limit-repository.ts), so every server instance shares them.
 */
import type { RateLimitRepository } from '../db/rate-limit-repository';

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

export function createRateLimiter(store: RateLimitRepository): RateLimiter {
  return {
    async hit(key, rule, now = new Date()) {
      const windowMs = rule.windowSeconds * 1000;
      const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
      const count = await store.countHit(key, windowStart);
      const retryAfterSeconds = Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000);
      return { allowed: count <= rule.limit, count, retryAfterSeconds };
    },

    async cooldown(key, seconds, now = new Date()) {
      const row = await store.takeCooldown(key, now, new Date(now.getTime() - seconds * 1000));
      if (!row || row.count === 1) return { acquired: true };
      const retryAfterSeconds = Math.max(1, Math.ceil((row.windowStart.getTime() + seconds * 1000 - now.getTime()) / 1000));
      return { acquired: false, retryAfterSeconds };
    },
  };
}
