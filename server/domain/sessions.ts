/**
 * Server-side sessions behind access tokens: absolute expiry 12 h, idle expiry measured on the
 * server from lastSeenAt (INACTIVITY_TIMEOUT_MINUTES), revocable one by one or all at once.
 */
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions } from '../db/schema';

export const SESSION_ABSOLUTE_TTL_MS = 12 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often per session, to keep reads cheap. */
export const SESSION_TOUCH_INTERVAL_MS = 30_000;

export type SessionRow = typeof sessions.$inferSelect;

export interface SessionStore {
  create(userId: string, deviceId: string, now?: Date): Promise<SessionRow>;
  /** Why a session is unusable, or null when it is valid. */
  invalidReason(session: Pick<SessionRow, 'revokedAt' | 'expiresAt' | 'lastSeenAt'>, now?: Date): 'revoked' | 'expired' | 'idle' | null;
  /** Records activity (throttled). */
  /** Moves lastSeenAt forward (at most every SESSION_TOUCH_INTERVAL_MS); true when it wrote. */
  touch(session: Pick<SessionRow, 'id' | 'lastSeenAt'>, now?: Date): Promise<boolean>;
  revoke(sessionId: string, now?: Date): Promise<void>;
  revokeAllForUser(userId: string, exceptSessionId?: string, now?: Date): Promise<number>;
}

export function createSessionStore(db: Db, opts: { idleMinutes: number }): SessionStore {
  const idleMs = opts.idleMinutes * 60_000;
  return {
    async create(userId, deviceId, now = new Date()) {
      const [row] = await db
        .insert(sessions)
        .values({ userId, deviceId, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_TTL_MS) })
        .returning();
      if (!row) throw new Error('session insert returned nothing');
      return row;
    },
    invalidReason(session, now = new Date()) {
      if (session.revokedAt) return 'revoked';
      if (new Date(session.expiresAt).getTime() <= now.getTime()) return 'expired';
      if (now.getTime() - new Date(session.lastSeenAt).getTime() > idleMs) return 'idle';
      return null;
    },
    async touch(session, now = new Date()) {
      if (now.getTime() - new Date(session.lastSeenAt).getTime() < SESSION_TOUCH_INTERVAL_MS) return false;
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.id));
      return true;
    },
    async revoke(sessionId, now = new Date()) {
      await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    },
    async revokeAllForUser(userId, exceptSessionId, now = new Date()) {
      const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
      if (exceptSessionId) conditions.push(ne(sessions.id, exceptSessionId));
      const rows = await db.update(sessions).set({ revokedAt: now }).where(and(...conditions)).returning({ id: sessions.id });
      return rows.length;
    },
  };
}
