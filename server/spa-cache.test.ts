/**
 * The cache-header test (issue 21): the SPA's compressed variants and cache headers. The build's
 * precompress step (scripts/precompress.ts) writes .br/.gz twins; the server picks one by
 * Accept-Encoding with Vary, marks hashed /assets immutable and revalidates index.html and the logo.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../scripts/precompress';
import { IMMUTABLE_CACHE, pickEncoding, REVALIDATE_CACHE } from './http/spa';
import { createTestApp, type TestApp } from './test/kit';

let t: TestApp;
let dist: string;
const script = `export const answer = ${JSON.stringify('x'.repeat(2000))};\n`.repeat(5);
const logo = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'cms-cache-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>CMS Tools</title><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>');
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'index-AbC123.js'), script);
  writeFileSync(join(dist, 'logo.svg'), logo);
  expect(precompressDir(dist)).toBe(3);
  t = await createTestApp({ staticDir: dist });
});

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('compressed assets', () => {
  it('sends brotli when accepted, with Vary and the immutable cache', async () => {
    const res = await t.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.rawPayload.length).toBeLessThan(script.length / 10);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip to a client without brotli, and the plain file to one that accepts neither', async () => {
    const gz = await t.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);
    const plain = await t.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('revalidates the logo (no-cache with an ETag; 304 when unchanged)', async () => {
    const res = await t.inject({ method: 'GET', url: '/logo.svg', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(REVALIDATE_CACHE);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(logo);
    expect(res.headers.etag).toBeTruthy();
    const again = await t.inject({ method: 'GET', url: '/logo.svg', headers: { 'accept-encoding': 'br', 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('compresses index.html (with its injected config) and revalidates it by ETag', async () => {
    for (const url of ['/', '/content']) {
      const res = await t.inject({ method: 'GET', url, headers: { accept: 'text/html', 'accept-encoding': 'gzip, br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe(REVALIDATE_CACHE);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      const html = brotliDecompressSync(res.rawPayload).toString();
      expect(html).toContain('window.__CMS_CONFIG__=');
      const again = await t.inject({ method: 'GET', url, headers: { accept: 'text/html', 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
    const gz = await t.inject({ method: 'GET', url: '/', headers: { accept: 'text/html', 'accept-encoding': 'gzip' } });
    expect(gunzipSync(gz.rawPayload).toString()).toContain('<div id="root">');
    const plain = await t.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('window.__CMS_CONFIG__=');
  });

  it('reads Accept-Encoding with q-values', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('*')).toBe('gzip');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});
