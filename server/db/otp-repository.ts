/**
 * SQL of the otp_codes table. The rules (code length, lifetime, tries, device binding, hashing) are
 * in server/domain/otp.ts; this module only stores and updates rows, atomically where it matters.
 */
import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from './client';
import { otpCodes } from './schema';

type OtpCodeRow = typeof otpCodes.$inferSelect;

export function createOtpRepository(db: Db) {
  const newestOf = (userId: string, purpose: string) => and(eq(otpCodes.userId, userId), eq(otpCodes.purpose, purpose));

  return {
    /** Stores a new code and ends every live code of the same user and purpose, in one transaction. */
    async replaceLiveCode(code: Pick<OtpCodeRow, 'userId' | 'purpose' | 'codeHash' | 'deviceId' | 'createdAt' | 'expiresAt'>): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(otpCodes)
          .set({ expiresAt: code.createdAt })
          .where(and(newestOf(code.userId, code.purpose), isNull(otpCodes.consumedAt), gt(otpCodes.expiresAt, code.createdAt)));
        await tx.insert(otpCodes).values(code);
      });
    },

    /**
     * Spends one try of the newest code of user+purpose when it is unused, unexpired and has fewer
     * than maxTries spent: one atomic UPDATE, so concurrent guesses cannot exceed the budget.
     */
    async reserveTry(input: { userId: string; purpose: string; now: Date; maxTries: number }): Promise<Pick<OtpCodeRow, 'id' | 'codeHash' | 'deviceId'> | undefined> {
      const newest = db
        .select({ id: otpCodes.id })
        .from(otpCodes)
        .where(newestOf(input.userId, input.purpose))
        .orderBy(desc(otpCodes.createdAt))
        .limit(1);
      const [reserved] = await db
        .update(otpCodes)
        .set({ wrongAttempts: sql`${otpCodes.wrongAttempts} + 1` })
        .where(and(
          inArray(otpCodes.id, newest),
          isNull(otpCodes.consumedAt),
          gt(otpCodes.expiresAt, input.now),
          lt(otpCodes.wrongAttempts, input.maxTries),
        ))
        .returning({ id: otpCodes.id, codeHash: otpCodes.codeHash, deviceId: otpCodes.deviceId });
      return reserved;
    },

    /** Marks a reserved code used and refunds its try; false when another request used it first. */
    async consume(id: string, now: Date): Promise<boolean> {
      const [consumed] = await db
        .update(otpCodes)
        .set({ consumedAt: now, wrongAttempts: sql`${otpCodes.wrongAttempts} - 1` })
        .where(and(eq(otpCodes.id, id), isNull(otpCodes.consumedAt)))
        .returning({ id: otpCodes.id });
      return consumed !== undefined;
    },

    /** The newest code of user+purpose, whatever its state. */
    async newest(userId: string, purpose: string): Promise<Pick<OtpCodeRow, 'deviceId' | 'consumedAt' | 'createdAt' | 'expiresAt' | 'wrongAttempts'> | undefined> {
      const [row] = await db
        .select({
          deviceId: otpCodes.deviceId, consumedAt: otpCodes.consumedAt, createdAt: otpCodes.createdAt,
          expiresAt: otpCodes.expiresAt, wrongAttempts: otpCodes.wrongAttempts,
        })
        .from(otpCodes)
        .where(newestOf(userId, purpose))
        .orderBy(desc(otpCodes.createdAt))
        .limit(1);
      return row;
    },
  };
}

export type OtpRepository = ReturnType<typeof createOtpRepository>;
