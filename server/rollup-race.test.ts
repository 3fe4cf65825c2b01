/**
 * Issue 37, item 4: one write path for rollup refreshes. A fold of player events (the fold worker's
 * own foldDirtySlices) and a support action that refreshes the same day's rollups in its write
 * (paymentRefund; subscriptionChangePlan NOW, whose refresh runs from the subscription's start to
 * today) run at the same moment, 100 rounds. Before, the support action's refresh did not take the
 * fold's lock: both deleted and re-inserted the day's playback rollups and one failed on the unique
 * key (`daily_playback_rollups_site_id_network_id_day_dimension_dim_key`), the refund answering 500
 * although it had committed. Now every refresh of a day takes the same locks (server/db/rollups.ts).
 *
 * Every round: 0 errors (the GraphQL answer is 200 with no errors, the fold does not throw), the
 * write is there once, and today's rollups equal an independent recomputation from the raw rows
 * (sessions and watched seconds per network from playback_sessions, refunds per plan from
 * payment_refunds). At the end every rollup of the site equals a rebuild from the raw rows.
 *
 * On PostgreSQL (its own database, so no other test file's writes move the figures) this is the
 * real race; on PGlite (one connection, statements serialised) it is a sanity pass of the same path.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import type { PlayerEvent } from '../common/ingest-contract';
import { siteDayOf } from '../common/site-day';
import { wallParts } from '../common/zoned-time';
import type { DbHandle } from './db/client';
import { DEMO_SITES } from './db/demo-accounts';
import { foldDirtySlices, writeBatches } from './db/ingest-repository';
import { rebuildRollups, siteTimeZone } from './db/rollups';
import { networks, paymentRefunds, payments, plans, subscribers, subscriptions } from './db/schema';
import { queryRows, seedSmallWorld } from './db/seed-world';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

const ROUNDS = 100;
const SESSIONS_PER_ROUND = 4;
const DAY_MS = 86_400_000;
const postgres = Boolean(process.env.DATABASE_URL);

const REFUND = `mutation paymentRefund($paymentId: ID!, $amount: Int!, $reason: String!, $version: Int!) {
  paymentRefund(paymentId: $paymentId, amount: $amount, reason: $reason, version: $version) { profile { id } }
}`;
const CHANGE_PLAN = `mutation subscriptionChangePlan($subscriptionId: ID!, $planId: ID!, $when: String!, $reason: String!, $version: Int!) {
  subscriptionChangePlan(subscriptionId: $subscriptionId, planId: $planId, when: $when, reason: $reason, version: $version) { profile { id } }
}`;

let own: { handle: DbHandle; drop(): Promise<void> };
let t: TestApp;
let support: Session;
let site: { id: string; networkId: string; subscriberIds: string[]; contentIds: string[] };
/** The site's time zone: its rollups' days are its own (issue 38), "today" is its today. */
let zone = 'UTC';
const siteToday = () => siteDayOf(new Date(), zone);

beforeAll(async () => {
  own = await openIsolatedTestDb().catch((error: unknown) => {
    throw new Error(`This test needs its database (PostgreSQL at DATABASE_URL when set): ${error instanceof Error ? error.message : String(error)}`);
  });
  // No fold worker and no consumer of the app's own: this test runs the fold itself, at the chosen moment.
  t = await createTestApp({ demo: true, db: own.handle, ingest: { fold: false, consumers: 0 } });
  await seedSmallWorld(t.db);
  support = await t.login('support@demo.test');
  const { id } = await t.siteByName(DEMO_SITES.viewlift);
  const [network] = await t.db.select({ id: networks.id }).from(networks).where(and(eq(networks.siteId, id), eq(networks.isDefault, true)));
  const viewers = await queryRows<{ id: string }>(t.db, sql`SELECT id FROM subscribers WHERE site_id = ${id} AND network_id = ${network!.id} ORDER BY created_at LIMIT 20`);
  const items = await queryRows<{ id: string }>(t.db, sql`SELECT id FROM content_items WHERE site_id = ${id} AND kind = 'video' ORDER BY title LIMIT 10`);
  site = { id, networkId: network!.id, subscriberIds: viewers.map((r) => r.id), contentIds: items.map((r) => r.id) };
  zone = await siteTimeZone(t.db, id);
  expect(site.subscriberIds.length).toBeGreaterThan(0);
  expect(site.contentIds.length).toBeGreaterThan(0);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await own?.drop();
});

/** A subscriber with a live USD 10.00 subscription on plan A (started 2 days ago), a succeeded payment, and plan B (USD 20.00). */
async function fixture(round: number) {
  const tag = `${round}-${randomUUID().slice(0, 8)}`;
  const now = Date.now();
  const [planA, planB] = await t.db.insert(plans).values([
    { siteId: site.id, name: `Race A ${tag}`, prices: [{ currency: 'USD', amount: 1000 }], billingPeriod: 'month', status: 'active' },
    { siteId: site.id, name: `Race B ${tag}`, prices: [{ currency: 'USD', amount: 2000 }], billingPeriod: 'month', status: 'active' },
  ]).returning();
  const [subscriber] = await t.db.insert(subscribers).values({
    siteId: site.id, networkId: site.networkId, email: `race-${tag}@example.com`, name: `Race ${tag}`, phone: '+1 (555) 010-9999',
    country: 'US', createdAt: new Date(now - 2 * DAY_MS),
  }).returning();
  const [subscription] = await t.db.insert(subscriptions).values({
    siteId: site.id, networkId: site.networkId, subscriberId: subscriber!.id, planId: planA!.id, status: 'active',
    startedAt: new Date(now - 2 * DAY_MS), currentPeriodStart: new Date(now - 2 * DAY_MS), currentPeriodEnd: new Date(now + 28 * DAY_MS),
    amount: 1000, currency: 'USD',
  }).returning();
  const [payment] = await t.db.insert(payments).values({
    siteId: site.id, networkId: site.networkId, subscriberId: subscriber!.id, subscriptionId: subscription!.id, planId: planA!.id,
    amount: 1000, currency: 'USD', status: 'succeeded', method: 'card', at: new Date(now - 2 * DAY_MS),
  }).returning();
  return { planB: planB!.id, subscription: subscription!, payment: payment! };
}

/** Whole played sessions that started today (the site's day), so their slice is a day the support action refreshes. */
function todaysSessions(round: number): PlayerEvent[] {
  const now = Date.now();
  // The site's midnight: now less the wall clock's time of day there (at most an hour early on a daylight-saving day).
  const wall = wallParts(now, zone);
  const midnight = Math.max(now - ((wall.hour * 60 + wall.minute) * 60 + wall.second) * 1000 - (now % 1000), now - DAY_MS + 10 * 60_000);
  const events: PlayerEvent[] = [];
  for (let i = 0; i < SESSIONS_PER_ROUND; i += 1) {
    const sessionId = randomUUID();
    const start = midnight + Math.floor(Math.random() * Math.max(1, now - midnight - 5 * 60_000));
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    const subscriberId = site.subscriberIds[(round * SESSIONS_PER_ROUND + i) % site.subscriberIds.length]!;
    const contentId = site.contentIds[(round + i) % site.contentIds.length]!;
    events.push(
      { type: 'session.start', eventId: randomUUID(), sessionId, at: at(0), subscriberId, contentId, deviceType: 'roku', country: 'US', isp: 'Comcast Xfinity', cdn: 'Akamai', startupMs: 900 + i * 100 },
      { type: 'heartbeat', eventId: randomUUID(), sessionId, at: at(1), playheadSeconds: 60, watchedSeconds: 55 + i, bitrateKbps: 4000, rebufferCount: 0, rebufferMs: 0 },
      { type: 'session.end', eventId: randomUUID(), sessionId, at: at(2), watchedSeconds: 110 + i, rebufferCount: 1, rebufferMs: 1500 },
    );
  }
  return events;
}

async function graphql(query: string, variables: Record<string, unknown>) {
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: support.headers, payload: { query, variables } });
  return { status: res.statusCode, body: res.json<{ data: unknown; errors?: { message: string }[] }>() };
}

/** Today's rollups of the site against the raw rows, recomputed here with SQL of this test's own. */
async function todayMismatches(): Promise<unknown[]> {
  const day = siteToday();
  const start = sql`${day}::date::timestamp AT TIME ZONE ${zone}::text`;
  const end = sql`(${day}::date + 1)::timestamp AT TIME ZONE ${zone}::text`;
  return queryRows(t.db, sql`
    WITH raw_play AS (
      SELECT network_id, count(*)::int AS sessions, coalesce(sum(watched_seconds), 0)::bigint AS watched
      FROM playback_sessions WHERE site_id = ${site.id} AND started_at >= ${start}
        AND started_at < ${end} GROUP BY network_id
    ), rolled_play AS (
      SELECT network_id, sessions::int AS sessions, watched_seconds::bigint AS watched FROM daily_playback_rollups
      WHERE site_id = ${site.id} AND day = ${day}::date AND dimension = 'all'
    ), raw_refunds AS (
      SELECT network_id, plan_id, count(*)::int AS n, sum(amount)::bigint AS amount FROM payment_refunds
      WHERE site_id = ${site.id} AND at >= ${start} AND at < ${end}
      GROUP BY network_id, plan_id
    ), rolled_refunds AS (
      SELECT network_id, plan_id, payments::int AS n, amount::bigint AS amount FROM daily_payment_rollups
      WHERE site_id = ${site.id} AND day = ${day}::date AND status = 'refund'
    )
    (SELECT 'playback' AS what, * FROM (SELECT network_id::text, sessions, watched FROM raw_play EXCEPT SELECT network_id::text, sessions, watched FROM rolled_play) a)
    UNION ALL (SELECT 'playback rollup without raw rows', * FROM (SELECT network_id::text, sessions, watched FROM rolled_play EXCEPT SELECT network_id::text, sessions, watched FROM raw_play) b)
    UNION ALL (SELECT 'refunds ' || plan_id::text, network_id::text, n, amount FROM (SELECT * FROM raw_refunds EXCEPT SELECT * FROM rolled_refunds) c)
    UNION ALL (SELECT 'refund rollup without raw rows ' || plan_id::text, network_id::text, n, amount FROM (SELECT * FROM rolled_refunds EXCEPT SELECT * FROM raw_refunds) d)`);
}

/**
 * Every rollup of the site as stored. Today's subscription rows are left out: they count movements up
 * to the moment of the rebuild ("so far today"), so a trial of the world ending between two rebuilds
 * would move them without any race.
 */
async function allRollups() {
  const today = siteToday();
  return {
    playback: await queryRows(t.db, sql`SELECT network_id, day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count, rebuffer_seconds, error_sessions, bitrate_kbps_sum, startup_histogram::text, rebuffer_histogram::text FROM daily_playback_rollups WHERE site_id = ${site.id} ORDER BY 1, 2, 3, 4`),
    subscriptions: await queryRows(t.db, sql`SELECT network_id, day::text, plan_id, trials_started, paid_started, conversions, cancellations, expirations, active_at_end, trialing_at_end FROM daily_subscription_rollups WHERE site_id = ${site.id} AND day < ${today}::date ORDER BY 1, 2, 3`),
    payments: await queryRows(t.db, sql`SELECT network_id, day::text, plan_id, currency, status, payments, amount FROM daily_payment_rollups WHERE site_id = ${site.id} ORDER BY 1, 2, 3, 4, 5`),
    audience: await queryRows(t.db, sql`SELECT network_id, day::text, country, signups FROM daily_audience_rollups WHERE site_id = ${site.id} ORDER BY 1, 2, 3`),
  };
}

describe(`a fold and a support action refresh the same day at once (issue 37; ${postgres ? 'PostgreSQL: the real race' : 'PGlite: serialised, a sanity pass'})`, () => {
  it(`${ROUNDS} rounds of a fold beside a refund or a plan change NOW: 0 errors, each write once, exact rollups`, { timeout: 300_000 }, async () => {
    const t0 = Date.now();
    const errors: string[] = [];
    let refunds = 0;
    let planChanges = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const f = await fixture(round);
      // The consumer's write: the sessions and the dirty mark of (site, today) the fold picks up.
      await writeBatches(t.db, [{ siteId: site.id, events: todaysSessions(round) }]);
      const action = round % 2 === 0
        ? graphql(REFUND, { paymentId: f.payment.id, amount: 100 + round, reason: 'Race round', version: f.payment.version })
        : graphql(CHANGE_PLAN, { subscriptionId: f.subscription.id, planId: f.planB, when: 'NOW', reason: 'Race round', version: f.subscription.version });
      const [answer, folded] = await Promise.all([
        action,
        foldDirtySlices(t.db).then((n) => n, (error: unknown) => { errors.push(`round ${round} fold: ${error instanceof Error ? error.message : String(error)}`); return -1; }),
      ]);
      if (answer.status !== 200 || answer.body.errors) errors.push(`round ${round} support action: ${answer.status} ${JSON.stringify(answer.body.errors)}`);
      expect(folded).toBeGreaterThanOrEqual(0);
      if (round % 2 === 0) {
        refunds += 1;
        const rows = await t.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, f.payment.id));
        expect(rows.map((r) => r.amount)).toEqual([100 + round]);
      } else {
        planChanges += 1;
        const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, f.subscription.id));
        expect(row!.planId).toBe(f.planB);
      }
      // A slice the support action held was left dirty by that fold: the next fold takes it.
      await foldDirtySlices(t.db);
      expect({ round, mismatches: await todayMismatches() }).toEqual({ round, mismatches: [] });
    }
    expect(errors).toEqual([]);
    expect({ refunds, planChanges }).toEqual({ refunds: ROUNDS / 2, planChanges: ROUNDS / 2 });

    // Every figure of the site equals a rebuild from the raw rows.
    const stored = await allRollups();
    await rebuildRollups(t.db, { siteId: site.id });
    expect(stored).toEqual(await allRollups());
    expect(stored.playback.length).toBeGreaterThan(0);
    console.log(`rollup-race (${postgres ? 'PostgreSQL' : 'PGlite'}): ${ROUNDS} rounds in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  });
});
