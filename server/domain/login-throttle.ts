/**
 * Throttling of guesses at an account (SECURITY.md C-LOCK-1, C-LOCK-2):
 * - per client address, a fixed window over every username (rateLimits.login.perIp; a 429, which
 *   depends on the address only and so tells nothing about the account);
 * - per account+address pair, a back-off (loginThrottle.pair), so guessing from elsewhere cannot lock
 *   the owner out;
 * - per account, a cap on consecutive failures of the password, the sign-in code and the reset code
 *   together (loginThrottle.accountFailureCap, at most 100: NIST SP 800-63B 5.2.2).
 * A device or address that signed in to the account before passes the pair back-off and the cap,
 * so the owner's right password gets through. Every attempt is counted before the secret is checked
 * (parallel guesses cannot slip past a limit) and a success takes its count back: successes never
 * count. A throttled attempt does not check the secret at all; the caller answers it exactly like a
 * wrong one, so the answer is no oracle for the password.
 */
import { rateLimited } from './errors';
import type { LimitRule, LoginThrottleRules, RateLimiter } from './rate-limit';

/** Counters that must outlive the daily purge of old windows (server/db/housekeeping.ts keeps them). */
const DURABLE_KEY_PREFIX = 'durable:';

const failuresKey = (username: string) => `${DURABLE_KEY_PREFIX}account-failures:${username}`;
export const pairKey = (username: string, ip: string) => `login-pair:${username}|${ip}`;
export const ipKey = (ip: string) => `login:ip:${ip}`;

interface AttemptSubject {
  /** Normalised username, known or not: unknown names are throttled identically. */
  username: string;
  /** The account's id when the username exists (for the signed-in-before check). */
  userId?: string;
  ip: string;
  deviceId: string;
}

type ThrottleReason = 'pair-backoff' | 'account-cap';

type Attempt =
  | { throttled: true; reason: ThrottleReason }
  | {
    throttled: false;
    /** The device or address signed in to this account before. */
    known: boolean;
    /** A wrong secret: true when this failure is the one that reached the cap (notify the owner). */
    failed(): boolean;
    /** A right secret; `complete` when the account is now fully authenticated (resets the cap count). */
    passed(options: { complete: boolean }): Promise<void>;
  };

export interface LoginThrottle {
  /** 'password': the first factor (all three limits); 'code': an SMS code (the cap only). */
  begin(subject: AttemptSubject, kind: 'password' | 'code'): Promise<Attempt>;
}

export function createLoginThrottle(deps: {
  limiter: RateLimiter;
  perIp: () => LimitRule;
  rules: LoginThrottleRules;
  signedInBefore(userId: string, ip: string, deviceId: string): Promise<boolean>;
}): LoginThrottle {
  const { limiter, rules } = deps;
  return {
    async begin(subject, kind) {
      const known = subject.userId ? await deps.signedInBefore(subject.userId, subject.ip, subject.deviceId) : false;
      const password = kind === 'password';
      if (password) {
        const ipHit = await limiter.hit(ipKey(subject.ip), deps.perIp());
        if (!ipHit.allowed) throw rateLimited(ipHit.retryAfterSeconds);
        if (!known) {
          const slot = await limiter.backoff(pairKey(subject.username, subject.ip), rules.pair);
          if (!slot.allowed) {
            await limiter.refund(ipKey(subject.ip));
            return { throttled: true, reason: 'pair-backoff' };
          }
        }
      }
      const failures = await limiter.increment(failuresKey(subject.username));
      if (failures > rules.accountFailureCap && !known) {
        await limiter.refund(failuresKey(subject.username));
        if (password) await limiter.refund(ipKey(subject.ip));
        return { throttled: true, reason: 'account-cap' };
      }
      return {
        throttled: false,
        known,
        failed: () => failures === rules.accountFailureCap,
        async passed({ complete }) {
          const work = [complete ? limiter.clear(failuresKey(subject.username)) : limiter.refund(failuresKey(subject.username))];
          if (password) work.push(limiter.refund(ipKey(subject.ip)), limiter.clear(pairKey(subject.username, subject.ip)));
          await Promise.all(work);
        },
      };
    },
  };
}
