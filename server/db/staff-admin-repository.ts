/**
 * SQL of the Admin area: staff accounts of one site, their sessions, set-password tokens, the site's
 * second-factor rule and the audit log. Every query takes the site id and filters by it; the rules
 * (who may do what) live in server/domain/staff-admin.ts.
 */
import { and, count, desc, eq, gt, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { SecondFactorRule, SecondFactorState } from '../../common/second-factor-rule';
import { insertAuditEvent, type AuditEventValues } from './audit-repository';
import { createAuditLogRepository } from './audit-log-repository';
import type { Db } from './client';
import { containsPattern } from './like-pattern';
import { insertRevision, type RevisionRow, type RevisionValues } from './revision-repository';
import { otpCodes, resetTokens, sessions, sites, staffUsers, totpFactors } from './schema';

export type StaffRow = typeof staffUsers.$inferSelect;
export type SessionListRow = typeof sessions.$inferSelect;

/** Columns an admin may see: never the password hash. */
const staffColumns = {
  id: staffUsers.id,
  siteId: staffUsers.siteId,
  username: staffUsers.username,
  email: staffUsers.email,
  displayName: staffUsers.displayName,
  phoneNumber: staffUsers.phoneNumber,
  twoFactorOnLogin: staffUsers.twoFactorOnLogin,
  roles: staffUsers.roles,
  disabled: staffUsers.disabled,
  createdAt: staffUsers.createdAt,
  version: staffUsers.version,
};
export type StaffRecord = Omit<StaffRow, 'passwordHash' | 'passwordChangedAt'>;

/** A session still usable at `now` (not revoked, not past its absolute or idle expiry). */
function activeSession(now: Date, idleMs: number): SQL {
  return and(
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
    gt(sessions.lastSeenAt, new Date(now.getTime() - idleMs)),
  ) as SQL;
}

export interface StaffPage {
  rows: (StaffRecord & { lastSeenAt: Date | null; activeSessions: number })[];
  total: number;
}

function storeOver(db: Db, opts: { idleMs: number }) {
  const { idleMs } = opts;

  async function sessionSummaries(userIds: string[], now: Date): Promise<Map<string, { lastSeenAt: Date | null; activeSessions: number }>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .select({ userId: sessions.userId, lastSeenAt: sql<string | null>`max(${sessions.lastSeenAt})`, active: count() })
      .from(sessions)
      .where(and(inArray(sessions.userId, userIds), activeSession(now, idleMs)))
      .groupBy(sessions.userId);
    return new Map(rows.map((r) => [r.userId, { lastSeenAt: r.lastSeenAt ? new Date(r.lastSeenAt) : null, activeSessions: Number(r.active) }]));
  }

  return {
    /** One revision (issue 28), in this repository's transaction. */
    insertRevision(values: RevisionValues): Promise<RevisionRow> {
      return insertRevision(db, values);
    },
    /** One audit entry, in this repository's transaction (the caller scrubs the detail). */
    audit(values: AuditEventValues): Promise<void> {
      return insertAuditEvent(db, values);
    },

    async listStaff(siteId: string, query: { search: string; offset: number; limit: number }, now = new Date()): Promise<StaffPage> {
      const conditions = [eq(staffUsers.siteId, siteId)];
      const search = query.search.trim();
      if (search) {
        const pattern = containsPattern(search);
        conditions.push(or(ilike(staffUsers.username, pattern), ilike(staffUsers.displayName, pattern), ilike(staffUsers.email, pattern)) as SQL);
      }
      const where = and(...conditions);
      const [rows, [totalRow]] = await Promise.all([
        db.select(staffColumns).from(staffUsers).where(where).orderBy(staffUsers.displayName, staffUsers.username).limit(query.limit).offset(query.offset),
        db.select({ total: count() }).from(staffUsers).where(where),
      ]);
      const summaries = await sessionSummaries(rows.map((r) => r.id), now);
      return {
        rows: rows.map((r) => ({ ...r, ...(summaries.get(r.id) ?? { lastSeenAt: null, activeSessions: 0 }) })),
        total: Number(totalRow?.total ?? 0),
      };
    },

    async findStaff(siteId: string, id: string, now = new Date()) {
      const [row] = await db.select(staffColumns).from(staffUsers).where(and(eq(staffUsers.siteId, siteId), eq(staffUsers.id, id))).limit(1);
      if (!row) return undefined;
      const summary = (await sessionSummaries([row.id], now)).get(row.id) ?? { lastSeenAt: null, activeSessions: 0 };
      return { ...row, ...summary };
    },

    /** The site of the account with this username (usernames are unique across sites: sign-in needs no site). */
    async siteOfUsername(username: string): Promise<string | undefined> {
      const [row] = await db.select({ siteId: staffUsers.siteId }).from(staffUsers).where(eq(staffUsers.username, username)).limit(1);
      return row?.siteId;
    },

    async insertStaff(values: typeof staffUsers.$inferInsert): Promise<StaffRecord> {
      const [row] = await db.insert(staffUsers).values(values).returning(staffColumns);
      if (!row) throw new Error('staff insert returned nothing');
      return row;
    },

    /** Applies `changes` when the row still has `version`; undefined when someone changed it first. */
    async updateStaff(siteId: string, id: string, version: number, changes: Partial<typeof staffUsers.$inferInsert>): Promise<StaffRecord | undefined> {
      const [row] = await db
        .update(staffUsers)
        .set({ ...changes, version: sql`${staffUsers.version} + 1` })
        .where(and(eq(staffUsers.siteId, siteId), eq(staffUsers.id, id), eq(staffUsers.version, version)))
        .returning(staffColumns);
      return row;
    },

    /** Enabled accounts of the site whose Admin level allows changes, other than `exceptId`. */
    async countOtherAdminEditors(siteId: string, exceptId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(staffUsers)
        .where(and(
          eq(staffUsers.siteId, siteId),
          ne(staffUsers.id, exceptId),
          eq(staffUsers.disabled, false),
          sql`${staffUsers.roles}->>'Admin' in ('write', 'contributor')`,
        ));
      return Number(row?.n ?? 0);
    },

    async listActiveSessions(userId: string, now = new Date()): Promise<SessionListRow[]> {
      return db.select().from(sessions).where(and(eq(sessions.userId, userId), activeSession(now, idleMs))).orderBy(desc(sessions.lastSeenAt));
    },

    async revokeSessions(userId: string, now = new Date()): Promise<number> {
      const rows = await db.update(sessions).set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt))).returning({ id: sessions.id });
      return rows.length;
    },

    async revokeSession(userId: string, sessionId: string, now = new Date()): Promise<boolean> {
      const rows = await db.update(sessions).set({ revokedAt: now })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt))).returning({ id: sessions.id });
      return rows.length > 0;
    },

    /** A new set-password token; every earlier unused one of the account dies (the newest link wins). */
    async issueSetPasswordToken(userId: string, tokenHash: string, now: Date, expiresAt: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.update(resetTokens).set({ usedAt: now }).where(and(eq(resetTokens.userId, userId), isNull(resetTokens.usedAt)));
        await tx.insert(resetTokens).values({ userId, tokenHash, purpose: 'set-password', createdAt: now, expiresAt });
      });
    },

    /** The account behind a live set-password token. */
    async findSetPasswordToken(tokenHash: string, now = new Date()) {
      const [row] = await db
        .select({ tokenId: resetTokens.id, user: staffUsers })
        .from(resetTokens)
        .innerJoin(staffUsers, eq(staffUsers.id, resetTokens.userId))
        .where(and(
          eq(resetTokens.tokenHash, tokenHash),
          eq(resetTokens.purpose, 'set-password'),
          isNull(resetTokens.usedAt),
          gt(resetTokens.expiresAt, now),
          eq(staffUsers.disabled, false),
        ))
        .limit(1);
      return row;
    },

    /** Uses the token once and sets the password; false when the token was used in the meantime. */
    async consumeSetPasswordToken(tokenId: string, userId: string, passwordHash: string, now = new Date()): Promise<boolean> {
      return db.transaction(async (tx) => {
        const claimed = await tx.update(resetTokens).set({ usedAt: now })
          .where(and(eq(resetTokens.id, tokenId), isNull(resetTokens.usedAt), gt(resetTokens.expiresAt, now)))
          .returning({ id: resetTokens.id });
        if (claimed.length === 0) return false;
        await tx.update(staffUsers).set({ passwordHash, passwordChangedAt: now }).where(eq(staffUsers.id, userId));
        await tx.update(resetTokens).set({ usedAt: now }).where(and(eq(resetTokens.userId, userId), isNull(resetTokens.usedAt)));
        await tx.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
        return true;
      });
    },

    /** Codes already sent to the old number stop working. */
    async voidOtpCodes(userId: string, now = new Date()): Promise<void> {
      await db.update(otpCodes).set({ expiresAt: now })
        .where(and(eq(otpCodes.userId, userId), isNull(otpCodes.consumedAt), gt(otpCodes.expiresAt, now)));
    },

    /** The site's second-factor rule (issue 30, common/second-factor-rule.ts). */
    async secondFactorRuleOf(siteId: string): Promise<SecondFactorRule> {
      const [row] = await db.select({ rule: sites.secondFactorRule }).from(sites).where(eq(sites.id, siteId)).limit(1);
      return row?.rule ?? 'optional';
    },

    /**
     * The rule and the counts the confirmation speaks of: the site's accounts, those with the SMS code
     * on, those with an authenticator app set up (confirmed), those with neither a mobile number nor an app.
     */
    async secondFactorStateOf(siteId: string, callerId: string): Promise<SecondFactorState> {
      const [site] = await db.select({ rule: sites.secondFactorRule }).from(sites).where(eq(sites.id, siteId)).limit(1);
      const [own] = await db.select({ userId: totpFactors.userId }).from(totpFactors)
        .where(and(eq(totpFactors.userId, callerId), isNotNull(totpFactors.confirmedAt))).limit(1);
      const [row] = await db.select({
        accounts: count(),
        withSms: sql<number>`count(*) filter (where ${staffUsers.twoFactorOnLogin})`,
        withAuthenticator: sql<number>`count(${totpFactors.userId}) filter (where ${totpFactors.confirmedAt} is not null)`,
        withNeither: sql<number>`count(*) filter (where ${staffUsers.phoneNumber} = '' and ${totpFactors.confirmedAt} is null)`,
      }).from(staffUsers).leftJoin(totpFactors, eq(totpFactors.userId, staffUsers.id)).where(eq(staffUsers.siteId, siteId));
      return {
        rule: site?.rule ?? 'optional',
        accounts: Number(row?.accounts ?? 0),
        withSms: Number(row?.withSms ?? 0),
        withAuthenticator: Number(row?.withAuthenticator ?? 0),
        withNeither: Number(row?.withNeither ?? 0),
        ownAuthenticator: own !== undefined,
      };
    },

    /**
     * Sets the rule; `required` switches the SMS code on for every account of the site that has it off
     * (their versions move on). Answers how many accounts it switched on. Call it in a transaction.
     */
    async setSecondFactorRule(siteId: string, rule: SecondFactorRule): Promise<number> {
      await db.update(sites).set({ secondFactorRule: rule }).where(eq(sites.id, siteId));
      if (rule !== 'required') return 0;
      const rows = await db.update(staffUsers)
        .set({ twoFactorOnLogin: true, version: sql`${staffUsers.version} + 1` })
        .where(and(eq(staffUsers.siteId, siteId), eq(staffUsers.twoFactorOnLogin, false)))
        .returning({ id: staffUsers.id });
      return rows.length;
    },

    /** One page of the site's audit rows by actor, action and day, newest first (the audit log's query, server/db/audit-log-repository.ts). */
    listAudit(siteId: string, query: { who: string; action: string; from: Date | null; toExclusive: Date | null; offset: number; limit: number }) {
      return createAuditLogRepository(db).list(siteId, {
        actions: query.action ? [query.action] : null, who: query.who, objectKind: null, object: '', from: query.from, toExclusive: query.toExclusive,
      }, { offset: query.offset, limit: query.limit });
    },
  };
}

export type StaffAdminStore = ReturnType<typeof storeOver>;

export function createStaffAdminRepository(db: Db, opts: { idleMs: number }) {
  return {
    ...storeOver(db, opts),
    /** Runs `work` in one transaction over a repository bound to it (a write, its revision and its audit entry). */
    transaction<T>(work: (tx: StaffAdminStore) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(storeOver(tx as unknown as Db, opts)));
    },
  };
}

export type StaffAdminRepository = ReturnType<typeof createStaffAdminRepository>;
