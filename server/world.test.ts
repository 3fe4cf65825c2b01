/**
 * The viewers' world: the generator is deterministic, every table stays inside its site, and the
 * rollups agree with the raw rows. Runs on PGlite and on PostgreSQL (DATABASE_URL); on PostgreSQL
 * the database is shared with other test files, so this file writes its own sites.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PLAN_KEY, STARTUP_MS_BUCKETS } from '../common/constants';
import { siteDayOf } from '../common/site-day';
import type { Db } from './db/client';
import { DEMO_SITES } from './db/demo-accounts';
import { rebuildRollups, siteTimeZone } from './db/rollups';
import { networks, sites } from './db/schema';
import { generateSiteWorld, queryRows, seedSmallWorld, SMALL_WORLD, worldClock, writeWorld, type SiteContext } from './db/seed-world';
import { createTestApp, openIsolatedTestDb, type TestApp } from './test/kit';

const NOW = new Date('2026-03-15T18:30:00Z');
const OPTIONS = { ...SMALL_WORLD, now: NOW };

let t: TestApp;
let db: Db;

/** A new site with two launched networks (a copy of the first demo site under another name). */
async function createSite(): Promise<SiteContext> {
  const demo = await t.siteByName(DEMO_SITES.viewlift);
  const name = `world-test-${randomUUID().slice(0, 8)}`;
  const { id: _id, ...rest } = demo;
  const [site] = await db.insert(sites).values({ ...rest, siteInternalName: name, managementApiKey: randomBytes(24).toString('base64url') }).returning({ id: sites.id });
  const nets = await db.insert(networks).values([
    { siteId: site!.id, identifier: 'viewlift-main', name: 'Main', image: '', isActive: true, isDefault: true },
    { siteId: site!.id, identifier: 'sports-plus', name: 'Sports', image: '', isActive: true, isDefault: false },
  ]).returning({ id: networks.id, identifier: networks.identifier, isDefault: networks.isDefault, isActive: networks.isActive });
  return { id: site!.id, internalName: name, networks: nets };
}

interface Fingerprint {
  [key: string]: number;
}

/** Counts and sums of one site's world: what "the same world" means across sites. */
async function fingerprint(siteId: string): Promise<Fingerprint> {
  const [row] = await queryRows<Record<string, string | number>>(db, sql`
    SELECT
      (SELECT count(*) FROM content_items WHERE site_id = ${siteId}) AS content,
      (SELECT count(*) FROM subscribers WHERE site_id = ${siteId}) AS subscribers,
      (SELECT count(*) FROM subscriber_devices WHERE site_id = ${siteId}) AS devices,
      (SELECT count(*) FROM subscriptions WHERE site_id = ${siteId}) AS subscriptions,
      (SELECT count(*) FROM subscriptions WHERE site_id = ${siteId} AND status = 'active') AS active,
      (SELECT count(*) FROM payments WHERE site_id = ${siteId}) AS payments,
      (SELECT coalesce(sum(amount), 0) FROM payments WHERE site_id = ${siteId}) AS paid,
      (SELECT count(*) FROM coupon_redemptions WHERE site_id = ${siteId}) AS redemptions,
      (SELECT count(*) FROM playback_sessions WHERE site_id = ${siteId}) AS sessions,
      (SELECT coalesce(sum(watched_seconds), 0) FROM playback_sessions WHERE site_id = ${siteId}) AS watched,
      (SELECT coalesce(sum(startup_ms), 0) FROM playback_sessions WHERE site_id = ${siteId}) AS startup,
      (SELECT coalesce(sum(sessions), 0) FROM daily_playback_rollups WHERE site_id = ${siteId} AND dimension = 'all') AS rolled_sessions`);
  return Object.fromEntries(Object.entries(row!).map(([k, v]) => [k, Number(v)]));
}

let ownDb: Awaited<ReturnType<typeof openIsolatedTestDb>>;

beforeAll(async () => {
  // Its own database: these tests compare whole-site facts of the demo sites, which other test files
  // change while they run when they share PostgreSQL's database.
  ownDb = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: ownDb.handle });
  db = t.db;
  await seedSmallWorld(db);
}, 180_000); // a shared 2-core machine can be slow to start PGlite and seed

afterAll(async () => {
  await t?.close();
  await ownDb?.drop();
});

describe('the generator', () => {
  it('gives the same rows for the same seed, site and clock, and a different world for another seed', () => {
    const site: SiteContext = { id: randomUUID(), internalName: DEMO_SITES.viewlift, networks: [{ id: randomUUID(), identifier: 'viewlift-main', isDefault: true, isActive: true }] };
    const a = generateSiteWorld(site, OPTIONS);
    const b = generateSiteWorld(site, OPTIONS);
    expect(b).toEqual(a);
    expect(a.subscribers.length).toBeGreaterThan(50);
    expect(a.playback_sessions.length).toBeGreaterThan(100);
    const other = generateSiteWorld(site, { ...OPTIONS, seed: OPTIONS.seed + 1 });
    expect(other.playback_sessions.length).not.toBe(a.playback_sessions.length);
  });

  it('writes the same counts and sums for the same seed into two sites, with ids of their own', async () => {
    const [one, two] = [await createSite(), await createSite()];
    await writeWorld(db, generateSiteWorld(one, OPTIONS));
    await writeWorld(db, generateSiteWorld(two, OPTIONS));
    await rebuildRollups(db, { siteId: one.id });
    await rebuildRollups(db, { siteId: two.id });
    const [a, b] = [await fingerprint(one.id), await fingerprint(two.id)];
    expect(b).toEqual(a);
    expect(a.sessions).toBeGreaterThan(100);
    expect(a.rolled_sessions).toBe(a.sessions);
    const shared = await queryRows<{ n: number }>(db, sql`
      SELECT count(*)::int AS n FROM subscribers x JOIN subscribers y ON x.id = y.id WHERE x.site_id = ${one.id} AND y.site_id = ${two.id}`);
    expect(shared[0]!.n).toBe(0);
  });

  it('seedSmallWorld is idempotent', async () => {
    const site = await t.siteByName(DEMO_SITES.viewlift);
    const before = await fingerprint(site.id);
    await seedSmallWorld(db);
    expect(await fingerprint(site.id)).toEqual(before);
    expect(before.subscribers).toBeGreaterThan(50);
  });
});

describe('site isolation', () => {
  // Each pair: a child table, its parent table, the join column. A row whose parent belongs to
  // another site would leak one site's viewers into another's reports.
  const links: [child: string, parent: string, column: string][] = [
    ['subscriber_devices', 'subscribers', 'subscriber_id'],
    ['support_notes', 'subscribers', 'subscriber_id'],
    ['subscriptions', 'subscribers', 'subscriber_id'],
    ['subscriptions', 'plans', 'plan_id'],
    ['subscriptions', 'networks', 'network_id'],
    ['payments', 'subscribers', 'subscriber_id'],
    ['payments', 'subscriptions', 'subscription_id'],
    ['payments', 'plans', 'plan_id'],
    ['coupons', 'offers', 'offer_id'],
    ['coupon_redemptions', 'coupons', 'coupon_id'],
    ['coupon_redemptions', 'subscribers', 'subscriber_id'],
    ['playback_sessions', 'subscribers', 'subscriber_id'],
    ['playback_sessions', 'content_items', 'content_id'],
    ['playback_sessions', 'networks', 'network_id'],
    ['playback_sessions', 'plans', 'plan_id'],
    ['subscribers', 'networks', 'network_id'],
    ['content_items', 'networks', 'network_id'],
    ['daily_playback_rollups', 'networks', 'network_id'],
    ['daily_subscription_rollups', 'plans', 'plan_id'],
    ['daily_payment_rollups', 'networks', 'network_id'],
    ['daily_audience_rollups', 'networks', 'network_id'],
  ];

  it.each(links)('%s rows point only at %s of their own site', async (child, parent, column) => {
    const [row] = await queryRows<{ total: number; foreign: number }>(db, sql.raw(`
      SELECT count(*)::int AS total, count(*) FILTER (WHERE p.site_id <> c.site_id)::int AS foreign
      FROM "${child}" c JOIN "${parent}" p ON p.id = c.${column}`));
    expect(row!.total).toBeGreaterThan(0);
    expect(row!.foreign).toBe(0);
  });

  it('plan groups hold only plans of their own site', async () => {
    const [row] = await queryRows<{ total: number; foreign: number }>(db, sql`
      SELECT count(*)::int AS total, count(*) FILTER (WHERE g.site_id <> p.site_id)::int AS foreign
      FROM plan_group_plans gp JOIN plan_groups g ON g.id = gp.group_id JOIN plans p ON p.id = gp.plan_id`);
    expect(row!.total).toBeGreaterThan(0);
    expect(row!.foreign).toBe(0);
  });

  it('both demo sites have a world of their own', async () => {
    for (const name of Object.values(DEMO_SITES)) {
      const site = await t.siteByName(name);
      const print = await fingerprint(site.id);
      expect(print.subscribers, name).toBeGreaterThan(20);
      expect(print.sessions, name).toBeGreaterThan(40);
    }
  });
});

describe('rollups', () => {
  it('equal the raw rows: sessions, watched time, payments, sign-ups', async () => {
    const site = await t.siteByName(DEMO_SITES.viewlift);
    const [row] = await queryRows<Record<string, string>>(db, sql`
      SELECT
        (SELECT count(*) FROM playback_sessions WHERE site_id = ${site.id}) AS raw_sessions,
        (SELECT sum(sessions) FROM daily_playback_rollups WHERE site_id = ${site.id} AND dimension = 'all') AS all_sessions,
        (SELECT sum(sessions) FROM daily_playback_rollups WHERE site_id = ${site.id} AND dimension = 'device') AS device_sessions,
        (SELECT sum(watched_seconds) FROM playback_sessions WHERE site_id = ${site.id}) AS raw_watched,
        (SELECT sum(watched_seconds) FROM daily_playback_rollups WHERE site_id = ${site.id} AND dimension = 'cdn') AS cdn_watched,
        (SELECT sum(amount) FROM payments WHERE site_id = ${site.id}) AS raw_paid,
        (SELECT sum(amount) FROM daily_payment_rollups WHERE site_id = ${site.id}) AS rolled_paid,
        (SELECT count(*) FROM subscribers WHERE site_id = ${site.id}) AS raw_signups,
        (SELECT sum(signups) FROM daily_audience_rollups WHERE site_id = ${site.id}) AS rolled_signups`);
    expect(Number(row!.all_sessions)).toBe(Number(row!.raw_sessions));
    expect(Number(row!.device_sessions)).toBe(Number(row!.raw_sessions));
    expect(Number(row!.cdn_watched)).toBe(Number(row!.raw_watched));
    expect(Number(row!.rolled_paid)).toBe(Number(row!.raw_paid));
    expect(Number(row!.rolled_signups)).toBe(Number(row!.raw_signups));
  });

  it('histograms have one count per bucket and add up to the sessions', async () => {
    const site = await t.siteByName(DEMO_SITES.viewlift);
    const rows = await queryRows<{ sessions: number; startup_histogram: number[]; rebuffer_histogram: number[] }>(db, sql`
      SELECT sessions, startup_histogram, rebuffer_histogram FROM daily_playback_rollups WHERE site_id = ${site.id} AND dimension = 'all'`);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.startup_histogram).toHaveLength(STARTUP_MS_BUCKETS.length + 1);
      expect(r.startup_histogram.reduce((a, b) => a + b, 0)).toBe(r.sessions);
      expect(r.rebuffer_histogram.reduce((a, b) => a + b, 0)).toBe(r.sessions);
    }
  });

  it('subscriptions paying and trialing at a moment match the subscriptions table at that moment', async () => {
    // A site of its own: on PostgreSQL every test file shares the database, and the support tests
    // rebuild the demo site's rollups of today (as of their own moment) while this one compares.
    const site = await createSite();
    const [clock] = await queryRows<{ at: string }>(db, sql`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at`);
    const asOf = new Date(clock!.at);
    await writeWorld(db, generateSiteWorld(site, { ...SMALL_WORLD, now: asOf }));
    // One fixed moment for both sides: the rollup counts movements up to it, the table is read at it.
    // The rollups' day of that moment is the site's day (issue 38), in its zone.
    const day = siteDayOf(asOf, await siteTimeZone(db, site.id));
    await rebuildRollups(db, { siteId: site.id, asOf });
    const at = sql`${asOf.toISOString()}::timestamptz`;
    const [row] = await queryRows<Record<string, string>>(db, sql`
      SELECT
        (SELECT count(*) FROM subscriptions WHERE site_id = ${site.id}
          AND coalesce(trial_ends_at, started_at) <= ${at} AND (ended_at IS NULL OR ended_at > ${at})) AS paying,
        (SELECT count(*) FROM subscriptions WHERE site_id = ${site.id}
          AND started_at <= ${at} AND trial_ends_at > ${at} AND (ended_at IS NULL OR ended_at > ${at})) AS trialing,
        (SELECT sum(active_at_end) FROM daily_subscription_rollups WHERE site_id = ${site.id} AND day = ${day}::date) AS rolled_paying,
        (SELECT sum(trialing_at_end) FROM daily_subscription_rollups WHERE site_id = ${site.id} AND day = ${day}::date) AS rolled_trialing`);
    expect(Number(row!.paying)).toBeGreaterThan(0);
    expect(Number(row!.rolled_paying)).toBe(Number(row!.paying));
    expect(Number(row!.rolled_trialing ?? 0)).toBe(Number(row!.trialing));
  });

  it('the seed leaves statuses that agree with the rollups as of its clock', async () => {
    const site = await createSite();
    // 22:47:30 on 14 March in the site's zone (America/New_York, EDT): the rollups' today is the 14th.
    const now = new Date('2026-03-15T02:47:30Z');
    expect(await siteTimeZone(db, site.id)).toBe('America/New_York');
    await writeWorld(db, generateSiteWorld(site, { ...OPTIONS, now }));
    await rebuildRollups(db, { siteId: site.id, asOf: worldClock(now) });
    const [row] = await queryRows<Record<string, string>>(db, sql`
      SELECT
        (SELECT count(*) FROM subscriptions WHERE site_id = ${site.id} AND status IN ('active', 'past_due')) AS paying,
        (SELECT count(*) FROM subscriptions WHERE site_id = ${site.id} AND status = 'trialing') AS trialing,
        (SELECT sum(active_at_end) FROM daily_subscription_rollups WHERE site_id = ${site.id} AND day = '2026-03-14') AS rolled_paying,
        (SELECT sum(trialing_at_end) FROM daily_subscription_rollups WHERE site_id = ${site.id} AND day = '2026-03-14') AS rolled_trialing`);
    expect(Number(row!.trialing)).toBeGreaterThan(0);
    expect(Number(row!.paying)).toBeGreaterThan(0);
    expect(Number(row!.rolled_paying)).toBe(Number(row!.paying));
    expect(Number(row!.rolled_trialing ?? 0)).toBe(Number(row!.trialing));
  });

  it('a rebuild of a day range changes nothing when the raw rows did not change', async () => {
    const site = await t.siteByName(DEMO_SITES.viewlift);
    const snapshot = () => queryRows(db, sql`
      SELECT day::text, dimension, dim_key, sessions, viewers, watched_seconds, startup_histogram FROM daily_playback_rollups
      WHERE site_id = ${site.id} ORDER BY day, dimension, dim_key, network_id`);
    const before = await snapshot();
    const [range] = await queryRows<{ from: string; to: string }>(db, sql`
      SELECT to_char(min(day), 'YYYY-MM-DD') AS from, to_char(max(day), 'YYYY-MM-DD') AS to FROM daily_playback_rollups WHERE site_id = ${site.id}`);
    await rebuildRollups(db, { siteId: site.id, from: range!.from, to: range!.from });
    await rebuildRollups(db, { siteId: site.id, from: range!.to, to: range!.to });
    expect(await snapshot()).toEqual(before);
    const plans = await queryRows<{ dim_key: string }>(db, sql`
      SELECT DISTINCT dim_key FROM daily_playback_rollups WHERE site_id = ${site.id} AND dimension = 'plan'`);
    expect(plans.some((p) => p.dim_key !== NO_PLAN_KEY)).toBe(true);
  });

  it('refuses a day that is not YYYY-MM-DD', async () => {
    await expect(rebuildRollups(db, { from: '15/03/2026' })).rejects.toThrow(/YYYY-MM-DD/);
  });
});
