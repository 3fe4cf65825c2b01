/**
 * `npm run bench:ingest -- [--players 20000] [--heartbeat 1] [--duration 20] [--consumers 1] [--concurrency 8]`
 *
 * Player events end to end (issue 31): simulated players (scripts/player-sim.ts, the simulator's
 * generator) send batches of up to 500 events over HTTP to a server started in this process, for
 * --duration seconds; then the open sessions end and the bench waits until everything is written and
 * folded. It prints events/s accepted (202), events/s end to end (accepted, written and folded into
 * the rollups), accept latency p50/p99, the rollup lag (a probe session every second: from its 202
 * to its row in daily_playback_rollups), and checks that the database holds exactly what was sent.
 *
 * Embedded: PGlite in memory and the memory queue; --consumers consumer loops in the server process.
 * With DATABASE_URL (a fresh database: `node scripts/with-fresh-postgres.mjs npm run bench:ingest`)
 * PostgreSQL; with NATS_URL JetStream (a stream of its own), and --consumers worker processes
 * (`npm run ingest:worker`) while the server only produces and folds. The rate limit per site is
 * lifted for the bench (INGEST_BATCHES_PER_MINUTE would cap it at 10,000 events/s).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg, cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { INGEST_KEY_HEADER, INGEST_MAX_EVENTS, INGEST_PATH, type PlayerEvent } from '../common/ingest-contract';
import { openDb } from '../server/db/client';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { siteRoster } from '../server/db/ingest-repository';
import { demoIngestionKey, queryRows, seedSmallWorld } from '../server/db/seed-world';
import { createTestApp } from '../server/test/kit';
import { createPlayers } from './player-sim';

const { values } = parseArgs({
  options: {
    players: { type: 'string', default: '20000' },
    heartbeat: { type: 'string', default: '1' },
    duration: { type: 'string', default: '20' },
    consumers: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '8' },
  },
});
const playersWanted = Number(values.players);
const heartbeatS = Number(values.heartbeat);
const durationS = Number(values.duration);
const consumerCount = Number(values.consumers);
const concurrency = Number(values.concurrency);
const databaseUrl = process.env.DATABASE_URL || undefined;
const natsUrl = process.env.NATS_URL || undefined;
if (natsUrl && !databaseUrl) {
  console.error('With NATS_URL the consumers are other processes: set DATABASE_URL (node scripts/with-fresh-postgres.mjs npm run bench:ingest).');
  process.exit(2);
}

const stream = `INGEST_BENCH_${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
const handle = await openDb(databaseUrl ? { databaseUrl } : { dataDir: 'memory://' });
const t = await createTestApp({
  demo: true,
  db: handle,
  config: { ingestBatchesPerMinute: 1_000_000_000 },
  ingest: natsUrl
    ? { natsUrl, stream, consumers: 0, fold: true }
    : { consumers: consumerCount, fold: true },
});
await seedSmallWorld(handle.db);
const site = await t.siteByName(DEMO_SITES.viewlift);
const roster = await siteRoster(handle.db, site.id, 500);
const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
const url = `${address}${INGEST_PATH}`;
const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift), 'content-type': 'application/json' };

const workers: ChildProcess[] = [];
if (natsUrl) {
  await Promise.all(Array.from({ length: consumerCount }, () => new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'ingest-worker.ts'), '--no-fold'], {
      env: { ...process.env, INGEST_STREAM: stream }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    workers.push(child);
    child.stdout!.on('data', (chunk: Buffer) => { if (chunk.toString().includes('INGEST_WORKER_READY')) resolve(); });
    child.once('exit', (code) => reject(new Error(`ingest worker exited (${code})`)));
  })));
}

const latencies: number[] = [];
let accepted = 0;
let failed = 0;
const sent = { starts: 0, heartbeats: 0, ends: 0 };
const pending: PlayerEvent[] = [];
let inFlight = 0;

async function send(events: PlayerEvent[]): Promise<void> {
  inFlight += 1;
  const body = JSON.stringify({ events });
  try {
    for (;;) {
      const started = performance.now();
      const res = await fetch(url, { method: 'POST', headers, body });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      if (res.status === 202) break;
      if (res.status !== 503) throw new Error(`ingestion answered ${res.status}`);
      failed += 1;
      await new Promise((r) => setTimeout(r, 200));
    }
    accepted += events.length;
    for (const e of events) {
      if (e.type === 'session.start') sent.starts += 1;
      else if (e.type === 'heartbeat') sent.heartbeats += 1;
      else sent.ends += 1;
    }
  } finally {
    inFlight -= 1;
  }
}

/** Sends what is pending, `concurrency` batches at a time. */
async function pump(): Promise<void> {
  const running: Promise<void>[] = [];
  while (pending.length > 0 || running.length > 0) {
    while (pending.length > 0 && running.length < concurrency) {
      const p: Promise<void> = send(pending.splice(0, INGEST_MAX_EVENTS)).finally(() => { running.splice(running.indexOf(p), 1); });
      running.push(p);
    }
    if (running.length > 0) await Promise.race(running);
  }
}

// Probes: one session start per second with its own CDN name; its rollup row shows when it is folded.
const probes = new Map<string, { acceptedAt: number; seenAt?: number }>();
async function probe(n: number): Promise<void> {
  const sub = roster.subscribers[0]!;
  const item = roster.content[0]!;
  const key = `probe-${n}`;
  const event: PlayerEvent = {
    type: 'session.start', eventId: randomUUID(), sessionId: randomUUID(), at: new Date().toISOString(), subscriberId: sub.id, contentId: item.id,
    deviceType: 'web', country: sub.country, isp: 'Probe', cdn: key, startupMs: 1000,
  };
  await send([event]);
  probes.set(key, { acceptedAt: performance.now() });
}
let watching = true;
const watcher = (async () => {
  while (watching) {
    const rows = await queryRows<{ dim_key: string }>(handle.db, sql`
      SELECT dim_key FROM daily_playback_rollups WHERE site_id = ${site.id} AND dimension = 'cdn' AND dim_key LIKE 'probe-%'`);
    const now = performance.now();
    for (const { dim_key } of rows) {
      const p = probes.get(dim_key);
      if (p && p.seenAt === undefined) p.seenAt = now;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
})();

const benchStart = new Date();
/**
 * Events written since the bench began, from the raw rows (consumers keep no row per event since
 * issue 42): sessions started, heartbeats stored, sessions ended (every simulated session ends once).
 */
const writtenEvents = async () => {
  const [row] = await queryRows<{ n: number }>(handle.db, sql`
    SELECT (SELECT count(*) + count(ended_at) FROM playback_sessions WHERE site_id = ${site.id} AND started_at >= ${benchStart.toISOString()}::timestamptz)::int
      + (SELECT count(*) FROM player_heartbeats WHERE site_id = ${site.id} AND at >= ${benchStart.toISOString()}::timestamptz)::int AS n`);
  return row!.n;
};
const players = createPlayers(roster, playersWanted, heartbeatS);
const start = performance.now();
let pumping: Promise<void> = Promise.resolve();
let probeNo = 0;
let lastProbe = start;
while (performance.now() - start < durationS * 1000) {
  pending.push(...players.step(Date.now()));
  if (performance.now() - lastProbe >= 1000) {
    lastProbe = performance.now();
    void probe(probeNo++);
  }
  // One pump at a time; the generator keeps producing while batches are in flight.
  pumping = pumping.then(pump);
  await new Promise((r) => setTimeout(r, 100));
}
pending.push(...players.endAll(Date.now()));
pumping = pumping.then(pump);
await pumping;
while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
const acceptEnd = performance.now();
const atAcceptEnd = await writtenEvents();
await t.app.ingest.drain(900_000);
while ([...probes.values()].some((p) => p.seenAt === undefined)) await new Promise((r) => setTimeout(r, 100));
const drainedAt = performance.now();
watching = false;
await watcher;

const sessionsSent = sent.starts;
const [counts] = await queryRows<{ events: number; sessions: number; heartbeats: number; rollup_sessions: number; raw_sessions: number }>(handle.db, sql`
  SELECT
    ${await writtenEvents()}::int AS events,
    (SELECT count(*)::int FROM playback_sessions WHERE site_id = ${site.id} AND started_at >= ${benchStart.toISOString()}::timestamptz) AS sessions,
    (SELECT count(*)::int FROM player_heartbeats WHERE site_id = ${site.id} AND at >= ${benchStart.toISOString()}::timestamptz) AS heartbeats,
    (SELECT coalesce(sum(sessions), 0)::int FROM daily_playback_rollups WHERE site_id = ${site.id} AND dimension = 'all') AS rollup_sessions,
    (SELECT count(*)::int FROM playback_sessions WHERE site_id = ${site.id}) AS raw_sessions`);

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const lags = [...probes.values()].map((p) => (p.seenAt! - p.acceptedAt) / 1000).sort((a, b) => a - b);
const loadS = (acceptEnd - start) / 1000;
const totalS = (drainedAt - start) / 1000;
const ok = counts!.events === accepted && counts!.sessions === sessionsSent && counts!.heartbeats === sent.heartbeats && counts!.rollup_sessions === counts!.raw_sessions;
const mode = `${databaseUrl ? 'PostgreSQL' : 'PGlite'} + ${natsUrl ? 'JetStream' : 'memory queue'}`;
console.log(`\n${mode}, ${consumerCount} consumer ${natsUrl ? 'process(es)' : 'loop(s) in the server process'}, ${playersWanted} players (heartbeat ${heartbeatS} s), ${durationS} s of load, ${concurrency} requests in flight`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}; load average before/after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`events accepted: ${accepted} in ${loadS.toFixed(1)} s = ${Math.round(accepted / loadS)} events/s accepted (${failed} answers 503, resent)`);
console.log(`written while loading: ${Math.round(atAcceptEnd / loadS)} events/s; end to end (written and folded): ${Math.round(accepted / totalS)} events/s (${totalS.toFixed(1)} s)`);
console.log(`accept latency p50 ${pct(0.5).toFixed(1)} ms, p99 ${pct(0.99).toFixed(1)} ms; rollup lag p50 ${(lags[Math.floor(lags.length / 2)] ?? 0).toFixed(1)} s, max ${(lags.at(-1) ?? 0).toFixed(1)} s (${lags.length} probes)`);
console.log(`database: ${counts!.events} events written (sent ${accepted}), ${counts!.sessions} sessions (sent ${sessionsSent}), ${counts!.heartbeats} heartbeats (sent ${sent.heartbeats}), rollup sessions ${counts!.rollup_sessions} = raw ${counts!.raw_sessions}: ${ok ? 'EQUAL' : 'MISMATCH'}`);
console.log(`| ${mode} | ${consumerCount} | ${playersWanted} | ${Math.round(accepted / loadS)} | ${Math.round(accepted / totalS)} | ${pct(0.5).toFixed(0)} / ${pct(0.99).toFixed(0)} ms | ${(lags[Math.floor(lags.length / 2)] ?? 0).toFixed(1)} / ${(lags.at(-1) ?? 0).toFixed(1)} s | ${ok ? 'equal' : 'MISMATCH'} |`);

for (const w of workers) w.kill('SIGTERM');
if (natsUrl) {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const nc = await connect({ servers: natsUrl });
  await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
  await nc.close();
}
await t.close();
await handle.close();
process.exit(ok ? 0 : 1);
