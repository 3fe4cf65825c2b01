// @vitest-environment jsdom
/**
 * Issue 19: over https the session cookies are Secure and `__Host-` prefixed; over http they keep
 * the spec's names. jsdom's cookie jar applies the browser rules (Secure needs https, `__Host-`
 * needs Secure, Path=/ and no Domain).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { clearAllCookies, cookieName, readCookie, removeCookie, writeCookie } from './cookies';

/** Vitest's jsdom environment exposes its JSDOM instance; only `reconfigure` is used here. */
const dom = (globalThis as unknown as { jsdom: { reconfigure(settings: { url: string }): void } }).jsdom;

function at(url: string) {
  dom.reconfigure({ url });
}

afterEach(() => {
  clearAllCookies();
  at('http://localhost:3000/');
});

describe('cookie names', () => {
  it('are the spec names over http and __Host- prefixed over https', () => {
    expect(cookieName('accessToken', false)).toBe('accessToken');
    expect(cookieName('accessToken', true)).toBe('__Host-accessToken');
  });
});

describe('over http', () => {
  it('writes, reads and removes the cookie under the spec name', () => {
    at('http://localhost:3000/');
    writeCookie('accessToken', 'tok');
    expect(document.cookie).toBe('accessToken=tok');
    expect(readCookie('accessToken')).toBe('tok');
    removeCookie('accessToken');
    expect(document.cookie).toBe('');
  });
});

describe('over https', () => {
  it('writes a Secure __Host- cookie the browser accepts, and reads only that one', () => {
    at('https://cms.example.test/content');
    writeCookie('accessToken', 'tok');
    expect(document.cookie).toBe('__Host-accessToken=tok');
    expect(readCookie('accessToken')).toBe('tok');
    // An unprefixed cookie (as a sibling subdomain could plant) is not taken for the session.
    document.cookie = 'xApiKey=planted; path=/';
    expect(readCookie('xApiKey')).toBeUndefined();
    removeCookie('accessToken');
    expect(readCookie('accessToken')).toBeUndefined();
  });

  it('clearing every cookie removes the __Host- ones too (spec §4.5)', () => {
    at('https://cms.example.test/admin/audit');
    writeCookie('accessToken', 'tok');
    writeCookie('site', 'demo');
    clearAllCookies();
    expect(document.cookie).toBe('');
  });

  it('the browser itself refuses a __Host- cookie that is not Secure: the prefix is enforced, not decorative', () => {
    at('https://cms.example.test/');
    document.cookie = '__Host-accessToken=forged; path=/';
    expect(document.cookie).toBe('');
  });
});
