/**
 * Issue 19, High: the development outbox (and the simulator's roster) is never an open door.
 * Readable only with the outbox token (issue 25: recognising proxies by their headers cannot be
 * complete), from loopback clients only, not through a proxy, only while the SMS transport is the
 * outbox; the server refuses a non-loopback HOST with the outbox unless ALLOW_DEV_OUTBOX_ON_NETWORK
 * says i-understand; startup names the transport.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { INGEST_KEY_HEADER, INGEST_ROSTER_PATH } from '../common/ingest-contract';
import { OWN_MESSAGES } from '../common/messages';
import { buildApp } from './app';
import { assertDevOutboxNotOnNetwork, describeSmsTransport, isLoopbackHost, loadConfig, parseTrustProxy } from './env';
import { devOutboxEnabled, devOutboxUrl, isLoopbackAddress } from './http/dev-routes';
import { createTestApp, outboxHeaders, openTestDb, testConfig, type TestApp } from './test/kit';
import { DEMO_SITES } from './db/demo-accounts';
import { demoIngestionKey, seedSmallWorld } from './db/seed-world';

const REMOTE = '203.0.113.7';

describe('development outbox', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<TestApp['createUser']>>;
  beforeAll(async () => {
    t = await createTestApp({ demo: true });
    user = await t.createUser();
    const res = await t.post(API_PATHS.forgotPassword, { username: user.username });
    expect(res.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('lists the code to a loopback client that sends the outbox token (header or query string)', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await t.inject({ method: 'GET', url: `${API_PATHS.devOutbox}?to=${encodeURIComponent(user.phoneNumber)}`, remoteAddress, headers: outboxHeaders(t.config) });
      expect(res.statusCode, remoteAddress).toBe(200);
      expect(res.json<unknown[]>().length).toBeGreaterThan(0);
    }
    const viaQuery = await t.inject({ method: 'GET', url: `${API_PATHS.devOutbox}?to=${encodeURIComponent(user.phoneNumber)}&token=${encodeURIComponent(t.config.devOutboxToken)}`, remoteAddress: '127.0.0.1' });
    expect(viaQuery.statusCode).toBe(200);
    expect(viaQuery.body).toContain(user.phoneNumber);
  });

  it('issue 25: without the token even a loopback request is a 404, whatever a proxy adds or leaves out', async () => {
    const url = `${API_PATHS.devOutbox}?to=${encodeURIComponent(user.phoneNumber)}`;
    // The requests the probe got answered 200: each proxy's own header alone, and a loopback proxy that adds none.
    for (const headers of [{}, { 'x-real-ip': '203.0.113.9' }, { via: '1.1 proxy' }, { 'x-forwarded-host': 'cms.example.test', 'x-forwarded-proto': 'https' },
      { 'cf-connecting-ip': '203.0.113.9' }, { 'true-client-ip': '203.0.113.9' }]) {
      const res = await t.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
      expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.notFound });
      expect(res.body).not.toContain(user.phoneNumber);
    }
    for (const token of ['', 'x', t.config.devOutboxToken.slice(0, -1), `${t.config.devOutboxToken}x`, t.config.devOutboxToken.toUpperCase()]) {
      expect((await t.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { 'x-dev-outbox-token': token } })).statusCode, token).toBe(404);
      expect((await t.inject({ method: 'GET', url: `${url}&token=${encodeURIComponent(token)}`, remoteAddress: '127.0.0.1' })).statusCode, token).toBe(404);
    }
  });

  it('answers 404 to any other client, and to a loopback connection carrying forwarding headers, even with the token', async () => {
    const url = `${API_PATHS.devOutbox}?to=${encodeURIComponent(user.phoneNumber)}`;
    for (const remoteAddress of [REMOTE, '10.0.0.5', '::ffff:192.168.1.2', '2001:db8::1']) {
      const res = await t.inject({ method: 'GET', url, remoteAddress, headers: outboxHeaders(t.config) });
      expect(res.statusCode, remoteAddress).toBe(404);
      expect(res.json()).toEqual({ success: false, message: OWN_MESSAGES.notFound });
      expect(res.body).not.toContain(user.phoneNumber);
    }
    for (const headers of [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }]) {
      const res = await t.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { ...headers, ...outboxHeaders(t.config) } });
      expect(res.statusCode).toBe(404);
    }
  });

  it('the token is DEV_OUTBOX_TOKEN (at least 32 characters) or a fresh random one at each start, and startup prints the address with it', () => {
    const drawn = [loadConfig({}).devOutboxToken, loadConfig({}).devOutboxToken];
    expect(drawn[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(drawn[1]).not.toBe(drawn[0]);
    expect(loadConfig({ DEV_OUTBOX_TOKEN: 'k'.repeat(32) }).devOutboxToken).toBe('k'.repeat(32));
    expect(() => loadConfig({ DEV_OUTBOX_TOKEN: 'k'.repeat(31) })).toThrow('DEV_OUTBOX_TOKEN must be at least 32 characters long');
    // Checked only where the outbox is in use (issue 37): production (even with SMS_TRANSPORT=outbox)
    // and a real SMS provider start with a short one, which is then ignored.
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://cms.example.test', DEV_OUTBOX_TOKEN: 'short' };
    for (const env of [production, { ...production, SMS_TRANSPORT: 'outbox' }, { DEV_OUTBOX_TOKEN: 'short', SMS_PROVIDER_URL: 'https://sms.example.test/send' }]) {
      const config = loadConfig(env);
      expect(devOutboxEnabled(config)).toBe(false);
      expect(config.devOutboxToken).not.toBe('short');
      expect(config.devOutboxToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(() => loadConfig({ NODE_ENV: 'development', SMS_TRANSPORT: 'outbox', DEV_OUTBOX_TOKEN: 'short' })).toThrow('DEV_OUTBOX_TOKEN must be at least 32 characters long');
    expect(devOutboxUrl({ host: '127.0.0.1', port: 3000, devOutboxToken: 'a+b/c' })).toBe('http://127.0.0.1:3000/__dev/outbox?token=a%2Bb%2Fc');
    expect(devOutboxUrl({ host: '::1', port: 3000, devOutboxToken: 't' })).toBe('http://[::1]:3000/__dev/outbox?token=t');
  });

  it('is not mounted when the SMS transport is not the outbox, nor in production', async () => {
    for (const config of [
      { sms: { transport: 'http' as const, providerUrl: 'https://sms.example.test/send', providerToken: 't' } },
      { sms: { transport: 'disabled' as const, providerUrl: undefined, providerToken: undefined } },
      { production: true, nodeEnv: 'production' },
    ]) {
      const app = await buildApp({ config: testConfig({ ...config, seed: false }), db: t.dbHandle });
      const res = await app.inject({ method: 'GET', url: API_PATHS.devOutbox, remoteAddress: '127.0.0.1', headers: outboxHeaders(app.services.config) });
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
    expect(describeSmsTransport(loadConfig({}))).toMatch(/^SMS transport: DEVELOPMENT OUTBOX .*loopback clients that send its token/);
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
