// Runs a command with DATABASE_URL pointing at a fresh database on the local PostgreSQL
// (127.0.0.1:5432, trust auth), dropped afterwards. Fails clearly when PostgreSQL is absent.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const base = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const name = `cms_test_${Date.now()}_${process.pid}`;
const admin = new pg.Client({ connectionString: base });
try {
  await admin.connect();
} catch (error) {
  console.error(`PostgreSQL is not reachable at ${base}: ${error.message}. Start it or set PG_ADMIN_URL.`);
  process.exit(1);
}
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const [command, ...args] = process.argv.slice(2);
const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DATABASE_URL: url.toString() } });
await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
await admin.end();
process.exit(result.status ?? 1);
