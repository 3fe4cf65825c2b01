/**
 * SQL of the authenticator-app factor (server/domain/totp.ts holds the rules): the per-user factor
 * row (pending or confirmed, last used step) and its recovery-code hashes.
 */
import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from './client';
import { totpFactors, totpRecoveryCodes } from './schema';

type TotpFactorRow = typeof totpFactors.$inferSelect;

export function createTotpRepository(db: Db) {
  return {
    async factorOf(userId: string): Promise<TotpFactorRow | undefined> {
      const [row] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId)).limit(1);
      return row;
    },

    /** A new pending secret; a pending one is replaced, a confirmed one is left alone. */
    async savePending(userId: string, secretEncrypted: string, now: Date): Promise<void> {
      await db.insert(totpFactors).values({ userId, secretEncrypted, createdAt: now, confirmedAt: null, lastUsedStep: null })
        .onConflictDoUpdate({
          target: totpFactors.userId,
          set: { secretEncrypted, createdAt: now, lastUsedStep: null },
          setWhere: isNull(totpFactors.confirmedAt),
        });
    },

    /** Pending → confirmed, with the confirming code's step spent; false when it was not pending. */
    async markConfirmed(userId: string, step: number, now: Date): Promise<boolean> {
      const rows = await db.update(totpFactors).set({ confirmedAt: now, lastUsedStep: step })
        .where(and(eq(totpFactors.userId, userId), isNull(totpFactors.confirmedAt)))
        .returning({ userId: totpFactors.userId });
      return rows.length === 1;
    },

    /** Records `step` as used only when it is after the last used one (compare-and-set). */
    async claimStep(userId: string, step: number): Promise<boolean> {
      const rows = await db.update(totpFactors).set({ lastUsedStep: step })
        .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt),
          or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step))))
        .returning({ userId: totpFactors.userId });
      return rows.length === 1;
    },

    async replaceRecoveryCodes(userId: string, hashes: string[], now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
        await tx.insert(totpRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
      });
    },

    /** Spends the unused code with this hash; false when there is none. */
    async useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
      const rows = await db.update(totpRecoveryCodes).set({ usedAt: now })
        .where(and(eq(totpRecoveryCodes.userId, userId), eq(totpRecoveryCodes.codeHash, codeHash), isNull(totpRecoveryCodes.usedAt)))
        .returning({ id: totpRecoveryCodes.id });
      return rows.length > 0;
    },

    async unusedRecoveryCount(userId: string): Promise<number> {
      const [row] = await db.select({ n: count() }).from(totpRecoveryCodes)
        .where(and(eq(totpRecoveryCodes.userId, userId), isNull(totpRecoveryCodes.usedAt)));
      return Number(row?.n ?? 0);
    },

    /** The factor and its recovery codes go. */
    async remove(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
        await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
      });
    },
  };
}

export type TotpRepository = ReturnType<typeof createTotpRepository>;

