/**
 * SECURITY.md C-RATE-1: a per-token request budget on authenticated routes and GraphQL; past it a
 * 429 with a JSON message and Retry-After; other tokens and anonymous routes are not affected.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import type { LoginResponse } from '../common/contract';
import { OWN_MESSAGES } from '../common/messages';
import { buildApp } from './app';
import { DEMO_SITES } from './db/demo-accounts';
import { loadConfig } from './env';
import { createTestApp, TEST_SEED_PASSWORD, type TestApp } from './test/kit';

let t: TestApp;
let app: FastifyInstance;
const BUDGET = 5;
beforeAll(async () => {
  t = await createTestApp({ demo: true });
  app = await buildApp({ db: t.dbHandle, config: { ...t.config, seed: false, apiRateLimit: { max: BUDGET, windowSeconds: 60 } } });
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

/**
 * A token that has made no request yet, with its site's management key: on PostgreSQL the counters
 * live in Redis or the database, shared by every instance (issue 31), so a request on `t` would count.
 */
async function freshToken(username: string): Promise<{ headers: Record<string, string> }> {
  const res = await t.post(API_PATHS.login, { username, password: TEST_SEED_PASSWORD, deviceId: randomUUID() });
  expect(res.statusCode).toBe(200);
  const site = await t.siteByName(DEMO_SITES.viewlift);
  return { headers: { authorization: `Bearer ${res.json<LoginResponse>().accessToken}`, xapikey: site.managementApiKey } };
}

describe('per-token request budget (C-RATE-1)', () => {
  it('past the budget a token gets 429 JSON with Retry-After, on REST and GraphQL alike; another token and anonymous routes are unaffected', async () => {
    const a = await freshToken('admin@demo.test');
    const b = await freshToken('content@demo.test');
    const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url: API_PATHS.verify, headers });
    for (let i = 0; i < BUDGET; i++) expect((await get(a.headers)).statusCode).toBe(200);
    const over = await get(a.headers);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ success: false, message: OWN_MESSAGES.tooManyRequests });
    expect(over.json().retryAfterSeconds).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const graphql = await app.inject({
      method: 'POST', url: API_PATHS.graphql, headers: { ...a.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graphql.statusCode).toBe(429);
    // GraphQL answers in its own error shape, with the same message.
    expect(graphql.json().errors[0].message).toBe(OWN_MESSAGES.tooManyRequests);
    expect((await get(b.headers)).statusCode).toBe(200);
    // Anonymous routes (with their own limits) are not counted against any token.
    expect((await app.inject({ method: 'GET', url: API_PATHS.device })).statusCode).toBe(200);
  });

  it('the budget is configurable and generous by default', () => {
    expect(loadConfig({}).apiRateLimit).toEqual({ max: 1200, windowSeconds: 60 });
    expect(loadConfig({ API_RATE_LIMIT_PER_MINUTE: '300' }).apiRateLimit.max).toBe(300);
  });
});
