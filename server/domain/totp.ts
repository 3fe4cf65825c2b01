/**
 * The authenticator-app second factor (issue 19, SECURITY.md C-TOTP-1..4), node:crypto only:
 *
 * - HOTP (RFC 4226) / TOTP (RFC 6238): HMAC-SHA1, 6 digits, 30 s steps, the step before and after
 *   accepted (clock drift), and never a step at or before the last one used (no replay).
 * - The secret: 20 random bytes, base32; stored AES-256-GCM encrypted with a key derived from the
 *   server secret (TokenService.deriveKey), the user id bound in as associated data.
 * - Recovery codes: 10 per enrolment, shown once, stored as HMAC-SHA256 hashes, single use.
 *
 * No Fastify and no SQL here: the repository is server/db/totp-repository.ts.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_ISSUER, TOTP_SECRET_BYTES, TOTP_STEP_SECONDS, TOTP_WINDOW_STEPS,
} from '../../common/totp';
import type { TotpRepository } from './ports';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** RFC 4648 base32 (case, spaces and padding ignored); throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('invalid base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP with the given HMAC algorithm (RFC 6238 vectors also use SHA-256 and SHA-512). */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The RFC 6238 time step of a moment. */
export function totpStep(at: Date, stepSeconds = TOTP_STEP_SECONDS): number {
  return Math.floor(at.getTime() / 1000 / stepSeconds);
}

/** The code of a base32 secret at a moment (the test helper of the browser journey uses it too). */
export function totpCode(secretBase32: string, at: Date = new Date()): string {
  return hotp(base32Decode(secretBase32), totpStep(at));
}

/**
 * The step a code matches within ±TOTP_WINDOW_STEPS of `at`, or null. Steps at or before
 * `lastUsedStep` never match: a code is good once (RFC 6238 §5.2).
 */
export function matchTotp(secretBase32: string, code: string, at: Date, lastUsedStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secretBase32);
  const now = totpStep(at);
  const wanted = Buffer.from(code);
  let matched: number | null = null;
  // Every candidate is computed and compared, so the time taken does not say which one matched.
  for (let step = now - TOTP_WINDOW_STEPS; step <= now + TOTP_WINDOW_STEPS; step += 1) {
    const candidate = Buffer.from(hotp(key, step));
    if (timingSafeEqual(candidate, wanted) && (lastUsedStep === null || step > lastUsedStep) && matched === null) matched = step;
  }
  return matched;
}

function newTotpSecret(): string {
  return base32Encode(randomBytes(TOTP_SECRET_BYTES));
}

/** The otpauth:// URI authenticator apps read from the QR code (Key Uri Format). */
export function otpauthUri(secretBase32: string, account: string, issuer = TOTP_ISSUER): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const params = new URLSearchParams({ secret: secretBase32, issuer, algorithm: 'SHA1', digits: String(TOTP_DIGITS), period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/** AES-256-GCM with a 32-byte key; the user id is bound in as associated data. Output: v1.iv.tag.ciphertext (base64url). */
export function encryptSecret(key: Buffer, userId: string, secretBase32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`totp:${userId}`));
  const body = Buffer.concat([cipher.update(secretBase32, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The secret back, or null when the stored value was tampered with or belongs to another user. */
export function decryptSecret(key: Buffer, userId: string, stored: string): string | null {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`totp:${userId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** `xxxxx-xxxxx` from an alphabet without look-alikes (0/o, 1/l): 50 bits each. */
function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 10; i += 1) out += RECOVERY_ALPHABET[randomInt(0, RECOVERY_ALPHABET.length)];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** The form a recovery code is hashed in: lower case, no dash or spaces. */
function normaliseRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/[\s-]/g, '');
}

type SecondFactorProof =
  | { ok: true; via: 'totp'; step: number }
  | { ok: true; via: 'recovery'; recoveryCodesLeft: number }
  | { ok: false };

export interface TotpStatus {
  enabled: boolean;
  pending: boolean;
  recoveryCodesLeft: number;
}

export interface TotpService {
  status(userId: string): Promise<TotpStatus>;
  /** A new pending secret (replacing a pending one); null when a confirmed factor exists. */
  start(userId: string, account: string, now?: Date): Promise<{ secret: string; otpauthUri: string } | null>;
  /** Confirms the pending factor with a current code; the recovery codes in clear, or null. */
  confirm(userId: string, code: string, now?: Date): Promise<string[] | null>;
  /** A current authenticator code (only), or a recovery code when `allowRecovery`; spends what it matched. */
  prove(userId: string, code: string, options: { allowRecovery: boolean; now?: Date }): Promise<SecondFactorProof>;
  /** New recovery codes replacing every old one. */
  regenerateRecoveryCodes(userId: string, now?: Date): Promise<string[]>;
  disable(userId: string): Promise<void>;
}

export function createTotpService(deps: { repo: TotpRepository; key: Buffer; pepper: Buffer }): TotpService {
  const { repo, key } = deps;
  const hashRecovery = (userId: string, code: string) =>
    createHmac('sha256', deps.pepper).update(`recovery:${userId}:${normaliseRecoveryCode(code)}`).digest('hex');

  async function freshRecoveryCodes(userId: string, now: Date): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await repo.replaceRecoveryCodes(userId, codes.map((code) => hashRecovery(userId, code)), now);
    return codes;
  }

  async function secretOf(userId: string, confirmed: boolean): Promise<{ secret: string; lastUsedStep: number | null } | null> {
    const row = await repo.factorOf(userId);
    if (!row || (row.confirmedAt !== null) !== confirmed) return null;
    const secret = decryptSecret(key, userId, row.secretEncrypted);
    return secret ? { secret, lastUsedStep: row.lastUsedStep } : null;
  }

  return {
    async status(userId) {
      const row = await repo.factorOf(userId);
      const enabled = Boolean(row?.confirmedAt);
      return { enabled, pending: Boolean(row) && !enabled, recoveryCodesLeft: enabled ? await repo.unusedRecoveryCount(userId) : 0 };
    },

    async start(userId, account, now = new Date()) {
      const row = await repo.factorOf(userId);
      if (row?.confirmedAt) return null;
      const secret = newTotpSecret();
      await repo.savePending(userId, encryptSecret(key, userId, secret), now);
      return { secret, otpauthUri: otpauthUri(secret, account) };
    },

    async confirm(userId, code, now = new Date()) {
      const pending = await secretOf(userId, false);
      if (!pending) return null;
      const step = matchTotp(pending.secret, code.replace(/\s/g, ''), now, pending.lastUsedStep);
      if (step === null) return null;
      if (!await repo.markConfirmed(userId, step, now)) return null;
      return freshRecoveryCodes(userId, now);
    },

    async prove(userId, code, { allowRecovery, now = new Date() }) {
      const factor = await secretOf(userId, true);
      if (!factor) return { ok: false };
      const compact = code.replace(/\s/g, '');
      if (/^\d{6}$/.test(compact)) {
        const step = matchTotp(factor.secret, compact, now, factor.lastUsedStep);
        // The step is claimed with a compare-and-set: two requests with one code cannot both pass.
        if (step === null || !await repo.claimStep(userId, step)) return { ok: false };
        return { ok: true, via: 'totp', step };
      }
      if (!allowRecovery || normaliseRecoveryCode(code).length !== 10) return { ok: false };
      const used = await repo.useRecoveryCode(userId, hashRecovery(userId, code), now);
      if (!used) return { ok: false };
      return { ok: true, via: 'recovery', recoveryCodesLeft: await repo.unusedRecoveryCount(userId) };
    },

    regenerateRecoveryCodes(userId, now = new Date()) {
      return freshRecoveryCodes(userId, now);
    },

    disable(userId) {
      return repo.remove(userId);
    },
  };
}
