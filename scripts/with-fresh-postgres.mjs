// Runs a command with DATABASE_URL pointing at a fresh database on the local PostgreSQL
// (127.0.0.1:5432, trust auth), dropped afterwards. Fails clearly when PostgreSQL is absent.
//
// Issue 39: it first migrates a template database (`<name>_tpl`) and makes the run's database a copy
// of it (CREATE DATABASE … TEMPLATE, well under a second, where 35 migrations take seconds), and gives
// its name to the command as TEST_DATABASE_TEMPLATE: the server tests' own databases
// (server/test/kit.ts, openIsolatedTestDb) are copies of it too. Both are dropped afterwards.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';

const base = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const name = `cms_test_${Date.now()}_${process.pid}`;
const template = `${name}_tpl`;
const MIGRATIONS_FOLDER = fileURLToPath(new URL('../server/db/migrations', import.meta.url));
const admin = new pg.Client({ connectionString: base });
try {
  await admin.connect();
} catch (error) {
  console.error(`PostgreSQL is not reachable at ${base}: ${error.message}. Start it or set PG_ADMIN_URL.`);
  process.exit(1);
}
const urlOf = (database) => {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
};

let status;
try {
  await admin.query(`CREATE DATABASE ${template}`);
  const pool = new pg.Pool({ connectionString: urlOf(template), max: 1 });
  try {
    await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await pool.end();
  }
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const [command, ...args] = process.argv.slice(2);
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: urlOf(name), TEST_DATABASE_TEMPLATE: template },
  });
  status = result.status ?? 1;
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  await admin.end();
}
process.exit(status);
