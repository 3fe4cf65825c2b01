/**
 * `npm run simulate -- --site viewlift-demo --viewers 200 [--url http://127.0.0.1:3000] [--key ...]
 *   [--heartbeat 10] [--duration 0]`
 *
 * Plays viewers against a running server so the real-time pages have live data: each viewer starts
 * a session on a random published item, sends a heartbeat every --heartbeat seconds with
 * cumulative counters (and the odd rebuffer), ends after a few minutes (some with an error), pauses
 * and starts again. Every start carries the session dimensions of issue 41 (scripts/player-sim.ts).
 * Events go to POST /v1/events in batches once a second. The ingestion key defaults to the demo
 * key of the site (ik_demo_<site>, non-production only); --duration 0 runs until Ctrl-C.
 * Who and what to play comes from GET /v1/dev/roster (not mounted in production).
 */
import { parseArgs } from 'node:util';
import {
  INGEST_KEY_HEADER, INGEST_MAX_EVENTS, INGEST_PATH, INGEST_ROSTER_PATH,
  type IngestRoster, type PlayerEvent,
} from '../common/ingest-contract';
import { createPlayers } from './player-sim';

const { values } = parseArgs({
  options: {
    site: { type: 'string', default: 'viewlift-demo' },
    viewers: { type: 'string', default: '200' },
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    key: { type: 'string' },
    heartbeat: { type: 'string', default: '10' },
    duration: { type: 'string', default: '0' },
  },
});
const viewersWanted = Number(values.viewers);
const heartbeatS = Number(values.heartbeat);
const durationS = Number(values.duration);
if (!(viewersWanted > 0) || !(heartbeatS > 0) || !(durationS >= 0)) {
  console.error('--viewers and --heartbeat must be positive numbers, --duration zero or more seconds.');
  process.exit(2);
}
const base = values.url.replace(/\/$/, '');
const key = values.key ?? process.env.INGEST_KEY ?? `ik_demo_${values.site}`;
const headers = { [INGEST_KEY_HEADER]: key, 'content-type': 'application/json' };

const rosterRes = await fetch(`${base}${INGEST_ROSTER_PATH}?limit=${Math.max(viewersWanted, 200)}`, { headers });
if (!rosterRes.ok) {
  console.error(`Could not read the roster from ${base}${INGEST_ROSTER_PATH}: ${rosterRes.status} ${await rosterRes.text()}`);
  process.exit(1);
}
const roster = (await rosterRes.json()) as IngestRoster;
if (roster.subscribers.length === 0 || roster.content.length === 0) {
  console.error(`Site ${values.site} has no entitled viewers or no published content to play.`);
  process.exit(1);
}

const queue: PlayerEvent[] = [];
const now = () => Date.now();
const players = createPlayers(roster, viewersWanted, heartbeatS, Date.now(), values.site);

const totals = { sent: 0, accepted: 0, refused: 0, failedRequests: 0 };

async function flush(): Promise<void> {
  while (queue.length > 0) {
    const batch = queue.splice(0, INGEST_MAX_EVENTS);
    try {
      const res = await fetch(`${base}${INGEST_PATH}`, { method: 'POST', headers, body: JSON.stringify({ events: batch }) });
      const body = (await res.json()) as { accepted?: number; message?: string; errors?: { message: string }[] };
      totals.sent += batch.length;
      if (res.ok) {
        // 202: queued; the server writes them within moments (a resent event id counts once).
        totals.accepted += body.accepted ?? 0;
      } else {
        totals.refused += batch.length;
        console.error(`Batch refused (${res.status}): ${body.message ?? ''} ${body.errors?.slice(0, 3).map((e) => e.message).join(' | ') ?? ''}`);
      }
    } catch (error) {
      totals.failedRequests++;
      console.error(`Could not send a batch: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

console.log(`Simulating ${viewersWanted} viewers of ${values.site} against ${base} (heartbeat ${heartbeatS} s${durationS ? `, ${durationS} s` : ', Ctrl-C to stop'}).`);
const started = now();
let stopping = false;
process.on('SIGINT', () => { stopping = true; });
let lastReport = started;
while (!stopping && (durationS === 0 || now() - started < durationS * 1000)) {
  const t = now();
  queue.push(...players.step(t));
  await flush();
  if (t - lastReport >= 10_000) {
    lastReport = t;
    const playing = players.playing();
    console.log(`${Math.round((t - started) / 1000)} s: ${playing} playing, ${totals.accepted} events accepted, ${totals.refused} refused, ${totals.failedRequests} failed requests`);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
// End the open sessions so they do not stay "playing" forever.
queue.push(...players.endAll(now()));
await flush();
console.log(`Done: ${totals.sent} events sent, ${totals.accepted} accepted, ${totals.refused} refused.`);
