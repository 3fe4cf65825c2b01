import { describe, expect, it } from 'vitest';
import { TOKEN_FALLBACK_LIFETIME_MS } from '../common/constants';
import { decodeBase64Url, decodeJwtPayload, tokenExpiry } from './token';

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
function jwt(payload: object): string {
  return `${base64url('{"alg":"HS256"}')}.${base64url(JSON.stringify(payload))}.signature`;
}

describe('tokenExpiry', () => {
  it('uses the exp claim of the token', () => {
    expect(tokenExpiry(jwt({ exp: 1_900_000_000 }), 0)).toBe(1_900_000_000_000);
  });
  it('expires 12 hours after the iat claim when exp is absent', () => {
    expect(tokenExpiry(jwt({ iat: 1_700_000_000 }), 5)).toBe(1_700_000_000_000 + TOKEN_FALLBACK_LIFETIME_MS);
  });
  it('expires 12 hours after now for a token that says nothing or is not a JWT', () => {
    expect(tokenExpiry(jwt({ sub: 'u' }), 1000)).toBe(1000 + TOKEN_FALLBACK_LIFETIME_MS);
    expect(tokenExpiry('opaque-token', 1000)).toBe(1000 + TOKEN_FALLBACK_LIFETIME_MS);
    expect(tokenExpiry('a.%%%.c', 1000)).toBe(1000 + TOKEN_FALLBACK_LIFETIME_MS);
  });
});

describe('base64url decoding', () => {
  it('decodes UTF-8 payloads the way Node does, with or without padding', () => {
    const text = '{"name":"Zoë ✓","n":12345}';
    expect(new TextDecoder().decode(decodeBase64Url(base64url(text))!)).toBe(text);
    expect(new TextDecoder().decode(decodeBase64Url(Buffer.from(text).toString('base64'))!)).toBe(text);
  });
  it('reads a JWT payload and refuses a payload that is not an object', () => {
    expect(decodeJwtPayload(jwt({ a: 1 }))).toEqual({ a: 1 });
    expect(decodeJwtPayload(`x.${base64url('[1]')}.y`)).toBeNull();
  });
});
