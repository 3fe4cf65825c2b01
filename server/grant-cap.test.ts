/**
 * Issue 25, the grant cap, table-driven: every demo account (server/db/demo-accounts.ts) walks every
 * staff write route of /v3.0/user/admin. Callers without Admin write or contributor are refused
 * everything; an Admin editor hands out roles only up to its own, area by area and level by level
 * (read < contributor < write, common/grant-cap.ts), keeps roles it does not hold unchanged on an
 * account, and may not act as a whole (password link, second factor, disable, sessions) on an
 * account holding roles above its own. Every refusal is a 403 with its message, changes nothing and
 * is audited. State changes happen on accounts this file creates.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_AUDIT_ACTIONS, type StaffChangeResponse, type StaffListResponse } from '../common/admin-contract';
import { API_PATHS, AREA_NAMES, type AccessLevel, type AreaName } from '../common/constants';
import type { LoginResponse, Roles } from '../common/contract';
import { canEdit } from '../common/roles';
import { ADMIN_MESSAGES, OWN_MESSAGES } from '../common/messages';
import { DEMO_ACCOUNTS, type DemoAccount } from './db/demo-accounts';
import { auditEvents, sessions, staffUsers } from './db/schema';
import { createTestApp, type Session, type TestApp } from './test/kit';

const A = API_PATHS.admin;
const LEVELS: readonly AccessLevel[] = ['read', 'contributor', 'write'];
const RANK: Record<AccessLevel, number> = { read: 1, contributor: 2, write: 3 };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ demo: true });
});
afterAll(async () => t?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function call(session: Session, method: Method, url: string, payload?: unknown) {
  return t.inject({ method, url, headers: session.headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
}

/** Signs a demo account in (through the SMS step when it has one). */
async function signIn(account: Pick<DemoAccount, 'username' | 'twoFactorOnLogin' | 'phoneNumber'>): Promise<Session> {
  if (!account.twoFactorOnLogin) return t.login(account.username);
  const deviceId = randomUUID();
  const login = (await t.post(API_PATHS.login, { username: account.username, password: 'Test!Seed2024', deviceId })).json<LoginResponse & { loginAttemptToken?: string }>();
  const code = await t.latestCode(account.phoneNumber);
  const verified = await t.post(API_PATHS.verifyOtp, { username: account.username, otp: code, isLogin: true, deviceId, loginAttemptToken: login.loginAttemptToken });
  expect(verified.statusCode, verified.body).toBe(200);
  return t.sessionFor(verified.json<{ accessToken: string }>().accessToken);
}

/** An account on `site` with `roles`, with one live session (so the session routes have something to end). */
async function target(site: string, roles: Roles) {
  const user = await t.createUser({ site, roles, prefix: 'cap' });
  const session = await t.login(user.username, user.password);
  // Signed in; from now on it signs in with an SMS code, so it has a second factor a reset can change (issue 38).
  await t.db.update(staffUsers).set({ twoFactorOnLogin: true }).where(eq(staffUsers.id, user.id));
  const [row] = await t.db.select().from(staffUsers).where(eq(staffUsers.id, user.id));
  return { user, session, row: row! };
}

const rowOf = async (id: string) => (await t.db.select().from(staffUsers).where(eq(staffUsers.id, id)))[0]!;

async function refusals(actorId: string, targetId: string | null) {
  const rows = await t.db.select().from(auditEvents)
    .where(and(eq(auditEvents.action, ADMIN_AUDIT_ACTIONS.grantRefused), eq(auditEvents.actorUserId, actorId)))
    .orderBy(desc(auditEvents.at));
  return targetId === null ? rows : rows.filter((r) => (r.detail as { targetUserId?: string }).targetUserId === targetId);
}

const form = (row: { displayName: string; phoneNumber: string; twoFactorOnLogin: boolean; version: number }, roles: Roles, extra: Record<string, unknown> = {}) =>
  ({ displayName: row.displayName, phoneNumber: row.phoneNumber, twoFactorOnLogin: row.twoFactorOnLogin, roles, version: row.version, ...extra });

function newAccount(roles: Roles) {
  const email = `capnew-${randomUUID().slice(0, 10)}@test.local`;
  return { email, displayName: 'Cap New', phoneNumber: `+1557${String(Date.now()).slice(-7)}`, twoFactorOnLogin: false, roles };
}

/** A level above `level` in the same area, or undefined when it is already write. */
const above = (level: AccessLevel | undefined): AccessLevel | undefined => LEVELS.find((l) => RANK[l] > (level ? RANK[level] : 0));

/** Every staff write route, for one caller and one target account (each with the target's current version). */
async function everyWriteRoute(session: Session, t1: Awaited<ReturnType<typeof target>>) {
  const id = t1.user.id;
  const version = async () => (await rowOf(id)).version;
  const [live] = await t.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id));
  const answers: Record<string, Awaited<ReturnType<typeof call>>> = {};
  answers.create = await call(session, 'POST', `${A}/staff`, newAccount({}));
  const fresh = await rowOf(id);
  answers.update = await call(session, 'PUT', `${A}/staff/${id}`, form(fresh, fresh.roles as Roles, { displayName: 'Renamed by test' }));
  answers.endSession = await call(session, 'DELETE', `${A}/staff/${id}/sessions/${live?.id ?? randomUUID()}`);
  answers.endSessions = await call(session, 'POST', `${A}/staff/${id}/sessions/end`);
  answers.disable = await call(session, 'POST', `${A}/staff/${id}/disable`, { version: await version() });
  answers.enable = await call(session, 'POST', `${A}/staff/${id}/enable`, { version: await version() });
  answers.passwordReset = await call(session, 'POST', `${A}/staff/${id}/password-reset`);
  answers.secondFactor = await call(session, 'POST', `${A}/staff/${id}/second-factor/reset`, { phoneNumber: '+15550177777', version: await version() });
  answers.twoFactorRule = await call(session, 'PUT', `${A}/site/second-factor`, { rule: 'optional' });
  return answers;
}

const EDITORS = DEMO_ACCOUNTS.filter((a) => canEdit(a.roles, 'Admin'));
const OTHERS = DEMO_ACCOUNTS.filter((a) => !canEdit(a.roles, 'Admin'));

it('the table covers every demo account, editors and not', () => {
  expect(EDITORS.map((a) => a.username)).toEqual(['admin@demo.test', 'admin@northwind.test']);
  expect(EDITORS.length + OTHERS.length).toBe(DEMO_ACCOUNTS.length);
});

describe.each(OTHERS.map((a) => [a.username, a] as const))('grant cap: %s (no Admin write)', (_name, account) => {
  const held = account.roles;
  it('is refused every staff write route, and nothing changes', async () => {
    const session = await signIn(account);
    {
      const victim = await target(account.site, { Content: 'read' });
      const before = await rowOf(victim.user.id);
      const newCount = (await t.db.select().from(staffUsers).where(eq(staffUsers.displayName, 'Cap New'))).length;
      const answers = await everyWriteRoute(session, victim);
      const expected = held.Admin ? ADMIN_MESSAGES.noEditRole : OWN_MESSAGES.forbidden;
      for (const [route, res] of Object.entries(answers)) {
        expect([route, res.statusCode], res.body).toEqual([route, 403]);
        expect(res.json()).toEqual({ success: false, message: expected });
      }
      expect(await rowOf(victim.user.id)).toEqual(before);
      expect((await t.get(API_PATHS.verify, victim.session.headers)).statusCode).toBe(200);
      expect((await t.db.select().from(staffUsers).where(eq(staffUsers.displayName, 'Cap New'))).length).toBe(newCount);
    }
  });
});

describe.each(EDITORS.map((a) => [a.username, a] as const))('grant cap: %s (Admin editor)', (_name, account) => {
  const held = account.roles;

  it('creates accounts with its own roles, or less, and is refused anything above them', async () => {
    const session = await signIn(account);
    const me = (await t.db.select().from(staffUsers).where(eq(staffUsers.username, account.username)))[0]!;
    // Allowed: exactly its own roles, and each area one level lower (or left out).
    const own = await call(session, 'POST', `${A}/staff`, newAccount(held));
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json<StaffChangeResponse>().staff.roles).toEqual(held);
    for (const area of Object.keys(held) as AreaName[]) {
      const lower = LEVELS.filter((l) => RANK[l] < RANK[held[area]!]);
      for (const level of lower) {
        const res = await call(session, 'POST', `${A}/staff`, newAccount({ [area]: level }));
        expect([area, level, res.statusCode], res.body).toEqual([area, level, 201]);
      }
    }
    // Refused: every area and level above its own, one at a time; nothing stored, each refusal audited.
    const before = (await refusals(me.id, null)).length;
    let refused = 0;
    for (const area of AREA_NAMES) {
      for (const level of LEVELS.filter((l) => RANK[l] > (held[area] ? RANK[held[area]!] : 0))) {
        const body = newAccount({ ...held, [area]: level });
        const res = await call(session, 'POST', `${A}/staff`, body);
        expect([area, level, res.statusCode], res.body).toEqual([area, level, 403]);
        expect(res.json()).toEqual({ success: false, message: ADMIN_MESSAGES.grantAboveOwn([area]) });
        expect(await t.db.select().from(staffUsers).where(eq(staffUsers.username, body.email))).toEqual([]);
        refused += 1;
      }
    }
    expect((await refusals(me.id, null)).length - before).toBe(refused);
  });

  it('updates: raises only up to its own, keeps roles it does not hold unchanged, may neither add nor remove them', async () => {
    const session = await signIn(account);
    const me = (await t.db.select().from(staffUsers).where(eq(staffUsers.username, account.username)))[0]!;
    // Itself: adding or raising any role above its own is refused (PUT /staff/<own id>), its roles unchanged.
    for (const area of AREA_NAMES) {
      const higher = above(held[area]);
      if (!higher) continue;
      const self = await rowOf(me.id);
      const res = await call(session, 'PUT', `${A}/staff/${me.id}`, form(self, { ...held, [area]: higher }));
      expect([area, res.statusCode], res.body).toEqual([area, 403]);
      expect(res.json()).toEqual({ success: false, message: ADMIN_MESSAGES.grantAboveOwn([area]) });
      expect((await rowOf(me.id)).roles).toEqual(held);
    }
    // An account within its roles: any change within them passes.
    const within = await target(account.site, {});
    for (const area of Object.keys(held) as AreaName[]) {
      const row = await rowOf(within.user.id);
      const res = await call(session, 'PUT', `${A}/staff/${within.user.id}`, form(row, { ...(row.roles as Roles), [area]: held[area] }));
      expect([area, res.statusCode], res.body).toEqual([area, 200]);
    }
    // An account holding every area at write: areas above the caller are locked.
    const all = Object.fromEntries(AREA_NAMES.map((a) => [a, 'write'])) as Roles;
    const big = await target(account.site, all);
    const lockedAreas = AREA_NAMES.filter((a) => !held[a] || RANK[held[a]!] < RANK.write);
    let row = await rowOf(big.user.id);
    const kept = await call(session, 'PUT', `${A}/staff/${big.user.id}`, form(row, all, { displayName: 'Kept roles' }));
    expect(kept.statusCode, kept.body).toBe(200);
    for (const area of lockedAreas) {
      row = await rowOf(big.user.id);
      const { [area]: _removed, ...without } = all;
      void _removed;
      const removed = await call(session, 'PUT', `${A}/staff/${big.user.id}`, form(row, without));
      expect([area, 'remove', removed.statusCode], removed.body).toEqual([area, 'remove', 403]);
      const lowered = await call(session, 'PUT', `${A}/staff/${big.user.id}`, form(row, { ...all, [area]: 'read' }));
      expect([area, 'lower', lowered.statusCode], lowered.body).toEqual([area, 'lower', 403]);
      expect(lowered.json()).toEqual({ success: false, message: ADMIN_MESSAGES.grantAboveOwn([area]) });
    }
    expect((await rowOf(big.user.id)).roles).toEqual(all);
    expect((await refusals(me.id, big.user.id)).length).toBe(lockedAreas.length * 2);
  });

  it('every write route on an account within its roles passes; on one above them, all but a roles-kept update are refused', async () => {
    const session = await signIn(account);
    const me = (await t.db.select().from(staffUsers).where(eq(staffUsers.username, account.username)))[0]!;
    const mine = await target(account.site, held);
    const ok = await everyWriteRoute(session, mine);
    expect(Object.fromEntries(Object.entries(ok).map(([k, r]) => [k, r.statusCode]))).toEqual({
      create: 201, update: 200, endSession: 200, endSessions: 200, disable: 200, enable: 200, passwordReset: 200, secondFactor: 200, twoFactorRule: 200,
    });

    const higherArea = AREA_NAMES.find((a) => above(held[a]) !== undefined);
    if (!higherArea) return; // holds every area at write: no account is above it
    const bigRoles: Roles = { ...held, [higherArea]: 'write' };
    const big = await target(account.site, bigRoles);
    const before = await rowOf(big.user.id);
    const refusedBefore = (await refusals(me.id, big.user.id)).length;
    const fresh = before;
    const routes: [string, Method, string, unknown][] = [
      ['disable', 'POST', `${A}/staff/${big.user.id}/disable`, { version: fresh.version }],
      ['enable', 'POST', `${A}/staff/${big.user.id}/enable`, { version: fresh.version }],
      ['endSessions', 'POST', `${A}/staff/${big.user.id}/sessions/end`, undefined],
      ['endSession', 'DELETE', `${A}/staff/${big.user.id}/sessions/${randomUUID()}`, undefined],
      ['passwordReset', 'POST', `${A}/staff/${big.user.id}/password-reset`, undefined],
      ['secondFactor', 'POST', `${A}/staff/${big.user.id}/second-factor/reset`, { phoneNumber: '+15550177779', version: fresh.version }],
      ['phone change', 'PUT', `${A}/staff/${big.user.id}`, form(fresh, bigRoles, { phoneNumber: '+15550177780' })],
    ];
    for (const [label, method, url, body] of routes) {
      const res = await call(session, method, url, body);
      expect([label, res.statusCode], res.body).toEqual([label, 403]);
      expect(res.json()).toEqual({ success: false, message: ADMIN_MESSAGES.targetAboveOwn([higherArea]) });
    }
    expect(await rowOf(big.user.id)).toEqual(before);
    expect((await t.get(API_PATHS.verify, big.session.headers)).statusCode).toBe(200);
    expect((await refusals(me.id, big.user.id)).length - refusedBefore).toBe(routes.length);
    // Its display name may still change, its roles kept as they are.
    const renamed = await call(session, 'PUT', `${A}/staff/${big.user.id}`, form(before, bigRoles, { displayName: 'Renamed, roles kept' }));
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await rowOf(big.user.id)).roles).toEqual(bigRoles);
  });

  it('the staff list tells the client what it may grant: its own roles', async () => {
    const session = await signIn(account);
    const list = (await call(session, 'GET', `${A}/staff?pageSize=1`)).json<StaffListResponse>();
    expect(list.grantable).toEqual(held);
  });
});

describe('grant cap by level', () => {
  it('a contributor hands out contributor and read, never write; a reader only read', async () => {
    const granter = await t.createUser({ roles: { Admin: 'write', Content: 'contributor', 'Customer Support': 'read' }, prefix: 'cap-levels' });
    const session = await t.login(granter.username, granter.password);
    const cases: [Roles, number][] = [
      [{ Content: 'contributor' }, 201], [{ Content: 'read' }, 201], [{ Content: 'write' }, 403],
      [{ 'Customer Support': 'read' }, 201], [{ 'Customer Support': 'contributor' }, 403], [{ 'Customer Support': 'write' }, 403],
      [{ Admin: 'write' }, 201], [{ 'App CMS': 'read' }, 403],
    ];
    for (const [roles, status] of cases) {
      const res = await call(session, 'POST', `${A}/staff`, newAccount(roles));
      expect([roles, res.statusCode], res.body).toEqual([roles, status]);
    }
    const list = (await call(session, 'GET', `${A}/staff?pageSize=1`)).json<StaffListResponse>();
    expect(list.grantable).toEqual({ Admin: 'write', Content: 'contributor', 'Customer Support': 'read' });
  });

  it('Admin read sees an empty grantable set', async () => {
    const session = await t.login('siteadmin@demo.test');
    const list = (await call(session, 'GET', `${A}/staff?pageSize=1`)).json<StaffListResponse>();
    expect(list).toMatchObject({ canEdit: false, grantable: {} });
  });
});
