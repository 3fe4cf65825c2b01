/**
 * Server-side sessions behind access tokens: absolute expiry 12 h, idle expiry measured on the
 * server from lastSeenAt (INACTIVITY_TIMEOUT_MINUTES), revocable one by one or all at once.
 */
import type { EndSessionsResponse, StaffSessionsResponse } from '../../common/admin-contract';
import { ACCOUNT_MESSAGES } from '../../common/messages';
import type { SessionRepository, SessionRow } from '../db/session-repository';
import type { AuditLog } from './audit';
import type { AuthContext, Authenticator } from './auth-context';
import { notFound } from './errors';
import { sessionsAnswer } from './staff-admin';

export const SESSION_ABSOLUTE_TTL_MS = 12 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often per session, to keep reads cheap. */
export const SESSION_TOUCH_INTERVAL_MS = 30_000;

export type { SessionRow };

export interface SessionStore {
  /** `origin`: where the session was opened from (the Admin area lists it). */
  create(userId: string, deviceId: string, now?: Date, origin?: { ipAddress: string; userAgent: string }): Promise<SessionRow>;
  /** Why a session is unusable, or null when it is valid. */
  invalidReason(session: Pick<SessionRow, 'revokedAt' | 'expiresAt' | 'lastSeenAt'>, now?: Date): 'revoked' | 'expired' | 'idle' | null;
  /** Moves lastSeenAt forward (at most every SESSION_TOUCH_INTERVAL_MS); true when it wrote. */
  touch(session: Pick<SessionRow, 'id' | 'lastSeenAt'>, now?: Date): Promise<boolean>;
  revoke(sessionId: string, now?: Date): Promise<void>;
  revokeAllForUser(userId: string, exceptSessionId?: string, now?: Date): Promise<number>;
}

export function createSessionStore(store: SessionRepository, opts: { idleMinutes: number }): SessionStore {
  const idleMs = opts.idleMinutes * 60_000;
  return {
    create(userId, deviceId, now = new Date(), origin = { ipAddress: '', userAgent: '' }) {
      return store.insert({
        userId, deviceId, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_TTL_MS),
        ipAddress: origin.ipAddress, userAgent: origin.userAgent.slice(0, 300),
      });
    },
    invalidReason(session, now = new Date()) {
      if (session.revokedAt) return 'revoked';
      if (new Date(session.expiresAt).getTime() <= now.getTime()) return 'expired';
      if (now.getTime() - new Date(session.lastSeenAt).getTime() > idleMs) return 'idle';
      return null;
    },
    async touch(session, now = new Date()) {
      if (now.getTime() - new Date(session.lastSeenAt).getTime() < SESSION_TOUCH_INTERVAL_MS) return false;
      await store.setLastSeen(session.id, now);
      return true;
    },
    revoke(sessionId, now = new Date()) {
      return store.revoke(sessionId, now);
    },
    revokeAllForUser(userId, exceptSessionId, now = new Date()) {
      return store.revokeAllForUser(userId, exceptSessionId, now);
    },
  };
}

/** A session as the own-sessions page lists it (the Admin area's repository gives these rows). */
export interface ActiveSessionRow {
  id: string;
  deviceId: string;
  ipAddress: string;
  userAgent: string;
  createdAt: Date | string;
  lastSeenAt: Date | string;
}

/** What the own-sessions feature needs of the database: server/db/staff-admin-repository.ts provides it. */
export interface OwnSessionRepository {
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
