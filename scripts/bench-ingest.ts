/**
 * `npm run bench:ingest -- [--players 20000] [--heartbeat 1] [--duration 20] [--consumers 1] [--concurrency 8] [--rate <events/s>]`
 *
 * Player events end to end (issues 31, 42): simulated players (scripts/player-sim.ts, the simulator's
 * generator) send batches of up to 500 events over HTTP to a server in a process of its own
 * (scripts/bench-ingest-server.ts: the app as a deployment runs it, so this process's players and
 * client never share its event loop), for --duration seconds; then the open sessions end and the
 * bench waits until everything is written and folded. It prints events/s accepted (202), events/s
 * end to end (accepted, written and folded into the rollups), accept latency p50/p99, the rollup lag
 * (a probe session every second: from its 202 to its row in daily_playback_rollups), checks that the
 * database holds exactly what was sent, the load average at start and end, and the server's side:
 * its event-loop delay (perf_hooks monitorEventLoopDelay) and where a request's time went.
 *
 * Closed loop by default: at most --concurrency batches in flight, the next sent when one is answered.
 * `--rate R` is open loop at R events/s offered: a batch of up to 500 events is due every 500 / R s
 * whatever is still in flight (--players defaults to R × heartbeat, each player sending about one event
 * per heartbeat), and a latency counts from the batch's scheduled send time, so a late send (a client
 * or server that fell behind) is not hidden (coordinated omission).
 *
 * Embedded: PGlite in memory and the memory queue; --consumers consumer loops and the fold in the
 * server process, as `npm start` runs without NATS. With DATABASE_URL (a fresh database:
 * `node scripts/with-fresh-postgres.mjs npm run bench:ingest`) PostgreSQL; with NATS_URL JetStream (a
 * stream of its own): the server only produces, and --consumers ingest worker processes
 * (scripts/ingest-worker.ts, as `npm run ingest:worker`) write, the first of them also folding. The
 * rate limit per site is lifted for the bench (INGEST_BATCHES_PER_MINUTE would cap it at 10,000 events/s).
 * Event-loop delays are what exceeds the 10 ms sampling interval of monitorEventLoopDelay.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpus, loadavg, setPriority } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { INGEST_KEY_HEADER, INGEST_MAX_EVENTS, INGEST_PATH, type IngestRoster, type PlayerEvent } from '../common/ingest-contract';
import { openDb, type DbHandle } from '../server/db/client';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { demoIngestionKey, queryRows } from '../server/db/seed-world';
import type { BenchServerRequest, BenchServerStats, Spread } from './bench-ingest-server';
import { postJson } from './bench-http';
import { createPlayers } from './player-sim';

const { values } = parseArgs({
  options: {
    players: { type: 'string' },
    heartbeat: { type: 'string', default: '1' },
    duration: { type: 'string', default: '20' },
    consumers: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '8' },
    rate: { type: 'string' },
  },
});
const rate = values.rate === undefined ? undefined : Number(values.rate);
if (rate !== undefined && !(rate > 0)) {
  console.error('--rate must be a number of events per second above 0.');
  process.exit(2);
}
const heartbeatS = Number(values.heartbeat);
const playersWanted = Number(values.players ?? (rate !== undefined ? Math.round(rate * heartbeatS) : 20_000));
const durationS = Number(values.duration);
const consumerCount = Number(values.consumers);
const concurrency = Number(values.concurrency);
const databaseUrl = process.env.DATABASE_URL || undefined;
const natsUrl = process.env.NATS_URL || undefined;
if (natsUrl && !databaseUrl) {
  console.error('With NATS_URL the consumers are other processes: set DATABASE_URL (node scripts/with-fresh-postgres.mjs npm run bench:ingest).');
  process.exit(2);
}
const loadAtStart = loadavg();
const stream = `INGEST_BENCH_${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;

// The server: its own process (`node --import tsx`, one process: no tsx CLI parent in between).
// Diagnosis only (BENCH_SERVER_PROF=<dir>): the server writes a V8 CPU profile there when it stops.
const server: ChildProcess = fork(join('scripts', 'bench-ingest-server.ts'), [], {
  execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`] : [])],
  env: { ...process.env, INGEST_STREAM: stream, BENCH_CONSUMERS: String(consumerCount) },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
// Diagnosis only (BENCH_SERVER_NICE=-10, root): the server ahead of the machine's other processes, as
// if it had a core of its own; every figure in the README is measured without it.
if (process.env.BENCH_SERVER_NICE) setPriority(server.pid!, Number(process.env.BENCH_SERVER_NICE));
let nextId = 0;
type Answer = { type: string; id?: number; error?: string; rows?: unknown[]; stats?: BenchServerStats };
const waiting = new Map<number, (message: Answer) => void>();
const ready = new Promise<{ address: string; siteId: string; roster: IngestRoster }>((resolve, reject) => {
  server.on('message', (message: Answer & { address?: string; siteId?: string; roster?: IngestRoster }) => {
    if (message.type === 'ready') resolve({ address: message.address!, siteId: message.siteId!, roster: message.roster! });
    else if (message.id !== undefined) waiting.get(message.id)?.(message);
  });
  server.once('exit', (code) => reject(new Error(`the bench server exited (${code})`)));
});
const ask = (request: BenchServerRequest & { id: number }) => new Promise<Answer>((resolve) => {
  waiting.set(request.id, (message) => { waiting.delete(request.id); resolve(message); });
  server.send(request);
});
const { address, siteId, roster } = await ready;
const url = new URL(`${address}${INGEST_PATH}`);
const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift), 'content-type': 'application/json' };

// The bench's reads: its own connection on PostgreSQL; the server's (its one owner) on embedded PGlite.
const handle: DbHandle | null = databaseUrl ? await openDb({ databaseUrl, migrate: false }) : null;
async function query<T>(text: string): Promise<T[]> {
  if (handle) return queryRows<T>(handle.db, sql.raw(text));
  const answer = await ask({ type: 'query', id: nextId++, text });
  return (answer.rows ?? []) as T[];
}

const workers: ChildProcess[] = [];
if (natsUrl) {
  // The consumers and the fold in ingest worker processes (the first one folds), never in the HTTP server.
  await Promise.all(Array.from({ length: consumerCount }, (_, i) => new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('scripts', 'ingest-worker.ts'), ...(i === 0 ? [] : ['--no-fold'])], {
      env: { ...process.env, INGEST_STREAM: stream }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    workers.push(child);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('INGEST_WORKER_READY')) resolve();
      // Its counters when it stops (SIGTERM below): events written, and events it was handed again and
      // found written already (a redelivery: an acknowledgement lost or late, a partition handed over).
      const stats = /INGEST_WORKER_STATS (\{.*\})/.exec(out);
      if (stats) {
        const { written, duplicates, deadLettered } = JSON.parse(stats[1]!) as { written: number; duplicates: number; deadLettered: number };
        console.log(`ingest worker ${i + 1}: ${written} events written, ${duplicates} handed again and found written, ${deadLettered} dead-lettered`);
        out = '';
      } else if (out.length > 100_000) out = out.slice(-10_000);
    });
    child.once('exit', (code) => reject(new Error(`ingest worker exited (${code})`)));
  })));
}

const latencies: number[] = [];
/** Open loop: how late each scheduled batch left this process (the client's own delay, part of its latency). */
const lateness: number[] = [];
/** Open loop: [due time since start (ms), latency (ms)] of each scheduled batch's first answer. */
const timeline: [number, number][] = [];
let benchT0 = 0;
let accepted = 0;
let failed = 0;
const sent = { starts: 0, heartbeats: 0, ends: 0 };
const pending: PlayerEvent[] = [];
let inFlight = 0;
let offered = 0;
/** Open loop: the latencies of the scheduled batches only (not of the sessions' ends sent after the schedule). */
let measuring = true;

/** Sends one batch until it is answered 202; its latency counts from `scheduledAt` (open loop) or its send. */
async function send(events: PlayerEvent[], scheduledAt?: number): Promise<void> {
  inFlight += 1;
  // Encoded once: a batch answered 503 is sent again as is, and its length needs no scan of the text.
  const body = Buffer.from(JSON.stringify({ events }));
  try {
    let from = scheduledAt ?? performance.now();
    if (scheduledAt !== undefined && measuring) lateness.push(performance.now() - scheduledAt);
    for (;;) {
      const res = await postJson(url, headers, body);
      if (measuring) latencies.push(performance.now() - from);
      if (measuring && scheduledAt !== undefined && from === scheduledAt) timeline.push([scheduledAt - benchT0, performance.now() - from]);
      if (res.status === 202) break;
      if (res.status !== 503) throw new Error(`ingestion answered ${res.status}`);
      failed += 1;
      await new Promise((r) => setTimeout(r, 200));
      from = performance.now();
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

/** Closed loop: sends what is pending, `concurrency` batches at a time. */
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
    const rows = await query<{ dim_key: string }>(`
      SELECT dim_key FROM daily_playback_rollups WHERE site_id = '${siteId}' AND dimension = 'cdn' AND dim_key LIKE 'probe-%'`);
    const now = performance.now();
    for (const { dim_key } of rows) {
      const p = probes.get(dim_key);
      if (p && p.seenAt === undefined) p.seenAt = now;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
})();

const benchStart = new Date().toISOString();
/**
 * Events written since the bench began, from the raw rows (consumers keep no row per event since
 * issue 42): sessions started, heartbeats stored, sessions ended (every simulated session ends once).
 */
const writtenEvents = async () => {
  const [row] = await query<{ n: number }>(`
    SELECT (SELECT count(*) + count(ended_at) FROM playback_sessions WHERE site_id = '${siteId}' AND started_at >= '${benchStart}'::timestamptz)::int
      + (SELECT count(*) FROM player_heartbeats WHERE site_id = '${siteId}' AND at >= '${benchStart}'::timestamptz)::int AS n`);
  return row!.n;
};
const players = createPlayers(roster, playersWanted, heartbeatS);
// Warm-up, not measured: the first requests load the HTTP client and open its connection (seconds on
// a loaded machine, and every batch due meanwhile waited behind it), the server's route and the
// queue's first publish.
let probeNo = 0;
for (let i = 0; i < 5; i += 1) await probe(probeNo++);
latencies.length = 0;
// This process's own event-loop delay: a late send here shows in the latencies (open loop), not hidden.
const clientDelay = monitorEventLoopDelay({ resolution: 10 });
clientDelay.enable();
server.send({ type: 'load-start' } satisfies BenchServerRequest);
// This process's CPU while it loads (the simulated players and the HTTP client): on this machine it
// competes with the server, NATS, the consumers and PostgreSQL for the same cores.
const clientCpuAtStart = process.cpuUsage();
const start = performance.now();
benchT0 = start;
let lastProbe = start;
const openLoop: Promise<void>[] = [];
if (rate !== undefined) {
  // Open loop: batch k is due at start + k × interval; sent then, whatever is in flight.
  const intervalMs = (1000 * INGEST_MAX_EVENTS) / rate;
  for (let k = 0; ; k += 1) {
    const due = start + k * intervalMs;
    if (due - start >= durationS * 1000) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (performance.now() - lastProbe >= 1000) {
      lastProbe = performance.now();
      openLoop.push(probe(probeNo++));
    }
    pending.push(...players.step(Date.now()));
    const batch = pending.splice(0, INGEST_MAX_EVENTS);
    offered += batch.length;
    if (batch.length > 0) openLoop.push(send(batch, due));
  }
  // What the players produced beyond the schedule, and the sessions' ends, after the measured load:
  // made once the scheduled batches are answered (making every player's end at once blocked this
  // process for a moment, and the answers to the last scheduled batches waited behind it: their
  // latency was the client's own delay).
  await Promise.all(openLoop);
  measuring = false;
  pending.push(...players.endAll(Date.now()));
  await pump();
} else {
  let pumping: Promise<void> = Promise.resolve();
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
}
while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
const acceptEnd = performance.now();
const clientCpu = process.cpuUsage(clientCpuAtStart);
clientDelay.disable();
const serverStats = (await ask({ type: 'stats', id: nextId++ })).stats!;
const atAcceptEnd = await writtenEvents();
const drained = await ask({ type: 'drain', id: nextId++ });
if (drained.error) throw new Error(drained.error);
while ([...probes.values()].some((p) => p.seenAt === undefined)) await new Promise((r) => setTimeout(r, 100));
const drainedAt = performance.now();
watching = false;
await watcher;
const loadAtEnd = loadavg();

const sessionsSent = sent.starts;
const [counts] = await query<{ events: number; sessions: number; heartbeats: number; rollup_sessions: number; raw_sessions: number }>(`
  SELECT
    ${await writtenEvents()}::int AS events,
    (SELECT count(*)::int FROM playback_sessions WHERE site_id = '${siteId}' AND started_at >= '${benchStart}'::timestamptz) AS sessions,
    (SELECT count(*)::int FROM player_heartbeats WHERE site_id = '${siteId}' AND at >= '${benchStart}'::timestamptz) AS heartbeats,
    (SELECT coalesce(sum(sessions), 0)::int FROM daily_playback_rollups WHERE site_id = '${siteId}' AND dimension = 'all') AS rollup_sessions,
    (SELECT count(*)::int FROM playback_sessions WHERE site_id = '${siteId}') AS raw_sessions`);

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const lags = [...probes.values()].map((p) => (p.seenAt! - p.acceptedAt) / 1000).sort((a, b) => a - b);
const loadS = (acceptEnd - start) / 1000;
const totalS = (drainedAt - start) / 1000;
const ok = counts!.events === accepted && counts!.sessions === sessionsSent && counts!.heartbeats === sent.heartbeats && counts!.rollup_sessions === counts!.raw_sessions;
const mode = `${databaseUrl ? 'PostgreSQL' : 'PGlite'} + ${natsUrl ? 'JetStream' : 'memory queue'}`;
const loads = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
const ms = (s: Spread) => `${s.p50.toFixed(1)} / ${s.p99.toFixed(1)} / ${s.max.toFixed(1)}`;
const load = rate !== undefined ? `open loop at ${rate} events/s offered (${Math.round(offered / durationS)} events/s sent on schedule)` : `closed loop, ${concurrency} requests in flight`;
console.log(`\n${mode}, ${consumerCount} consumer ${natsUrl ? 'worker process(es), the first also folding' : 'loop(s) and the fold in the server process'}; the server in its own process; ${playersWanted} players (heartbeat ${heartbeatS} s), ${durationS} s of load, ${load}`);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}; load average at start: ${loads(loadAtStart)}; at end: ${loads(loadAtEnd)}${process.env.BENCH_SERVER_NICE ? `; the server at nice ${process.env.BENCH_SERVER_NICE} (diagnosis)` : ''}`);
console.log(`events accepted: ${accepted} in ${loadS.toFixed(1)} s = ${Math.round(accepted / loadS)} events/s accepted (${failed} answers 503, resent)`);
console.log(`written while loading: ${Math.round(atAcceptEnd / loadS)} events/s; end to end (written and folded): ${Math.round(accepted / totalS)} events/s (${totalS.toFixed(1)} s)`);
console.log(`accept latency p50 ${pct(0.5).toFixed(1)} ms, p99 ${pct(0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms (${sorted.length} requests); rollup lag p50 ${(lags[Math.floor(lags.length / 2)] ?? 0).toFixed(1)} s, max ${(lags.at(-1) ?? 0).toFixed(1)} s (${lags.length} probes)`);
console.log(`server (p50 / p99 / max ms): event-loop delay ${ms(serverStats.eventLoopDelay)}; per request: body read+parse ${ms(serverStats.parse)}, schema ${ms(serverStats.schema)}, handler (checks + publish) ${ms(serverStats.handler)}, publish alone ${ms(serverStats.publish)}, answer ${ms(serverStats.reply)}, total ${ms(serverStats.total)}; CPU ${serverStats.cpuSeconds.toFixed(1)} s in ${loadS.toFixed(1)} s (${((serverStats.cpuSeconds * 1e6) / Math.max(1, accepted)).toFixed(1)} µs per event accepted)`);
if (rate !== undefined) {
  // The first seconds carry the warm-up (new connections, code not yet optimised, the players' first
  // starts all at once): the steady state is the rest.
  const steady = timeline.filter(([due]) => due >= 3000).map(([, l]) => l).sort((a, b) => a - b);
  const worst = [...timeline].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([due, l]) => `${l.toFixed(0)} ms at ${(due / 1000).toFixed(1)} s`);
  console.log(`open loop: batches due after the first 3 s: p50 ${(steady[Math.floor(steady.length / 2)] ?? 0).toFixed(1)} ms, p99 ${(steady[Math.min(steady.length - 1, Math.floor(0.99 * steady.length))] ?? 0).toFixed(1)} ms (${steady.length}); the slowest: ${worst.join(', ')}`);
}
const late = [...lateness].sort((a, b) => a - b);
const lateAt = (q: number) => (late[Math.min(late.length - 1, Math.floor(q * late.length))] ?? 0).toFixed(1);
const clientLag = (ns: number) => Math.max(0, ns / 1e6 - 10).toFixed(1);
console.log(`bench client: CPU ${((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)} s in ${loadS.toFixed(1)} s (${((clientCpu.user + clientCpu.system) / Math.max(1, accepted)).toFixed(1)} µs per event sent); event-loop delay p50 / p99 / max ${clientLag(clientDelay.percentile(50))} / ${clientLag(clientDelay.percentile(99))} / ${clientLag(clientDelay.max)} ms${rate !== undefined ? `; a scheduled batch left late by p50 ${lateAt(0.5)}, p99 ${lateAt(0.99)}, max ${(late.at(-1) ?? 0).toFixed(1)} ms` : ''}`);
console.log(`database: ${counts!.events} events written (sent ${accepted}), ${counts!.sessions} sessions (sent ${sessionsSent}), ${counts!.heartbeats} heartbeats (sent ${sent.heartbeats}), rollup sessions ${counts!.rollup_sessions} = raw ${counts!.raw_sessions}: ${ok ? 'EQUAL' : 'MISMATCH'}`);
console.log(`| ${mode} | ${consumerCount} | ${rate !== undefined ? `${rate} offered` : `${playersWanted} players, closed`} | ${Math.round(accepted / loadS)} | ${Math.round(accepted / totalS)} | ${pct(0.5).toFixed(0)} / ${pct(0.99).toFixed(0)} ms | ${(lags[Math.floor(lags.length / 2)] ?? 0).toFixed(1)} / ${(lags.at(-1) ?? 0).toFixed(1)} s | ${ok ? 'equal' : 'MISMATCH'} | ${loadAtStart[0]!.toFixed(1)} → ${loadAtEnd[0]!.toFixed(1)} |`);

for (const w of workers) w.kill('SIGTERM');
await Promise.all(workers.map((w) => new Promise<void>((resolve) => { if (w.exitCode !== null || w.signalCode !== null) resolve(); else w.once('exit', () => resolve()); })));
if (natsUrl) {
  const { connect } = await import('@nats-io/transport-node');
  const { jetstreamManager } = await import('@nats-io/jetstream');
  const nc = await connect({ servers: natsUrl });
  await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
  await nc.close();
}
await handle?.close();
server.send({ type: 'stop' } satisfies BenchServerRequest);
await new Promise<void>((resolve) => { if (server.exitCode !== null) resolve(); else server.once('exit', () => resolve()); });
process.exit(ok ? 0 : 1);
