/**
 * The server of `npm run bench:ingest` (scripts/bench-ingest.ts starts it with `node --import tsx`):
 * the app as a deployment runs it, in a process of its own, so the bench's players and HTTP client
 * do not share its event loop. Talks to the bench over the IPC channel:
 *
 * - on start: `{ type: 'ready', address, siteId, roster }` once the demo sites and the small world are seeded;
 * - `{ type: 'load-start' }`: resets the event-loop delay histogram and the request timings;
 * - `{ type: 'stats', id }`: the event-loop delay (perf_hooks monitorEventLoopDelay) and, per
 *   request, where its time went (body read and parsed, schema check, the handler: the route's checks
 *   and the queue's publish up to its acknowledgement, the answer), the publish alone, the CPU used;
 * - `{ type: 'drain', id }`: waits until everything published is written and folded;
 * - `{ type: 'query', id, text }`: a read-only statement on the embedded database (PGlite has one owner);
 * - `{ type: 'stop' }`: closes and exits.
 *
 * Environment: DATABASE_URL (else PGlite in memory), NATS_URL + INGEST_STREAM (JetStream: this process
 * only produces, consumers and the fold run in ingest worker processes), BENCH_CONSUMERS (embedded: the
 * consumer loops of this process, which then also folds, as `npm start` does without NATS).
 */
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { buildApp } from '../server/app';
import { openDb } from '../server/db/client';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { siteRoster } from '../server/db/ingest-repository';
import { queryRows, seedSmallWorld } from '../server/db/seed-world';
import { sites } from '../server/db/schema';
import { eq } from 'drizzle-orm';
import { seedDemo, testConfig } from '../server/test/kit';

export type BenchServerRequest =
  | { type: 'load-start' }
  | { type: 'stats'; id: number }
  | { type: 'drain'; id: number }
  | { type: 'query'; id: number; text: string }
  | { type: 'stop' };

/** Percentiles of one measure, ms. */
export interface Spread { n: number; p50: number; p99: number; max: number }
export interface BenchServerStats {
  eventLoopDelay: Spread;
  /** Per answered POST /v1/events (any status): from the request's first byte handled to the answer sent, split. */
  /** Body read and JSON parsed (onRequest → preValidation). */
  parse: Spread;
  /** The route's JSON schema (preValidation → preHandler). */
  schema: Spread;
  /** The handler: the events' checks, then the publish (preHandler → onSend). */
  handler: Spread;
  /** The queue's publish alone, up to its acknowledgement. */
  publish: Spread;
  /** Serialising and writing the answer (onSend → onResponse). */
  reply: Spread;
  total: Spread;
  cpuSeconds: number;
}

const send = (message: unknown) => process.send!(message);
if (!process.send) {
  console.error('scripts/bench-ingest-server.ts is started by scripts/bench-ingest.ts (it needs the IPC channel).');
  process.exit(2);
}

const databaseUrl = process.env.DATABASE_URL || undefined;
const natsUrl = process.env.NATS_URL || undefined;
const stream = process.env.INGEST_STREAM || 'INGEST';
const handle = await openDb(databaseUrl ? { databaseUrl } : { dataDir: 'memory://' });
const app = await buildApp({
  // No per-request log lines (npm start's default level is warn) and no test-only serialisation check.
  config: testConfig({ ingestBatchesPerMinute: 1_000_000_000 }),
  db: handle,
  ingest: natsUrl
    ? { natsUrl, stream, consumers: 0, fold: false }
    : { natsUrl: undefined, consumers: Math.max(1, Number(process.env.BENCH_CONSUMERS ?? 1)), fold: true },
});

// Where a request's time goes: Fastify's hooks around the body parse, the schema check and the
// handler (the route's checks and the publish), and the pipeline's publish (the route awaits it) wrapped.
interface Timing { start: number; parsed?: number; validated?: number; handled?: number }
const timings = new WeakMap<FastifyRequest, Timing>();
const samples = { parse: [] as number[], schema: [] as number[], handler: [] as number[], publish: [] as number[], reply: [] as number[], total: [] as number[] };
app.addHook('onRequest', async (request) => { timings.set(request, { start: performance.now() }); });
app.addHook('preValidation', async (request) => { const t = timings.get(request); if (t) t.parsed = performance.now(); });
app.addHook('preHandler', async (request) => { const t = timings.get(request); if (t) t.validated = performance.now(); });
app.addHook('onSend', async (request) => { const t = timings.get(request); if (t) t.handled = performance.now(); });
app.addHook('onResponse', async (request) => {
  const t = timings.get(request);
  if (!t || t.parsed === undefined || t.validated === undefined || t.handled === undefined || !request.url.startsWith('/v1/events')) return;
  const end = performance.now();
  samples.parse.push(t.parsed - t.start);
  samples.schema.push(t.validated - t.parsed);
  samples.handler.push(t.handled - t.validated);
  samples.reply.push(end - t.handled);
  samples.total.push(end - t.start);
});
const publish = app.ingest.publish.bind(app.ingest);
app.ingest.publish = async (siteId, events) => {
  const began = performance.now();
  try {
    await publish(siteId, events);
  } finally {
    samples.publish.push(performance.now() - began);
  }
};

await seedDemo(app);
await app.ready();
await seedSmallWorld(handle.db);
const [site] = await handle.db.select().from(sites).where(eq(sites.siteInternalName, DEMO_SITES.viewlift)).limit(1);
const roster = await siteRoster(handle.db, site!.id, 500);
const address = await app.listen({ port: 0, host: '127.0.0.1' });

/** The histogram's samples are the time between two timer turns 10 ms apart: the delay is what exceeds 10 ms. */
const LOOP_RESOLUTION_MS = 10;
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loopDelay.enable();
let cpuAtStart = process.cpuUsage();

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

process.on('message', (message: BenchServerRequest) => {
  void (async () => {
    switch (message.type) {
      case 'load-start':
        loopDelay.reset();
        for (const list of Object.values(samples)) list.length = 0;
        cpuAtStart = process.cpuUsage();
        return;
      case 'stats': {
        const cpu = process.cpuUsage(cpuAtStart);
        const stats: BenchServerStats = {
          eventLoopDelay: {
            n: loopDelay.count,
            p50: Math.max(0, loopDelay.percentile(50) / 1e6 - LOOP_RESOLUTION_MS),
            p99: Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS),
            max: Math.max(0, loopDelay.max / 1e6 - LOOP_RESOLUTION_MS),
          },
          parse: spread(samples.parse), schema: spread(samples.schema), handler: spread(samples.handler), publish: spread(samples.publish), reply: spread(samples.reply), total: spread(samples.total),
          cpuSeconds: (cpu.user + cpu.system) / 1e6,
        };
        send({ type: 'stats', id: message.id, stats });
        return;
      }
      case 'drain':
        try {
          await app.ingest.drain(900_000);
          send({ type: 'drained', id: message.id });
        } catch (error) {
          send({ type: 'drained', id: message.id, error: error instanceof Error ? error.message : String(error) });
        }
        return;
      case 'query':
        send({ type: 'rows', id: message.id, rows: await queryRows(handle.db, sql.raw(message.text)) });
        return;
      case 'stop':
        await app.close();
        await handle.close();
        process.exit(0);
    }
  })();
});
process.on('disconnect', () => process.exit(1));
send({ type: 'ready', address, siteId: site!.id, roster });
