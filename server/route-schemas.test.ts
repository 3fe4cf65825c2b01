/**
 * Issue 26: every route declares its answers (a response schema, 4xx included), so a handler cannot
 * leak a field by accident and answers serialise fast. This lists every route buildApp adds (the
 * SPA included) and fails with the ones that have no response schema or no error answer.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyPluginAsync, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from './http/response-schemas';
import { createTestApp, type TestApp } from './test/kit';

let t: TestApp;

/** A route whose schema forgets a field: the serialization check of the tests must refuse its answer. */
const probe: FastifyPluginAsync = async (app) => {
  app.get('/v1/probe/lossy', { schema: { response: answers({ 200: { type: 'object', properties: { kept: { type: 'string' } } } }) } }, async () => ({ kept: 'yes', lost: 'no' }));
  app.get('/v1/probe/whole', { schema: { response: answers({ 200: { type: 'object', properties: { kept: { type: 'string' } } } }) } }, async () => ({ kept: 'yes' }));
};
const routes: RouteOptions[] = [];

beforeAll(async () => {
  // A built SPA of one page, so the SPA's routes are listed too.
  const staticDir = mkdtempSync(join(tmpdir(), 'route-schemas-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>probe</title>');
  t = await createTestApp({ staticDir, plugins: [probe], onRoute: (route) => { routes.push(route); } });
});
afterAll(async () => t?.close());

/** Routes registered by a library whose answers are not ours to describe. */
const LIBRARY_ROUTES = new Set([
  // Mercurius: the answer is the GraphQL response, typed by the GraphQL schema (server/graphql/schema.ts).
  'GET /management/graphql', 'POST /management/graphql',
  // @fastify/static: the built SPA's files (server/http/spa.ts), sent as they are.
  'HEAD,GET /*',
]);

const name = (route: RouteOptions) => `${[route.method].flat().join(',')} ${route.url}`;

describe('response schemas (issue 26)', () => {
  it('every route declares a 2xx answer and its 4xx answers', () => {
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes
      .filter((route) => !LIBRARY_ROUTES.has(name(route)) && !name(route).startsWith('HEAD '))
      .filter((route) => {
        const codes = Object.keys((route.schema?.response ?? {}) as Record<string, unknown>);
        return !codes.some((code) => code.startsWith('2')) || !codes.some((code) => code.startsWith('4') || code === '4xx');
      })
      .map(name);
    expect(missing).toEqual([]);
  });

  it('tests refuse an answer its schema would change (server/http/serialization-check.ts)', async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => { errors.push(args); };
    try {
      expect((await t.get('/v1/probe/lossy')).statusCode).toBe(500);
    } finally {
      console.error = original;
    }
    expect(String(errors[0])).toContain('GET /v1/probe/lossy');
    const whole = await t.get('/v1/probe/whole');
    expect(whole.statusCode).toBe(200);
    expect(whole.json()).toEqual({ kept: 'yes' });
  });
});
