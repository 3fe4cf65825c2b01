/**
 * Issue 19, stronger than the anchors: a signed-in user sees their own active sessions and ends any
 * of them (ASVS 7.4.5, 7.5.2). Ending one revokes it at once; only one's own sessions; audited.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffSessionsResponse } from '../common/admin-contract';
import { API_PATHS } from '../common/constants';
import type { LoginResponse } from '../common/contract';
import { ACCOUNT_MESSAGES } from '../common/messages';
import { auditEvents } from './db/schema';
import { OWN_SESSION_AUDIT_ACTIONS } from './domain/own-sessions';
import { createTestApp, type Session, type TestApp, type TestUser } from './test/kit';

const S = API_PATHS.accountSessions;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demo: true });
});
afterAll(async () => {
  await t?.close();
});

async function signIn(user: TestUser, userAgent: string): Promise<Session> {
  const res = await t.post(API_PATHS.login, { username: user.username, password: user.password, deviceId: randomUUID() }, { 'user-agent': userAgent });
  expect(res.statusCode).toBe(200);
  return t.sessionFor(res.json<LoginResponse>().accessToken);
}

const list = (s: Session) => t.get(S, s.headers);
const end = (s: Session, id: string) => t.inject({ method: 'DELETE', url: `${S}/${id}`, headers: s.headers });
const verifies = async (s: Session) => (await t.get(API_PATHS.verify, s.headers)).statusCode;

describe('own sessions', () => {
  it('lists every active session of the caller with device, address and last seen, this one marked; any role may', async () => {
    const user = await t.createUser({ prefix: 'own-list', roles: { Content: 'read' } });
    const laptop = await signIn(user, 'Mozilla/5.0 (Macintosh) Firefox/140.0');
    const phone = await signIn(user, 'Mozilla/5.0 (iPhone) Safari/18.0');
    const res = await list(laptop);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { sessions } = res.json<StaffSessionsResponse>();
    expect(sessions).toHaveLength(2);
    const mine = sessions.find((s) => s.current);
    const other = sessions.find((s) => !s.current);
    expect(mine?.userAgent).toBe('Mozilla/5.0 (Macintosh) Firefox/140.0');
    expect(other?.userAgent).toBe('Mozilla/5.0 (iPhone) Safari/18.0');
    for (const s of sessions) {
      expect(s.ipAddress).toBe('127.0.0.1');
      expect(Number.isNaN(Date.parse(s.lastSeenAt))).toBe(false);
      expect(s.deviceId).not.toBe('');
    }
    // The other device sees the same two, itself marked.
    const fromPhone = (await list(phone)).json<StaffSessionsResponse>().sessions;
    expect(fromPhone.find((s) => s.current)?.id).toBe(other?.id);
  });

  it('ending another session revokes it at once (verify refuses it), is audited, and the list no longer shows it', async () => {
    const user = await t.createUser({ prefix: 'own-end' });
    const a = await signIn(user, 'Device A');
    const b = await signIn(user, 'Device B');
    const bId = (await list(a)).json<StaffSessionsResponse>().sessions.find((s) => !s.current)!.id;
    expect(await verifies(b)).toBe(200);
    const res = await end(a, bId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: ACCOUNT_MESSAGES.sessionEnded, ended: 1 });
    expect(await verifies(b)).toBe(401);
    expect(await verifies(a)).toBe(200);
    expect((await list(a)).json<StaffSessionsResponse>().sessions.map((s) => s.id)).not.toContain(bId);
    const audit = await t.db.select().from(auditEvents)
      .where(and(eq(auditEvents.action, OWN_SESSION_AUDIT_ACTIONS.ended), eq(auditEvents.actorUserId, user.id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.detail).toMatchObject({ sessionId: bId, current: false, ip: '127.0.0.1' });
    // Ending it again: not found, nothing new audited.
    const again = await end(a, bId);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ success: false, message: ACCOUNT_MESSAGES.sessionNotFound });
  });

  it('ending the session in use signs this one out too', async () => {
    const user = await t.createUser({ prefix: 'own-self' });
    const a = await signIn(user, 'Device A');
    const aId = (await list(a)).json<StaffSessionsResponse>().sessions.find((s) => s.current)!.id;
    expect((await end(a, aId)).statusCode).toBe(200);
    expect(await verifies(a)).toBe(401);
    expect((await list(a)).statusCode).toBe(401);
  });

  it("another user's session cannot be seen or ended: 404 like an ended one, and it stays alive", async () => {
    const owner = await t.createUser({ prefix: 'own-owner' });
    const intruder = await t.createUser({ prefix: 'own-intruder', roles: { Admin: 'write' } });
    const victim = await signIn(owner, 'Victim');
    const attacker = await signIn(intruder, 'Attacker');
    const victimId = (await list(victim)).json<StaffSessionsResponse>().sessions[0]!.id;
    expect((await list(attacker)).json<StaffSessionsResponse>().sessions.map((s) => s.id)).not.toContain(victimId);
    const res = await end(attacker, victimId);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(ACCOUNT_MESSAGES.sessionNotFound);
    expect(await verifies(victim)).toBe(200);
  });

  it('without a session 401; a malformed id is a 400 JSON answer, never a 500', async () => {
    expect((await t.get(S)).statusCode).toBe(401);
    expect((await t.inject({ method: 'DELETE', url: `${S}/${randomUUID()}` })).statusCode).toBe(401);
    const user = await t.createUser({ prefix: 'own-bad' });
    const s = await signIn(user, 'X');
    for (const bad of ['not-a-uuid', '1', `${randomUUID()}x`]) {
      const res = await end(s, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });
});
