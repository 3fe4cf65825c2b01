/**
 * `npm run simulate -- --site viewlift-demo --viewers 200 [--url http://127.0.0.1:3000] [--key ...]
 *   [--heartbeat 10] [--duration 0]`
 *
 * Plays viewers against a running server so the real-time pages have live data: each viewer starts
 * a session on a random published item, sends a heartbeat every --heartbeat seconds with
 * cumulative counters (and the odd rebuffer), ends after a few minutes, pauses and starts again.
 * Events go to POST /v1/events in batches once a second. The ingestion key defaults to the demo
 * key of the site (ik_demo_<site>, non-production only); --duration 0 runs until Ctrl-C.
 * Who and what to play comes from GET /v1/dev/roster (not mounted in production).
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  INGEST_KEY_HEADER, INGEST_MAX_EVENTS, INGEST_PATH, INGEST_ROSTER_PATH,
  type IngestRoster, type PlayerDeviceType, type PlayerEvent,
} from '../common/ingest-contract';

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

const CDNS = ['Akamai', 'Akamai', 'Amazon CloudFront', 'Fastly'];
const ISPS: Record<string, string[]> = {
  US: ['Comcast Xfinity', 'Charter Spectrum', 'AT&T Fiber', 'Verizon Fios', 'T-Mobile Home Internet'],
  GB: ['BT', 'Sky Broadband', 'Virgin Media', 'TalkTalk'], CA: ['Rogers', 'Bell Canada'], IN: ['Jio', 'Airtel'],
  DE: ['Deutsche Telekom', 'Vodafone DE'], IE: ['Eir'], FR: ['Orange', 'Free'], MX: ['Telmex Infinitum'], BR: ['Claro', 'Vivo'],
};
/** Rebuffer chance per heartbeat; poorer on mobile and congested networks. */
const REBUFFER_CHANCE: Record<string, number> = { 'T-Mobile Home Internet': 0.12, TalkTalk: 0.1, Jio: 0.15, Airtel: 0.12 };
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

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

interface Viewer {
  subscriber: IngestRoster['subscribers'][number];
  session: null | { id: string; startedAt: number; watched: number; rebuffers: number; rebufferMs: number; bitrate: number; endsAfter: number; isp: string };
  nextAt: number;
}

const queue: PlayerEvent[] = [];
const now = () => Date.now();
const viewers: Viewer[] = Array.from({ length: viewersWanted }, (_, i) => ({
  subscriber: roster.subscribers[i % roster.subscribers.length]!,
  session: null,
  // Spread the first starts over one heartbeat interval rather than all at once.
  nextAt: now() + Math.random() * heartbeatS * 1000,
}));

function step(viewer: Viewer, t: number): void {
  if (t < viewer.nextAt) return;
  const at = new Date(t).toISOString();
  if (!viewer.session) {
    const item = pick(roster.content);
    const country = viewer.subscriber.country;
    const isp = pick(ISPS[country] ?? ISPS.US!);
    const deviceType = (pick(viewer.subscriber.deviceTypes.length > 0 ? viewer.subscriber.deviceTypes : ['web']) as PlayerDeviceType);
    viewer.session = {
      id: randomUUID(), startedAt: t, watched: 0, rebuffers: 0, rebufferMs: 0, isp,
      bitrate: deviceType === 'ios' || deviceType === 'android' ? 2500 : 5000,
      endsAfter: Math.min(item.durationSeconds, 60 + Math.floor(Math.random() * 900)),
    };
    queue.push({
      type: 'session.start', eventId: randomUUID(), sessionId: viewer.session.id, at, subscriberId: viewer.subscriber.id, contentId: item.id,
      deviceType, country, isp, cdn: pick(CDNS), startupMs: Math.round(600 + Math.random() * 1500 * (REBUFFER_CHANCE[isp] ? 2 : 1)),
    });
    viewer.nextAt = t + heartbeatS * 1000;
    return;
  }
  const s = viewer.session;
  s.watched += heartbeatS;
  if (Math.random() < (REBUFFER_CHANCE[s.isp] ?? 0.03)) {
    s.rebuffers++;
    s.rebufferMs += Math.round(500 + Math.random() * 3000);
    s.bitrate = Math.max(800, Math.round(s.bitrate * 0.8));
  } else {
    s.bitrate = Math.min(8000, Math.round(s.bitrate * 1.05));
  }
  if (s.watched >= s.endsAfter) {
    queue.push({ type: 'session.end', eventId: randomUUID(), sessionId: s.id, at, watchedSeconds: s.watched, rebufferCount: s.rebuffers, rebufferMs: s.rebufferMs });
    viewer.session = null;
    viewer.nextAt = t + (5 + Math.random() * 60) * 1000;
    return;
  }
  queue.push({ type: 'heartbeat', eventId: randomUUID(), sessionId: s.id, at, playheadSeconds: s.watched, watchedSeconds: s.watched, bitrateKbps: s.bitrate, rebufferCount: s.rebuffers, rebufferMs: s.rebufferMs });
  viewer.nextAt = t + heartbeatS * 1000;
}

const totals = { sent: 0, accepted: 0, duplicates: 0, refused: 0, failedRequests: 0 };

async function flush(): Promise<void> {
  while (queue.length > 0) {
    const batch = queue.splice(0, INGEST_MAX_EVENTS);
    try {
      const res = await fetch(`${base}${INGEST_PATH}`, { method: 'POST', headers, body: JSON.stringify({ events: batch }) });
      const body = (await res.json()) as { accepted?: number; duplicates?: number; message?: string; errors?: { message: string }[] };
      totals.sent += batch.length;
      if (res.ok) {
        totals.accepted += body.accepted ?? 0;
        totals.duplicates += body.duplicates ?? 0;
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
  for (const viewer of viewers) step(viewer, t);
  await flush();
  if (t - lastReport >= 10_000) {
    lastReport = t;
    const playing = viewers.filter((v) => v.session).length;
    console.log(`${Math.round((t - started) / 1000)} s: ${playing} playing, ${totals.accepted} events accepted, ${totals.refused} refused, ${totals.failedRequests} failed requests`);
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
// End the open sessions so they do not stay "playing" forever.
const t = now();
for (const viewer of viewers) {
  if (viewer.session) {
    const s = viewer.session;
    queue.push({ type: 'session.end', eventId: randomUUID(), sessionId: s.id, at: new Date(t).toISOString(), watchedSeconds: s.watched, rebufferCount: s.rebuffers, rebufferMs: s.rebufferMs });
  }
}
await flush();
console.log(`Done: ${totals.sent} events sent, ${totals.accepted} accepted, ${totals.duplicates} duplicates, ${totals.refused} refused.`);
