/**
 * The Admin area over /v3.0/user/admin: who may list and who may change, the set-password link,
 * sessions ended on disable and role changes, the last-Admin and self-disable rules, site isolation,
 * bad input, and the audit log (who, what, when, before/after). Tests that change state work on
 * accounts (and a site) they create, so the shared PostgreSQL run stays clean.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AuditListResponse, StaffChangeResponse, StaffListResponse, StaffSessionsResponse,
} from '../common/admin-contract';
import { API_PATHS } from '../common/constants';
import { ADMIN_MESSAGES, MESSAGES } from '../common/messages';
import { DATE_INPUT_MESSAGES } from '../common/messages/dates';
import {
  SECOND_FACTOR_AUDIT_ACTION, SECOND_FACTOR_DONE, SECOND_FACTOR_RULE_PATH, SECOND_FACTOR_TEXT,
} from '../common/second-factor-rule';
import { TOTP_PATHS, type TotpStartResponse } from '../common/totp';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, revisions, sites, staffUsers } from './db/schema';
import { totpCode } from './domain/totp';
import { createTestApp, outboxHeaders, type Session, type TestApp } from './test/kit';

const A = API_PATHS.admin;
let t: TestApp;
let admin: Session;
let reader: Session;
let contentOnly: Session;
let northwind: Session;

function call(session: Session | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return t.inject({ method, url, headers: session?.headers ?? {}, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
}

function newAccount(overrides: Record<string, unknown> = {}) {
  const email = `new-${randomUUID().slice(0, 8)}@test.local`;
  return { email, displayName: `New ${email.slice(4, 12)}`, phoneNumber: `+1555${String(Date.now()).slice(-7)}`, twoFactorOnLogin: false, roles: { Content: 'read' }, ...overrides };
}

async function create(session: Session, overrides: Record<string, unknown> = {}) {
  const res = await call(session, 'POST', `${A}/staff`, newAccount(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<StaffChangeResponse>();
}

function tokenOf(url: string): string {
  return new URL(url).searchParams.get('token') ?? '';
}

async function setPassword(url: string, password = 'Fresh!Pass123') {
  return t.post(`${A}/set-password`, { token: tokenOf(url), newPassword: password, confirmPassword: password });
}

/** Sets up an authenticator app on the session's account (a site whose rule is 'authenticator' asks it first). */
async function enrolAuthenticator(session: Session): Promise<void> {
  const started = await t.post(`${TOTP_PATHS.account}/start`, {}, session.headers);
  expect(started.statusCode).toBe(200);
  const confirmed = await t.post(`${TOTP_PATHS.account}/confirm`, { code: totpCode(started.json<TotpStartResponse>().secret, new Date()) }, session.headers);
  expect(confirmed.statusCode).toBe(200);
}

/** A site of its own with one Admin editor, for the last-Admin rule. */
async function lonelySite() {
  const base = await t.siteByName(DEMO_SITES.northwind);
  const name = `solo-${randomUUID().slice(0, 8)}`;
  const { id: _id, ...rest } = base;
  void _id;
  await t.db.insert(sites).values({ ...rest, siteInternalName: name, managementApiKey: randomUUID(), secondFactorRule: 'optional' });
  const user = await t.createUser({ site: name, roles: { Admin: 'write' }, prefix: 'solo' });
  return { name, user, session: await t.login(user.username, user.password) };
}

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  admin = await t.login('admin@demo.test');
  reader = await t.login('siteadmin@demo.test');
  contentOnly = await t.login('content@demo.test');
  northwind = await t.login('admin@northwind.test');
});
afterAll(async () => t?.close());

describe('listing staff', () => {
  it('lists the staff of the caller site only, with search and paging, and says whether the caller may edit', async () => {
    const res = await call(admin, 'GET', `${A}/staff?pageSize=3&page=1`);
    expect(res.statusCode).toBe(200);
    const body = res.json<StaffListResponse>();
    expect(body.items).toHaveLength(3);
    expect(body.total).toBeGreaterThanOrEqual(9);
    expect(body.canEdit).toBe(true);
    expect(body.items.every((m) => !m.username.endsWith('northwind.test'))).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|\$argon2/);

    const page2 = (await call(admin, 'GET', `${A}/staff?pageSize=3&page=2`)).json<StaffListResponse>();
    expect(page2.items.map((m) => m.id)).not.toContain(body.items[0]!.id);

    const found = (await call(admin, 'GET', `${A}/staff?search=connie`)).json<StaffListResponse>();
    expect(found.items.map((m) => m.username)).toEqual(['content@demo.test']);
    const none = (await call(admin, 'GET', `${A}/staff?search=${encodeURIComponent('%_')}`)).json<StaffListResponse>();
    expect(none.items).toEqual([]);
  });

  it('lets Admin read list (canEdit false) and refuses anyone without an Admin role', async () => {
    const res = await call(reader, 'GET', `${A}/staff`);
    expect(res.statusCode).toBe(200);
    expect(res.json<StaffListResponse>().canEdit).toBe(false);
    expect((await call(contentOnly, 'GET', `${A}/staff`)).statusCode).toBe(403);
    expect((await call(contentOnly, 'GET', `${A}/audit`)).statusCode).toBe(403);
    expect((await call(null, 'GET', `${A}/staff`)).statusCode).toBe(401);
  });

  it('answers bad input with a 400 naming the parameter', async () => {
    const page = await call(admin, 'GET', `${A}/staff?page=0`);
    expect(page.statusCode).toBe(400);
    expect(page.json().message).toMatch(/page/);
    // Issue 25: an id that is not a UUID names no account: 404 (server/security-admin.test.ts walks every route).
    const id = await call(admin, 'GET', `${A}/staff/not-a-uuid`);
    expect(id.statusCode).toBe(404);
    expect(id.json()).toEqual({ success: false, message: ADMIN_MESSAGES.staffNotFound });
    const body = await call(admin, 'POST', `${A}/staff`, { ...newAccount(), roles: { Content: 'owner' } });
    expect(body.statusCode).toBe(400);
    expect(body.json().message).toMatch(/roles\.Content/);
    const phone = await call(admin, 'POST', `${A}/staff`, { ...newAccount(), phoneNumber: 'call me' });
    expect(phone.json().message).toMatch(/phoneNumber/);
    const dates = await call(admin, 'GET', `${A}/audit?from=2026-02-30`);
    expect(dates.statusCode).toBe(400);
    // Issue 38: the field as the Audit page labels it and the format expected, not the parameter's name.
    expect(dates.json().message).toBe('The "From" date is not a day of the calendar: enter it as year-month-day (YYYY-MM-DD), for example 2026-03-01.');
    // Year 0000 passes Date but not PostgreSQL: a 400 naming the field, not a 500 (issue 25, the fuzz's FUZZ_SEED=13).
    for (const [query, param] of [['to=0000-01-01', 'to'], ['from=0000-12-31', 'from']] as const) {
      const zero = await call(admin, 'GET', `${A}/audit?${query}`);
      expect(zero.statusCode, query).toBe(400);
      expect(zero.json().message, query).toBe(DATE_INPUT_MESSAGES.notADay(param));
      expect(zero.json().message, query).not.toMatch(/^(from|to) /);
    }
    const order = await call(admin, 'GET', `${A}/audit?from=2026-03-02&to=2026-03-01`);
    expect(order.json().message).toBe(ADMIN_MESSAGES.invalidDateRange);
  });
});

describe('writes need Admin write or contributor', () => {
  it('refuses every write to Admin read and to a non-admin, and changes nothing', async () => {
    const target = await create(admin);
    const id = target.staff.id;
    const version = { version: target.staff.version };
    const writes: [method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown][] = [
      ['POST', `${A}/staff`, newAccount()],
      ['PUT', `${A}/staff/${id}`, { displayName: 'X', phoneNumber: '+15550001111', twoFactorOnLogin: false, roles: { Admin: 'write' }, ...version }],
      ['POST', `${A}/staff/${id}/disable`, version],
      ['POST', `${A}/staff/${id}/enable`, version],
      ['POST', `${A}/staff/${id}/sessions/end`],
      ['DELETE', `${A}/staff/${id}/sessions/${randomUUID()}`],
      ['POST', `${A}/staff/${id}/password-reset`],
      ['POST', `${A}/staff/${id}/second-factor/reset`, { phoneNumber: '+15550001111', ...version }],
      ['PUT', `${A}${SECOND_FACTOR_RULE_PATH}`, { rule: 'required' }],
      ['PUT', `${A}${SECOND_FACTOR_RULE_PATH}`, { rule: 'authenticator' }],
    ];
    for (const session of [reader, contentOnly]) {
      for (const [method, url, body] of writes) {
        const res = await call(session, method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().success).toBe(false);
      }
    }
    const after = (await call(admin, 'GET', `${A}/staff/${id}`)).json<{ staff: { version: number; disabled: boolean } }>();
    expect(after.staff).toMatchObject({ version: target.staff.version, disabled: false });
    expect((await call(reader, 'GET', `${A}/staff`)).json<StaffListResponse>().secondFactor.rule).toBe('optional');
  });
});

describe('a new account and its set-password link', () => {
  it('gets a 24-hour single-use link, shown once and sent by SMS; nobody sees a password', async () => {
    const created = await create(admin);
    expect(created.link?.url).toMatch(/^http:\/\/[^/]+\/set-password\?token=/);
    const hours = (new Date(created.link!.expiresAt).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect(JSON.stringify(created)).not.toMatch(/password"|passwordHash/i);
    const sms = await t.latestSms(created.staff.phoneNumber);
    expect(sms?.body).toBe(ADMIN_MESSAGES.setPasswordSms(created.link!.url));

    const check = await t.post(`${A}/set-password/check`, { token: tokenOf(created.link!.url) });
    expect(check.json()).toEqual({ success: true, username: created.staff.username, displayName: created.staff.displayName });

    const mismatch = await t.post(`${A}/set-password`, { token: tokenOf(created.link!.url), newPassword: 'Fresh!Pass123', confirmPassword: 'Other!Pass123' });
    expect(mismatch.json().message).toBe(MESSAGES.passwordMismatch);
    const weak = await setPassword(created.link!.url, 'weakpass');
    expect(weak.json().message).toBe(MESSAGES.passwordComplexity);

    expect((await setPassword(created.link!.url)).json()).toEqual({ success: true, message: ADMIN_MESSAGES.setPasswordDone });
    const again = await setPassword(created.link!.url, 'Second!Pass123');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(ADMIN_MESSAGES.setPasswordInvalid);

    const session = await t.login(created.staff.username, 'Fresh!Pass123');
    expect(session.profile.roles).toEqual({ Content: 'read' });
  });

  it('needs a mobile number only where the SMS second factor applies: the account\'s setting or the site\'s rule (issue 30)', async () => {
    const plain = await create(admin, { phoneNumber: '' });
    expect(plain.staff.phoneNumber).toBe('');
    expect(plain.link?.url).toMatch(/set-password\?token=/);
    const outbox = (await t.get(API_PATHS.devOutbox, outboxHeaders(t.config))).json<{ body: string }[]>();
    expect(outbox.some((m) => m.body.includes(plain.link!.url))).toBe(false);
    const edited = await call(admin, 'PUT', `${A}/staff/${plain.staff.id}`, {
      displayName: 'Still no phone', phoneNumber: '', twoFactorOnLogin: true, roles: { Content: 'read' }, version: plain.staff.version,
    });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().message).toBe(ADMIN_MESSAGES.phoneRequiredForSms);
    // The refusal wrote nothing.
    const after = await call(admin, 'GET', `${A}/staff/${plain.staff.id}`);
    expect(after.body).toContain(plain.staff.displayName);
    expect(after.body).not.toContain('Still no phone');
    const withSms = await call(admin, 'POST', `${A}/staff`, newAccount({ phoneNumber: ' ', twoFactorOnLogin: true }));
    expect(withSms.statusCode).toBe(400);
    expect(withSms.json().message).toBe(ADMIN_MESSAGES.phoneRequiredForSms);
    const solo = await lonelySite();
    // The rule 'authenticator' does not send SMS codes: an account without its own SMS code needs no number.
    await enrolAuthenticator(solo.session);
    expect((await call(solo.session, 'PUT', `${A}${SECOND_FACTOR_RULE_PATH}`, { rule: 'authenticator' })).statusCode).toBe(200);
    const byApp = await create(solo.session, { phoneNumber: '', roles: { Admin: 'read' } });
    expect(byApp.staff).toMatchObject({ phoneNumber: '', twoFactorOnLogin: false });
    const appAndSms = await call(solo.session, 'POST', `${A}/staff`, newAccount({ phoneNumber: '', twoFactorOnLogin: true, roles: { Admin: 'read' } }));
    expect(appAndSms.statusCode).toBe(400);
    expect(appAndSms.json().message).toBe(ADMIN_MESSAGES.phoneRequiredForSms);
    // The rule 'required' sends the SMS code to every account: each needs a number.
    expect((await call(solo.session, 'PUT', `${A}${SECOND_FACTOR_RULE_PATH}`, { rule: 'required' })).statusCode).toBe(200);
    const bySiteRule = await call(solo.session, 'POST', `${A}/staff`, newAccount({ phoneNumber: '', roles: { Admin: 'read' } }));
    expect(bySiteRule.statusCode).toBe(400);
    expect(bySiteRule.json().message).toBe(ADMIN_MESSAGES.phoneRequiredForSms);
  });

  it('refuses an e-mail that is taken and a made-up token', async () => {
    const taken = await call(admin, 'POST', `${A}/staff`, newAccount({ email: 'Content@Demo.test' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(ADMIN_MESSAGES.usernameTaken);
    const made = await t.post(`${A}/set-password/check`, { token: 'made-up' });
    expect(made.statusCode).toBe(400);
    expect(made.json().message).toBe(ADMIN_MESSAGES.setPasswordInvalid);
  });

  it('a triggered reset replaces the earlier link', async () => {
    const created = await create(admin);
    const reset = (await call(admin, 'POST', `${A}/staff/${created.staff.id}/password-reset`)).json<StaffChangeResponse>();
    expect(reset.link?.url).not.toBe(created.link?.url);
    expect((await setPassword(created.link!.url)).statusCode).toBe(400);
    expect((await setPassword(reset.link!.url)).statusCode).toBe(200);
  });
});

describe('changes end sessions at once', () => {
  async function signedInAccount() {
    const created = await create(admin);
    await setPassword(created.link!.url);
    const session = await t.login(created.staff.username, 'Fresh!Pass123');
    return { created, session };
  }

  it('a role change ends the account sessions: its next call is 401', async () => {
    const { created, session } = await signedInAccount();
    expect((await call(session, 'GET', API_PATHS.verify)).statusCode).toBe(200);
    const listed = (await call(admin, 'GET', `${A}/staff/${created.staff.id}/sessions`)).json<StaffSessionsResponse>();
    expect(listed.sessions).toHaveLength(1);
    expect(listed.sessions[0]).toMatchObject({ current: false, ipAddress: '127.0.0.1', userAgent: 'lightMyRequest' });
    const res = await call(admin, 'PUT', `${A}/staff/${created.staff.id}`, {
      displayName: created.staff.displayName, phoneNumber: created.staff.phoneNumber, twoFactorOnLogin: false, roles: {}, version: created.staff.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<StaffChangeResponse>().staff.roles).toEqual({});
    expect((await call(session, 'GET', API_PATHS.verify)).statusCode).toBe(401);
  });

  it('a stale version is a 409 and changes nothing', async () => {
    const created = await create(admin);
    const body = { displayName: 'Renamed', phoneNumber: created.staff.phoneNumber, twoFactorOnLogin: false, roles: { Content: 'read' }, version: created.staff.version };
    expect((await call(admin, 'PUT', `${A}/staff/${created.staff.id}`, body)).statusCode).toBe(200);
    const stale = await call(admin, 'PUT', `${A}/staff/${created.staff.id}`, { ...body, displayName: 'Again' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(ADMIN_MESSAGES.conflict);
  });

  it('disabling ends the sessions; enabling lets the account sign in again', async () => {
    const { created, session } = await signedInAccount();
    const disabled = await call(admin, 'POST', `${A}/staff/${created.staff.id}/disable`, { version: created.staff.version });
    expect(disabled.json<StaffChangeResponse>().staff.disabled).toBe(true);
    expect((await call(session, 'GET', API_PATHS.verify)).statusCode).toBe(401);
    await expect(t.login(created.staff.username, 'Fresh!Pass123')).rejects.toThrow();
    await call(admin, 'POST', `${A}/staff/${created.staff.id}/enable`, { version: created.staff.version + 1 });
    await expect(t.login(created.staff.username, 'Fresh!Pass123')).resolves.toBeTruthy();
  });

  it('ending sessions (all, or one) and resetting the second factor sign the account out', async () => {
    const { created, session } = await signedInAccount();
    const ended = await call(admin, 'POST', `${A}/staff/${created.staff.id}/sessions/end`);
    expect(ended.json()).toMatchObject({ success: true, ended: 1 });
    expect((await call(session, 'GET', API_PATHS.verify)).statusCode).toBe(401);

    const second = await t.login(created.staff.username, 'Fresh!Pass123');
    const [only] = (await call(admin, 'GET', `${A}/staff/${created.staff.id}/sessions`)).json<StaffSessionsResponse>().sessions;
    expect((await call(admin, 'DELETE', `${A}/staff/${created.staff.id}/sessions/${only!.id}`)).statusCode).toBe(200);
    expect((await call(second, 'GET', API_PATHS.verify)).statusCode).toBe(401);

    const third = await t.login(created.staff.username, 'Fresh!Pass123');
    // Without an SMS code there is no second factor to reset (issue 38): refused, nothing changes, still signed in.
    const refused = await call(admin, 'POST', `${A}/staff/${created.staff.id}/second-factor/reset`, { phoneNumber: '+15550009999', version: created.staff.version });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ADMIN_MESSAGES.noSmsSecondFactor(created.staff.displayName));
    expect((await call(third, 'GET', API_PATHS.verify)).statusCode).toBe(200);
    await t.db.update(staffUsers).set({ twoFactorOnLogin: true }).where(eq(staffUsers.id, created.staff.id));
    const reset = await call(admin, 'POST', `${A}/staff/${created.staff.id}/second-factor/reset`, { phoneNumber: '+15550009999', version: created.staff.version });
    expect(reset.json<StaffChangeResponse>().staff.phoneNumber).toBe('+15550009999');
    expect((await call(third, 'GET', API_PATHS.verify)).statusCode).toBe(401);
  });
});

describe('the last Admin and oneself', () => {
  it('refuses removing the last Admin editor of a site and disabling oneself', async () => {
    const solo = await lonelySite();
    const me = (await call(solo.session, 'GET', `${A}/staff`)).json<StaffListResponse>().items[0]!;
    const demote = await call(solo.session, 'PUT', `${A}/staff/${me.id}`, {
      displayName: me.displayName, phoneNumber: me.phoneNumber, twoFactorOnLogin: false, roles: { Admin: 'read' }, version: me.version,
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe(ADMIN_MESSAGES.lastAdmin);
    const self = await call(solo.session, 'POST', `${A}/staff/${me.id}/disable`, { version: me.version });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe(ADMIN_MESSAGES.cannotDisableSelf);

    // With a second Admin editor, the first may step down.
    const other = await create(solo.session, { roles: { Admin: 'contributor' } });
    expect(other.staff.roles).toEqual({ Admin: 'contributor' });
    const stepDown = await call(solo.session, 'PUT', `${A}/staff/${me.id}`, {
      displayName: me.displayName, phoneNumber: me.phoneNumber, twoFactorOnLogin: false, roles: { Admin: 'read' }, version: me.version,
    });
    expect(stepDown.statusCode).toBe(200);
    // ...and that ended the caller's own session.
    expect((await call(solo.session, 'GET', API_PATHS.verify)).statusCode).toBe(401);
  });
});

describe("the site's second-factor rule: one value, one route (issue 30)", () => {
  const P = `${A}${SECOND_FACTOR_RULE_PATH}`;

  async function changesOf(siteId: string) {
    const rows = await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'siteSecurity'), eq(revisions.objectId, siteId))).orderBy(asc(revisions.seq));
    const audit = await t.db.select().from(auditEvents).where(and(eq(auditEvents.siteId, siteId), eq(auditEvents.action, SECOND_FACTOR_AUDIT_ACTION))).orderBy(asc(auditEvents.seq));
    return { revisions: rows, audit };
  }

  it("counts the accounts with neither a mobile number nor an authenticator app (those 'required' would lock out)", async () => {
    const solo = await lonelySite();
    await create(solo.session, { phoneNumber: '', roles: { Admin: 'read' } });
    await create(solo.session, { phoneNumber: '', roles: { Admin: 'read' } });
    await create(solo.session, { roles: { Admin: 'read' } });
    const listed = (await call(solo.session, 'GET', `${A}/staff`)).json<StaffListResponse>();
    expect(listed.secondFactor).toEqual({ rule: 'optional', accounts: 4, withSms: 0, withAuthenticator: 0, withNeither: 2, ownAuthenticator: false });
    // An authenticator app is a way in too: the solo admin (who has a mobile number) sets one up, still 2.
    await enrolAuthenticator(solo.session);
    const after = (await call(solo.session, 'GET', `${A}/staff`)).json<StaffListResponse>();
    expect(after.secondFactor).toMatchObject({ withAuthenticator: 1, withNeither: 2 });
  });

  it("'required' switches the SMS code on for every account and for new ones; it cannot be switched off while the rule holds", async () => {
    const solo = await lonelySite();
    const site = await t.siteByName(solo.name);
    const before = (await call(solo.session, 'GET', `${A}/staff`)).json<StaffListResponse>();
    expect(before.secondFactor).toEqual({ rule: 'optional', accounts: 1, withSms: 0, withAuthenticator: 0, withNeither: 0, ownAuthenticator: false });
    const on = await call(solo.session, 'PUT', P, { rule: 'required' });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ success: true, message: SECOND_FACTOR_DONE.required, secondFactor: { rule: 'required', accounts: 1, withSms: 1, withAuthenticator: 0, withNeither: 0, ownAuthenticator: false } });
    expect((await t.siteByName(solo.name)).secondFactorRule).toBe('required');
    const listed = (await call(solo.session, 'GET', `${A}/staff`)).json<StaffListResponse>();
    expect(listed.secondFactor.rule).toBe('required');
    expect(listed.items.every((m) => m.twoFactorOnLogin)).toBe(true);
    // One revision and one audit row, in words the audit log shows.
    const changes = await changesOf(site.id);
    expect(changes.revisions.map((r) => r.changes)).toEqual([[{ field: 'secondFactorRule', before: 'optional', after: 'required' }]]);
    expect(changes.audit).toHaveLength(1);
    expect(changes.audit[0]!.detail).toMatchObject({ before: { secondFactorRule: 'optional' }, after: { secondFactorRule: 'required' }, accountsSwitchedOn: 1 });
    expect(changes.audit[0]!.requestId).toBe(changes.revisions[0]!.requestId);
    // The solo admin holds Admin write only, so it may grant nothing else (the grant cap, issue 25).
    const created = await create(solo.session, { twoFactorOnLogin: false, roles: { Admin: 'read' } });
    expect(created.staff.twoFactorOnLogin).toBe(true);
    const off = await call(solo.session, 'PUT', `${A}/staff/${created.staff.id}`, {
      displayName: 'x', phoneNumber: created.staff.phoneNumber, twoFactorOnLogin: false, roles: {}, version: created.staff.version,
    });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe(SECOND_FACTOR_TEXT.smsLocked);
  });

  it('choosing the rule in force changes and records nothing; each change is one revision and one audit row', async () => {
    const solo = await lonelySite();
    const site = await t.siteByName(solo.name);
    const same = await call(solo.session, 'PUT', P, { rule: 'optional' });
    expect(same.json()).toMatchObject({ success: true, secondFactor: { rule: 'optional' } });
    expect(await changesOf(site.id)).toEqual({ revisions: [], audit: [] });
    expect((await call(solo.session, 'PUT', P, { rule: 'required' })).statusCode).toBe(200);
    expect((await call(solo.session, 'PUT', P, { rule: 'optional' })).statusCode).toBe(200);
    const changes = await changesOf(site.id);
    expect(changes.revisions.map((r) => r.changes)).toEqual([
      [{ field: 'secondFactorRule', before: 'optional', after: 'required' }], [{ field: 'secondFactorRule', before: 'required', after: 'optional' }],
    ]);
    expect(changes.audit.map((a) => (a.detail as { after: unknown }).after)).toEqual([{ secondFactorRule: 'required' }, { secondFactorRule: 'optional' }]);
    // The audit log reads them in the control's words.
    const log = (await call(solo.session, 'GET', `${A}/audit?action=${SECOND_FACTOR_AUDIT_ACTION}`)).json<{ items: { label: string; changes: unknown[] }[] }>();
    expect(log.items.map((i) => [i.label, i.changes])).toEqual([
      ['Second-factor rule changed', [{ field: 'Second factor at sign-in', before: SECOND_FACTOR_TEXT.options.required.label, after: SECOND_FACTOR_TEXT.options.optional.label }]],
      ['Second-factor rule changed', [{ field: 'Second factor at sign-in', before: SECOND_FACTOR_TEXT.options.optional.label, after: SECOND_FACTOR_TEXT.options.required.label }]],
    ]);
    // Back to each account's own setting: the SMS code stays on where it is, and may now be switched off.
    const [me] = (await call(solo.session, 'GET', `${A}/staff`)).json<StaffListResponse>().items;
    expect(me!.twoFactorOnLogin).toBe(true);
    const off = await call(solo.session, 'PUT', `${A}/staff/${me!.id}`, {
      displayName: me!.displayName, phoneNumber: me!.phoneNumber, twoFactorOnLogin: false, roles: me!.roles, version: me!.version,
    });
    expect(off.statusCode).toBe(200);
  });

  it("'authenticator' needs the editor's own app first; then an account without one is sent to set it up right after its password, and the SMS code is not switched on", async () => {
    const solo = await lonelySite();
    const site = await t.siteByName(solo.name);
    const member = await t.createUser({ site: solo.name, roles: { Content: 'read' }, prefix: 'rule-app' });
    const memberSession = await t.login(member.username, member.password);
    // Without an app of their own the rule would lock the editor out at once: refused, nothing written.
    const refused = await call(solo.session, 'PUT', P, { rule: 'authenticator' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(SECOND_FACTOR_TEXT.enrolFirst);
    expect((await t.siteByName(solo.name)).secondFactorRule).toBe('optional');
    expect(await changesOf(site.id)).toEqual({ revisions: [], audit: [] });

    await enrolAuthenticator(solo.session);
    expect((await call(solo.session, 'PUT', P, { rule: 'authenticator' })).json()).toMatchObject({
      success: true, message: SECOND_FACTOR_DONE.authenticator, secondFactor: { rule: 'authenticator', accounts: 2, withSms: 0, withAuthenticator: 1, withNeither: 0, ownAuthenticator: true },
    });
    const login = await t.post(API_PATHS.login, { username: member.username, password: member.password, deviceId: randomUUID() });
    expect(login.json()).toMatchObject({ success: true, isTwoFactorOnLogin: false, authenticatorEnrolmentDue: true });
    // A session opened before the change owes the enrolment at once (the site's cached lookups were forgotten).
    expect((await call(memberSession, 'GET', API_PATHS.accountSessions)).statusCode).toBe(403);
    expect((await call(solo.session, 'GET', `${A}/staff`)).statusCode).toBe(200);
  });

  it('refuses a rule it does not know (400) and changes nothing', async () => {
    const solo = await lonelySite();
    for (const body of [{ rule: 'always' }, { required: true }, {}]) {
      expect((await call(solo.session, 'PUT', P, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.siteByName(solo.name)).secondFactorRule).toBe('optional');
  });
});

describe('site isolation', () => {
  it("site A's admin neither sees nor changes site B's staff", async () => {
    const demoTarget = await create(admin);
    const id = demoTarget.staff.id;
    const listed = (await call(northwind, 'GET', `${A}/staff?pageSize=100`)).json<StaffListResponse>();
    expect(listed.items.map((m) => m.id)).not.toContain(id);
    expect(listed.items.every((m) => m.username.endsWith('northwind.test') || !m.username.endsWith('demo.test'))).toBe(true);
    expect((await call(northwind, 'GET', `${A}/staff/${id}`)).statusCode).toBe(404);
    expect((await call(northwind, 'POST', `${A}/staff/${id}/disable`, { version: demoTarget.staff.version })).statusCode).toBe(404);
    expect((await call(northwind, 'POST', `${A}/staff/${id}/sessions/end`)).statusCode).toBe(404);
    expect((await call(northwind, 'POST', `${A}/staff/${id}/password-reset`)).statusCode).toBe(404);
    const audit = (await call(northwind, 'GET', `${A}/audit?pageSize=100`)).json<AuditListResponse>();
    expect(audit.items.some((e) => e.detail.targetUserId === id)).toBe(false);
  });
});

describe('the audit log', () => {
  it('records each step with who, what, when and before/after, filtered and paged', async () => {
    const started = Date.now();
    const created = await create(admin, { displayName: 'Audit Subject' });
    await call(admin, 'PUT', `${A}/staff/${created.staff.id}`, {
      displayName: 'Audit Subject', phoneNumber: created.staff.phoneNumber, twoFactorOnLogin: false, roles: { Content: 'write' }, version: created.staff.version,
    });
    await call(admin, 'POST', `${A}/staff/${created.staff.id}/disable`, { version: created.staff.version + 1 });
    await call(admin, 'POST', `${A}/staff/${created.staff.id}/sessions/end`);

    // From yesterday: the steps above may straddle midnight UTC.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const res = await call(reader, 'GET', `${A}/audit?who=admin@demo.test&from=${yesterday}&to=${today}&pageSize=100`);
    expect(res.statusCode).toBe(200);
    const mine = res.json<AuditListResponse>().items.filter((e) => e.detail.targetUserId === created.staff.id);
    expect(mine.map((e) => e.action)).toEqual(['staff.sessions_ended', 'staff.disabled', 'staff.updated', 'staff.password_link_issued', 'staff.created']);
    for (const entry of mine) {
      expect(entry.actor?.username).toBe('admin@demo.test');
      expect(new Date(entry.at).getTime()).toBeGreaterThanOrEqual(started - 1000);
    }
    const updated = mine.find((e) => e.action === 'staff.updated')!;
    expect(updated.detail.before).toMatchObject({ roles: { Content: 'read' } });
    expect(updated.detail.after).toMatchObject({ roles: { Content: 'write' } });
    expect(JSON.stringify(mine)).not.toMatch(/token=|\+1555\d{7}/);

    const onlyDisabled = (await call(admin, 'GET', `${A}/audit?action=staff.disabled&pageSize=100`)).json<AuditListResponse>();
    expect(onlyDisabled.items.every((e) => e.action === 'staff.disabled')).toBe(true);
    const paged = (await call(admin, 'GET', `${A}/audit?pageSize=2&page=2`)).json<AuditListResponse>();
    expect(paged).toMatchObject({ page: 2, pageSize: 2 });
    expect(paged.items).toHaveLength(2);
    const nobody = (await call(admin, 'GET', `${A}/audit?who=nobody-at-all`)).json<AuditListResponse>();
    expect(nobody.total).toBe(0);
  });
});
