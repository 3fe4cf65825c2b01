/**
 * Deletes rows that can no longer matter: old rate-limit windows, dead codes and reset tokens, long
 * expired sessions, audit rows past the audit log's retention (AUDIT_RETENTION_DAYS). Run periodically by buildApp (every 10 minutes, unref'd timer); idempotent, so
 * several instances may run it.
 */
import { and, lt, notLike } from 'drizzle-orm';
import type { Db } from './client';
import { AUDIT_RETENTION_DAYS } from '../../common/audit-actions';
import { auditEvents, otpCodes, rateLimits, resetTokens, sessions } from './schema';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function purgeExpired(db: Db, now = new Date()): Promise<void> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  // 'durable:' counters (an account's consecutive failures, server/domain/login-throttle.ts) stay until a success.
  await db.delete(rateLimits).where(and(lt(rateLimits.windowStart, dayAgo), notLike(rateLimits.key, 'durable:%')));
  await db.delete(otpCodes).where(lt(otpCodes.expiresAt, dayAgo));
  await db.delete(resetTokens).where(lt(resetTokens.expiresAt, dayAgo));
  await db.delete(sessions).where(lt(sessions.expiresAt, weekAgo));
  // The audit log keeps AUDIT_RETENTION_DAYS (stated on Admin › Audit and in the README; issue 28).
  await db.delete(auditEvents).where(lt(auditEvents.at, new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS)));
}
