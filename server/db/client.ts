/**
 * Opens the database: PGlite (embedded, default) or PostgreSQL over node-postgres when a
 * DATABASE_URL is given. Both run the same migrations folder at startup; both are typed as one
 * `Db` (a PgDatabase over the shared schema), so the rest of the server does not care which.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
type DbDriver = 'pglite' | 'postgres';

export interface DbHandle {
  db: Db;
  driver: DbDriver;
  /** The embedded PGlite instance (driver 'pglite' only). */
  pglite?: import('@electric-sql/pglite').PGlite;
  /** The PostgreSQL connection string (driver 'postgres' only): the cache bus opens its LISTEN connection with it. */
  connectionString?: string;
  /**
   * Runs fn while holding the database-wide start-up lock: every start-up step that writes shared
   * structure or data (migrations, pg-boss's schema and queues, the demo seed) runs under it, so
   * instances started together take turns (issue 37). Not re-entrant: fn must not call withLock.
   */
  withLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** An arbitrary constant for pg_advisory_lock: "CMS Tools migrate/seed". */
const LOCK_KEY = 7_342_911;

interface OpenDbOptions {
  /** postgres://... ; when set, node-postgres is used. */
  databaseUrl?: string;
  /** PGlite data directory, or 'memory://' (default './data'). */
  dataDir?: string;
  /** Run migrations (default true). */
  migrate?: boolean;
  /** PGlite only: start from a dumped data directory (PGlite#dumpDataDir), e.g. a test template. */
  loadDataDir?: Blob;
}

export async function openDb(options: OpenDbOptions = {}): Promise<DbHandle> {
  const handle = options.databaseUrl ? await openPostgres(options.databaseUrl) : await openPglite(options.dataDir ?? './data', options.loadDataDir);
  if (options.migrate !== false) {
    try {
      await handle.withLock(() => runMigrations(handle));
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
  }
  return handle;
}

async function runMigrations(handle: DbHandle): Promise<void> {
  if (handle.driver === 'postgres') {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  } else {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  }
}

/**
 * Memory of the embedded database for a small machine (issue 21): PGlite keeps Postgres's 128 MB of
 * shared buffers inside the WebAssembly heap, which never shrinks; 16 MB (and smaller work areas)
 * saved ~100 MiB of RSS in a 300k-row test. PGLITE_SHARED_BUFFERS overrides it (e.g. 64MB).
 */
const PGLITE_MEMORY_SETTINGS = [
  `shared_buffers=${process.env.PGLITE_SHARED_BUFFERS || '16MB'}`,
  'work_mem=2MB', 'maintenance_work_mem=16MB', 'temp_buffers=2MB', 'wal_buffers=1MB',
];

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<DbHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  if (!dataDir.includes('://')) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir, { ...(loadDataDir ? { loadDataDir } : {}), postgresqlconf: PGLITE_MEMORY_SETTINGS });
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  let closed = false;
  // One embedded connection, one process: the lock is a queue in this process, so two start-up
  // steps asked at once (a test's two preparations) run one after the other, as on PostgreSQL.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    db,
    driver: 'pglite',
    pglite: client,
    withLock<T>(fn: () => Promise<T>): Promise<T> {
      const run = queue.then(() => fn());
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

async function openPostgres(url: string): Promise<DbHandle> {
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  // Issue 41 (docs/analytics-engine.md): JIT off. The report reads at 100x are estimated above
  // jit_above_cost and compiled on every run: 100-200 ms of the 0.3-0.6 s they took, for no gain.
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10), options: '-c jit=off' });
  // An idle client error must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema }) as unknown as Db;
  let closed = false;
  return {
    db,
    driver: 'postgres',
    connectionString: url,
    async withLock(fn) {
      const lockClient = await pool.connect();
      try {
        await lockClient.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
        return await fn();
      } finally {
        await lockClient.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
        lockClient.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
