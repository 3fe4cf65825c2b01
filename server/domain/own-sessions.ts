/**
 * The signed-in user's own sessions (issue 19) and the one shape active sessions are answered in
 * (the Admin area's staff pages use it too). The store of sessions themselves is ./sessions.ts.
 */
import type { EndSessionsResponse, StaffSessionsResponse } from '../../common/admin-contract';
import { ACCOUNT_MESSAGES } from '../../common/messages';
import type { AuditLog } from './audit';
import type { AuthContext, Authenticator } from './auth-context';
import { notFound } from './errors';

/** Active sessions as the API answers them (staff pages and a user's own list), the caller's marked. */
export function sessionsAnswer(
  rows: readonly { id: string; deviceId: string; ipAddress: string; userAgent: string; createdAt: Date | string | number; lastSeenAt: Date | string | number }[],
  currentSessionId: string,
): StaffSessionsResponse {
  return {
    success: true,
    sessions: rows.map((s) => ({
      id: s.id,
      deviceId: s.deviceId,
      ipAddress: s.ipAddress,
      userAgent: s.userAgent,
      createdAt: new Date(s.createdAt).toISOString(),
      lastSeenAt: new Date(s.lastSeenAt).toISOString(),
      current: s.id === currentSessionId,
    })),
  };
}

/** A session as the own-sessions page lists it (the Admin area's repository gives these rows). */
interface ActiveSessionRow {
  id: string;
  deviceId: string;
  ipAddress: string;
  userAgent: string;
  createdAt: Date | string;
  lastSeenAt: Date | string;
}

/** What the own-sessions feature needs of the database: server/db/staff-admin-repository.ts provides it. */
interface OwnSessionRepository {
  listActiveSessions(userId: string, now?: Date): Promise<ActiveSessionRow[]>;
  revokeSession(userId: string, sessionId: string, now?: Date): Promise<boolean>;
}

export const OWN_SESSION_AUDIT_ACTIONS = { ended: 'account.session_ended' } as const;

interface OwnSessionDeps {
  repo: OwnSessionRepository;
  audit: AuditLog;
  auth: Pick<Authenticator, 'forgetSession'>;
}

/**
 * The signed-in user's own sessions (ASVS 7.4.5, 7.5.2): every active one (device, address, last seen,
 * this one marked), and ending any of them at once. Only the caller's own sessions: another user's
 * session id is "not found", the same as an ended one.
 */
export function createOwnSessions(deps: OwnSessionDeps) {
  return {
    async list(ctx: AuthContext): Promise<StaffSessionsResponse> {
      return sessionsAnswer(await deps.repo.listActiveSessions(ctx.user.id), ctx.session.id);
    },

    async end(ctx: AuthContext, sessionId: string, ip: string): Promise<EndSessionsResponse> {
      const ended = await deps.repo.revokeSession(ctx.user.id, sessionId);
      if (!ended) throw notFound(ACCOUNT_MESSAGES.sessionNotFound);
      deps.auth.forgetSession(sessionId);
      const current = sessionId === ctx.session.id;
      await deps.audit.record({
        action: OWN_SESSION_AUDIT_ACTIONS.ended, actorUserId: ctx.user.id, siteId: ctx.site.id,
        detail: { sessionId, current, ip, before: { revoked: false }, after: { revoked: true } },
      });
      return { success: true, message: ACCOUNT_MESSAGES.sessionEnded, ended: 1 };
    },
  };
}

export type OwnSessions = ReturnType<typeof createOwnSessions>;
