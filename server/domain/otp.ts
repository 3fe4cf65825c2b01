/**
 * One-time codes: 6 digits from crypto.randomInt, stored as an HMAC (server pepper), single use,
 * valid 5 minutes, dead after 5 wrong tries, only the newest code of a user+purpose is live.
 * A 'login' code is bound to the deviceId of the password-verified login attempt.
 * Resend cooldown (30 s) is keyed by the username, known or not, so it reveals nothing.
 * A login attempt that needs the SMS step gets a proof (loginProof, SECURITY.md C-OTP-3): an HMAC of
 * the account, the attempt's device and an expiry, which an anonymous resend must present.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_LENGTH, OTP_RESEND_COOLDOWN_S } from '../../common/constants';
import type { OtpRepository } from './ports';
import { LOGIN_ATTEMPT_TTL_MINUTES, OTP_MAX_WRONG_ATTEMPTS, OTP_TTL_MINUTES, type OtpPurpose } from './otp-constants';
import type { CooldownResult, RateLimiter } from './rate-limit';

export interface OtpService {
  /** At most one send per 30 s per purpose+username (whether or not the user exists). */
  acquireCooldown(purpose: OtpPurpose, username: string, now?: Date): Promise<CooldownResult>;
  /** Issues a new code (the previous live one dies) and returns it in clear for sending. */
  issue(input: { userId: string; purpose: OtpPurpose; deviceId?: string; now?: Date }): Promise<string>;
  /** Checks a code; each call spends one of the 5 tries before comparing, a right code refunds it. */
  verify(input: { userId: string; purpose: OtpPurpose; code: string; deviceId?: string; now?: Date }): Promise<boolean>;
  /** The newest unconsumed login code issued within the login-attempt window, if any. */
  pendingLoginAttempt(userId: string, now?: Date): Promise<{ deviceId: string } | null>;
  /** True when the newest code of user+purpose can still be verified from this device (unused, unexpired, tries left). */
  hasLiveCode(input: { userId: string; purpose: OtpPurpose; deviceId?: string; now?: Date }): Promise<boolean>;
  /** The proof of a login attempt waiting for its SMS code (valid as long as the attempt). */
  loginProof(input: { userId: string; deviceId: string; now?: Date }): string;
  /** True when `proof` was handed out for this account and device and has not expired. */
  checkLoginProof(input: { userId: string; deviceId: string; proof: string | undefined; now?: Date }): boolean;
}

function generateOtpCode(): string {
  return String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

export function createOtpService(codes: OtpRepository, limiter: RateLimiter, pepper: string): OtpService {
  const digest = (userId: string, purpose: string, code: string) =>
    createHmac('sha256', pepper).update(`${purpose}:${userId}:${code}`).digest('hex');

  const proofMac = (userId: string, deviceId: string, expires: number) =>
    createHmac('sha256', pepper).update(`login-attempt:${userId}:${deviceId}:${expires}`).digest('base64url');

  return {
    loginProof({ userId, deviceId, now = new Date() }) {
      const expires = Math.floor(now.getTime() / 1000) + LOGIN_ATTEMPT_TTL_MINUTES * 60;
      return `${expires}.${proofMac(userId, deviceId, expires)}`;
    },

    checkLoginProof({ userId, deviceId, proof, now = new Date() }) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(proof ?? '');
      if (!match) return false;
      const expires = Number(match[1]);
      if (expires * 1000 <= now.getTime()) return false;
      const expected = Buffer.from(proofMac(userId, deviceId, expires));
      const actual = Buffer.from(match[2]!);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },

    acquireCooldown(purpose, username, now) {
      return limiter.cooldown(`otp-cooldown:${purpose}:${username.trim().toLowerCase()}`, OTP_RESEND_COOLDOWN_S, now);
    },

    async issue({ userId, purpose, deviceId = '', now = new Date() }) {
      const code = generateOtpCode();
      await codes.replaceLiveCode({
        userId,
        purpose,
        codeHash: digest(userId, purpose, code),
        deviceId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + OTP_TTL_MINUTES * 60_000),
      });
      return code;
    },

    async verify({ userId, purpose, code, deviceId = '', now = new Date() }) {
      // Reserve one try first: at most OTP_MAX_WRONG_ATTEMPTS comparisons per code, ever.
      const reserved = await codes.reserveTry({ userId, purpose, now, maxTries: OTP_MAX_WRONG_ATTEMPTS });
      if (!reserved) return false;
      const expected = Buffer.from(reserved.codeHash, 'hex');
      const actual = Buffer.from(digest(userId, purpose, code), 'hex');
      const codeOk = expected.length === actual.length && timingSafeEqual(expected, actual);
      const deviceOk = reserved.deviceId === '' || reserved.deviceId === deviceId;
      if (!codeOk || !deviceOk) return false;
      return codes.consume(reserved.id, now);
    },

    async pendingLoginAttempt(userId, now = new Date()) {
      const row = await codes.newest(userId, 'login');
      if (!row || row.consumedAt) return null;
      if (now.getTime() - new Date(row.createdAt).getTime() > LOGIN_ATTEMPT_TTL_MINUTES * 60_000) return null;
      return { deviceId: row.deviceId };
    },

    async hasLiveCode({ userId, purpose, deviceId = '', now = new Date() }) {
      const row = await codes.newest(userId, purpose);
      return row !== undefined && !row.consumedAt && new Date(row.expiresAt).getTime() > now.getTime()
        && row.wrongAttempts < OTP_MAX_WRONG_ATTEMPTS && (row.deviceId === '' || row.deviceId === deviceId);
    },
  };
}
