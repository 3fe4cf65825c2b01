import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { buildApp } from './app';
import { openDb } from './db/client';
import { auditEvents } from './db/schema';
import { seedDemo, testConfig, TEST_SEED_PASSWORD } from './test/kit';

const dir = mkdtempSync(join(tmpdir(), 'cms-pglite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Always PGlite on disk (independent of DATABASE_URL): the embedded default must survive restarts.
// Two on-disk initialisations plus a seed: 10-40 s on a loaded 2-core machine, hence its own timeout.
it('data written by one server start is there after a restart with the same DATA_DIR', { timeout: 120_000 }, async () => {
  const config = { ...testConfig(), databaseUrl: undefined, dataDir: dir, jwtSecret: undefined };

  const first = await buildApp({ config });
  expect(first.services.driver).toBe('pglite');
  await seedDemo(first);
  const login = await first.inject({ method: 'POST', url: API_PATHS.login, payload: { username: 'admin@demo.test', password: TEST_SEED_PASSWORD } });
  expect(login.statusCode).toBe(200);
  const token = login.json().accessToken as string;
  const marker = `restart-${Date.now()}`;
  await first.services.audit.record({ action: marker });
  await first.close();

  const second = await buildApp({ config });
  try {
    // The session and the generated JWT secret (DATA_DIR/.jwt-secret) survived.
    const info = await second.inject({ method: 'GET', url: API_PATHS.loginInfo, headers: { authorization: `Bearer ${token}` } });
    expect(info.statusCode).toBe(200);
  } finally {
    await second.close();
  }

  // Migrations are idempotent on an existing data dir, and the row the first start wrote is there
  // after both starts (read straight from the folder: the services hold the database, not this test).
  const again = await openDb({ dataDir: dir });
  try {
    const rows = await again.db.select().from(auditEvents).where(eq(auditEvents.action, marker));
    expect(rows).toHaveLength(1);
  } finally {
    await again.close();
  }
});
