/**
 * Server-side sessions behind access tokens: absolute expiry 12 h, idle expiry measured on the
 * server from lastSeenAt (INACTIVITY_TIMEOUT_MINUTES), revocable one by one or all at once.
 */
import type { SessionRepository } from './ports';
import type { SessionRow } from './rows';

const SESSION_ABSOLUTE_TTL_MS = 12 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often per session, to keep reads cheap. */
const SESSION_TOUCH_INTERVAL_MS = 30_000;

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
