/**
 * Prepares a demo database: on a database without sites, the demo sites and staff accounts
 * (server/demo/seed.ts, docs/demo-accounts.md) and, when SEED_SCALE > 0, the viewers' world of each
 * demo site with its daily rollups rebuilt as of the world's clock (server/db/seed-world.ts).
 *
 * Run by the start path (server/main.ts, after buildApp and before listening) and by tests that ask
 * for the demo data (server/test/kit.ts, `createTestApp({ demo: true })`); never by buildApp, which
 * serves whatever database it is given. A database that already has sites is left as it is, so a
 * restart or a second instance seeds nothing; concurrent starts on one PostgreSQL are serialised by
 * the database's start-up lock (DbHandle.withLock), held over the whole preparation, and everything
 * it writes commits in one transaction (issue 37): the sites exist only once the world and its
 * rollups do, so an instance never serves a half-seeded database.
 */
import { randomBytes } from 'node:crypto';
import type { Db, DbHandle } from '../db/client';
import { DEMO_SITES } from '../db/demo-accounts';
import { seedWorld } from '../db/seed-world';
import { createPasswordHasher, isPasswordComplex, type PasswordHasher } from '../domain/passwords';
import { DEFAULT_SEED_PASSWORD, type ServerConfig } from '../env';
import type { UploadStorage } from '../storage/upload-storage';
import { seedDemoData } from './seed';

/** What the preparation writes to the server's log (the composition root's Logger, which hands it the database, has this shape). */
interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export type DemoConfig = Pick<ServerConfig, 'seed' | 'seedPassword' | 'seedScale' | 'production' | 'argon2'>;

interface PreparedDemo {
  /** True when this call wrote the demo sites and accounts (the database had no sites). */
  seeded: boolean;
  /** Why nothing was seeded on purpose (SEED=0, production without SEED_PASSWORD, a weak password). */
  skipped?: string;
}

/** The password of the demo accounts: SEED_PASSWORD, else the documented default outside production. */
function demoPassword(config: DemoConfig): { password: string } | { skipped: string } {
  const password = config.seedPassword ?? (config.production ? undefined : DEFAULT_SEED_PASSWORD);
  if (!password) return { skipped: 'Demo seed skipped: NODE_ENV=production and SEED_PASSWORD is not set.' };
  if (!isPasswordComplex(password)) return { skipped: 'Demo seed skipped: SEED_PASSWORD does not meet the password complexity rule.' };
  return { password };
}

/** `storage`: the upload store, where the world's items get their artwork (issue 38); without it they have none. */
export async function prepareDemoDatabase(dbHandle: DbHandle, input: { config: DemoConfig; log: Logger; passwords?: PasswordHasher; storage?: UploadStorage }): Promise<PreparedDemo> {
  const { config, log } = input;
  if (!config.seed) return { seeded: false, skipped: 'SEED=0' };
  const chosen = demoPassword(config);
  if ('skipped' in chosen) {
    log.warn(chosen.skipped);
    return { seeded: false, skipped: chosen.skipped };
  }
  const passwords = input.passwords ?? createPasswordHasher(config.argon2);
  // Issue 37: one lock over the whole preparation and one transaction over everything it writes
  // (sites, accounts, world, rollups). An instance waiting for the lock finds either no sites (and
  // seeds) or the whole demo database, never its first half; a start killed half-way leaves nothing.
  const prepared = await dbHandle.withLock(() => dbHandle.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    if (!await seedDemoData(db, { password: chosen.password, passwords })) return null;
    if (config.seedScale <= 0) return { sites: [] };
    return seedWorld(db, { scale: config.seedScale, production: config.production, randomKey: () => randomBytes(24).toString('base64url'), artworkStorage: input.storage });
  }));
  if (!prepared) return { seeded: false };
  log.info('Demo data seeded (see docs/demo-accounts.md).');
  for (const { site, counts, ingestionKey } of prepared.sites) {
    log.info({ site, subscribers: counts.subscribers, sessions: counts.playback_sessions }, 'Viewers\' world seeded');
    // Production keys are random and shown once; the demo keys are documented (README).
    if (ingestionKey && (config.production || site === DEMO_SITES.viewlift)) log.warn(`Ingestion key of ${site} (POST /v1/events, header x-ingestion-key): ${ingestionKey}`);
  }
  return { seeded: true };
}
