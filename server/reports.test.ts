/**
 * The reporting service over a small fixed world: raw rows are inserted, rebuildRollups() folds them,
 * and every report's totals must equal a recomputation from the raw rows (so rollups and reports are
 * proven right together). Also: isolation by site, the Dashboard 360 role and allowed-sites rules,
 * and 400s naming the parameter. The world's site counts its days in Asia/Tokyo (issue 38: the site's
 * zone; UTC+9, no daylight saving): a session started at 15:00 UTC or later counts on the next day, and
 * every recomputation here reads the site's day of a moment (`dayOf`) and ends a day at 23:59:59.999 there.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from '../common/constants';
import { isFigureKey } from '../common/figures';
import { REPORT_NAMES, REPORT_SPECS, REPORTS_PATH, type ReportAnswer, type ReportName } from '../common/reports';
import { siteDayOf } from '../common/site-day';
import { rebuildRollups } from './db/rollups';
import {
  contentItems, networks, payments, playbackSessions, plans, sites, subscribers, subscriptions,
} from './db/schema';
import { histogramQuantile } from './domain/reports/stats';
import { createBareSite, createTestApp, type Session, type TestApp } from './test/kit';

const FROM = '2024-05-01';
const TO = '2024-05-20';
const RANGE = `from=${FROM}&to=${TO}`;

/** A deterministic pseudo-random sequence (the world is the same on every run). */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

/** The world's site's zone, and its fixed offset (Tokyo keeps no daylight saving). */
const ZONE = 'Asia/Tokyo';
const ZONE_OFFSET = '+09:00';
const at = (day: string, hour = 12) => new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
/** The site's day of a moment. */
const dayOf = (date: Date) => siteDayOf(date, ZONE);
/** The last millisecond of a site's day. */
const endOfDayMs = (day: string) => Date.parse(`${day}T23:59:59.999${ZONE_OFFSET}`);
/** Calendar arithmetic on 'YYYY-MM-DD' (no zone). */
const calendarDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayN = (n: number) => calendarDay(Date.parse(`${FROM}T00:00:00Z`) + n * 86_400_000);

interface World {
  siteId: string;
  site: string;
  networkIds: string[];
  networkIdentifiers: string[];
  content: { id: string; title: string; duration: number }[];
  plans: { id: string; name: string }[];
  subscribers: { id: string; country: string; createdAt: Date }[];
  subs: (typeof subscriptions.$inferInsert)[];
  pays: (typeof payments.$inferInsert)[];
  sessions: (typeof playbackSessions.$inferInsert)[];
}

async function createWorld(t: TestApp, seed: number, now: Date): Promise<World> {
  const random = rng(seed);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const name = `reports-${randomUUID().slice(0, 8)}`;
  const siteId = await createBareSite(t.db, name);
  await t.db.update(sites).set({ defaultTimezone: ZONE }).where(eq(sites.id, siteId));
  const nets = await t.db.insert(networks).values([
    { siteId, identifier: `${name}-main`, name: 'Main', image: '/logo.svg', isActive: true, isDefault: true },
    { siteId, identifier: `${name}-kids`, name: 'Kids', image: '/logo.svg', isActive: true, isDefault: false },
  ]).returning();
  const networkIds = nets.map((n) => n.id);
  const content = await t.db.insert(contentItems).values(['Harbour Lights', 'Night Train', 'Salt Flats', 'The Long Field'].map((title, i) => ({
    siteId, kind: 'video', title, titleSearch: title.toLowerCase(), genre: i % 2 ? 'Drama' : 'Documentary', durationSeconds: 1800 + i * 600, status: 'published',
  }))).returning();
  const planRows = await t.db.insert(plans).values([
    { siteId, name: 'Monthly', prices: [{ currency: 'USD', amount: 999 }], billingPeriod: 'month', status: 'active' },
    { siteId, name: 'Annual', prices: [{ currency: 'USD', amount: 9999 }], billingPeriod: 'year', status: 'active' },
  ]).returning();
  const subscriberRows = await t.db.insert(subscribers).values(Array.from({ length: 14 }, (_, i) => ({
    siteId, networkId: pick(networkIds), email: `viewer${i}@${name}.test`, name: `Viewer ${i}`,
    country: pick(['US', 'GB', 'DE']), createdAt: at(dayN(Math.floor(random() * 18)), 8),
  }))).returning();

  const subs: World['subs'] = [];
  for (const [i, s] of subscriberRows.entries()) {
    if (i % 5 === 4) continue;
    const plan = pick(planRows);
    const start = at(dayOf(s.createdAt), 9);
    const trial = i % 3 === 0;
    const ended = i % 4 === 1 ? at(dayN(12 + (i % 6)), 10) : null;
    subs.push({
      id: randomUUID(), siteId, networkId: s.networkId, subscriberId: s.id, planId: plan.id,
      status: ended ? 'expired' : trial ? 'trialing' : 'active', startedAt: start,
      trialEndsAt: trial ? new Date(start.getTime() + 7 * 86_400_000) : null,
      currentPeriodStart: start, currentPeriodEnd: new Date(start.getTime() + 30 * 86_400_000),
      cancelledAt: ended ? new Date(ended.getTime() - 86_400_000) : null, endedAt: ended,
      amount: plan.name === 'Annual' ? 9999 : 999, currency: 'USD',
    });
  }
  await t.db.insert(subscriptions).values(subs);
  const pays: World['pays'] = subs.map((s, i) => ({
    siteId, networkId: s.networkId, subscriberId: s.subscriberId, subscriptionId: s.id!, planId: s.planId,
    amount: s.amount, currency: i % 7 === 6 ? 'EUR' : 'USD', status: i % 6 === 5 ? 'failed' : i % 8 === 3 ? 'refunded' : 'succeeded',
    method: 'card', at: new Date((s.startedAt as Date).getTime() + 3_600_000),
  }));
  await t.db.insert(payments).values(pays);

  const sessions: World['sessions'] = [];
  for (let i = 0; i < 90; i++) {
    const viewer = pick(subscriberRows);
    const started = new Date(at(dayN(Math.floor(random() * 20)), 6).getTime() + Math.floor(random() * 14 * 3_600_000));
    const watched = 60 + Math.floor(random() * 2400);
    sessions.push({
      id: randomUUID(), siteId, networkId: viewer.networkId, subscriberId: viewer.id, contentId: pick(content).id,
      deviceType: pick(['web', 'ios', 'android', 'roku']), country: viewer.country, isp: pick(['Comcast', 'BT', 'Telekom']),
      cdn: pick(['akamai', 'fastly']), startedAt: started, lastEventAt: new Date(started.getTime() + watched * 1000),
      endedAt: new Date(started.getTime() + watched * 1000), watchedSeconds: watched,
      startupMs: 200 + Math.floor(random() * 9000), rebufferCount: Math.floor(random() * 3),
      rebufferSeconds: Math.floor(random() * 40), avgBitrateKbps: 1500 + Math.floor(random() * 4000),
      errorCode: random() < 0.08 ? 'E_DECODE' : null,
    });
  }
  // Live: sessions with events in the last minutes (the real-time reports), one old session outside the window.
  for (let i = 0; i < 6; i++) {
    const viewer = subscriberRows[i]!;
    sessions.push({
      id: randomUUID(), siteId, networkId: viewer.networkId, subscriberId: viewer.id, contentId: content[i % 2]!.id,
      deviceType: i % 2 ? 'web' : 'ios', country: viewer.country, isp: 'BT', cdn: 'akamai',
      startedAt: new Date(now.getTime() - (10 + i) * 60_000), lastEventAt: new Date(now.getTime() - i * 20_000),
      watchedSeconds: 300, startupMs: 800 + i * 100, rebufferSeconds: i, avgBitrateKbps: 3000,
    });
  }
  await t.db.insert(playbackSessions).values(sessions);
  await rebuildRollups(t.db, { siteId });
  return {
    siteId, site: name, networkIds, networkIdentifiers: nets.map((n) => n.identifier),
    content: content.map((c) => ({ id: c.id, title: c.title, duration: c.durationSeconds })),
    plans: planRows.map((p) => ({ id: p.id, name: p.name })),
    subscribers: subscriberRows.map((s) => ({ id: s.id, country: s.country, createdAt: s.createdAt })),
    subs, pays, sessions,
  };
}

let t: TestApp;
let world: World;
let other: World;
let analyst: Session;
let otherAnalyst: Session;
const now = new Date();

async function report<T = ReportAnswer>(session: Session, name: ReportName | string, query = RANGE) {
  const res = await t.get(`${REPORTS_PATH}/${name}?${query}`, session.headers);
  return { status: res.statusCode, body: res.json<T & { message?: string }>() };
}

const inRange = (s: { startedAt?: Date | string | null }) => {
  const day = dayOf(s.startedAt as Date);
  return day >= FROM && day <= TO;
};
const rangeSessions = () => world.sessions.filter(inRange);
const sum = <T,>(list: T[], f: (x: T) => number) => list.reduce((a, x) => a + f(x), 0);
const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
/** The bucket index of a value (width_bucket semantics of the rollups). */
const bucketOf = (value: number, bounds: readonly number[]) => bounds.filter((b) => value >= b).length;
function histogramOf(values: number[], bounds: readonly number[]): number[] {
  const counts = Array.from({ length: bounds.length + 1 }, () => 0);
  for (const v of values) counts[bucketOf(v, bounds)]! += 1;
  return counts;
}
const daysOf = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = Date.parse(`${from}T00:00:00Z`); d <= Date.parse(`${to}T00:00:00Z`); d += 86_400_000) out.push(calendarDay(d));
  return out;
};
const dayBefore = (day: string) => calendarDay(Date.parse(`${day}T00:00:00Z`) - 86_400_000);
/** The Monday of a day's ISO week (week periods are named by it), or its month for month periods. */
const periodName = (day: string, granularity: 'day' | 'week' | 'month') => {
  if (granularity === 'month') return day.slice(0, 7);
  if (granularity === 'day') return day;
  const date = new Date(`${day}T00:00:00Z`);
  return calendarDay(date.getTime() - ((date.getUTCDay() + 6) % 7) * 86_400_000);
};
/** The days of [from, to] grouped by period, in order. */
const periodDays = (from: string, to: string, granularity: 'day' | 'week' | 'month') => {
  const out = new Map<string, string[]>();
  for (const day of daysOf(from, to)) out.set(periodName(day, granularity), [...(out.get(periodName(day, granularity)) ?? []), day]);
  return [...out.entries()];
};
type Sub = World['subs'][number];
const time = (d: unknown) => (d ? (d as Date).getTime() : null);
/** Subscriptions in their trial, and paying (active or past due), at 23:59:59.999 of a site's day. */
const subsAtEndOf = (day: string, planId?: string) => {
  const subs = world.subs.filter((s) => !planId || s.planId === planId);
  const dayEnd = endOfDayMs(day);
  const started = (s: Sub) => time(s.startedAt)! <= dayEnd;
  const ended = (s: Sub) => time(s.endedAt) !== null && time(s.endedAt)! <= dayEnd;
  return {
    trialing: subs.filter((s) => s.trialEndsAt && started(s) && time(s.trialEndsAt)! > dayEnd && !ended(s)).length,
    subscribers: subs.filter((s) => time(s.trialEndsAt ?? s.startedAt)! <= dayEnd && !ended(s)).length,
  };
};
/** A day's subscription movements straight from the raw subscriptions. */
const movementsOn = (day: string) => {
  const on = (d: unknown) => !!d && time(d)! <= now.getTime() && dayOf(d as Date) === day;
  return {
    trials: world.subs.filter((s) => s.trialEndsAt && on(s.startedAt)).length,
    paid: world.subs.filter((s) => !s.trialEndsAt && on(s.startedAt)).length,
    conv: world.subs.filter((s) => on(s.trialEndsAt) && (!s.endedAt || time(s.endedAt)! > time(s.trialEndsAt)!)).length,
    canc: world.subs.filter((s) => on(s.cancelledAt)).length,
    expi: world.subs.filter((s) => on(s.endedAt)).length,
  };
};
/** change_in_user_base's measures of a run of days: movements summed, paying at the start and the end. */
const changeOf = (days: string[]) => {
  const m = days.map(movementsOn).reduce((a, d) => ({
    trials: a.trials + d.trials, paid: a.paid + d.paid, conv: a.conv + d.conv, canc: a.canc + d.canc, expi: a.expi + d.expi,
  }));
  const start = subsAtEndOf(dayBefore(days[0]!)).subscribers;
  const end = subsAtEndOf(days[days.length - 1]!).subscribers;
  return {
    trialsStarted: m.trials, paidStarted: m.paid, conversions: m.conv, cancellations: m.canc, expirations: m.expi,
    gained: m.paid + m.conv, lost: m.expi, net: end - start, activeAtEnd: end,
    // Churn: paying subscriptions lost over everyone who paid in the period (paying at the start + gained);
    // endings of trials that never paid are not churn.
    churnPct: start + m.paid + m.conv > 0 ? round((100 * (start + m.paid + m.conv - end)) / (start + m.paid + m.conv), 2) : null,
  };
};
/** user_base's measures of a run of days (sign-ups and daily viewers of a country when given). */
const userBaseOf = (days: string[], country?: string) => {
  const signups = world.subscribers.filter((s) => (!country || s.country === country) && days.includes(dayOf(s.createdAt))).length;
  const viewerDays = new Set(world.sessions.filter((s) => (!country || s.country === country) && days.includes(dayOf(s.startedAt as Date)))
    .map((s) => `${dayOf(s.startedAt as Date)}|${s.subscriberId}`)).size;
  const base = { signups, viewers: round(viewerDays / days.length) };
  return country ? base : { ...base, ...subsAtEndOf(days[days.length - 1]!) };
};
const rebufferRatio = (s: (typeof world.sessions)[number]) => {
  const w = s.watchedSeconds ?? 0;
  const r = s.rebufferSeconds ?? 0;
  return w + r > 0 ? r / (w + r) : 0;
};

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  world = await createWorld(t, 7, now);
  other = await createWorld(t, 99, now);
  const user = await t.createUser({ site: world.site, roles: { 'Dashboard 360': 'read' }, prefix: 'analyst' });
  analyst = await t.login(user.username);
  const otherUser = await t.createUser({ site: other.site, roles: { 'Dashboard 360': 'read' }, prefix: 'analyst' });
  otherAnalyst = await t.login(otherUser.username);
});
afterAll(async () => t?.close());

describe('reports equal a recomputation from the raw rows', () => {
  it('user_behavior: sessions, watch time, minutes per session, daily viewers', async () => {
    const { status, body } = await report(analyst, 'user_behavior');
    expect(status).toBe(200);
    const raw = rangeSessions();
    const viewerDays = new Set(raw.map((s) => `${dayOf(s.startedAt as Date)}|${s.subscriberId}`)).size;
    expect(body.totals).toEqual({
      sessions: raw.length,
      viewers: round(viewerDays / 20),
      watchHours: round(sum(raw, (s) => s.watchedSeconds!) / 3600),
      avgMinutes: round(sum(raw, (s) => s.watchedSeconds!) / 60 / raw.length),
    });
    expect(body.rows).toHaveLength(20);
    expect(sum(body.rows, (r) => r.sessions as number)).toBe(raw.length);
  });

  it('user_behavior by week and month keeps the same totals; a device filter counts that device only', async () => {
    const week = await report(analyst, 'user_behavior', `${RANGE}&granularity=week`);
    expect(week.body.rows.map((r) => r.period)).toEqual(['2024-04-29', '2024-05-06', '2024-05-13', '2024-05-20']);
    expect(sum(week.body.rows, (r) => r.sessions as number)).toBe(rangeSessions().length);
    const month = await report(analyst, 'user_behavior', `${RANGE}&granularity=month`);
    expect(month.body.rows.map((r) => r.period)).toEqual(['2024-05']);
    const web = await report(analyst, 'user_behavior', `${RANGE}&device=web`);
    expect(web.body.totals.sessions).toBe(rangeSessions().filter((s) => s.deviceType === 'web').length);
  });

  it('qos: startup and rebuffer averages from raw sums, p50/p95 from the histograms, in the right bucket', async () => {
    const { body } = await report(analyst, 'qos');
    const raw = rangeSessions();
    const startups = raw.map((s) => s.startupMs!);
    const ratios = raw.map(rebufferRatio);
    const watched = sum(raw, (s) => s.watchedSeconds!);
    const rebuffer = sum(raw, (s) => s.rebufferSeconds!);
    expect(body.totals.sessions).toBe(raw.length);
    expect(body.totals.startupAvgMs).toBe(Math.round(sum(startups, (v) => v) / raw.length));
    expect(body.totals.rebufferPct).toBe(round((100 * rebuffer) / (watched + rebuffer), 2));
    expect(body.totals.errorPct).toBe(round((100 * raw.filter((s) => s.errorCode).length) / raw.length, 2));
    expect(body.totals.bitrateKbps).toBe(Math.round(sum(raw, (s) => s.avgBitrateKbps!) / raw.length));
    expect(body.totals.startupP50Ms).toBe(Math.round(histogramQuantile(histogramOf(startups, STARTUP_MS_BUCKETS), STARTUP_MS_BUCKETS, 0.5)!));
    expect(body.totals.startupP95Ms).toBe(Math.round(histogramQuantile(histogramOf(startups, STARTUP_MS_BUCKETS), STARTUP_MS_BUCKETS, 0.95)!));
    expect(body.totals.rebufferP95Pct).toBe(round(100 * histogramQuantile(histogramOf(ratios, REBUFFER_RATIO_BUCKETS), REBUFFER_RATIO_BUCKETS, 0.95)!, 2));
    // The estimate sits in the bucket of the exact median.
    const exactMedian = [...startups].sort((a, b) => a - b)[Math.ceil(startups.length / 2) - 1]!;
    const b = bucketOf(exactMedian, STARTUP_MS_BUCKETS);
    expect(body.totals.startupP50Ms).toBeGreaterThanOrEqual(b === 0 ? 0 : STARTUP_MS_BUCKETS[b - 1]! - 1);
    expect(body.totals.startupP50Ms).toBeLessThanOrEqual(STARTUP_MS_BUCKETS[b] ?? Infinity);
  });

  it.each(['device', 'country', 'isp', 'cdn'] as const)('qos by %s: one row per key with its raw session count', async (by) => {
    const column = { device: 'deviceType', country: 'country', isp: 'isp', cdn: 'cdn' }[by] as 'deviceType';
    const { body } = await report(analyst, 'qos', `${RANGE}&by=${by}`);
    const expected = new Map<string, number>();
    for (const s of rangeSessions()) expected.set(s[column] as string, (expected.get(s[column] as string) ?? 0) + 1);
    expect(new Map(body.rows.map((r) => [r.key, r.sessions]))).toEqual(expected);
  });

  it('qos_video_level_report and dtl_video_engagement: per title, by title name', async () => {
    const expected = new Map(world.content.map((c) => [c.title, rangeSessions().filter((s) => s.contentId === c.id).length]));
    for (const [k, v] of expected) if (v === 0) expected.delete(k);
    const qosByTitle = await report(analyst, 'qos_video_level_report');
    expect(new Map(qosByTitle.body.rows.map((r) => [r.key, r.sessions]))).toEqual(expected);
    const dtl = await report(analyst, 'dtl_video_engagement');
    expect(new Map(dtl.body.rows.map((r) => [r.title, r.sessions]))).toEqual(expected);
    const first = world.content.find((c) => c.title === dtl.body.rows[0]!.title)!;
    const its = rangeSessions().filter((s) => s.contentId === first.id);
    // Each title row names its content item (not a column: never shown as a cell, never in the CSV), issue 27.
    for (const row of dtl.body.rows) {
      const item = world.content.find((c) => c.title === row.title)!;
      expect(row).toMatchObject({ contentId: item.id, contentType: 'video' });
    }
    expect(dtl.body.columns.map((c) => c.key)).not.toContain('contentId');
    expect(dtl.body.rows[0]!.watchThroughPct).toBe(round(Math.min(100, (100 * sum(its, (s) => s.watchedSeconds!)) / (its.length * first.duration))));
  });

  it('video_engagement: sessions and titles watched', async () => {
    const { body } = await report(analyst, 'video_engagement');
    expect(body.totals.sessions).toBe(rangeSessions().length);
    expect(body.totals.titles).toBe(new Set(rangeSessions().map((s) => s.contentId)).size);
  });

  it('qos_bucket_metric_report: startup-time shares per device add up to the raw histogram', async () => {
    const { body } = await report(analyst, 'qos_bucket_metric_report', `${RANGE}&by=device`);
    const web = rangeSessions().filter((s) => s.deviceType === 'web');
    const counts = histogramOf(web.map((s) => s.startupMs!), STARTUP_MS_BUCKETS);
    const row = body.rows.find((r) => r.key === 'web')!;
    expect(row.sessions).toBe(web.length);
    counts.forEach((n, i) => expect(row[`b${i}`]).toBe(round((100 * n) / web.length)));
  });

  it('user_base: sign-ups in the range and paying subscribers at its end', async () => {
    const { body } = await report(analyst, 'user_base');
    const end = endOfDayMs(TO);
    const paying = world.subs.filter((s) => {
      const activated = ((s.trialEndsAt ?? s.startedAt) as Date).getTime();
      const ended = (s.endedAt as Date | null)?.getTime();
      return activated <= end && (ended === undefined || ended > end);
    }).length;
    expect(body.totals.signups).toBe(world.subscribers.filter((s) => dayOf(s.createdAt) >= FROM && dayOf(s.createdAt) <= TO).length);
    expect(body.totals.subscribers).toBe(paying);
    // Issue 27: "In trial (end)" is the subscriptions in their trial at the end of each day, straight
    // from the raw rows (a paid subscription without a trial that ends must not count -1: it did).
    const atEndOf = (day: string) => {
      const dayEnd = endOfDayMs(day);
      const started = (s: World['subs'][number]) => (s.startedAt as Date).getTime() <= dayEnd;
      const ended = (s: World['subs'][number]) => s.endedAt !== null && s.endedAt !== undefined && (s.endedAt as Date).getTime() <= dayEnd;
      return {
        trialing: world.subs.filter((s) => s.trialEndsAt && started(s) && (s.trialEndsAt as Date).getTime() > dayEnd && !ended(s)).length,
        subscribers: world.subs.filter((s) => ((s.trialEndsAt ?? s.startedAt) as Date).getTime() <= dayEnd && !ended(s)).length,
      };
    };
    expect(world.subs.some((s) => !s.trialEndsAt && s.endedAt)).toBe(true);
    expect(body.totals.trialing).toBe(atEndOf(TO).trialing);
    expect(body.rows.map((r) => ({ period: r.period, trialing: r.trialing, subscribers: r.subscribers })))
      .toEqual(body.rows.map((r) => ({ period: r.period, ...atEndOf(String(r.period)) })));
    expect(body.rows.some((r) => Number(r.trialing) > 0)).toBe(true);
    const gb = await report(analyst, 'user_base', `${RANGE}&country=GB`);
    expect(gb.body.totals.signups).toBe(world.subscribers.filter((s) => s.country === 'GB').length);
    expect(gb.body.columns.map((c) => c.key)).not.toContain('subscribers');
  });

  it('change_in_user_base: trials, paid starts and endings of the range', async () => {
    const { body } = await report(analyst, 'change_in_user_base');
    const within = (d: Date | null | undefined) => !!d && dayOf(d) >= FROM && dayOf(d) <= TO;
    expect(body.totals.trialsStarted).toBe(world.subs.filter((s) => s.trialEndsAt && within(s.startedAt as Date)).length);
    expect(body.totals.paidStarted).toBe(world.subs.filter((s) => !s.trialEndsAt && within(s.startedAt as Date)).length);
    expect(body.totals.lost).toBe(world.subs.filter((s) => within(s.endedAt as Date | null)).length);
    expect(body.totals.cancellations).toBe(world.subs.filter((s) => within(s.cancelledAt as Date | null)).length);
  });

  // Issue 27: mutation testing found user_base and change_in_user_base rows never asserted. Every row
  // and total below is recomputed from the raw subscribers, sessions and subscriptions.
  it.each([
    [FROM, TO, 'day'], [FROM, TO, 'week'], ['2024-05-08', '2024-05-19', 'week'], [FROM, TO, 'month'], ['2024-05-10', '2024-06-12', 'month'],
  ] as const)('user_base %s..%s by %s: every row and total from the raw rows, paying and trialing at each period\'s last day', async (from, to, g) => {
    const { status, body } = await report(analyst, 'user_base', `from=${from}&to=${to}&granularity=${g}`);
    expect(status).toBe(200);
    expect(body.columns.map((c) => c.key)).toEqual(['period', 'signups', 'viewers', 'subscribers', 'trialing']);
    expect(body.rows).toEqual(periodDays(from, to, g).map(([period, days]) => ({ period, ...userBaseOf(days) })));
    expect(body.totals).toEqual(userBaseOf(daysOf(from, to)));
  });

  it('user_base with a country: that country\'s sign-ups and viewers per day, no subscription columns', async () => {
    const { body } = await report(analyst, 'user_base', `${RANGE}&country=GB`);
    expect(body.columns.map((c) => c.key)).toEqual(['period', 'signups', 'viewers']);
    expect(body.rows).toEqual(daysOf(FROM, TO).map((day) => ({ period: day, ...userBaseOf([day], 'GB') })));
    expect(body.totals).toEqual(userBaseOf(daysOf(FROM, TO), 'GB'));
  });

  it('user_base with a plan: that plan\'s paying and trialing subscriptions at the end of each day, no sign-ups (they have no plan)', async () => {
    const plan = world.plans[1]!;
    const { status, body } = await report(analyst, 'user_base', `${RANGE}&plan=${plan.id}`);
    expect(status).toBe(200);
    expect(body.columns.map((c) => c.key)).toEqual(['period', 'viewers', 'subscribers', 'trialing']);
    expect(body.rows.map(({ viewers: _v, ...r }) => r)).toEqual(daysOf(FROM, TO).map((day) => ({ period: day, ...subsAtEndOf(day, plan.id) })));
    expect(body.rows.some((r) => Number(r.subscribers) > 0)).toBe(true);
    const { viewers: _v, ...totals } = body.totals;
    expect(totals).toEqual(subsAtEndOf(TO, plan.id));
  });

  it('user_base and change_in_user_base name their columns as the spec does (label, kind and figure)', async () => {
    const base = await report(analyst, 'user_base');
    expect(base.body.columns).toEqual([
      { key: 'period', label: 'Period', kind: 'period' }, { key: 'signups', label: 'Sign-ups', kind: 'count', figure: 'signups' },
      { key: 'viewers', label: 'Viewers (daily average)', kind: 'count', figure: 'viewers' },
      { key: 'subscribers', label: 'Paying subscribers (end)', kind: 'count', figure: 'subscribers' },
      { key: 'trialing', label: 'In trial (end)', kind: 'count', figure: 'trialing' },
    ]);
    const change = await report(analyst, 'change_in_user_base');
    expect(change.body.columns).toEqual([
      { key: 'period', label: 'Period', kind: 'period' }, { key: 'trialsStarted', label: 'Trials started', kind: 'count', figure: 'trialsStarted' },
      { key: 'paidStarted', label: 'Paid starts', kind: 'count', figure: 'paidStarted' },
      { key: 'conversions', label: 'Trial conversions', kind: 'count', figure: 'conversions' },
      { key: 'gained', label: 'Paying gained', kind: 'count', figure: 'gained' },
      { key: 'cancellations', label: 'Cancellations', kind: 'count', figure: 'cancellations' },
      { key: 'lost', label: 'Subscriptions ended', kind: 'count', figure: 'lost' }, { key: 'net', label: 'Net change (paying)', kind: 'count', figure: 'net' },
      { key: 'activeAtEnd', label: 'Paying at end', kind: 'count', figure: 'activeAtEnd' },
      { key: 'churnPct', label: 'Churn (%)', kind: 'percent', figure: 'churnPct' },
    ]);
  });

  it('every figure column of every report (each breakdown too) names a figure with a definition; one column key can mean different figures', async () => {
    const asked = REPORT_NAMES.flatMap((name) => (REPORT_SPECS[name].by ?? [undefined]).map((by) => ({ name, by })));
    const figuresOf = new Map<string, Set<string>>();
    for (const { name, by } of asked) {
      const { status, body } = await report(analyst, name, `${RANGE}${by ? `&by=${by}` : ''}`);
      expect(status, `${name} by ${by}`).toBe(200);
      for (const c of body.columns) {
        if (c.kind === 'text' || c.kind === 'period') {
          expect(c.figure, `${name}.${c.key}`).toBeUndefined();
          continue;
        }
        expect(isFigureKey(c.figure), `${name}${by ? ` by ${by}` : ''}: column ${c.key} (${c.label}) has no figure definition`).toBe(true);
        figuresOf.set(c.key, (figuresOf.get(c.key) ?? new Set()).add(c.figure!));
      }
    }
    // The cohort's subscribers are not the paying subscribers, nor those billed in one currency (lifetime value);
    // the real-time viewers are not a daily average.
    expect([...figuresOf.get('subscribers')!].sort()).toEqual(['cohortSubscribers', 'ltvSubscribers', 'subscribers']);
    expect([...figuresOf.get('viewers')!].sort()).toEqual(['viewers', 'viewersMinute', 'viewersWindow']);
    expect([...figuresOf.get('revenue')!].sort()).toEqual(['attributedRevenue', 'cohortNetRevenue', 'revenue']);
  });

  it.each(['user_base', 'change_in_user_base'])('%s over a range without data: no rows, zero totals', async (name) => {
    const { status, body } = await report(analyst, name, 'from=2023-01-01&to=2023-01-31');
    expect(status).toBe(200);
    expect(body.rows).toEqual([]);
    expect(body.totals).toEqual(name === 'user_base'
      ? { signups: 0, viewers: 0, subscribers: 0, trialing: 0 }
      : { trialsStarted: 0, paidStarted: 0, conversions: 0, cancellations: 0, expirations: 0, gained: 0, lost: 0, net: 0, activeAtEnd: 0, churnPct: null });
  });

  it.each([
    [FROM, TO, 'day'], ['2024-05-10', '2024-05-20', 'day'], [FROM, TO, 'week'], ['2024-05-09', '2024-05-22', 'week'], ['2024-05-12', '2024-06-03', 'month'],
  ] as const)('change_in_user_base %s..%s by %s: movements, net = end − start and churn from the raw rows', async (from, to, g) => {
    const { status, body } = await report(analyst, 'change_in_user_base', `from=${from}&to=${to}&granularity=${g}`);
    expect(status).toBe(200);
    expect(body.columns.map((c) => c.key)).toEqual(['period', 'trialsStarted', 'paidStarted', 'conversions', 'gained', 'cancellations', 'lost', 'net', 'activeAtEnd', 'churnPct']);
    expect(body.rows).toEqual(periodDays(from, to, g).map(([period, days]) => ({ period, ...changeOf(days) })));
    expect(body.totals).toEqual(changeOf(daysOf(from, to)));
  });

  it('change_in_user_base: the world has every kind of movement, and paying subscribers at the start of a later range', () => {
    const { churnPct, ...counts } = changeOf(daysOf(FROM, TO));
    // Nobody paid before the world's first day: churn of the whole range is over the gained alone.
    expect(subsAtEndOf(dayBefore(FROM)).subscribers).toBe(0);
    expect(churnPct).toBeGreaterThan(0);
    expect(Object.entries(counts).filter(([, v]) => v <= 0)).toEqual([]);
    expect(changeOf(daysOf('2024-05-10', '2024-05-20')).churnPct).toBeGreaterThan(0);
    expect(subsAtEndOf('2024-05-09').subscribers).toBeGreaterThan(0);
  });

  it('change_in_user_base with a plan: that plan\'s subscriptions only', async () => {
    const plan = world.plans[0]!;
    const { body } = await report(analyst, 'change_in_user_base', `${RANGE}&plan=${plan.id}`);
    const mine = world.subs.filter((s) => s.planId === plan.id);
    const within = (d: unknown) => !!d && dayOf(d as Date) >= FROM && dayOf(d as Date) <= TO;
    expect(body.totals).toMatchObject({
      trialsStarted: mine.filter((s) => s.trialEndsAt && within(s.startedAt)).length,
      paidStarted: mine.filter((s) => !s.trialEndsAt && within(s.startedAt)).length,
      lost: mine.filter((s) => within(s.endedAt)).length,
    });
  });

  it('payment_summary_report: revenue, refunds and failures of the chosen currency', async () => {
    const { body } = await report(analyst, 'payment_summary_report');
    expect(body.currency).toBe('USD');
    expect(body.currencies).toEqual(expect.arrayContaining(['USD']));
    const usd = world.pays.filter((p) => p.currency === 'USD');
    // A refunded payment is a charge taken and given back: revenue counts it, refunds take it off,
    // net revenue is what was kept (the succeeded charges). Before, refunds came off twice.
    const kept = sum(usd.filter((p) => p.status === 'succeeded'), (p) => p.amount);
    const refunds = sum(usd.filter((p) => p.status === 'refunded'), (p) => p.amount);
    const revenue = kept + refunds;
    expect(refunds).toBeGreaterThan(0);
    expect(body.totals).toMatchObject({
      payments: usd.filter((p) => p.status === 'succeeded' || p.status === 'refunded').length, revenue, refunds, netRevenue: kept,
      failed: usd.filter((p) => p.status === 'failed').length,
    });
    const byPlan = await report(analyst, 'payment_summary_report', `${RANGE}&by=plan`);
    expect(sum(byPlan.body.rows, (r) => r.revenue as number)).toBe(revenue);
    const byContent = await report(analyst, 'payment_summary_report', `${RANGE}&by=content`);
    // Attribution shares each day's revenue among that day's titles: nothing is lost on days with playback.
    expect(byContent.body.totals.revenue).toBeLessThanOrEqual(revenue - refunds + 1);
    expect(sum(byContent.body.rows, (r) => r.sharePct as number)).toBeCloseTo(100, 0);
    for (const row of byContent.body.rows) expect(world.content.find((c) => c.id === row.contentId)?.title).toBe(row.title);
  });

  it('cohort_analysis: cohort sizes and month-0 retention from the subscriptions', async () => {
    const { body } = await report(analyst, 'cohort_analysis');
    const firsts = new Map<string, (typeof world.subs)[number]>();
    for (const s of [...world.subs].sort((a, b) => (a.startedAt as Date).getTime() - (b.startedAt as Date).getTime())) {
      if (!firsts.has(s.subscriberId)) firsts.set(s.subscriberId, s);
    }
    expect(body.rows).toEqual([{ cohort: '2024-05', subscribers: firsts.size, m0: 100 }]);
    expect(body.columns.map((c) => c.key)).toEqual(['cohort', 'subscribers', 'm0']);
    expect(body.totals).toEqual({ cohorts: 1, subscribers: firsts.size, m1: null });
  });

  it('cohort_analysis over months: each month the share of the cohort with a subscription running, recomputed', async () => {
    // April to July: the May cohort's subscriptions run into June and July unless they ended in May.
    const { status, body } = await report(analyst, 'cohort_analysis', 'from=2024-04-01&to=2024-07-31');
    expect(status).toBe(200);
    // The site's months.
    const monthIndex = (d: Date) => Number(dayOf(d).slice(0, 4)) * 12 + Number(dayOf(d).slice(5, 7)) - 1;
    const cohortMonth = monthIndex(new Date(`2024-05-01T00:00:00${ZONE_OFFSET}`));
    const lastMonth = monthIndex(new Date(`2024-07-31T00:00:00${ZONE_OFFSET}`));
    const covering = (k: number) => new Set(world.subs.filter((s) => {
      const first = monthIndex(s.startedAt as Date) - cohortMonth;
      const last = Math.min(s.endedAt ? monthIndex(s.endedAt as Date) : lastMonth, lastMonth) - cohortMonth;
      return first <= k && k <= last;
    }).map((s) => s.subscriberId)).size;
    const size = new Set(world.subs.map((s) => s.subscriberId)).size;
    const pct = (k: number) => round((100 * covering(k)) / size);
    expect(covering(1)).toBeGreaterThan(0);
    expect(covering(1)).toBeLessThan(size);
    expect(body.columns.map((c) => [c.key, c.label, c.kind, c.figure])).toEqual([
      ['cohort', 'Cohort (first subscription)', 'text', undefined], ['subscribers', 'Subscribers', 'count', 'cohortSubscribers'],
      ['m0', 'Month 0 (%)', 'percent', 'retentionPct'], ['m1', 'Month 1 (%)', 'percent', 'retentionPct'], ['m2', 'Month 2 (%)', 'percent', 'retentionPct'],
    ]);
    expect(body.rows).toEqual([{ cohort: '2024-05', subscribers: size, m0: 100, m1: pct(1), m2: pct(2) }]);
    expect(body.totals).toEqual({ cohorts: 1, subscribers: size, m1: pct(1) });
  });

  it('ltv_enhanced: net revenue per cohort and plan, divided by its subscribers', async () => {
    const { body } = await report(analyst, 'ltv_enhanced');
    expect(body.currency).toBe('USD');
    expect([...(body.currencies ?? [])].sort()).toEqual(['EUR', 'USD']);
    const kept = (subscriberId: string) => sum(world.pays.filter((p) => p.subscriberId === subscriberId && p.currency === 'USD'), (p) => (p.status === 'succeeded' ? p.amount : 0));
    const byPlan = new Map<string, string[]>();
    for (const s of world.subs) byPlan.set(s.planId!, [...(byPlan.get(s.planId!) ?? []), s.subscriberId]);
    const expected = [...byPlan.entries()].map(([planId, ids]) => {
      const revenue = sum(ids, kept);
      return { cohort: '2024-05', plan: world.plans.find((p) => p.id === planId)!.name, subscribers: ids.length, revenue, ltv: Math.round(revenue / ids.length) };
    });
    const byName = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.plan).localeCompare(String(b.plan));
    expect([...body.rows].sort(byName)).toEqual(expected.sort(byName));
    const net = sum(world.pays.filter((p) => p.currency === 'USD'), (p) => (p.status === 'succeeded' ? p.amount : 0));
    const subscriberCount = new Set(world.subs.map((s) => s.subscriberId)).size;
    expect(body.totals).toEqual({ subscribers: subscriberCount, revenue: net, ltv: Math.round(net / subscriberCount) });
    expect(body.columns.map((c) => c.key)).toEqual(['cohort', 'plan', 'subscribers', 'revenue', 'ltv']);
  });

  it('ltv_enhanced per currency: a currency\'s revenue is divided by the subscribers billed in it, not by every subscriber (issue 38)', async () => {
    const { body } = await report(analyst, 'ltv_enhanced', `${RANGE}&currency=EUR`);
    expect(body.currency).toBe('EUR');
    // Every subscription is priced in USD; a subscriber is billed in EUR by an EUR charge only.
    const payers = new Set(world.pays.filter((p) => p.currency === 'EUR').map((p) => p.subscriberId));
    const net = sum(world.pays.filter((p) => p.currency === 'EUR'), (p) => (p.status === 'succeeded' ? p.amount : 0));
    expect(payers.size).toBeGreaterThan(0);
    expect(payers.size).toBeLessThan(new Set(world.subs.map((s) => s.subscriberId)).size);
    expect(body.totals).toEqual({ subscribers: payers.size, revenue: net, ltv: Math.round(net / payers.size) });
    expect(sum(body.rows, (r) => r.subscribers as number)).toBe(payers.size);
    expect(body.columns.find((c) => c.key === 'subscribers')?.label).toBe('Subscribers billed in this currency');
  });

  it('realtime_content and realtime_content_enhanced: the sessions of the last minutes', async () => {
    const live = world.sessions.filter((s) => (s.lastEventAt as Date).getTime() >= now.getTime() - 30 * 60_000);
    const rt = await report(analyst, 'realtime_content', '');
    expect(rt.status).toBe(200);
    expect(rt.body.totals.sessions).toBe(live.length);
    expect(rt.body.rows).toHaveLength(30);
    const top = await report(analyst, 'realtime_content_enhanced', '');
    expect(top.body.totals.streams).toBe(live.length);
    expect(sum(top.body.rows, (r) => r.streams as number)).toBe(live.length);
  });

  it('realtime_content: every minute of the window recomputed from the sessions (streams, viewers, the last and the peak minute)', async () => {
    const { body } = await report(analyst, 'realtime_content', '');
    // Times as the database answers them, to the second.
    const sec = (d: unknown) => Math.floor((d as Date).getTime() / 1000) * 1000;
    const since = Date.parse(body.rows[0]!.period as string);
    const inWindow = world.sessions.filter((s) => sec(s.lastEventAt) >= since && sec(s.startedAt) >= since - 86_400_000);
    const periods = body.rows.map((r) => Date.parse(r.period as string));
    expect(periods.every((p, i) => i === 0 || p - periods[i - 1]! === 60_000)).toBe(true);
    expect(periods.at(-1)! + 60_000).toBeGreaterThan(now.getTime());
    const expected = periods.map((p) => {
      const active = inWindow.filter((s) => sec(s.startedAt) < p + 60_000 && sec(s.lastEventAt) >= p);
      return { period: new Date(p).toISOString().slice(0, 16) + 'Z', streams: active.length, viewers: new Set(active.map((s) => s.subscriberId)).size };
    });
    expect(body.rows).toEqual(expected);
    expect(body.totals).toEqual({
      streams: expected.at(-1)!.streams, viewers: expected.at(-1)!.viewers,
      peakStreams: Math.max(...expected.map((r) => r.streams)), sessions: inWindow.length,
    });
    expect(Math.max(...expected.map((r) => r.streams))).toBeGreaterThan(expected.at(-1)!.streams);
  });

  it('realtime_content_enhanced: per title streams, viewers, startup p50/p95 (nearest rank), rebuffer and error shares, most streams first', async () => {
    const { body } = await report(analyst, 'realtime_content_enhanced', '');
    const since = Date.parse(new Date(Math.floor(now.getTime() / 60_000) * 60_000 + 60_000 - 30 * 60_000).toISOString());
    const live = world.sessions.filter((s) => Math.floor((s.lastEventAt as Date).getTime() / 1000) * 1000 >= since);
    const nearest = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1]!;
    const measure = (list: typeof live) => {
      const watched = sum(list, (s) => s.watchedSeconds!);
      const rebuffer = sum(list, (s) => s.rebufferSeconds ?? 0);
      return {
        streams: list.length, viewers: new Set(list.map((s) => s.subscriberId)).size,
        startupP50Ms: nearest(list.map((s) => s.startupMs!), 0.5), startupP95Ms: nearest(list.map((s) => s.startupMs!), 0.95),
        rebufferPct: round((100 * rebuffer) / (watched + rebuffer), 2),
        errorPct: round((100 * list.filter((s) => s.errorCode).length) / list.length),
      };
    };
    const byContent = new Map<string, typeof live>();
    for (const s of live) byContent.set(s.contentId, [...(byContent.get(s.contentId) ?? []), s]);
    const expected = [...byContent.entries()].map(([id, list]) => ({
      title: world.content.find((c) => c.id === id)!.title, contentId: id, contentType: 'video', ...measure(list),
    }));
    const key = (r: Record<string, unknown>) => `${String(r.streams).padStart(4, '0')}|${String(r.title)}`;
    expect([...body.rows].sort((a, b) => key(b).localeCompare(key(a)))).toEqual(expected.sort((a, b) => key(b).localeCompare(key(a))));
    expect(body.rows.map((r) => r.streams)).toEqual([...body.rows.map((r) => r.streams as number)].sort((a, b) => b - a));
    expect(body.totals).toEqual(measure(live));
  });

  it('the real-time and lifetime-value reports name their columns with their figures; a device, country or title filter narrows the live sessions', async () => {
    const shape = (b: ReportAnswer) => b.columns.map((c) => [c.key, c.label, c.kind, c.figure]);
    expect(shape((await report(analyst, 'realtime_content', '')).body)).toEqual([
      ['period', 'Minute', 'period', undefined], ['streams', 'Streams', 'count', 'streamsMinute'], ['viewers', 'Viewers', 'count', 'viewersMinute'],
    ]);
    expect(shape((await report(analyst, 'realtime_content_enhanced', '')).body)).toEqual([
      ['title', 'Title', 'text', undefined], ['streams', 'Streams (30 min)', 'count', 'streamsWindow'], ['viewers', 'Viewers (30 min)', 'count', 'viewersWindow'],
      ['startupP50Ms', 'Startup p50 (ms)', 'ms', 'startupP50Ms'], ['startupP95Ms', 'Startup p95 (ms)', 'ms', 'startupP95Ms'],
      ['rebufferPct', 'Rebuffer ratio (%)', 'percent', 'rebufferPct'], ['errorPct', 'Error sessions (%)', 'percent', 'errorPct'],
    ]);
    expect(shape((await report(analyst, 'ltv_enhanced')).body)).toEqual([
      ['cohort', 'Cohort (first subscription)', 'text', undefined], ['plan', 'Plan', 'text', undefined],
      ['subscribers', 'Subscribers billed in this currency', 'count', 'ltvSubscribers'], ['revenue', 'Lifetime net revenue', 'money', 'cohortNetRevenue'],
      ['ltv', 'Lifetime value per subscriber', 'money', 'ltv'],
    ]);
    const live = world.sessions.filter((s) => (s.lastEventAt as Date).getTime() >= now.getTime() - 30 * 60_000);
    const web = live.filter((s) => s.deviceType === 'web');
    const country = live[0]!.country!;
    const title = live[0]!.contentId;
    expect(web.length).toBeGreaterThan(0);
    expect(web.length).toBeLessThan(live.length);
    expect((await report(analyst, 'realtime_content', 'device=web')).body.totals.sessions).toBe(web.length);
    expect((await report(analyst, 'realtime_content', `country=${country}`)).body.totals.sessions).toBe(live.filter((s) => s.country === country).length);
    expect((await report(analyst, 'realtime_content', `content=${title}`)).body.totals.sessions).toBe(live.filter((s) => s.contentId === title).length);
    expect((await report(analyst, 'realtime_content_enhanced', 'device=web')).body.totals.streams).toBe(web.length);
    expect((await report(analyst, 'realtime_content_enhanced', `country=${country}`)).body.totals.streams).toBe(live.filter((s) => s.country === country).length);
  });

  it('every other report names its columns as the spec does (key, label, kind and figure), each breakdown too', async () => {
    const shape = (b: ReportAnswer) => b.columns.map((c) => [c.key, c.label, c.kind, c.figure]);
    const PERIOD = ['period', 'Period', 'period', undefined];
    const QOS = [
      ['sessions', 'Sessions', 'count', 'sessions'], ['startupAvgMs', 'Startup avg (ms)', 'ms', 'startupAvgMs'],
      ['startupP50Ms', 'Startup p50 (ms)', 'ms', 'startupP50Ms'], ['startupP95Ms', 'Startup p95 (ms)', 'ms', 'startupP95Ms'],
      ['rebufferPct', 'Rebuffer ratio (%)', 'percent', 'rebufferPct'], ['rebufferP50Pct', 'Rebuffer p50 (%)', 'percent', 'rebufferP50Pct'],
      ['rebufferP95Pct', 'Rebuffer p95 (%)', 'percent', 'rebufferP95Pct'], ['errorPct', 'Error sessions (%)', 'percent', 'errorPct'],
      ['bitrateKbps', 'Bitrate avg (kbps)', 'kbps', 'bitrateKbps'],
    ];
    const PAYMENTS = [
      ['payments', 'Successful payments', 'count', 'payments'], ['revenue', 'Revenue', 'money', 'revenue'], ['refunds', 'Refunds', 'money', 'refunds'],
      ['netRevenue', 'Net revenue', 'money', 'netRevenue'], ['failed', 'Failed payments', 'count', 'failed'], ['successPct', 'Success rate (%)', 'percent', 'successPct'],
    ];
    const columns = async (name: string, query = '') => shape((await report(analyst, name, `${RANGE}${query}`)).body);
    expect(await columns('user_behavior')).toEqual([PERIOD,
      ['sessions', 'Sessions', 'count', 'sessions'], ['viewers', 'Viewers (daily average)', 'count', 'viewers'],
      ['watchHours', 'Watch time (hours)', 'hours', 'watchHours'], ['avgMinutes', 'Minutes per session', 'minutes', 'avgMinutes']]);
    expect(await columns('qos')).toEqual([PERIOD, ...QOS]);
    for (const [by, label] of [['device', 'Device'], ['country', 'Country'], ['isp', 'ISP'], ['cdn', 'CDN'], ['content', 'Title']]) {
      // Issue 41: a breakdown also gives each row's share of the sessions.
      expect(await columns('qos', `&by=${by}`)).toEqual([['key', label, 'text', undefined], ...QOS, ['sharePct', 'Share of sessions (%)', 'percent', 'sessionSharePct']]);
    }
    expect(await columns('qos_video_level_report')).toEqual([['key', 'Title', 'text', undefined], ...QOS]);
    // Startup buckets: STARTUP_MS_BUCKETS is 0.5, 1, 2, 4 and 8 s.
    expect(STARTUP_MS_BUCKETS).toEqual([500, 1000, 2000, 4000, 8000]);
    const buckets = ['< 0.5 s', '0.5 s–1 s', '1 s–2 s', '2 s–4 s', '4 s–8 s', '≥ 8 s'].map((b, i) => [`b${i}`, `Startup ${b} (%)`, 'percent', 'startupBucketPct']);
    for (const [by, label] of [['device', 'Device'], ['cdn', 'CDN'], ['country', 'Country'], ['isp', 'ISP']]) {
      expect(await columns('qos_bucket_metric_report', `&by=${by}`)).toEqual([['key', label, 'text', undefined], ['sessions', 'Sessions', 'count', 'sessions'], ...buckets,
        ['startupP50Ms', 'Startup p50 (ms)', 'ms', 'startupP50Ms'], ['startupP95Ms', 'Startup p95 (ms)', 'ms', 'startupP95Ms']]);
    }
    expect(await columns('qos_bucket_metric_report')).toEqual(await columns('qos_bucket_metric_report', '&by=device'));
    expect(await columns('video_engagement')).toEqual([PERIOD, ['sessions', 'Sessions', 'count', 'sessions'], ['watchHours', 'Watch time (hours)', 'hours', 'watchHours'],
      ['titles', 'Titles watched', 'count', 'titles'], ['avgMinutes', 'Minutes per session', 'minutes', 'avgMinutes'], ['watchThroughPct', 'Watch-through (%)', 'percent', 'watchThroughPct']]);
    expect(await columns('dtl_video_engagement')).toEqual([['title', 'Title', 'text', undefined], ['kind', 'Kind', 'text', undefined], ['genre', 'Genre', 'text', undefined],
      ['sessions', 'Sessions', 'count', 'sessions'], ['watchHours', 'Watch time (hours)', 'hours', 'watchHours'],
      ['avgMinutes', 'Minutes per session', 'minutes', 'avgMinutes'], ['watchThroughPct', 'Watch-through (%)', 'percent', 'watchThroughPct']]);
    expect(await columns('payment_summary_report')).toEqual([PERIOD, ...PAYMENTS]);
    expect(await columns('payment_summary_report', '&by=period')).toEqual([PERIOD, ...PAYMENTS]);
    expect(await columns('payment_summary_report', '&by=plan')).toEqual([['key', 'Plan', 'text', undefined], ...PAYMENTS]);
    expect(await columns('payment_summary_report', '&by=content')).toEqual([['title', 'Title', 'text', undefined], ['sessions', 'Sessions', 'count', 'sessions'],
      ['watchHours', 'Watch time (hours)', 'hours', 'watchHours'], ['revenue', 'Attributed net revenue', 'money', 'attributedRevenue'], ['sharePct', 'Share of revenue (%)', 'percent', 'sharePct']]);
  });

  it('a title removed after its plays were rolled up: named "Removed title", no kind, genre or link, watch-through 0', async () => {
    const name = `reports-removed-${randomUUID().slice(0, 8)}`;
    const siteId = await createBareSite(t.db, name);
    const [net] = await t.db.insert(networks).values({ siteId, identifier: `${name}-main`, name: 'Main', image: '/logo.svg', isActive: true, isDefault: true }).returning();
    const [item] = await t.db.insert(contentItems).values({ siteId, kind: 'video', title: 'Gone', titleSearch: 'gone', genre: 'Drama', durationSeconds: 600, status: 'published' }).returning();
    const [viewer] = await t.db.insert(subscribers).values({ siteId, networkId: net!.id, email: `v@${name}.test`, name: 'Viewer', country: 'US', createdAt: at(FROM, 8) }).returning();
    await t.db.insert(playbackSessions).values({
      id: randomUUID(), siteId, networkId: net!.id, subscriberId: viewer!.id, contentId: item!.id, deviceType: 'web', country: 'US', isp: 'BT', cdn: 'akamai',
      startedAt: at(FROM, 10), lastEventAt: at(FROM, 11), watchedSeconds: 360, startupMs: 700, avgBitrateKbps: 3000,
    });
    await rebuildRollups(t.db, { siteId });
    await t.db.delete(contentItems).where(eq(contentItems.id, item!.id));
    const user = await t.createUser({ site: name, roles: { 'Dashboard 360': 'read' }, prefix: 'analyst' });
    const session = await t.login(user.username);
    const dtl = await report(session, 'dtl_video_engagement');
    expect(dtl.body.rows).toEqual([{ title: 'Removed title', kind: '', genre: '', sessions: 1, watchHours: round(360 / 3600), avgMinutes: 6, watchThroughPct: 0 }]);
    expect((await report(session, 'qos_video_level_report')).body.rows.map((r) => [r.key, r.sessions])).toEqual([['Removed title', 1]]);
    const engagement = await report(session, 'video_engagement');
    expect(engagement.body.totals).toEqual({ sessions: 1, watchHours: round(360 / 3600), titles: 1, avgMinutes: 6, watchThroughPct: null });
    // No payments on this site: no currency to choose from, USD by default, any currency asked for is answered (with nothing).
    const payments = await report(session, 'payment_summary_report');
    expect({ currency: payments.body.currency, currencies: payments.body.currencies }).toEqual({ currency: 'USD', currencies: [] });
    const gbp = await report(session, 'payment_summary_report', `${RANGE}&currency=GBP`);
    expect({ status: gbp.status, currency: gbp.body.currency, rows: gbp.body.rows }).toEqual({ status: 200, currency: 'GBP', rows: [] });
  });

  it('issue 38: an America/New_York site counts on its own days and months: a session started at 02:00 UTC on the 2nd counts on the 1st', async () => {
    const name = `reports-ny-${randomUUID().slice(0, 8)}`;
    const siteId = await createBareSite(t.db, name);
    await t.db.update(sites).set({ defaultTimezone: 'America/New_York' }).where(eq(sites.id, siteId));
    const [net] = await t.db.insert(networks).values({ siteId, identifier: `${name}-main`, name: 'Main', image: '/logo.svg', isActive: true, isDefault: true }).returning();
    const [item] = await t.db.insert(contentItems).values({ siteId, kind: 'video', title: 'Late Show', titleSearch: 'late show', genre: 'Drama', durationSeconds: 600, status: 'published' }).returning();
    const [plan] = await t.db.insert(plans).values({ siteId, name: 'Monthly', prices: [{ currency: 'USD', amount: 999 }], billingPeriod: 'month', status: 'active' }).returning();
    // 02:00 UTC on 2 March 2024 is 21:00 on 1 March in New York (EST, UTC-5). The viewer signs up at 02:00 UTC on
    // 1 March: 21:00 on 29 February there.
    const [viewer] = await t.db.insert(subscribers).values({ siteId, networkId: net!.id, email: `v@${name}.test`, name: 'Viewer', country: 'US', createdAt: new Date('2024-03-01T02:00:00Z') }).returning();
    const late = new Date('2024-03-02T02:00:00Z');
    await t.db.insert(playbackSessions).values([
      { id: randomUUID(), siteId, networkId: net!.id, subscriberId: viewer!.id, contentId: item!.id, deviceType: 'web', country: 'US', isp: 'BT', cdn: 'akamai',
        startedAt: late, lastEventAt: new Date(late.getTime() + 300_000), watchedSeconds: 300, startupMs: 700, avgBitrateKbps: 3000 },
      // 04:59:59 UTC on 3 March is 23:59:59 on the 2nd in New York: the end of the site's day 2.
      { id: randomUUID(), siteId, networkId: net!.id, subscriberId: viewer!.id, contentId: item!.id, deviceType: 'web', country: 'US', isp: 'BT', cdn: 'akamai',
        startedAt: new Date('2024-03-03T04:59:59Z'), lastEventAt: new Date('2024-03-03T05:04:59Z'), watchedSeconds: 300, startupMs: 700, avgBitrateKbps: 3000 },
    ]);
    // A first subscription at 02:00 UTC on 1 March: the February cohort in New York (21:00 on 29 February); its charge at the same moment.
    await t.db.insert(subscriptions).values({
      siteId, networkId: net!.id, subscriberId: viewer!.id, planId: plan!.id, status: 'active', startedAt: new Date('2024-03-01T02:00:00Z'),
      currentPeriodStart: new Date('2024-03-01T02:00:00Z'), currentPeriodEnd: new Date('2024-03-31T02:00:00Z'), amount: 999, currency: 'USD',
    });
    await t.db.insert(payments).values({ siteId, networkId: net!.id, subscriberId: viewer!.id, planId: plan!.id, amount: 999, currency: 'USD', status: 'succeeded', method: 'card', at: new Date('2024-03-01T02:00:00Z') });
    await rebuildRollups(t.db, { siteId, asOf: new Date('2024-06-01T04:30:00Z') });
    const user = await t.createUser({ site: name, roles: { 'Dashboard 360': 'read' }, prefix: 'analyst' });
    const session = await t.login(user.username);
    const behavior = await report(session, 'user_behavior', 'from=2024-02-29&to=2024-03-03');
    expect(behavior.body.rows.map((r) => [r.period, r.sessions])).toEqual([['2024-02-29', 0], ['2024-03-01', 1], ['2024-03-02', 1], ['2024-03-03', 0]]);
    // The 2nd alone (the site's day): only the session of 23:59:59 there; the one of 02:00 UTC that day is not in it.
    expect((await report(session, 'user_behavior', 'from=2024-03-02&to=2024-03-02')).body.totals.sessions).toBe(1);
    const audience = await report(session, 'user_base', 'from=2024-02-29&to=2024-03-02');
    expect(audience.body.rows.map((r) => [r.period, r.signups])).toEqual([['2024-02-29', 1], ['2024-03-01', 0], ['2024-03-02', 0]]);
    // Paying from 21:00 on 29 February (New York): paying at the end of that day.
    expect(audience.body.rows.map((r) => [r.period, r.subscribers])).toEqual([['2024-02-29', 1], ['2024-03-01', 1], ['2024-03-02', 1]]);
    const pay = await report(session, 'payment_summary_report', 'from=2024-02-29&to=2024-03-01');
    expect(pay.body.rows.map((r) => [r.period, r.payments])).toEqual([['2024-02-29', 1], ['2024-03-01', 0]]);
    const cohorts = await report(session, 'cohort_analysis', 'from=2024-02-01&to=2024-03-31');
    expect(cohorts.body.rows.map((r) => [r.cohort, r.subscribers])).toEqual([['2024-02', 1]]);
  });

  it('a breakdown filtered on its own dimension, a chosen title offered though unwatched, a currency with no payments, live reports with no live session', async () => {
    const web = rangeSessions().filter((s) => s.deviceType === 'web');
    const byWeb = await report(analyst, 'qos', `${RANGE}&by=device&device=web`);
    expect(byWeb.body.rows.map((r) => [r.key, r.sessions])).toEqual([['web', web.length]]);
    expect(byWeb.body.totals.sessions).toBe(web.length);

    // No plays in January 2023: the title asked for is still offered (the filter shows its choice).
    const title = world.content[2]!;
    const options = await report(analyst, 'qos', `from=2023-01-01&to=2023-01-31&content=${title.id}&include=options`);
    expect(options.body.options?.content).toEqual([{ value: title.id, label: title.title }]);

    // Currencies of the three years up to the range's end, most money first (May's payments, seen from December).
    const sums = new Map<string, number>();
    for (const p of world.pays) sums.set(p.currency, (sums.get(p.currency) ?? 0) + p.amount);
    const currencies = [...sums.entries()].sort(([, a], [, b]) => b - a).map(([c]) => c);
    expect(currencies).toHaveLength(2);
    const december = await report(analyst, 'payment_summary_report', 'from=2024-12-01&to=2024-12-31');
    expect({ currency: december.body.currency, currencies: december.body.currencies, rows: december.body.rows }).toEqual({ currency: currencies[0], currencies, rows: [] });
    const yen = await report(analyst, 'payment_summary_report', `${RANGE}&currency=JPY`);
    expect({ status: yen.status, message: yen.body.message }).toEqual({ status: 400, message: `currency: no payments in JPY; this site has ${currencies.join(', ')}` });
    expect((await report(analyst, 'ltv_enhanced', `${RANGE}&currency=JPY`)).status).toBe(400);

    // No live session on a Roku: no rows, zero counts and no startup or shares.
    expect(world.sessions.some((s) => s.deviceType === 'roku' && (s.lastEventAt as Date).getTime() >= now.getTime() - 30 * 60_000)).toBe(false);
    const series = await report(analyst, 'realtime_content', 'device=roku');
    expect({ rows: series.body.rows, totals: series.body.totals }).toEqual({ rows: [], totals: { streams: 0, viewers: 0, peakStreams: 0, sessions: 0 } });
    const titles = await report(analyst, 'realtime_content_enhanced', 'device=roku');
    expect({ rows: titles.body.rows, totals: titles.body.totals }).toEqual({
      rows: [], totals: { streams: 0, viewers: 0, startupP50Ms: null, startupP95Ms: null, rebufferPct: null, errorPct: null },
    });

    // A range without plays: no rows; counts 0 and no averages.
    const quality = await report(analyst, 'qos', 'from=2023-01-01&to=2023-01-31');
    expect(quality.body.totals).toEqual({
      sessions: 0, startupAvgMs: null, startupP50Ms: null, startupP95Ms: null, rebufferPct: null, rebufferP50Pct: null, rebufferP95Pct: null, errorPct: null, bitrateKbps: null,
    });
    const behavior = await report(analyst, 'user_behavior', 'from=2023-01-01&to=2023-01-31');
    expect({ rows: behavior.body.rows, totals: behavior.body.totals }).toEqual({ rows: [], totals: { sessions: 0, viewers: 0, watchHours: 0, avgMinutes: null } });
  });

  it('payment_summary_report by content: each day\'s kept USD shared among that day\'s titles by watch time, row by row, most revenue first; by plan, most net revenue first', async () => {
    const { body } = await report(analyst, 'payment_summary_report', `${RANGE}&by=content`);
    const usd = world.pays.filter((p) => p.currency === 'USD' && inRange({ startedAt: p.at as Date }));
    const netByDay = new Map<string, number>();
    for (const p of usd) if (p.status === 'succeeded') netByDay.set(dayOf(p.at as Date), (netByDay.get(dayOf(p.at as Date)) ?? 0) + p.amount);
    const watchedByDay = new Map<string, number>();
    for (const s of rangeSessions()) watchedByDay.set(dayOf(s.startedAt as Date), (watchedByDay.get(dayOf(s.startedAt as Date)) ?? 0) + s.watchedSeconds!);
    const byTitle = new Map<string, { revenue: number; watched: number; sessions: number }>();
    for (const s of rangeSessions()) {
      const day = dayOf(s.startedAt as Date);
      const acc = byTitle.get(s.contentId) ?? { revenue: 0, watched: 0, sessions: 0 };
      acc.revenue += ((netByDay.get(day) ?? 0) * s.watchedSeconds!) / watchedByDay.get(day)!;
      acc.watched += s.watchedSeconds!;
      acc.sessions += 1;
      byTitle.set(s.contentId, acc);
    }
    const attributed = sum([...byTitle.values()], (r) => r.revenue);
    const expected = [...byTitle.entries()].map(([id, r]) => ({
      title: world.content.find((c) => c.id === id)!.title, contentId: id, contentType: 'video', sessions: r.sessions, watchHours: round(r.watched / 3600),
      revenue: Math.round(r.revenue), sharePct: round((100 * r.revenue) / attributed, 2),
    }));
    const byName = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.title).localeCompare(String(b.title));
    expect([...body.rows].sort(byName)).toEqual(expected.sort(byName));
    const revenues = body.rows.map((r) => r.revenue as number);
    expect(revenues).toEqual([...revenues].sort((a, b) => b - a));
    expect(new Set(revenues).size).toBeGreaterThan(1);
    expect(body.totals).toEqual({ revenue: Math.round(attributed), netRevenue: sum([...netByDay.values()], (v) => v), titles: byTitle.size });

    const byPlan = await report(analyst, 'payment_summary_report', `${RANGE}&by=plan`);
    const planName = new Map(world.plans.map((p) => [p.id, p.name]));
    const perPlan = world.plans.map((plan) => {
      const mine = usd.filter((p) => p.planId === plan.id);
      const of = (status: string) => mine.filter((p) => p.status === status);
      const kept = sum(of('succeeded'), (p) => p.amount);
      const refunds = sum(of('refunded'), (p) => p.amount);
      const taken = of('succeeded').length + of('refunded').length;
      const failed = of('failed').length;
      return { key: planName.get(plan.id), payments: taken, revenue: kept + refunds, refunds, netRevenue: kept, failed, successPct: taken + failed ? round((100 * taken) / (taken + failed)) : null };
    }).filter((r) => r.payments + r.failed > 0).sort((a, b) => b.netRevenue - a.netRevenue);
    expect(perPlan).toHaveLength(2);
    expect(perPlan[0]!.netRevenue).toBeGreaterThan(perPlan[1]!.netRevenue);
    expect(byPlan.body.rows).toEqual(perPlan);

    // Each currency's totals apart, in the period and the plan answers alike.
    const measures = (code: string) => {
      const mine = world.pays.filter((p) => p.currency === code && inRange({ startedAt: p.at as Date }));
      const of = (status: string) => mine.filter((p) => p.status === status);
      const kept = sum(of('succeeded'), (p) => p.amount);
      const refunds = sum(of('refunded'), (p) => p.amount);
      const taken = of('succeeded').length + of('refunded').length;
      const failed = of('failed').length;
      return { payments: taken, revenue: kept + refunds, refunds, netRevenue: kept, failed, successPct: taken + failed ? round((100 * taken) / (taken + failed)) : null };
    };
    const perCurrency = { EUR: measures('EUR'), USD: measures('USD') };
    expect(perCurrency.EUR.payments + perCurrency.EUR.failed).toBeGreaterThan(0);
    const periods = await report(analyst, 'payment_summary_report');
    expect(Object.keys(periods.body.currencyTotals ?? {})).toEqual(['EUR', 'USD']);
    expect(periods.body.currencyTotals).toEqual(perCurrency);
    expect(byPlan.body.currencyTotals).toEqual(perCurrency);
  });

  it('breakdowns list the keys with the most sessions first', async () => {
    const descending = (rows: ReportAnswer['rows']) => {
      const counts = rows.map((r) => r.sessions as number);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      expect(new Set(counts).size).toBeGreaterThan(1);
    };
    for (const by of ['device', 'country', 'isp', 'content']) descending((await report(analyst, 'qos', `${RANGE}&by=${by}`)).body.rows);
    descending((await report(analyst, 'qos_video_level_report')).body.rows);
    for (const by of ['device', 'country']) descending((await report(analyst, 'qos_bucket_metric_report', `${RANGE}&by=${by}`)).body.rows);
    const dtl = (await report(analyst, 'dtl_video_engagement')).body.rows.map((r) => r.watchHours as number);
    expect(dtl).toEqual([...dtl].sort((a, b) => b - a));
  });

  it('a network filter narrows every number to that network', async () => {
    const { body } = await report(analyst, 'user_behavior', `${RANGE}&network=${world.networkIdentifiers[1]}`);
    expect(body.totals.sessions).toBe(rangeSessions().filter((s) => s.networkId === world.networkIds[1]).length);
  });

  it('compare=previous answers the totals of the preceding range too', async () => {
    const { body } = await report(analyst, 'user_behavior', `from=2024-05-11&to=2024-05-20&compare=previous`);
    const count = (a: string, b: string) => world.sessions.filter((s) => dayOf(s.startedAt as Date) >= a && dayOf(s.startedAt as Date) <= b).length;
    expect(body.totals.sessions).toBe(count('2024-05-11', '2024-05-20'));
    expect(body.previousTotals?.sessions).toBe(count('2024-05-01', '2024-05-10'));
  });

  it('a range without data answers no rows (the empty state)', async () => {
    const { status, body } = await report(analyst, 'qos', 'from=2023-01-01&to=2023-01-31');
    expect(status).toBe(200);
    expect(body.rows).toEqual([]);
  });
});

describe('filter options (include=options)', () => {
  it("offers the site's plans and the titles watched in the range, only for the filters the report has", async () => {
    const { status, body } = await report(analyst, 'qos', `${RANGE}&include=options`);
    expect(status).toBe(200);
    expect(body.options?.plan).toEqual([...world.plans].sort((a, b) => a.name.localeCompare(b.name)).map((p) => ({ value: p.id, label: p.name })));
    const watched = new Set(rangeSessions().map((s) => s.contentId));
    expect(body.options?.content).toEqual(world.content.filter((c) => watched.has(c.id)).sort((a, b) => a.title.localeCompare(b.title)).map((c) => ({ value: c.id, label: c.title })));
    const theirs = new Set([...other.plans.map((p) => p.id), ...other.content.map((c) => c.id)]);
    expect([...body.options!.plan!, ...body.options!.content!].filter((o) => theirs.has(o.value))).toEqual([]);

    const cohorts = await report(analyst, 'cohort_analysis', `${RANGE}&include=options`);
    expect(Object.keys(cohorts.body.options ?? {})).toEqual(['plan']);
    expect((await report(analyst, 'qos', RANGE)).body.options).toBeUndefined();
  });
});

describe('isolation and access', () => {
  it('each site sees only its own world', async () => {
    const mine = await report(analyst, 'user_behavior');
    const theirs = await report(otherAnalyst, 'user_behavior');
    expect(mine.body.totals.sessions).toBe(rangeSessions().length);
    expect(theirs.body.totals.sessions).toBe(other.sessions.filter(inRange).length);
    const foreign = await report(analyst, 'user_behavior', `${RANGE}&network=${other.networkIdentifiers[0]}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe(`network: no network ${other.networkIdentifiers[0]} on this site`);
  });

  it('needs a session and Dashboard 360', async () => {
    expect((await t.get(`${REPORTS_PATH}/qos`)).statusCode).toBe(401);
    const contentOnly = await t.login((await t.createUser({ site: world.site, roles: { Content: 'write' } })).username);
    const res = await report(contentOnly, 'qos');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, message: 'You do not have access to this area.' });
  });

  it('refuses a site outside ANALYTICS_ALLOWED_SITES whatever its roles', async () => {
    const strict = await createTestApp({ db: t.dbHandle, config: { runtime: { ...t.config.runtime, analyticsAllowedSites: ['some-other-site'] } } });
    try {
      const user = await strict.createUser({ site: world.site, roles: { 'Dashboard 360': 'write', Admin: 'write' } });
      const session = await strict.login(user.username);
      const res = await strict.get(`${REPORTS_PATH}/qos?${RANGE}`, session.headers);
      expect(res.statusCode).toBe(403);
    } finally {
      await strict.app.close();
    }
  });
});

describe('bad parameters get 400 naming the parameter', () => {
  it.each([
    ['from=2024-05-20&to=2024-05-01', 'from: must not be after to'],
    ['from=2023-01-01&to=2024-05-01', 'to: the range may span at most 366 days'],
    ['from=2024-02-30', 'from: must be a day as YYYY-MM-DD'],
    // Year 0 passes Date but not PostgreSQL (a 500 before, found by the fuzz; issue 25).
    ['from=0000-01-01&to=0000-01-31', 'from: must be a day as YYYY-MM-DD'],
    ['from=2024-01-01&to=0000-01-01', 'to: must be a day as YYYY-MM-DD'],
    [`${RANGE}&colour=red`, 'colour: unknown parameter'],
    [`${RANGE}&granularity=year`, 'granularity: must be one of hour, day, week, month'],
    [`${RANGE}&granularity=hour`, 'granularity: hour is for real-time reports; this report is built from daily rollups (day, week or month)'],
    [`${RANGE}&country=gb`, 'country: must be a two-letter country code such as US'],
    [`${RANGE}&device=web&country=GB`, 'country: only one of device, country, content, plan can be set at a time (device is set)'],
    [`${RANGE}&by=planet`, 'by: must be one of period, device, country, isp, cdn, content, os, osVersion, browser, player, playerVersion, appVersion, region, title, series, streamType, sourceHost, plan, network'],
    [`${RANGE}&by=cdn&device=web`, 'device: cannot be combined with by=cdn; filter on the breakdown\'s own dimension'],
    [`${RANGE}&device=web&device=ios`, 'device: give it once'],
    [`${RANGE}&include=everything`, 'include: must be options'],
  ])('qos?%s', async (query, message) => {
    const { status, body } = await report(analyst, 'qos', query);
    expect({ status, message: body.message }).toEqual({ status: 400, message });
  });

  it('refuses a filter the report does not have, and an unknown report', async () => {
    const noFilter = await report(analyst, 'cohort_analysis', `${RANGE}&device=web`);
    expect(noFilter).toMatchObject({ status: 400, body: { message: 'device: cohort_analysis has no device filter' } });
    const unknown = await report(analyst, 'weather');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/^report: unknown report weather/);
  });
});
