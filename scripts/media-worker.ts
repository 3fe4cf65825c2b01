/**
 * `npm run media:worker`: an encoding worker beside `npm start` (issue 40; ARCHITECTURE.md "The media
 * path"). Any number of them, on one PostgreSQL (DATABASE_URL) and one media storage: the same
 * MEDIA_DIR / DATA_DIR on this machine, or the S3 bucket (MEDIA_S3_*) from anywhere. It takes
 * `media.encode` jobs from pg-boss, holds each asset by a lease it renews (MEDIA_LEASE_SECONDS), and
 * takes over the assets of a worker that stopped renewing (killed, crashed). Run the server with
 * MEDIA_WORKER=off to leave all encoding to the workers. Stops on SIGINT / SIGTERM (the asset in hand
 * is released for the next worker).
 */
import { buildMediaServices } from '../server/composition-media';
import { openDb } from '../server/db/client';
import { loadMediaConfig } from '../server/domain/media-config';
import { loadConfig } from '../server/env';

if (!process.env.DATABASE_URL) {
  console.error('npm run media:worker needs DATABASE_URL (the PostgreSQL the servers share): an embedded PGlite directory has one owner, `npm start` encodes there itself.');
  process.exit(2);
}
const server = loadConfig(process.env);
const config = loadMediaConfig(process.env, server.dataDir, server.encodingDisabledSite);
const handle = await openDb({ databaseUrl: process.env.DATABASE_URL });
const log = {
  info: (obj: unknown, msg?: string) => console.log(msg ?? '', JSON.stringify(obj)),
  warn: (obj: unknown, msg?: string) => console.warn(msg ?? '', JSON.stringify(obj)),
  error: (obj: unknown, msg?: string) => console.error(msg ?? '', JSON.stringify(obj)),
};
// The worker signs nothing: the play-token secret is the server's alone.
const media = buildMediaServices({ db: handle.db, jobDb: handle, config, secret: 'media-worker-signs-nothing', log });
await media.jobs.start({ work: true });
console.log(`MEDIA_WORKER_READY concurrency ${config.concurrency}, lease ${config.leaseSeconds} s, storage ${media.storage.kind}${config.s3 ? '' : ` (${config.rootDir})`}`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    media.jobs.stop().then(() => handle.close()).then(() => process.exit(0), () => process.exit(1));
  });
}
