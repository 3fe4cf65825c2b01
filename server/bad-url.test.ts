/**
 * Issue 30: an address that cannot be decoded (`/%E0%A4%A`) opened in the browser gets the console's
 * index.html (the app then shows its not-found page), never Fastify's raw JSON error; an API caller
 * or a non-HTML client gets the failure shape `{ success: false, message }` with 400.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_MESSAGES } from '../common/messages';
import { createTestApp, type TestApp } from './test/kit';

let t: TestApp;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'cms-bad-url-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>CMS Tools</title></head><body><div id="root"></div></body></html>');
  t = await createTestApp({ staticDir: dist });
});

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('a malformed address', () => {
  it('opened in the browser answers the console (index.html), not a JSON error', async () => {
    const res = await t.inject({ method: 'GET', url: '/%E0%A4%A', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain('FST_ERR_BAD_URL');
  });

  it('asked for as data answers 400 with the failure shape, no framework code', async () => {
    for (const url of ['/%E0%A4%A', '/v4.0/appcms/%E0%A4%A']) {
      const res = await t.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ success: false, message: OWN_MESSAGES.badRequest });
    }
  });
});
