/**
 * `npm start`: builds the SPA if stale, opens the database (PGlite in DATA_DIR, or DATABASE_URL),
 * migrates, prepares the demo database on first start (server/demo/prepare.ts: the demo sites and
 * accounts, the viewers' world and its rollups; SEED=0 skips it), serves API + SPA on HOST:PORT.
 *
 * Environment: PORT (3000), HOST (127.0.0.1; use 0.0.0.0 in a container), DATA_DIR (./data),
 * DATABASE_URL, JWT_SECRET (required in production), SEED, SEED_PASSWORD, SEED_SCALE, NODE_ENV,
 * LOG_LEVEL (warn: per-request lines are info and cost throughput, so they are off unless asked
 * for), SKIP_BUILD=1, STATIC_DIR (the built SPA, default dist/), and the runtime settings documented
 * in docs/security.md and the README.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { buildIfStale } from './build-if-stale';
import { describeSmsTransport, loadConfig } from './env';
import { devOutboxEnabled, devOutboxUrl } from './http/dev-routes';
import { LOG_REDACTION, LOG_SERIALIZERS } from './log-redaction';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = loadConfig();

if (process.env.SKIP_BUILD !== '1') buildIfStale(root);
const distDir = process.env.STATIC_DIR || join(root, 'dist');

const app = await buildApp({
  config,
  staticDir: existsSync(join(distDir, 'index.html')) ? distDir : undefined,
  logger: {
    level: process.env.LOG_LEVEL || 'warn',
    redact: LOG_REDACTION,
    serializers: LOG_SERIALIZERS,
  },
});

// The demo data on a database without sites, before the first request can arrive: this instance
// listens (and says it is running) only once the database it serves is whole. Every start-up step
// that writes (migrations in openDb, pg-boss's schema and queue in buildApp, this preparation) runs
// under the database's start-up lock, so instances started together take turns (issue 37).
try {
  await app.services.demo.prepare({ log: app.log, artwork: true });
} catch (error) {
  await app.close();
  throw error;
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}

await app.listen({ port: config.port, host: config.host });
console.log(`CMS Tools is running at http://${config.host}:${config.port}`);
console.log(describeSmsTransport(config));
if (devOutboxEnabled(config)) console.log(`Development SMS outbox (sign-in and reset codes; keep this address to yourself): ${devOutboxUrl(config)}`);
