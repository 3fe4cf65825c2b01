/**
 * SQL of staff accounts as sign-in sees them: users with their site (by username, by a linked
 * identity, by email), identity links, password-reset tokens and the password change itself. The
 * rules (who may sign in, what a reset needs) are in server/domain/auth-flows.ts and social-login.ts.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from './client';
import { identityLinks, otpCodes, resetTokens, sessions, sites, staffUsers } from './schema';
import type { SiteRow, StaffUserRow } from './session-repository';
import { createTotpRepository } from './totp-repository';

export interface UserWithSite {
  user: StaffUserRow;
  site: SiteRow;
}

type ResetTokenRow = typeof resetTokens.$inferSelect;

export function createAccountRepository(db: Db) {
  const withSite = () => db.select({ user: staffUsers, site: sites }).from(staffUsers).innerJoin(sites, eq(sites.id, staffUsers.siteId));

  return {
    /** The authenticator-app factor's rows (server/db/totp-repository.ts). */
    totp: createTotpRepository(db),
    /** The user with this (already normalised) username. */
    async byUsername(username: string): Promise<UserWithSite | undefined> {
      const [row] = await withSite().where(eq(staffUsers.username, username)).limit(1);
      return row;
    },

    /** The user an identity-provider account is linked to. */
    async byIdentity(provider: string, providerUserId: string): Promise<UserWithSite | undefined> {
      const [row] = await db
        .select({ user: staffUsers, site: sites })
        .from(identityLinks)
        .innerJoin(staffUsers, eq(staffUsers.id, identityLinks.userId))
        .innerJoin(sites, eq(sites.id, staffUsers.siteId))
        .where(and(eq(identityLinks.provider, provider), eq(identityLinks.providerUserId, providerUserId)))
        .limit(1);
      return row;
    },

    /** Up to `limit` users whose email equals `email` (case-insensitive). */
    async byEmail(email: string, limit: number): Promise<UserWithSite[]> {
      return withSite().where(eq(sql`lower(${staffUsers.email})`, email.trim().toLowerCase())).limit(limit);
    },

    /** Links an identity to a user unless it is linked already (the first link wins). */
    async linkIdentity(provider: string, providerUserId: string, userId: string): Promise<void> {
      await db.insert(identityLinks).values({ provider, providerUserId, userId }).onConflictDoNothing();
    },

    async insertResetToken(values: Pick<ResetTokenRow, 'userId' | 'tokenHash' | 'createdAt' | 'expiresAt'> & Partial<Pick<ResetTokenRow, 'purpose'>>): Promise<void> {
      await db.insert(resetTokens).values(values);
    },

    async resetTokenByHash(tokenHash: string): Promise<(Pick<ResetTokenRow, 'usedAt' | 'expiresAt' | 'purpose'> & { tokenId: string; user: StaffUserRow }) | undefined> {
      const [row] = await db
        .select({ tokenId: resetTokens.id, usedAt: resetTokens.usedAt, expiresAt: resetTokens.expiresAt, purpose: resetTokens.purpose, user: staffUsers })
        .from(resetTokens)
        .innerJoin(staffUsers, eq(staffUsers.id, resetTokens.userId))
        .where(eq(resetTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },

    /**
     * In one transaction: claims the reset token (unused and unexpired at `now`), stores the new
     * password hash, and ends every other reset token, live password code and session of the user.
     * False when the token was already claimed.
     */
    async changePasswordWithToken(input: { tokenId: string; userId: string; passwordHash: string; now: Date }): Promise<boolean> {
      const { tokenId, userId, passwordHash, now } = input;
      return db.transaction(async (tx) => {
        const claimed = await tx
          .update(resetTokens)
          .set({ usedAt: now })
          .where(and(eq(resetTokens.id, tokenId), isNull(resetTokens.usedAt), gt(resetTokens.expiresAt, now)))
          .returning({ id: resetTokens.id });
        if (claimed.length === 0) return false;
        await tx.update(staffUsers).set({ passwordHash, passwordChangedAt: now }).where(eq(staffUsers.id, userId));
        await tx.update(resetTokens).set({ usedAt: now }).where(and(eq(resetTokens.userId, userId), isNull(resetTokens.usedAt)));
        await tx.update(otpCodes).set({ expiresAt: now }).where(and(eq(otpCodes.userId, userId), isNull(otpCodes.consumedAt), gt(otpCodes.expiresAt, now)));
        await tx.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
        return true;
      });
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
