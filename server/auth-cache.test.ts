/**
 * The per-instance session lookup cache (AUTH_CACHE_MS): reads reuse a lookup for a moment, but a
 * revocation on this instance takes effect at once, and one made elsewhere (another instance, seen
 * here as a direct database write) within the cache time.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { sessions } from './db/schema';
import { createTestApp, type TestApp } from './test/kit';

const CACHE_MS = 60_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ demo: true, config: { authCacheMs: CACHE_MS } });
});
afterAll(async () => {
  await t?.close();
});

function sessionIdOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid as string;
}

describe('session lookup cache', () => {
  it('refuses a token at once after logout on the same instance, although its lookup was cached', async () => {
    const user = await t.createUser();
    const session = await t.login(user.username, user.password);
    expect((await t.get(API_PATHS.verify, session.headers)).statusCode).toBe(200);
    expect((await t.post(API_PATHS.logout, {}, session.headers)).statusCode).toBe(200);
    expect((await t.get(API_PATHS.verify, session.headers)).statusCode).toBe(401);
  });

  it('sees a revocation made by another instance once the cache time has passed', async () => {
    const user = await t.createUser();
    const session = await t.login(user.username, user.password);
    const headers = { headers: { authorization: `Bearer ${session.token}`, xapikey: session.apiKey } };
    const start = new Date();
    await t.app.services.auth.authenticate(headers, { now: start });
    await t.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionIdOf(session.token)));

    await expect(t.app.services.auth.authenticate(headers, { now: new Date(start.getTime() + 10) })).resolves.toBeDefined();
    await expect(t.app.services.auth.authenticate(headers, { now: new Date(start.getTime() + CACHE_MS + 1) })).rejects.toThrow();
  });
});
