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
import { createRateLimitRepository } from './db/rate-limit-repository';
import { budgetLeaseUnits, createLeasedBudget } from './domain/rate-limit';
import { loadConfig } from './env';
import { createTestApp, TEST_SEED_PASSWORD, type TestApp } from './test/kit';

let t: TestApp;
let app: FastifyInstance;
const BUDGET = 5;
// An hour's window: the fixed windows restart on the clock's boundary, which a minute's window crossed now and then mid-test.
beforeAll(async () => {
  t = await createTestApp({ demo: true });
  app = await buildApp({ db: t.dbHandle, config: { ...t.config, seed: false, apiRateLimit: { max: BUDGET, windowSeconds: 3600 } } });
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

/**
 * Issue 37: on PostgreSQL without Redis the budget is leased from the shared rate_limits counter in
 * shares (1 % of the budget) instead of one write per request. Instances are separate lease holders
 * over one database here (the same repository the server uses, on either database).
 */
describe('the leased per-token budget (C-RATE-1 without Redis)', () => {
  function instances(count: number) {
    const repository = createRateLimitRepository(t.db);
    const claims = { count: 0 };
    const store = { claimBudget: (...args: Parameters<typeof repository.claimBudget>) => { claims.count++; return repository.claimBudget(...args); } };
    return { claims, budgets: Array.from({ length: count }, () => createLeasedBudget(store)) };
  }
  const rule = { limit: 1000, windowSeconds: 60 };
  const at = new Date('2030-01-01T00:00:10Z');

  it('three instances never admit more than the budget together, refuse at most 3 × (share − 1) early, and write once per share', async () => {
    const { claims, budgets } = instances(3);
    const key = `api:lease-${randomUUID()}`;
    let admitted = 0;
    const refusedAt: number[] = [];
    for (let i = 0; i < 1100; i++) {
      const hit = await budgets[i % 3]!.take(key, rule, at);
      if (hit.allowed) admitted++;
      else refusedAt.push(i);
      if (hit.allowed) expect(hit.count).toBeLessThanOrEqual(rule.limit);
      else expect(hit.retryAfterSeconds).toBe(50);
    }
    expect(budgetLeaseUnits(rule.limit)).toBe(10);
    expect(admitted).toBeLessThanOrEqual(rule.limit);
    expect(admitted).toBeGreaterThanOrEqual(rule.limit - 3 * (budgetLeaseUnits(rule.limit) - 1));
    // 100 shares granted, then one refused claim per instance; refusals after that cost nothing.
    expect(claims.count).toBeLessThanOrEqual(rule.limit / budgetLeaseUnits(rule.limit) + 3);
    expect(refusedAt.length).toBe(1100 - admitted);
    // The next window starts afresh.
    expect((await budgets[0]!.take(key, rule, new Date(at.getTime() + 60_000))).allowed).toBe(true);
  });

  it('requests waiting on one instance share one claim; parallel instances still stop at the budget', async () => {
    const { claims, budgets } = instances(2);
    const key = `api:lease-${randomUUID()}`;
    const small = { limit: 300, windowSeconds: 60 };
    const hits = await Promise.all(Array.from({ length: 400 }, (_, i) => budgets[i % 2]!.take(key, small, at)));
    const admitted = hits.filter((h) => h.allowed).length;
    expect(admitted).toBeLessThanOrEqual(small.limit);
    expect(admitted).toBeGreaterThanOrEqual(small.limit - 2 * (budgetLeaseUnits(small.limit) - 1));
    expect(claims.count).toBeLessThanOrEqual(small.limit / budgetLeaseUnits(small.limit) + 2);
    // The counts handed out are distinct units of the shared counter.
    const counts = hits.filter((h) => h.allowed).map((h) => h.count);
    expect(new Set(counts).size).toBe(counts.length);
  });

  it('a budget under 200 is leased one request at a time: exact across instances', async () => {
    const { claims, budgets } = instances(2);
    const key = `api:lease-${randomUUID()}`;
    const tiny = { limit: 7, windowSeconds: 60 };
    const allowed = [];
    for (let i = 0; i < 10; i++) allowed.push((await budgets[i % 2]!.take(key, tiny, at)).allowed);
    expect(allowed).toEqual([...Array(7).fill(true), false, false, false]);
    expect(claims.count).toBe(9); // seven granted, then one refused claim per instance
  });
});

