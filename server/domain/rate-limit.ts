/**
 * Fixed-window rate limits, cooldowns, per account+address back-off and the cumulative failure
 * counter of an account. The counters live in the database (rate_limits, through
 * server/db/rate-limit-repository.ts), so every server instance shares them; each check is one
 * atomic statement, so parallel requests cannot slip past a limit.
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

/**
 * Back-off of one account+address pair (SECURITY.md C-LOCK-1): `freeAttempts` failures pass, then
 * each further attempt must wait baseSeconds * 2^(failures - freeAttempts), at most maxSeconds,
 * after the previous one. A success clears the pair.
 */
interface BackoffRule {
  freeAttempts: number;
  baseSeconds: number;
  maxSeconds: number;
}

export interface LoginThrottleRules {
  /** Per account and client address (the address alone has its own fixed window, perIp). */
  pair: BackoffRule;
  /**
   * Consecutive failures of an account (password, sign-in code, reset code) from every address
   * together: at most this many (NIST SP 800-63B 5.2.2: no more than 100), then only a device or
   * address that signed in to the account before may still try. A full success resets it.
   */
  accountFailureCap: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleRules = {
  pair: { freeAttempts: 5, baseSeconds: 2, maxSeconds: FIFTEEN_MINUTES },
  accountFailureCap: 100,
};

interface HitResult {
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
  /** Takes one attempt of a back-off key; refused (nothing counted) while the back-off runs. */
  backoff(key: string, rule: BackoffRule, now?: Date): Promise<{ allowed: boolean; count: number }>;
  /** Counts one event on an open-ended counter (no window); the count so far. */
  increment(key: string, now?: Date): Promise<number>;
  /** Takes back one counted event (a success that must not count). */
  refund(key: string): Promise<void>;
  /** Forgets a key (a success resets consecutive failures). */
  clear(key: string): Promise<void>;
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

    async backoff(key, rule, now = new Date()) {
      const count = await store.takeBackoffSlot(key, now, rule);
      return count === undefined ? { allowed: false, count: -1 } : { allowed: true, count };
    },

    increment(key, now = new Date()) {
      return store.increment(key, now);
    },

    refund(key) {
      return store.refund(key);
    },

    clear(key) {
      return store.clear(key);
    },
  };
}

/**
 * Failed ingestion-key checks per client address (POST /v1/events, issue 25): past the limit a
 * wrong key answers 429 until the window ends. Only failures count, and a valid key is never held
 * back by it: players of a site often share one address (carrier NAT) with whoever guesses.
 */
export const INGEST_KEY_FAILURES_PER_IP: LimitRule = { limit: 20, windowSeconds: 300 };
