/**
 * Fixed-window rate limits, cooldowns, per account+address back-off and the cumulative failure
 * counter of an account. The counters live in the database (rate_limits, through
 * server/db/rate-limit-repository.ts), so every server instance shares them; each check is one
 * atomic statement, so parallel requests cannot slip past a limit.
 */
import type { RateLimitRepository } from './ports';

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

export interface HitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

export type CooldownResult = { acquired: true } | { acquired: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Counts one event under key; allowed while the window's count stays within the rule. */
  hit(key: string, rule: LimitRule, now?: Date): Promise<HitResult>;
  /**
   * Admits one request of a high-rate budget (the per-token budget) from a lease of the shared
   * counter (createLeasedBudget): never more than rule.limit a window across instances, one write per
   * leased share.
   */
  take(key: string, rule: LimitRule, now?: Date): Promise<HitResult>;
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

/**
 * The per-token budget's lease (issue 37, SECURITY.md C-RATE-1): an instance claims a share of a
 * token's window budget from the shared counter in one atomic write and then admits requests from
 * it in memory, so a busy token costs one write per `budgetLeaseUnits(limit)` requests instead of one
 * per request. Guarantees, across any number N of instances sharing the database:
 *  - never more than `limit` requests of a token are admitted in a window (every admitted request
 *    was granted by the shared counter, which grants at most `limit` units a window);
 *  - a request is refused early (before `limit` were admitted in its window) only while other
 *    instances hold granted units they have not used: at most N × (units − 1) of a window's budget,
 *    i.e. at most N % of it for a budget of 100 or more (units = ⌊limit / 100⌋, at least 1; a budget
 *    under 200 leases one unit at a time and is exact, one write per request as before);
 *  - at most about 100 counter writes per token per window per instance, whatever the rate, plus one
 *    after the window is exhausted (refusals then cost nothing until the next window).
 * Requests waiting on one instance for the same token share one claim.
 */
export const BUDGET_LEASE_SHARES = 100;

/** The units one claim takes of a window budget of `limit`. */
export function budgetLeaseUnits(limit: number): number {
  return Math.max(1, Math.floor(limit / BUDGET_LEASE_SHARES));
}

interface Lease {
  windowStart: number;
  /** The next unit to hand out (the window's global count it stands for), and the last granted one. */
  next: number;
  last: number;
  /** The shared counter granted less than claimed: nothing is left in this window. */
  exhausted: boolean;
  claiming?: Promise<void>;
}

export interface LeasedBudget {
  /** Admits one request of key within rule (counted against the shared window budget). */
  take(key: string, rule: LimitRule, now?: Date): Promise<HitResult>;
}

export function createLeasedBudget(store: Pick<RateLimitRepository, 'claimBudget'>): LeasedBudget {
  const leases = new Map<string, Lease>();
  let sweptAt = 0;
  return {
    async take(key, rule, now = new Date()) {
      const windowMs = rule.windowSeconds * 1000;
      const at = now.getTime();
      const windowStart = Math.floor(at / windowMs) * windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000));
      if (at - sweptAt >= windowMs) {
        // Leases of ended windows are worthless: drop them (the map holds only this window's tokens).
        sweptAt = at;
        for (const [k, lease] of leases) if (lease.windowStart < windowStart && !lease.claiming) leases.delete(k);
      }
      for (;;) {
        let lease = leases.get(key);
        if (!lease || lease.windowStart < windowStart) {
          lease = { windowStart, next: 1, last: 0, exhausted: false };
          leases.set(key, lease);
        }
        if (lease.next <= lease.last) return { allowed: true, count: lease.next++, retryAfterSeconds };
        if (lease.exhausted) return { allowed: false, count: rule.limit + 1, retryAfterSeconds };
        if (!lease.claiming) {
          const current = lease;
          const units = budgetLeaseUnits(rule.limit);
          current.claiming = store.claimBudget(key, new Date(current.windowStart), units, rule.limit).then((total) => {
            const before = total - units;
            const granted = Math.max(0, Math.min(units, rule.limit - before));
            current.next = before + 1;
            current.last = before + granted;
            if (granted < units) current.exhausted = true;
          }).finally(() => {
            current.claiming = undefined;
          });
        }
        await lease.claiming;
      }
    },
  };
}

export function createRateLimiter(store: RateLimitRepository): RateLimiter {
  const budget = createLeasedBudget(store);
  return {
    take: budget.take,

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
