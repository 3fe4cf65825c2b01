/**
 * server/db/rollups.ts on its own (issue 27, mutation testing): what a rebuild of a day range, of one
 * site or of every site, and the incremental fold touch, and what they leave alone; the moment
 * subscription movements are counted up to (asOf); the refusal of a day that is not YYYY-MM-DD.
 *
 * A small world stated here: two sites, each with one network, one plan and one title, rows on three
 * days (9–11 March 2024), some written after a first rebuild. Every expected rollup row is recomputed
 * from those raw rows in plain TypeScript; rows of a day a rebuild did not cover must keep the figures
 * of the rows that existed at the previous rebuild. Its own database (openIsolatedTestDb): one test
 * rebuilds every site.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PLAN_KEY, REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from '../common/constants';
import type { Db } from './db/client';
import { foldPlaybackDays, rebuildRollups, refreshRecentSubscriptions } from './db/rollups';
import { contentItems, networks, payments, playbackSessions, plans, subscribers, subscriptions } from './db/schema';
import { queryRows } from './db/seed-world';
import { createBareSite, createTestApp, openIsolatedTestDb, type TestApp } from './test/kit';

const D1 = '2024-03-09';
const D2 = '2024-03-10';
const D3 = '2024-03-11';
const DAYS = [D1, D2, D3];
/** The moment the rebuilds count subscription movements up to (unless a test says otherwise). */
const AS_OF = new Date(`${D3}T12:00:00Z`);
const at = (day: string, time: string) => new Date(`${day}T${time}Z`);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

interface Site { id: string; net: string; plan: string; content: string; viewers: string[] }
type Play = { subscriber: number; startedAt: Date; device: string; country: string; isp: string; cdn: string; watched: number; startup: number; rebuffer: number; rebufferCount: number; bitrate: number; error: boolean; plan: boolean };
type Sub = { subscriber: number; startedAt: Date; trialEndsAt: Date | null; cancelledAt: Date | null; endedAt: Date | null };
type Pay = { subscriber: number; at: Date; amount: number; currency: string; status: string };
type Person = { country: string; createdAt: Date };
interface Rows { people: Person[]; plays: Play[]; subs: Sub[]; pays: Pay[] }

const play = (subscriber: number, startedAt: Date, extra: Partial<Play> = {}): Play => ({
  subscriber, startedAt, device: 'web', country: 'US', isp: 'BT', cdn: 'akamai', watched: 100, startup: 300, rebuffer: 0, rebufferCount: 0, bitrate: 2000, error: false, plan: true, ...extra,
});

/** The rows written before the first rebuild (viewers 0 and 1 exist from the start). */
const FIRST: Rows = {
  people: [{ country: 'US', createdAt: at(D1, '08:00:00') }, { country: 'GB', createdAt: at(D2, '00:00:00') }],
  plays: [
    play(0, at(D1, '23:59:59')),
    play(0, at(D2, '00:00:00'), { watched: 90, startup: 1500, rebuffer: 10, rebufferCount: 2, bitrate: 3000, error: true }),
    play(1, at(D2, '12:00:00'), { device: 'ios', country: 'GB', isp: 'Comcast', cdn: 'fastly', watched: 0, startup: 9000, bitrate: 1000, plan: false }),
    play(1, at(D3, '00:00:00'), { device: 'ios', country: 'GB', watched: 60, startup: 500 }),
  ],
  subs: [
    { subscriber: 0, startedAt: at(D1, '09:00:00'), trialEndsAt: null, cancelledAt: null, endedAt: null },
    { subscriber: 1, startedAt: at(D2, '06:00:00'), trialEndsAt: at(D3, '06:00:00'), cancelledAt: null, endedAt: null },
    // Its trial ends after AS_OF: as of AS_OF still in trial, no conversion yet.
    { subscriber: 1, startedAt: at(D2, '07:00:00'), trialEndsAt: at(D3, '18:00:00'), cancelledAt: null, endedAt: null },
  ],
  pays: [
    { subscriber: 0, at: at(D1, '10:00:00'), amount: 999, currency: 'USD', status: 'succeeded' },
    { subscriber: 1, at: at(D2, '00:00:00'), amount: 500, currency: 'USD', status: 'failed' },
    { subscriber: 1, at: at(D3, '23:59:59'), amount: 700, currency: 'EUR', status: 'refunded' },
  ],
};

/** Rows written after the first rebuild, one or more on every day (viewer 2 is new). */
const LATER: Rows = {
  people: [{ country: 'DE', createdAt: at(D1, '23:00:00') }, { country: 'US', createdAt: at(D2, '23:59:59') }, { country: 'US', createdAt: at(D3, '01:00:00') }],
  plays: [
    play(2, at(D1, '12:00:00'), { device: 'roku', country: 'DE', startup: 4500, rebuffer: 2, watched: 50 }),
    play(2, at(D2, '23:59:59'), { device: 'roku', country: 'DE', startup: 700, rebuffer: 1, watched: 900 }),
    play(0, at(D3, '08:00:00'), { startup: 2500, rebuffer: 30, watched: 300, error: true }),
  ],
  subs: [
    // Paid on the 9th, cancelled and ended on the 10th: moves the running sums of the 10th and after.
    { subscriber: 2, startedAt: at(D1, '15:00:00'), trialEndsAt: null, cancelledAt: at(D2, '09:00:00'), endedAt: at(D2, '10:00:00') },
    // Ends after AS_OF: as of AS_OF still paying, no ending yet.
    { subscriber: 0, startedAt: at(D3, '02:00:00'), trialEndsAt: null, cancelledAt: at(D3, '03:00:00'), endedAt: at(D3, '20:00:00') },
  ],
  pays: [
    { subscriber: 2, at: at(D1, '16:00:00'), amount: 1200, currency: 'USD', status: 'succeeded' },
    { subscriber: 2, at: at(D2, '23:59:59'), amount: 300, currency: 'USD', status: 'succeeded' },
    { subscriber: 0, at: at(D3, '00:00:00'), amount: 450, currency: 'EUR', status: 'refunded' },
  ],
};

const both = (a: Rows, b: Rows): Rows => ({ people: [...a.people, ...b.people], plays: [...a.plays, ...b.plays], subs: [...a.subs, ...b.subs], pays: [...a.pays, ...b.pays] });

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let t: TestApp;
let db: Db;
let siteA: Site;
let siteB: Site;

async function createSite(): Promise<Site> {
  const name = `rollups-${randomUUID().slice(0, 8)}`;
  const id = await createBareSite(db, name);
  const [net] = await db.insert(networks).values({ siteId: id, identifier: `${name}-main`, name: 'Main', image: '/logo.svg', isActive: true, isDefault: true }).returning();
  const [plan] = await db.insert(plans).values({ siteId: id, name: 'Monthly', prices: [{ currency: 'USD', amount: 999 }], billingPeriod: 'month', status: 'active' }).returning();
  const [content] = await db.insert(contentItems).values({ siteId: id, kind: 'video', title: 'Salt Flats', titleSearch: 'salt flats', genre: 'Drama', durationSeconds: 1800, status: 'published' }).returning();
  return { id, net: net!.id, plan: plan!.id, content: content!.id, viewers: [] };
}

/** Writes rows of a site (people first: the others name viewers by their index). */
async function write(site: Site, rows: Rows): Promise<void> {
  for (const p of rows.people) {
    const [row] = await db.insert(subscribers).values({
      siteId: site.id, networkId: site.net, email: `v${site.viewers.length}-${randomUUID().slice(0, 6)}@rollups.test`, name: 'Viewer', country: p.country, createdAt: p.createdAt,
    }).returning();
    site.viewers.push(row!.id);
  }
  const viewer = (i: number) => site.viewers[i]!;
  if (rows.plays.length) {
    await db.insert(playbackSessions).values(rows.plays.map((p) => ({
      id: randomUUID(), siteId: site.id, networkId: site.net, subscriberId: viewer(p.subscriber), contentId: site.content,
      deviceType: p.device, country: p.country, isp: p.isp, cdn: p.cdn, startedAt: p.startedAt, lastEventAt: p.startedAt, endedAt: p.startedAt,
      watchedSeconds: p.watched, startupMs: p.startup, rebufferSeconds: p.rebuffer, rebufferCount: p.rebufferCount, avgBitrateKbps: p.bitrate,
      errorCode: p.error ? 'E_NET' : null, planId: p.plan ? site.plan : null,
    })));
  }
  const subIds: string[] = [];
  for (const s of rows.subs) {
    const [row] = await db.insert(subscriptions).values({
      siteId: site.id, networkId: site.net, subscriberId: viewer(s.subscriber), planId: site.plan, status: s.endedAt ? 'expired' : 'active',
      startedAt: s.startedAt, trialEndsAt: s.trialEndsAt, currentPeriodStart: s.startedAt, currentPeriodEnd: new Date(s.startedAt.getTime() + 30 * DAY_MS),
      cancelledAt: s.cancelledAt, endedAt: s.endedAt, amount: 999, currency: 'USD',
    }).returning();
    subIds.push(row!.id);
  }
  if (rows.pays.length) {
    await db.insert(payments).values(rows.pays.map((p) => ({
      siteId: site.id, networkId: site.net, subscriberId: viewer(p.subscriber), planId: site.plan, amount: p.amount, currency: p.currency, status: p.status, method: 'card', at: p.at,
    })));
  }
}

// ---------- the recomputation from raw rows ----------

const bucket = (value: number, bounds: readonly number[]) => bounds.filter((b) => value >= b).length;
function histogram(values: number[], bounds: readonly number[]): number[] {
  const counts = Array.from({ length: bounds.length + 1 }, () => 0);
  for (const v of values) counts[bucket(v, bounds)]! += 1;
  return counts;
}

/** The 'all' playback row of a day: every column. */
function playbackAll(rows: Rows, site: Site, day: string) {
  const list = rows.plays.filter((p) => dayOf(p.startedAt) === day);
  if (list.length === 0) return undefined;
  const sum = (f: (p: Play) => number) => list.reduce((a, p) => a + f(p), 0);
  return {
    day, sessions: list.length, viewers: new Set(list.map((p) => p.subscriber)).size, watched_seconds: sum((p) => p.watched),
    startup_ms_sum: sum((p) => p.startup), rebuffer_count: sum((p) => p.rebufferCount), rebuffer_seconds: sum((p) => p.rebuffer),
    error_sessions: list.filter((p) => p.error).length, bitrate_kbps_sum: sum((p) => p.bitrate),
    startup_histogram: histogram(list.map((p) => p.startup), STARTUP_MS_BUCKETS),
    rebuffer_histogram: histogram(list.map((p) => (p.watched + p.rebuffer > 0 ? p.rebuffer / (p.watched + p.rebuffer) : 0)), REBUFFER_RATIO_BUCKETS),
    keys: [...new Set(list.flatMap((p) => [
      'all:', `content:${site.content}`, `device:${p.device}`, `country:${p.country}`, `isp:${p.isp}`, `cdn:${p.cdn}`, `plan:${p.plan ? site.plan : NO_PLAN_KEY}`,
    ]))].sort(),
  };
}

function paymentRows(rows: Rows, site: Site, day: string) {
  const out = new Map<string, { day: string; plan_id: string; currency: string; status: string; payments: number; amount: number }>();
  for (const p of rows.pays.filter((x) => dayOf(x.at) === day)) {
    const k = `${p.currency}|${p.status}`;
    const acc = out.get(k) ?? { day, plan_id: site.plan, currency: p.currency, status: p.status, payments: 0, amount: 0 };
    acc.payments += 1;
    acc.amount += p.amount;
    out.set(k, acc);
  }
  return [...out.values()].sort((a, b) => `${a.currency}|${a.status}`.localeCompare(`${b.currency}|${b.status}`));
}

function audienceRows(rows: Rows, day: string) {
  const out = new Map<string, number>();
  for (const p of rows.people.filter((x) => dayOf(x.createdAt) === day)) out.set(p.country, (out.get(p.country) ?? 0) + 1);
  return [...out.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([country, signups]) => ({ day, country, signups }));
}

/** A day's subscription row as of a moment: the day's movements, paying and in trial at its end. */
function subscriptionRow(rows: Rows, site: Site, day: string, asOf: Date) {
  const end = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
  const happened = (d: Date | null) => d !== null && d.getTime() < end && d.getTime() <= asOf.getTime();
  const on = (d: Date | null) => d !== null && dayOf(d) === day;
  const upTo = (d: Date | null) => on(d) && d!.getTime() <= asOf.getTime();
  const trialEnd = (s: Sub) => (s.endedAt && s.trialEndsAt && s.endedAt < s.trialEndsAt ? s.endedAt : s.trialEndsAt);
  const row = {
    day, plan_id: site.plan,
    trials_started: rows.subs.filter((s) => s.trialEndsAt && on(s.startedAt)).length,
    paid_started: rows.subs.filter((s) => !s.trialEndsAt && on(s.startedAt)).length,
    conversions: rows.subs.filter((s) => upTo(s.trialEndsAt) && !(s.endedAt && s.endedAt <= s.trialEndsAt!)).length,
    cancellations: rows.subs.filter((s) => on(s.cancelledAt)).length,
    expirations: rows.subs.filter((s) => upTo(s.endedAt)).length,
    active_at_end: rows.subs.filter((s) => happened(s.trialEndsAt ?? s.startedAt) && !happened(s.endedAt)).length,
    trialing_at_end: rows.subs.filter((s) => s.trialEndsAt && happened(s.startedAt) && !happened(trialEnd(s))).length,
  };
  const { day: _d, plan_id: _p, ...figures } = row;
  return Object.values(figures).some((v) => v !== 0) ? row : undefined;
}

/** What the rollups of a site hold for each day: per day, the raw rows that count for it. */
function expected(site: Site, byDay: Record<string, { rows: Rows; asOf: Date } | null>) {
  return Object.fromEntries(DAYS.map((day) => {
    const source = byDay[day];
    if (!source) return [day, { playback: undefined, payments: [], audience: [], subscriptions: undefined }];
    return [day, {
      playback: playbackAll(source.rows, site, day), payments: paymentRows(source.rows, site, day), audience: audienceRows(source.rows, day),
      subscriptions: subscriptionRow(source.rows, site, day, source.asOf),
    }];
  }));
}

/** What the rollups of a site hold for the three days. */
async function rollupsOf(site: Site) {
  const num = <T extends Record<string, unknown>>(row: T, keep: string[]) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, keep.includes(k) ? v : Number(v)]));
  const playback = await queryRows<Record<string, unknown>>(db, sql`
    SELECT day::text AS day, sessions, viewers, watched_seconds, startup_ms_sum, rebuffer_count, rebuffer_seconds, error_sessions, bitrate_kbps_sum,
      startup_histogram, rebuffer_histogram
    FROM daily_playback_rollups WHERE site_id = ${site.id} AND dimension = 'all' AND day BETWEEN ${D1}::date AND ${D3}::date`);
  const keys = await queryRows<{ day: string; key: string }>(db, sql`
    SELECT day::text AS day, dimension || ':' || dim_key AS key FROM daily_playback_rollups
    WHERE site_id = ${site.id} AND day BETWEEN ${D1}::date AND ${D3}::date ORDER BY 2`);
  const pays = await queryRows<Record<string, unknown>>(db, sql`
    SELECT day::text AS day, plan_id::text AS plan_id, currency, status, payments, amount FROM daily_payment_rollups
    WHERE site_id = ${site.id} AND day BETWEEN ${D1}::date AND ${D3}::date ORDER BY currency, status`);
  const audience = await queryRows<Record<string, unknown>>(db, sql`
    SELECT day::text AS day, country, signups FROM daily_audience_rollups
    WHERE site_id = ${site.id} AND day BETWEEN ${D1}::date AND ${D3}::date ORDER BY country`);
  const subs = await queryRows<Record<string, unknown>>(db, sql`
    SELECT day::text AS day, plan_id::text AS plan_id, trials_started, paid_started, conversions, cancellations, expirations, active_at_end, trialing_at_end
    FROM daily_subscription_rollups WHERE site_id = ${site.id} AND day BETWEEN ${D1}::date AND ${D3}::date`);
  return Object.fromEntries(DAYS.map((day) => {
    const p = playback.find((r) => r.day === day);
    const s = subs.find((r) => r.day === day);
    return [day, {
      playback: p && { ...num(p, ['day', 'startup_histogram', 'rebuffer_histogram']), keys: keys.filter((k) => k.day === day).map((k) => k.key).sort() },
      payments: pays.filter((r) => r.day === day).map((r) => num(r, ['day', 'plan_id', 'currency', 'status'])),
      audience: audience.filter((r) => r.day === day).map((r) => num(r, ['day', 'country'])),
      subscriptions: s && num(s, ['day', 'plan_id']),
    }];
  }));
}

const first = (asOf = AS_OF) => ({ rows: FIRST, asOf });
const all = (asOf = AS_OF) => ({ rows: both(FIRST, LATER), asOf });

beforeAll(async () => {
  own = await openIsolatedTestDb();
  t = await createTestApp({ db: own.handle });
  db = t.db;
  siteA = await createSite();
  siteB = await createSite();
  await write(siteA, FIRST);
  await write(siteB, FIRST);
}, 180_000);

afterAll(async () => {
  await t?.close();
  await own?.drop();
});

// The tests run in order, each one a step of the same world.
describe('rebuilds and the fold touch what they cover and nothing else', () => {
  it('a rebuild of a site as of a moment: every rollup of its days from its raw rows; movements after the moment do not count yet', async () => {
    await rebuildRollups(db, { siteId: siteA.id, asOf: AS_OF });
    await rebuildRollups(db, { siteId: siteB.id, asOf: AS_OF });
    const mine = await rollupsOf(siteA);
    expect(mine).toEqual(expected(siteA, { [D1]: first(), [D2]: first(), [D3]: first() }));
    expect(await rollupsOf(siteB)).toEqual(expected(siteB, { [D1]: first(), [D2]: first(), [D3]: first() }));
    // The hand-worked figures the recomputation must give: the 10th's sessions at 00:00:00 and 12:00 (one
    // errored, 1.5 s and 9 s to start, rebuffer shares 10/100 and 0/0), and the 11th as of 12:00: one
    // trial converted at 06:00, the other (18:00) still in trial.
    expect(mine[D2]!.playback).toMatchObject({ sessions: 2, viewers: 2, error_sessions: 1, startup_histogram: [0, 0, 1, 0, 0, 1], rebuffer_histogram: [1, 0, 0, 0, 0, 1] });
    expect(mine[D3]!.subscriptions).toMatchObject({ conversions: 1, active_at_end: 2, trialing_at_end: 1 });
    // No row after the moment's day.
    const [after] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM daily_subscription_rollups WHERE site_id = ${siteA.id} AND day > ${D3}::date`);
    expect(after!.n).toBe(0);
  });

  it('a rebuild of one day of one site recomputes that day (its first and last instant included) and leaves the days around it and the other site alone', async () => {
    await write(siteA, LATER);
    await write(siteB, LATER);
    await rebuildRollups(db, { siteId: siteA.id, from: D2, to: D2, asOf: AS_OF });
    expect(await rollupsOf(siteA)).toEqual(expected(siteA, { [D1]: first(), [D2]: all(), [D3]: first() }));
    expect(await rollupsOf(siteB)).toEqual(expected(siteB, { [D1]: first(), [D2]: first(), [D3]: first() }));
  });

  it('a range that ends before the moment stops at its last day', async () => {
    // As of a later moment than the 11th's rows were built with: the 11th must not be rebuilt.
    await rebuildRollups(db, { siteId: siteA.id, from: D2, to: D2, asOf: new Date(`${D3}T23:00:00Z`) });
    expect(await rollupsOf(siteA)).toEqual(expected(siteA, { [D1]: first(), [D2]: all(), [D3]: first() }));
  });

  it('a rebuild of every site over one day recomputes that day of each and nothing else', async () => {
    await rebuildRollups(db, { from: D3, to: D3, asOf: AS_OF });
    expect(await rollupsOf(siteA)).toEqual(expected(siteA, { [D1]: first(), [D2]: all(), [D3]: all() }));
    expect(await rollupsOf(siteB)).toEqual(expected(siteB, { [D1]: first(), [D2]: first(), [D3]: all() }));
  });

  it('the fold re-aggregates the playback of the given days of one site (a day named twice counts once)', async () => {
    await db.transaction(async (tx) => foldPlaybackDays(tx, siteB.id, [D2, D1, D2]));
    const b = await rollupsOf(siteB);
    const before = expected(siteB, { [D1]: first(), [D2]: first(), [D3]: all() });
    const folded = expected(siteB, { [D1]: all(), [D2]: all(), [D3]: all() });
    expect(b).toEqual({
      [D1]: { ...before[D1], playback: folded[D1]!.playback },
      [D2]: { ...before[D2], playback: folded[D2]!.playback },
      [D3]: before[D3],
    });
    expect(await rollupsOf(siteA)).toEqual(expected(siteA, { [D1]: first(), [D2]: all(), [D3]: all() }));
  });

  it('a refresh of recent subscriptions recomputes, as of its moment, the subscription rows of that day and the day before of every site, and nothing else (issue 38)', async () => {
    // As of 23:00 on the 11th (UTC) the 18:00 trial has converted and the 20:00 ending happened: the
    // state a Dashboard's "today" must show once time has passed, with nothing written to fold.
    const later = new Date(`${D3}T23:00:00Z`);
    await refreshRecentSubscriptions(db, later);
    const mine = await rollupsOf(siteA);
    expect(mine).toEqual(expected(siteA, { [D1]: first(), [D2]: all(later), [D3]: all(later) }));
    expect(mine[D3]!.subscriptions).toMatchObject({ conversions: 2, expirations: 1 });
    const theirs = await rollupsOf(siteB);
    expect(theirs[D3]!.subscriptions).toEqual(expected(siteB, { [D3]: all(later) })[D3]!.subscriptions);
  });

  it('a rebuild of everything, as of now: every rollup of every site from all its rows', async () => {
    const now = new Date();
    await rebuildRollups(db);
    expect(await rollupsOf(siteA)).toEqual(expected(siteA, { [D1]: all(now), [D2]: all(now), [D3]: all(now) }));
    expect(await rollupsOf(siteB)).toEqual(expected(siteB, { [D1]: all(now), [D2]: all(now), [D3]: all(now) }));
    // As of now the 18:00 trial converted and the 20:00 ending happened (as of AS_OF neither had).
    expect((await rollupsOf(siteA))[D3]!.subscriptions).toMatchObject({ conversions: 2, expirations: 1 });
  });
});

describe('a day that is not YYYY-MM-DD is refused before anything is written', () => {
  it.each([
    [{ from: 'x2024-03-10' }, 'rollups: from must be a day as YYYY-MM-DD, got x2024-03-10'],
    [{ from: '2024-03-10x' }, 'rollups: from must be a day as YYYY-MM-DD, got 2024-03-10x'],
    [{ from: '2024-3-10' }, 'rollups: from must be a day as YYYY-MM-DD, got 2024-3-10'],
    [{ from: '2024-13-45' }, 'rollups: from must be a day as YYYY-MM-DD, got 2024-13-45'],
    [{ from: D1, to: '10/03/2024' }, 'rollups: to must be a day as YYYY-MM-DD, got 10/03/2024'],
  ])('%j', async (range, message) => {
    await expect(rebuildRollups(db, range)).rejects.toThrow(new Error(message));
  });

  it('the fold too', async () => {
    await expect(db.transaction(async (tx) => foldPlaybackDays(tx, siteA.id, [D1, '2024-02-3x']))).rejects.toThrow(new Error('rollups: from must be a day as YYYY-MM-DD, got 2024-02-3x'));
  });
});
