/**
 * Issue 25, the Admin area's low findings (and the version bound they share with AppCMS and Content):
 * non-UUID staff ids are a 404, versions above a PostgreSQL integer a 400 at the schema, two first
 * settings saves at once a 409, set-password links on PUBLIC_URL (never the request's host), tokens
 * bound to their purpose, and another site's e-mail not revealed by the create.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffChangeResponse, StaffListResponse } from '../common/admin-contract';
import { APPCMS_PATHS } from '../common/appcms';
import { API_PATHS } from '../common/constants';
import { MAX_VERSION, type VerifyOtpResponse } from '../common/contract';
import { ADMIN_MESSAGES, MESSAGES } from '../common/messages';
import { buildApp } from './app';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, networkDevices, networkBrands, networkSettings, networks, staffUsers } from './db/schema';
import { CREATE_ELSEWHERE_AUDIT } from './domain/staff-admin';
import { assertPublicUrl, loadConfig, publicUrlOf } from './env';
import { createTestApp, testConfig, type Session, type TestApp } from './test/kit';

const A = API_PATHS.admin;
const SITE = DEMO_SITES.viewlift;
const PUBLIC = 'https://cms.example.test';
let t: TestApp;
let admin: Session;
let northwind: Session;

beforeAll(async () => {
  // One trusted proxy hop, so X-Forwarded-Host would reach request.host if anything still read it.
  t = await createTestApp({ demo: true, config: { publicUrl: PUBLIC, trustProxy: 1 } });
  admin = await t.login('admin@demo.test');
  northwind = await t.login('admin@northwind.test');
});
afterAll(async () => t?.close());

function call(session: Session | null, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) {
  return t.inject({ method, url, headers: { ...(session?.headers ?? {}), ...headers }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
}

function newAccount(overrides: Record<string, unknown> = {}) {
  const email = `sec-${randomUUID().slice(0, 8)}@test.local`;
  return { email, displayName: `Sec ${email.slice(4, 12)}`, phoneNumber: `+1556${String(Date.now()).slice(-7)}`, twoFactorOnLogin: false, roles: { Content: 'read' }, ...overrides };
}

async function create(session: Session, overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await call(session, 'POST', `${A}/staff`, newAccount(overrides), headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<StaffChangeResponse>();
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

async function createNetwork() {
  const site = await t.siteByName(SITE);
  const identifier = `sec-${randomUUID().slice(0, 8)}`;
  const [row] = await t.db.insert(networks).values({ siteId: site.id, identifier, name: `Sec ${identifier}`, image: '/logo.svg', isActive: false, isDefault: false }).returning();
  if (!row) throw new Error('network insert failed');
  const theme = { primaryColor: '#AA0000', secondaryColor: '#222222', backgroundColor: '#FAFAFA', textColor: '#000000', fontFamily: 'Inter' };
  await t.db.insert(networkBrands).values({ networkId: row.id, logoUrl: '/a.png', iconUrl: '/b.png', theme, themeOtt: theme, themeApps: theme });
  await t.db.insert(networkSettings).values({ networkId: row.id, values: { defaultLanguage: 'de', maxStreams: 3, autoplay: true, supportEmail: 'a@b.test' } });
  await t.db.insert(networkDevices).values({ networkId: row.id, devices: [{ platform: 'web', name: 'Web browser', enabled: true, minAppVersion: '1.0.0' }] });
  return identifier;
}

describe('staff ids that are not UUIDs (issue 25)', () => {
  const BAD_IDS = ['-'.repeat(36), 'g'.repeat(36), '0123456789abcdef0123456789abcdef----', 'abc'];

  it('every /staff/:id route answers 404 with its message, never a 500', async () => {
    const valid = (await create(admin)).staff;
    for (const id of BAD_IDS) {
      const routes: [('GET' | 'POST' | 'PUT' | 'DELETE'), string, unknown][] = [
        ['GET', `${A}/staff/${id}`, undefined],
        ['PUT', `${A}/staff/${id}`, { displayName: 'X', phoneNumber: '+15550100099', twoFactorOnLogin: false, roles: {}, version: 1 }],
        ['POST', `${A}/staff/${id}/disable`, { version: 1 }],
        ['POST', `${A}/staff/${id}/enable`, { version: 1 }],
        ['GET', `${A}/staff/${id}/sessions`, undefined],
        ['POST', `${A}/staff/${id}/sessions/end`, undefined],
        ['DELETE', `${A}/staff/${id}/sessions/${randomUUID()}`, undefined],
        ['POST', `${A}/staff/${id}/password-reset`, undefined],
        ['POST', `${A}/staff/${id}/second-factor/reset`, { phoneNumber: '+15550100099', version: 1 }],
      ];
      for (const [method, url, body] of routes) {
        const res = await call(admin, method, url, body);
        expect([res.statusCode, url], res.body).toEqual([404, url]);
        expect(res.json()).toEqual({ success: false, message: ADMIN_MESSAGES.staffNotFound });
      }
    }
    const badSession = await call(admin, 'DELETE', `${A}/staff/${valid.id}/sessions/${'-'.repeat(36)}`);
    expect(badSession.statusCode).toBe(404);
    expect(badSession.json()).toEqual({ success: false, message: ADMIN_MESSAGES.sessionsFailed });
  });
});

describe('versions above a PostgreSQL integer (issue 25)', () => {
  const expect400 = async (res: Awaited<ReturnType<typeof call>>, label: string) => {
    expect([res.statusCode, label], res.body).toEqual([400, label]);
    expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
  };

  it('staff writes: a version above 2^31-1 is a 400 at the schema; 2^31-1 itself is a stale 409', async () => {
    const { staff } = await create(admin);
    for (const version of [9007199254740991, MAX_VERSION + 1, 1e21]) {
      await expect400(await call(admin, 'POST', `${A}/staff/${staff.id}/enable`, { version }), `enable ${version}`);
      await expect400(await call(admin, 'POST', `${A}/staff/${staff.id}/disable`, { version }), `disable ${version}`);
      await expect400(await call(admin, 'PUT', `${A}/staff/${staff.id}`, { displayName: 'X', phoneNumber: staff.phoneNumber, twoFactorOnLogin: false, roles: {}, version }), `update ${version}`);
      await expect400(await call(admin, 'POST', `${A}/staff/${staff.id}/second-factor/reset`, { phoneNumber: '+15550100099', version }), `2fa ${version}`);
    }
    const max = await call(admin, 'POST', `${A}/staff/${staff.id}/enable`, { version: MAX_VERSION });
    expect(max.statusCode).toBe(409);
    const [row] = await t.db.select().from(staffUsers).where(eq(staffUsers.id, staff.id));
    expect(row).toMatchObject({ version: staff.version, disabled: false, displayName: staff.displayName });
  });

  it('AppCMS brand, settings, restore, devices and service: 400 above 2^31-1 (restore 1e21 too); 2^31-1 is a stale 409', async () => {
    const network = await createNetwork();
    const brand = await call(admin, 'GET', `${APPCMS_PATHS.brand}/${SITE}/${network}`);
    const { version: _v, network: _n, ...brandBody } = brand.json<Record<string, unknown>>();
    void _v; void _n;
    const cases: [('PUT' | 'POST'), string, (version: number) => Record<string, unknown>][] = [
      ['PUT', `${APPCMS_PATHS.brand}/${SITE}/${network}`, (version) => ({ ...brandBody, version })],
      ['PUT', `${APPCMS_PATHS.settings}/${SITE}/${network}`, (version) => ({ version, values: { maxStreams: 4 } })],
      ['POST', `${APPCMS_PATHS.settingsRestore}/${SITE}/${network}`, (version) => ({ version, restore: 1 })],
      ['PUT', `${APPCMS_PATHS.devices}/${SITE}/${network}`, (version) => ({ version, devices: [] })],
      ['PUT', `${APPCMS_PATHS.service}/${SITE}`, (version) => ({ version, serviceName: 'Sec' })],
    ];
    for (const [method, url, body] of cases) {
      for (const version of [2147483648, 9007199254740991, 1e21]) await expect400(await call(admin, method, url, body(version)), `${url} ${version}`);
      const max = await call(admin, method, url, body(MAX_VERSION));
      expect([max.statusCode, url], max.body).toEqual([409, url]);
    }
    for (const restore of [1e21, 2147483648]) {
      await expect400(await call(admin, 'POST', `${APPCMS_PATHS.settingsRestore}/${SITE}/${network}`, { version: 1, restore }), `restore ${restore}`);
    }
    const maxRestore = await call(admin, 'POST', `${APPCMS_PATHS.settingsRestore}/${SITE}/${network}`, { version: 1, restore: MAX_VERSION });
    expect(maxRestore.statusCode).toBe(404);
  });

  it('Content edit and bulk status: 400 above 2^31-1', async () => {
    const id = randomUUID();
    await expect400(await call(admin, 'PATCH', `${API_PATHS.content}/${id}`, { version: 2147483648, title: 'X' }), 'content patch');
    await expect400(await call(admin, 'POST', `${API_PATHS.content}/bulk-status`, { status: 'unpublished', items: [{ id, version: 1e21 }] }), 'bulk');
  });
});

describe("a network's first settings save by two writers at once (issue 25)", () => {
  it('one 200, the other 409 (never a 500), on every round', async () => {
    for (let round = 0; round < 6; round += 1) {
      const network = await createNetwork();
      const url = `${APPCMS_PATHS.settings}/${SITE}/${network}`;
      const answers = await Promise.all([
        call(admin, 'PUT', url, { version: 1, values: { maxStreams: 5 } }),
        call(admin, 'PUT', url, { version: 1, values: { maxStreams: 6 } }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const stale = answers.find((r) => r.statusCode === 409)!;
      expect(stale.json()).toMatchObject({ success: false, message: expect.any(String) });
      const versions = (await call(admin, 'GET', `${APPCMS_PATHS.settingsVersions}/${SITE}/${network}`)).json<{ current: number; versions: { version: number }[] }>();
      expect(versions.current).toBe(2);
      expect(versions.versions.map((v) => v.version)).toEqual([2, 1]);
    }
  });
});

describe('set-password links use PUBLIC_URL (issue 25)', () => {
  it("a create and a triggered reset link to PUBLIC_URL, whatever Host or X-Forwarded-Host the request names", async () => {
    const hostile = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    const created = await create(admin, {}, hostile);
    expect(created.link?.url.startsWith(`${PUBLIC}/set-password?token=`)).toBe(true);
    expect((await t.latestSms(created.staff.phoneNumber))?.body).toBe(ADMIN_MESSAGES.setPasswordSms(created.link!.url));
    const reset = (await call(admin, 'POST', `${A}/staff/${created.staff.id}/password-reset`, undefined, hostile)).json<StaffChangeResponse>();
    expect(reset.link?.url.startsWith(`${PUBLIC}/set-password?token=`)).toBe(true);
    expect((await t.latestSms(created.staff.phoneNumber))?.body).not.toContain('evil.example');
  });

  it('PUBLIC_URL is required in production; development defaults to http://HOST:PORT of the config', async () => {
    expect(loadConfig({}).publicUrl).toBe('http://127.0.0.1:3000');
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).toBe('http://0.0.0.0:8080');
    expect(loadConfig({ HOST: '::1', PORT: '8080' }).publicUrl).toBe('http://[::1]:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://cms.example.com/' }).publicUrl).toBe('https://cms.example.com');
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://cms.example.com/console/' }).publicUrl).toBe('https://cms.example.com/console');
    expect(() => loadConfig({ PUBLIC_URL: 'cms.example.com' })).toThrow('PUBLIC_URL must be an absolute http(s) URL');
    expect(() => loadConfig({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow('PUBLIC_URL must be an absolute http(s) URL');
    expect(publicUrlOf(undefined, true, '127.0.0.1', 3000)).toBe('');
    const message = 'PUBLIC_URL must be set when NODE_ENV=production';
    expect(() => assertPublicUrl(loadConfig({ NODE_ENV: 'production' }))).toThrow(message);
    expect(() => assertPublicUrl(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: PUBLIC }))).not.toThrow();
    await expect(buildApp({ config: testConfig({ production: true, nodeEnv: 'production', publicUrl: '', seed: false }), db: t.dbHandle })).rejects.toThrow(message);
  });
});

describe('tokens are bound to their purpose (issue 25)', () => {
  const resetWith = (token: string) =>
    t.post(API_PATHS.resetPassword, { newPassword: 'Purpose!Pw77', confirmPassword: 'Purpose!Pw77' }, { authorization: `Bearer ${token}` });

  it('a set-password token is refused by the forgot-password reset like an unknown token, and stays usable for its own route', async () => {
    const created = await create(admin);
    const token = tokenOf(created.link!.url);
    const unknown = await resetWith(`made-up-${randomUUID()}`);
    const wrongPurpose = await resetWith(token);
    expect(wrongPurpose.statusCode).toBe(400);
    expect(wrongPurpose.json()).toEqual(unknown.json());
    expect(wrongPurpose.json()).toEqual({ success: false, message: MESSAGES.passwordResetFailed });
    const audits = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'password.reset'), eq(auditEvents.actorUserId, created.staff.id)));
    expect(audits).toHaveLength(0);
    const set = await t.post(`${A}/set-password`, { token, newPassword: 'Own!Purpose88', confirmPassword: 'Own!Purpose88' });
    expect(set.json()).toEqual({ success: true, message: ADMIN_MESSAGES.setPasswordDone });
  });

  it('a forgot-password reset token is refused by the set-password routes', async () => {
    const user = await t.createUser({ prefix: 'purpose' });
    expect((await t.post(API_PATHS.forgotPassword, { username: user.username })).statusCode).toBe(200);
    let code: string | undefined;
    for (let i = 0; i < 50 && !code; i += 1) {
      code = await t.latestCode(user.phoneNumber);
      if (!code) await new Promise((r) => setTimeout(r, 20));
    }
    const verified = await t.post(API_PATHS.verifyOtp, { username: user.username, otp: code, isLogin: false });
    const token = verified.json<VerifyOtpResponse>().accessToken;
    expect(token.length).toBeGreaterThan(20);
    const check = await t.post(`${A}/set-password/check`, { token });
    expect(check.statusCode).toBe(400);
    expect(check.json()).toEqual({ success: false, message: ADMIN_MESSAGES.setPasswordInvalid });
    const set = await t.post(`${A}/set-password`, { token, newPassword: 'Other!Purpose9', confirmPassword: 'Other!Purpose9' });
    expect(set.json()).toEqual({ success: false, message: ADMIN_MESSAGES.setPasswordInvalid });
    // Still good for its own route.
    expect((await resetWith(token)).statusCode).toBe(200);
  });
});

describe("another site's e-mail is not revealed by a create (issue 25)", () => {
  it('answers like a successful create, stores and sends nothing, audits without a site; this site\'s own e-mail is still a 409', async () => {
    const res = await call(admin, 'POST', `${A}/staff`, newAccount({ email: 'Admin@Northwind.test', displayName: 'Hidden Probe', phoneNumber: '+15557654321' }));
    expect(res.statusCode).toBe(201);
    const body = res.json<StaffChangeResponse>();
    expect(body).toMatchObject({
      success: true, message: ADMIN_MESSAGES.created('Hidden Probe'),
      staff: { username: 'admin@northwind.test', email: 'admin@northwind.test', displayName: 'Hidden Probe', roles: { Content: 'read' }, disabled: false, version: 1 },
    });
    expect(body.link?.url.startsWith(`${PUBLIC}/set-password?token=`)).toBe(true);
    expect(Object.keys(body).sort()).toEqual(['link', 'message', 'staff', 'success']);
    expect(Object.keys(body.staff).sort()).toEqual(Object.keys((await create(admin)).staff).sort());
    // Nothing stored or sent: the northwind account is untouched, no SMS went to the given number.
    const rows = await t.db.select().from(staffUsers).where(eq(staffUsers.username, 'admin@northwind.test'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.displayName).toBe('Nick Northwind');
    expect(await t.latestSms('+15557654321')).toBeUndefined();
    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.action, CREATE_ELSEWHERE_AUDIT));
    expect(audit.at(-1)).toMatchObject({ siteId: null, actorUserId: admin.profile.username ? expect.any(String) : null });
    // Neither tenant's Admin audit log shows it.
    for (const session of [admin, northwind]) {
      const log = (await call(session, 'GET', `${A}/audit?action=${CREATE_ELSEWHERE_AUDIT}`)).json<{ total: number }>();
      expect(log.total).toBe(0);
    }
    const own = await call(admin, 'POST', `${A}/staff`, newAccount({ email: 'Content@Demo.test' }));
    expect(own.statusCode).toBe(409);
    expect(own.json()).toEqual({ success: false, message: ADMIN_MESSAGES.usernameTaken });
    const list = (await call(northwind, 'GET', `${A}/staff?search=northwind`)).json<StaffListResponse>();
    expect(list.items.map((m) => m.displayName)).toContain('Nick Northwind');
  });
});
