/**
 * Issue 19, High: the development outbox (and the simulator's roster) is never an open door.
 * Readable from loopback clients only, not through a proxy, only while the SMS transport is the
 * outbox; the server refuses a non-loopback HOST with the outbox unless ALLOW_DEV_OUTBOX_ON_NETWORK
 * says i-understand; startup names the transport.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { INGEST_KEY_HEADER, INGEST_ROSTER_PATH } from '../common/ingest-contract';
import { OWN_MESSAGES } from '../common/messages';
import { buildApp } from './app';
import { assertDevOutboxNotOnNetwork, describeSmsTransport, isLoopbackHost, loadConfig, parseTrustProxy } from './env';
import { isLoopbackAddress } from './http/dev-routes';
import { createTestApp, openTestDb, testConfig, type TestApp } from './test-support';
import { DEMO_SITES } from './db/demo-accounts';
import { demoIngestionKey, seedSmallWorld } from './db/seed-world';

const REMOTE = '203.0.113.7';

describe('development outbox', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<TestApp['createUser']>>;
  beforeAll(async () => {
    t = await createTestApp();
    user = await t.createUser();
    const res = await t.post(API_PATHS.forgotPassword, { username: user.username });
    expect(res.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('lists the code to a loopback client', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await t.inject({ method: 'GET', url: `${API_PATHS.devOutbox}?to=${encodeURIComponent(user.phoneNumber)}`, remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
      expect(res.json<unknown[]>().length).toBeGreaterThan(0);
    }
  });

  it('answers 404 to any other client, and to a loopback connection carrying forwarding headers', async () => {
    const url = `${API_PATHS.devOutbox}?to=${encodeURIComponent(user.phoneNumber)}`;
    for (const remoteAddress of [REMOTE, '10.0.0.5', '::ffff:192.168.1.2', '2001:db8::1']) {
      const res = await t.inject({ method: 'GET', url, remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(404);
      expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.notFound });
      expect(res.body).not.toContain(user.phoneNumber);
    }
    for (const headers of [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }]) {
      const res = await t.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers });
      expect(res.statusCode).toBe(404);
    }
  });

  it('is not mounted when the SMS transport is not the outbox, nor in production', async () => {
    for (const config of [
      { sms: { transport: 'http' as const, providerUrl: 'https://sms.example.test/send', providerToken: 't' } },
      { sms: { transport: 'disabled' as const, providerUrl: undefined, providerToken: undefined } },
      { production: true, nodeEnv: 'production' },
    ]) {
      const app = await buildApp({ config: testConfig({ ...config, seed: false }), db: t.dbHandle });
      const res = await app.inject({ method: 'GET', url: API_PATHS.devOutbox, remoteAddress: '127.0.0.1' });
      expect(res.statusCode).toBe(404);
      await app.close();
    }
  });

  it('the simulator roster answers loopback clients only', async () => {
    await seedSmallWorld(t.db);
    const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };
    expect((await t.inject({ method: 'GET', url: `${INGEST_ROSTER_PATH}?limit=5`, headers, remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    const remote = await t.inject({ method: 'GET', url: `${INGEST_ROSTER_PATH}?limit=5`, headers, remoteAddress: REMOTE });
    expect(remote.statusCode).toBe(404);
    expect(remote.json()).toEqual({ success: false, message: OWN_MESSAGES.notFound });
  });
});

describe('listening with the outbox', () => {
  it('refuses a non-loopback HOST with the outbox unless ALLOW_DEV_OUTBOX_ON_NETWORK=i-understand', async () => {
    const base = { NODE_ENV: 'development' };
    expect(() => assertDevOutboxNotOnNetwork(loadConfig({ ...base, HOST: '0.0.0.0' }))).toThrow(/ALLOW_DEV_OUTBOX_ON_NETWORK=i-understand/);
    expect(() => assertDevOutboxNotOnNetwork(loadConfig({ ...base, HOST: '::' }))).toThrow(/Refusing to listen/);
    expect(() => assertDevOutboxNotOnNetwork(loadConfig({ ...base, HOST: '0.0.0.0', ALLOW_DEV_OUTBOX_ON_NETWORK: 'yes' }))).toThrow();
    expect(() => assertDevOutboxNotOnNetwork(loadConfig({ ...base, HOST: '0.0.0.0', ALLOW_DEV_OUTBOX_ON_NETWORK: 'i-understand' }))).not.toThrow();
    expect(() => assertDevOutboxNotOnNetwork(loadConfig({ ...base, HOST: '0.0.0.0', SMS_PROVIDER_URL: 'https://sms.example.test' }))).not.toThrow();
    expect(() => assertDevOutboxNotOnNetwork(loadConfig({ ...base }))).not.toThrow();
    expect(() => assertDevOutboxNotOnNetwork(loadConfig({ ...base, HOST: 'localhost' }))).not.toThrow();
    // The README's plain `npm start` (NODE_ENV unset) is the development outbox.
    expect(loadConfig({}).sms.transport).toBe('outbox');
    const db = await openTestDb();
    await expect(buildApp({ config: testConfig({ host: '0.0.0.0', seed: false }), db })).rejects.toThrow(/Refusing to listen on HOST=0.0.0.0/);
    await db.close();
  });

  it('startup names the SMS transport', () => {
    expect(describeSmsTransport(loadConfig({}))).toMatch(/^SMS transport: DEVELOPMENT OUTBOX .*loopback clients only/);
    expect(describeSmsTransport(loadConfig({ SMS_PROVIDER_URL: 'https://sms.example.test/v1' }))).toBe('SMS transport: http provider sms.example.test');
    expect(describeSmsTransport(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x' }))).toMatch(/disabled/);
  });

  it('loopback is 127.0.0.0/8 and ::1 only', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
    expect(['0.0.0.0', '10.0.0.1', '::', '::ffff:10.0.0.1', '128.0.0.1', undefined].some(isLoopbackAddress)).toBe(false);
    expect(['127.0.0.1', 'localhost', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.10', 'example.test'].some(isLoopbackHost)).toBe(false);
  });
});

describe('TRUST_PROXY', () => {
  it('accepts a hop count or a list of proxy addresses, never "trust everything"', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.1, 10.1.0.0/16,::1')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1']);
    for (const bad of ['true', 'yes', 'on', '*', '10.0.0.0/33', 'proxy.example.test', 'loopback']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY must be/);
    }
  });

  it('a list trusts exactly those proxies', async () => {
    const db = await openTestDb();
    const app = await buildApp({ config: testConfig({ trustProxy: ['10.0.0.1'], seed: false }), db });
    let seen = '';
    app.addHook('onRequest', async (request) => { seen = request.ip; });
    const xff = { 'x-forwarded-for': '1.2.3.4, 198.51.100.9' };
    await app.inject({ method: 'GET', url: API_PATHS.devOutbox, remoteAddress: '10.0.0.1', headers: xff });
    expect(seen).toBe('198.51.100.9');
    await app.inject({ method: 'GET', url: API_PATHS.devOutbox, remoteAddress: '10.0.0.2', headers: xff });
    expect(seen).toBe('10.0.0.2');
    await app.close();
    await db.close();
  });

  it('with one hop, a client-chosen X-Forwarded-For does not pick the address', async () => {
    const db = await openTestDb();
    const app = await buildApp({ config: testConfig({ trustProxy: 1, seed: false }), db });
    let seen = '';
    app.addHook('onRequest', async (request) => { seen = request.ip; });
    const xff = { 'x-forwarded-for': '1.2.3.4, 198.51.100.9' };
    await app.inject({ method: 'GET', url: API_PATHS.devOutbox, remoteAddress: '10.0.0.1', headers: xff });
    expect(seen).toBe('198.51.100.9');
    // A client that reaches the server directly (not a private address) cannot choose its address.
    await app.inject({ method: 'GET', url: API_PATHS.devOutbox, remoteAddress: '203.0.113.50', headers: xff });
    expect(seen).toBe('203.0.113.50');
    await app.close();
    await db.close();
  });
});
