/**
 * Access-token expiry (spec §4.3): the token's own `exp` claim; without it, 12 hours after issue
 * (`iat`, or `now` when the token does not say when it was issued). Pure and platform-free: the
 * base64url decoding does not rely on `atob` or `Buffer`, so it runs the same in Node and browsers.
 */
import { TOKEN_FALLBACK_LIFETIME_MS } from '../common/constants';

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Decodes base64url (padding and the standard `+/` alphabet tolerated); null on a bad character. */
export function decodeBase64Url(text: string): Uint8Array | null {
  const clean = text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE64URL_ALPHABET.indexOf(char);
    if (value < 0) return null;
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/** The JSON payload of a JWT, or null when the token is not a readable JWT. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  const bytes = decodeBase64Url(payload);
  if (!bytes) return null;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** When the token cookie should expire, in epoch milliseconds. */
export function tokenExpiry(token: string, now: number): number {
  const claims = decodeJwtPayload(token);
  if (typeof claims?.exp === 'number') return claims.exp * 1000;
  const issuedAt = typeof claims?.iat === 'number' ? claims.iat * 1000 : now;
  return issuedAt + TOKEN_FALLBACK_LIFETIME_MS;
}
