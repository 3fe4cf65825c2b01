/**
 * Remembers access tokens whose signature this instance has already verified (issue 21: the HMAC
 * check through WebCrypto was the largest single cost of GET /api/auth/verify and of every
 * authenticated request, ~30-40 % of the CPU under load).
 *
 * Safe because a token's signature and claims are a pure function of its exact text and the signing
 * key, which does not change while the process runs: the same text verifies the same way every
 * time. The only time-dependent check, expiry, runs again on every hit (`exp` in seconds, expired
 * when `exp <= now`, as jose does). Everything after the token (session lookup, revocation, idle and
 * absolute expiry, user and site, the API key, the per-token rate limit) runs on every request as
 * before (server/domain/auth-context.ts, server/http/token-rate-limit.ts).
 *
 * Key: SHA-256 of the token (the token itself is not kept as a key). Bound: MAX_VERIFIED_TOKENS,
 * past it the cache starts afresh. TTL: the token's own `exp`. Invalidation: none needed (a token
 * cannot change); a failed verification is never cached.
 */
import { createHash } from 'node:crypto';
import type { AccessClaims, TokenService } from './tokens';

const MAX_VERIFIED_TOKENS = 10_000;

export function withVerifiedTokenCache<T extends Pick<TokenService, 'verify'>>(
  tokens: T, options: { max?: number; now?: () => number } = {},
): T {
  const max = options.max ?? MAX_VERIFIED_TOKENS;
  const now = options.now ?? Date.now;
  const verified = new Map<string, AccessClaims>();
  const expired = (claims: AccessClaims) => claims.exp <= Math.floor(now() / 1000);

  async function verify(token: string): Promise<AccessClaims | null> {
    const key = createHash('sha256').update(token).digest('base64url');
    const hit = verified.get(key);
    if (hit) {
      if (!expired(hit)) return hit;
      verified.delete(key);
      return null;
    }
    const claims = await tokens.verify(token);
    if (claims && !expired(claims)) {
      if (verified.size >= max) verified.clear();
      verified.set(key, Object.freeze({ ...claims }));
    }
    return claims;
  }

  return { ...tokens, verify };
}
