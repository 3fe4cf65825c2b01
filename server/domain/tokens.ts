/**
 * Access tokens: HS256 JWTs signed with jose. Claims: sub (user id), sid (session id), site
 * (siteInternalName), iat, exp. A token is only as good as its session row (see auth-context).
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, jwtVerify } from 'jose';

/** Access-token lifetime; never beyond the session's absolute expiry. */
const ACCESS_TOKEN_TTL_SECONDS = 12 * 60 * 60;
const ISSUER = 'cms-tools';

export interface AccessClaims {
  sub: string;
  sid: string;
  site: string;
  iat: number;
  exp: number;
}

export interface TokenService {
  sign(input: { userId: string; sessionId: string; site: string; sessionExpiresAt: Date; now?: Date }): Promise<string>;
  /** The claims of a valid, unexpired token signed by us; null otherwise. */
  verify(token: string): Promise<AccessClaims | null>;
  /** A 32-byte key for another purpose, derived from the signing secret with HKDF-SHA256 (the TOTP secrets' key). */
  deriveKey(purpose: string): Buffer;
}

export function createTokenService(secret: string): TokenService {
  const raw = new TextEncoder().encode(secret);
  // Imported once: jose would otherwise import the raw bytes on every call.
  let imported: Promise<CryptoKey> | undefined;
  const key = () => (imported ??= crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']));
  return {
    deriveKey(purpose) {
      return Buffer.from(hkdfSync('sha256', raw, 'cms-tools', purpose, 32));
    },
    async sign({ userId, sessionId, site, sessionExpiresAt, now = new Date() }) {
      const iat = Math.floor(now.getTime() / 1000);
      const exp = Math.min(iat + ACCESS_TOKEN_TTL_SECONDS, Math.floor(sessionExpiresAt.getTime() / 1000));
      return new SignJWT({ sid: sessionId, site })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(await key());
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, await key(), { algorithms: ['HS256'], issuer: ISSUER });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.site !== 'string') return null;
        if (typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return null;
        return { sub: payload.sub, sid: payload.sid, site: payload.site, iat: payload.iat, exp: payload.exp };
      } catch {
        return null;
      }
    },
  };
}

/**
 * The signing secret: JWT_SECRET when given (required in production, at least 32 characters);
 * otherwise (development) a random one kept in `<dataDir>/.jwt-secret` so tokens survive restarts,
 * or a per-process random one for in-memory databases.
 */
export function resolveJwtSecret(input: { jwtSecret: string | undefined; production: boolean; dataDir: string; persistent: boolean }): string {
  if (input.jwtSecret) {
    if (input.production && input.jwtSecret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters in production.');
    return input.jwtSecret;
  }
  if (input.production) throw new Error('JWT_SECRET is required when NODE_ENV=production. Refusing to start.');
  if (!input.persistent || input.dataDir.includes('://')) return randomBytes(32).toString('base64url');
  const file = join(input.dataDir, '.jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(input.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
