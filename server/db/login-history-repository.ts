/**
 * Where an account signed in before: a device id or client address that opened one of its sessions
 * (kept until a week after the session's expiry, server/db/housekeeping.ts). The login throttle
 * (server/domain/login-throttle.ts) lets these through while strangers are throttled.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from './client';
import { sessions } from './schema';

export function createLoginHistoryRepository(db: Db) {
  return {
    async signedInBefore(userId: string, ip: string, deviceId: string): Promise<boolean> {
      const from = deviceId ? or(eq(sessions.ipAddress, ip), eq(sessions.deviceId, deviceId)) : eq(sessions.ipAddress, ip);
      const rows = await db.select({ one: sql<number>`1` }).from(sessions).where(and(eq(sessions.userId, userId), from)).limit(1);
      return rows.length > 0;
    },
  };
}
