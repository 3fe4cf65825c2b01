/**
 * `npm run ingest:worker [-- --consumers 1] [--no-fold]`: extra consumers (and a fold worker) of the
 * player event stream, beside `npm start` (issue 31; docs/data-model.md "Ingestion"). Needs NATS_URL
 * (the JetStream stream the servers publish to) and DATABASE_URL (the PostgreSQL they share): an
 * embedded PGlite directory has one owner and its memory queue lives inside `npm start`.
 * INGEST_STREAM / INGEST_DURABLE / INGEST_ACK_WAIT_MS / INGEST_PARTITIONS / INGEST_REBALANCE_MS as for
 * the server; INGEST_WORKER_NICE (default 10): its CPU priority, below the servers'. Workers and
 * servers share the stream's partitions out among themselves (leases on the PostgreSQL; logged as
 * "ingest partitions owned"). Stops on SIGINT / SIGTERM after the batches in
 * hand are written and acknowledged, and prints `INGEST_WORKER_STATS {...}` (its counters; also on SIGUSR2).
 */
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDb } from '../server/db/client';
import { loadIngestConfig, startIngestPipeline, workerNice } from '../server/domain/ingest-pipeline';
import { openPartitionLeases } from '../server/db/ingest-leases';
import { createIngestStore } from '../server/db/stores';

const { values } = parseArgs({ options: { consumers: { type: 'string' }, 'no-fold': { type: 'boolean', default: false } } });
const config = loadIngestConfig(process.env);
if (!config.natsUrl || !process.env.DATABASE_URL) {
  console.error('npm run ingest:worker needs NATS_URL (the JetStream the servers publish to) and DATABASE_URL (their PostgreSQL).');
  process.exit(2);
}
const consumers = values.consumers === undefined ? Math.max(1, config.consumers) : Number(values.consumers);
if (!Number.isInteger(consumers) || consumers < 1) {
  console.error('--consumers must be a whole number of at least 1.');
  process.exit(2);
}
// Diagnosis only (INGEST_WORKER_CPU_PROF=<dir>): a V8 CPU profile of this worker, written when it stops
// (`--cpu-prof` is refused in NODE_OPTIONS, and the bench and tests start workers with their own arguments).
const profiling = process.env.INGEST_WORKER_CPU_PROF ? await startCpuProfile() : null;
async function startCpuProfile() {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(process.env.INGEST_WORKER_CPU_PROF!, `ingest-worker-${process.pid}.cpuprofile`), JSON.stringify(profile));
  };
}
// The worker yields the CPU to the request path (INGEST_WORKER_NICE, default 10; 0 leaves it as it
// is): its work is a backlog that waits well, a player's POST is not. On one machine with the servers
// (this 2-core one, `npm run bench:ingest`): at 10,000 events/s offered the 202's p99 after the first
// 3 s went from 44-50 to 36-37 ms with 4 partitions, and at 25,000 offered from 93-108 to 19-20 ms at
// p50 while the consumers wrote as much (README, issue 42). On a machine of its own it changes nothing.
const nice = workerNice(process.env.INGEST_WORKER_NICE);
if (nice === null) {
  console.error('INGEST_WORKER_NICE must be a whole number from 0 to 19.');
  process.exit(2);
}
if (nice > 0) {
  try {
    setPriority(nice);
  } catch (error) {
    console.warn(`INGEST_WORKER_NICE=${nice} not applied: ${error instanceof Error ? error.message : String(error)}`);
  }
}
const handle = await openDb({ databaseUrl: process.env.DATABASE_URL });
const log = {
  info: (obj: unknown, msg?: string) => console.log(msg ?? '', JSON.stringify(obj)),
  warn: (obj: unknown, msg?: string) => console.warn(msg ?? '', JSON.stringify(obj)),
  error: (obj: unknown, msg?: string) => console.error(msg ?? '', JSON.stringify(obj)),
};
const pipeline = await startIngestPipeline({ store: createIngestStore(handle.db), log, config: { ...config, consumers, fold: config.fold && !values['no-fold'] }, leases: (stream, onLost) => openPartitionLeases(process.env.DATABASE_URL!, stream, onLost) });
console.log(`INGEST_WORKER_READY ${consumers} consumer(s) on stream ${config.stream} (${config.natsUrl})${config.fold && !values['no-fold'] ? ', fold worker on' : ''}`);

// Its counters on demand (tests: what it wrote of each partition while it lives).
process.on('SIGUSR2', () => { console.log(`INGEST_WORKER_STATS ${JSON.stringify({ ...pipeline.stats(), partitions: pipeline.owned() })}`); });
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // What this process wrote, by partition (tests read it; the bench reads its own counters).
    pipeline.close().then(async () => { console.log(`INGEST_WORKER_STATS ${JSON.stringify(pipeline.stats())}`); await profiling?.(); return handle.close(); })
      .then(() => process.exit(0), () => process.exit(1));
  });
}
