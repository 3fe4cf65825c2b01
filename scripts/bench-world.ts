/**
 * `npm run bench:world [-- --scales 1,10 --batches 40]`: for each scale, a fresh database (in-memory
 * PGlite, or a fresh PostgreSQL database when PG_ADMIN_URL/DATABASE_URL-style admin access is given
 * through scripts/with-fresh-postgres.mjs) seeded with the demo sites and the viewers' world, then:
 * - seed time and row counts,
 * - ingestion throughput: batches of 500 events (session starts, heartbeats, ends) through
 *   POST /v1/events with app.inject (no network; validation, idempotency record, writes and the
 *   rollup fold included), events per second,
 * - daily-rollup report latency: a 30-day daily trend plus the top 10 titles of the period, read
 *   from daily_playback_rollups, median and p95 of 30 runs,
 * - the same report computed from raw sessions, for comparison.
 * Not a test: it prints figures (the README quotes them).
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { INGEST_KEY_HEADER, INGEST_PATH, type PlayerEvent } from '../common/ingest-contract';
import { openDb } from '../server/db/client';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { demoIngestionKey, queryRows, seedWorld } from '../server/db/seed-world';
import { createTestApp } from '../server/test/kit';

const { values } = parseArgs({ options: { scales: { type: 'string', default: '1,10' }, batches: { type: 'string', default: '40' } } });
const scales = values.scales.split(',').map(Number);
const batches = Number(values.batches);

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
}

for (const scale of scales) {
  const handle = await openDb(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { dataDir: 'memory://' });
  const t = await createTestApp({ demo: true, db: handle, config: { ingestBatchesPerMinute: 1_000_000 } });
  // A fresh PostgreSQL database is reused across scales: start each scale from an empty world.
  if (handle.driver === 'postgres') {
    await handle.db.execute(sql`TRUNCATE content_items, subscribers, plans, plan_groups, offers, coupons, playback_sessions, player_heartbeats,
      daily_playback_rollups, daily_subscription_rollups, daily_payment_rollups, daily_audience_rollups, ingestion_keys CASCADE`);
  }
  const seedStart = performance.now();
  const world = await seedWorld(handle.db, { scale });
  const seedMs = performance.now() - seedStart;
  const site = await t.siteByName(DEMO_SITES.viewlift);
  const [counts] = await queryRows<{ subscribers: number; sessions: number; payments: number }>(handle.db, sql`
    SELECT (SELECT count(*)::int FROM subscribers) AS subscribers, (SELECT count(*)::int FROM playback_sessions) AS sessions,
      (SELECT count(*)::int FROM payments) AS payments`);
  console.log(`\nscale ${scale} (${handle.driver}): seeded ${counts!.subscribers} subscribers, ${counts!.payments} payments, ${counts!.sessions} playback sessions in ${(seedMs / 1000).toFixed(1)} s`
    + ` (${world.sites.map((s) => s.site).join(', ')})`);

  // Ingestion: whole sessions (start, 3 heartbeats, end) of real viewers and items, 500 events a batch.
  const ids = await queryRows<{ subscriber_id: string; content_id: string }>(handle.db, sql`
    SELECT s.id AS subscriber_id, c.id AS content_id FROM
      (SELECT id, row_number() OVER (ORDER BY id) AS n FROM subscribers WHERE site_id = ${site.id} LIMIT 200) s
      JOIN (SELECT id, row_number() OVER (ORDER BY id) AS n FROM content_items WHERE site_id = ${site.id} AND kind <> 'series' LIMIT 200) c ON c.n = s.n`);
  const makeBatch = (): PlayerEvent[] => {
    const events: PlayerEvent[] = [];
    const start = Date.now() - 3_600_000;
    while (events.length < 500) {
      const pair = ids[Math.floor(Math.random() * ids.length)]!;
      const sessionId = randomUUID();
      const at = (m: number) => new Date(start + m * 60_000).toISOString();
      events.push({ type: 'session.start', eventId: randomUUID(), sessionId, at: at(0), subscriberId: pair.subscriber_id, contentId: pair.content_id, deviceType: 'web', country: 'US', isp: 'Comcast Xfinity', cdn: 'Akamai', startupMs: 900 });
      for (let h = 1; h <= 3; h++) events.push({ type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(h), playheadSeconds: h * 60, watchedSeconds: h * 60, bitrateKbps: 4500, rebufferCount: 0, rebufferMs: 0 });
      events.push({ type: 'session.end', eventId: randomUUID(), sessionId, at: at(4), watchedSeconds: 240, rebufferCount: 0, rebufferMs: 0 });
    }
    return events;
  };
  const headers = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };
  const prepared = Array.from({ length: batches }, makeBatch);
  await t.post(INGEST_PATH, { events: makeBatch() }, headers); // warm-up
  const ingestStart = performance.now();
  let accepted = 0;
  const batchTimes: number[] = [];
  for (const events of prepared) {
    const b = performance.now();
    const res = await t.post(INGEST_PATH, { events }, headers);
    batchTimes.push(performance.now() - b);
    if (res.statusCode !== 202) throw new Error(`ingestion answered ${res.statusCode}: ${res.body}`);
    accepted += res.json<{ accepted: number }>().accepted;
  }
  // Accepted is queued (issue 31): the figure counts until the events are written and folded.
  await t.app.ingest.drain(600_000);
  const ingestS = (performance.now() - ingestStart) / 1000;
  console.log(`ingestion: ${accepted} events in ${ingestS.toFixed(1)} s = ${Math.round(accepted / ingestS)} events/s (batch of 500: ${stats(batchTimes)})`);

  const report = sql`
    WITH trend AS (
      SELECT day, sum(sessions) AS sessions, sum(watched_seconds) AS watched, sum(startup_ms_sum) / nullif(sum(sessions), 0) AS avg_startup
      FROM daily_playback_rollups WHERE site_id = ${site.id} AND dimension = 'all' AND day > (now() AT TIME ZONE 'UTC')::date - 30
      GROUP BY day),
    top AS (
      SELECT dim_key, sum(sessions) AS sessions FROM daily_playback_rollups
      WHERE site_id = ${site.id} AND dimension = 'content' AND day > (now() AT TIME ZONE 'UTC')::date - 30
      GROUP BY dim_key ORDER BY 2 DESC LIMIT 10)
    SELECT (SELECT json_agg(trend ORDER BY day) FROM trend) AS trend, (SELECT json_agg(top) FROM top) AS top`;
  const raw = sql`
    WITH trend AS (
      SELECT (started_at AT TIME ZONE 'UTC')::date AS day, count(*) AS sessions, sum(watched_seconds) AS watched, avg(startup_ms) AS avg_startup
      FROM playback_sessions WHERE site_id = ${site.id} AND started_at > now() - interval '30 days' GROUP BY 1),
    top AS (
      SELECT content_id, count(*) AS sessions FROM playback_sessions
      WHERE site_id = ${site.id} AND started_at > now() - interval '30 days' GROUP BY 1 ORDER BY 2 DESC LIMIT 10)
    SELECT (SELECT json_agg(trend ORDER BY day) FROM trend) AS trend, (SELECT json_agg(top) FROM top) AS top`;
  for (const [label, query] of [['daily-rollup report (30-day trend + top 10 titles)', report], ['same report from raw sessions', raw]] as const) {
    for (let i = 0; i < 3; i++) await handle.db.execute(query);
    const samples: number[] = [];
    for (let i = 0; i < 30; i++) {
      const b = performance.now();
      await handle.db.execute(query);
      samples.push(performance.now() - b);
    }
    console.log(`${label}: ${stats(samples)}`);
  }
  await t.close();
  await handle.close();
}
