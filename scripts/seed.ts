/**
 * `npm run seed -- [--scale N] [--seed S]`: adds a viewers' world (server/db/seed-world.ts) to the
 * demo sites of the configured database (DATABASE_URL, or PGlite in DATA_DIR, default ./data),
 * creating the demo sites and accounts first when the database has none. Run it with the server
 * stopped when using PGlite: an embedded data directory has one owner at a time.
 */
import { parseArgs } from 'node:util';
import { openDb } from '../server/db/client';
import { seedDemoData } from '../server/demo/seed';
import { seedWorld } from '../server/db/seed-world';
import { createPasswordHasher } from '../server/domain/passwords';
import { createUploadStorage } from '../server/storage/upload-storage';
import { DEFAULT_SEED_PASSWORD, loadConfig } from '../server/env';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' }, seed: { type: 'string' } } });
const scale = Number(values.scale);
if (!(scale > 0)) {
  console.error(`--scale must be a positive number, got ${values.scale}`);
  process.exit(2);
}
const seed = values.seed === undefined ? undefined : Number(values.seed);
const config = loadConfig();
const started = performance.now();
const handle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const password = config.seedPassword ?? (config.production ? undefined : DEFAULT_SEED_PASSWORD);
  if (password && await seedDemoData(handle.db, { password, passwords: createPasswordHasher(config.argon2) })) {
    console.log('Demo sites and accounts created (docs/demo-accounts.md).');
  }
  const result = await handle.withLock(() => seedWorld(handle.db, { scale, seed, production: config.production, artworkStorage: createUploadStorage(config.dataDir) }));
  for (const { site, counts, ingestionKey } of result.sites) {
    console.log(`${site}: +${counts.subscribers} subscribers, +${counts.subscriptions} subscriptions, +${counts.payments} payments, `
      + `+${counts.content_items} content items, +${counts.playback_sessions} playback sessions`);
    if (ingestionKey) console.log(`  ingestion key: ${ingestionKey}`);
  }
  console.log(`Seeded at scale ${scale} in ${((performance.now() - started) / 1000).toFixed(1)} s; rollups rebuilt.`);
} finally {
  await handle.close();
}
