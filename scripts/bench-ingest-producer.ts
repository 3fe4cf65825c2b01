/**
 * `node --import tsx scripts/bench-ingest-producer.ts [--batches 600] [--concurrency 4] [--client fetch|http]`
 *
 * The producer side of issue 42 alone, in CPU: the bench's server (scripts/bench-ingest-server.ts,
 * PGlite in memory, JetStream at NATS_URL with no consumer) is sent batches of 500 events the
 * simulated players (scripts/player-sim.ts) generated before the clock starts, a few in flight at a
 * time; it prints the server's CPU per event accepted, and this process's CPU per event sent with the
 * chosen HTTP client. Nothing here is written to a database: the stream is deleted at the end. Meant to
 * compare two versions of the request path without the consumers' and PostgreSQL's noise (CPU time,
 * not wall time, so a loaded machine changes it less).
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { INGEST_KEY_HEADER, INGEST_MAX_EVENTS, INGEST_PATH, type IngestRoster, type PlayerEvent } from '../common/ingest-contract';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { demoIngestionKey } from '../server/db/seed-world';
import type { BenchServerRequest, BenchServerStats } from './bench-ingest-server';
import { createPlayers } from './player-sim';
import { postJson } from './bench-http';

const { values } = parseArgs({ options: {
  batches: { type: 'string', default: '600' }, concurrency: { type: 'string', default: '4' }, client: { type: 'string', default: 'http' },
  players: { type: 'string', default: '21000' },
} });
const natsUrl = process.env.NATS_URL;
if (!natsUrl) { console.error('NATS_URL is needed (the server publishes to JetStream).'); process.exit(2); }
const stream = `INGEST_PRODUCER_${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
const env: NodeJS.ProcessEnv = { ...process.env, INGEST_STREAM: stream };
delete env.DATABASE_URL;
const server = fork(join('scripts', 'bench-ingest-server.ts'), [], {
  execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`] : [])],
  env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const waiting = new Map<number, (m: { stats?: BenchServerStats }) => void>();
const { address, roster } = await new Promise<{ address: string; roster: IngestRoster }>((resolve) => {
  server.on('message', (m: { type: string; id?: number; address?: string; roster?: IngestRoster; stats?: BenchServerStats }) => {
    if (m.type === 'ready') resolve({ address: m.address!, roster: m.roster! });
    else if (m.id !== undefined) waiting.get(m.id)?.(m);
  });
});
const ask = (request: BenchServerRequest & { id: number }) => new Promise<{ stats?: BenchServerStats }>((resolve) => { waiting.set(request.id, resolve); server.send(request); });

// The batches, as the bench's players produce them at 21,000 events/s (one step per 500 / rate s).
const players = createPlayers(roster, Number(values.players), 1);
const bodies: string[] = [];
const pending: PlayerEvent[] = [];
const t0 = Date.now();
for (let k = 0; bodies.length < Number(values.batches); k += 1) {
  pending.push(...players.step(t0 + (k * 1000 * INGEST_MAX_EVENTS) / Number(values.players)));
  if (pending.length >= INGEST_MAX_EVENTS) bodies.push(JSON.stringify({ events: pending.splice(0, INGEST_MAX_EVENTS) }));
}
const url = `${address}${INGEST_PATH}`;
const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift), 'content-type': 'application/json' };
// node:http is given the bodies encoded (as bench-ingest.ts sends them), fetch the text.
const encoded = bodies.map((body) => Buffer.from(body));
const post = async (k: number) => {
  const body = bodies[k]!;
  if (values.client === 'fetch') {
    const res = await fetch(url, { method: 'POST', headers, body });
    await res.arrayBuffer();
    return res.status;
  }
  return (await postJson(url, headers, encoded[k]!)).status;
};
let next = 0;
const run = async (until: number) => {
  await Promise.all(Array.from({ length: Number(values.concurrency) }, async () => {
    while (next < until) {
      const status = await post(next++);
      if (status !== 202) throw new Error(`answered ${status}`);
    }
  }));
};
await run(Math.min(100, bodies.length));
const warm = next;
server.send({ type: 'load-start' } satisfies BenchServerRequest);
const load = loadavg()[0]!;
const cpu0 = process.cpuUsage();
const began = performance.now();
await run(bodies.length);
const wall = (performance.now() - began) / 1000;
const client = process.cpuUsage(cpu0);
const { stats } = await ask({ type: 'stats', id: 1 });
const events = (bodies.length - warm) * INGEST_MAX_EVENTS;
console.log(`${events} events in ${wall.toFixed(1)} s (${Math.round(events / wall)} events/s, ${values.concurrency} in flight; load ${load.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)})`);
console.log(`server CPU ${stats!.cpuSeconds.toFixed(2)} s = ${((stats!.cpuSeconds * 1e6) / events).toFixed(2)} µs per event; handler p50 ${stats!.handler.p50.toFixed(2)} ms, publish p50 ${stats!.publish.p50.toFixed(2)} ms, parse p50 ${stats!.parse.p50.toFixed(2)} ms`);
console.log(`client (${values.client}) CPU ${((client.user + client.system) / 1e6).toFixed(2)} s = ${((client.user + client.system) / events).toFixed(2)} µs per event sent`);
const { connect } = await import('@nats-io/transport-node');
const { jetstreamManager } = await import('@nats-io/jetstream');
const nc = await connect({ servers: natsUrl });
await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
await nc.close();
server.send({ type: 'stop' } satisfies BenchServerRequest);
await new Promise((resolve) => server.once('exit', resolve));
