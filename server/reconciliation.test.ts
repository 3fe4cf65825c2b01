/**
 * Issue 27, reconciliation: every report of the reporting service, column by column, equals a second
 * computation written here in plain TypeScript straight from the raw rows (subscribers, subscriptions,
 * payments, playback sessions), never from the rollups or their SQL, over worlds fast-check generates
 * (sign-ups, trials, conversions, cancellations, refunds, sessions, two networks, four currencies),
 * for ranges that end today or earlier, days with no rows, every granularity and the filters.
 * Counts are exact and money exact to the cent per currency. Every answer also keeps the invariants:
 * no negative count, percentages within 0–100, p50 ≤ p95, breakdowns summing to their totals, and
 * the previous-period comparison equal to the same report on the previous range.
 *
 * Days are the site's (issue 38): the generated site counts them in America/New_York (`ZONE`, a zone
 * behind UTC with a daylight-saving change inside the history), recomputed here with Intl, so a row
 * counts on the site's day and a month is the site's month.
 *
 * The definitions recomputed (the moment of an end-of-day figure is the end of the site's day, or now
 * for today):
 * - paying at a moment: subscriptions whose paid time began (trial end, or start without a trial) and
 *   that have not ended by then (past due and cancelling at period end still pay);
 * - in trial at a moment: subscriptions with a trial started and neither the trial nor the
 *   subscription ended by then;
 * - revenue: every charge taken (succeeded or later refunded); refunds: refunded charges; net: revenue
 *   minus refunds, i.e. the succeeded charges (common/figures.ts).
 *
 * Also: the console writes that move a figure (Customer Support's cancel now / at period end, and
 * grant days) leave the rollups equal to a recomputation.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from '../common/constants';
import { REPORTS_PATH, type ReportAnswer, type ReportName, type ReportRow } from '../common/reports';
import { rebuildRollups } from './db/rollups';
import { contentItems, networks, paymentRefunds, payments, playbackSessions, plans, sites, subscribers, subscriptions } from './db/schema';
import { createBareSite, createTestApp, type Session, type TestApp } from './test/kit';
import { bucketCounts, bucketQuantile, div, r } from './test/recompute';

const DAY_MS = 86_400_000;
/** The generated sites' time zone: their reports count days and months in it. */
const ZONE = 'America/New_York';
/** The clock of the generated worlds: rollups are folded as of this moment. */
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
const HISTORY_DAYS = 40;
const RUNS = Number(process.env.RECONCILIATION_RUNS ?? 12);
/** A fixed seed in `npm test` (a run is repeatable); RECONCILIATION_SEED=random explores new worlds, another number replays that seed. */
const SEED = process.env.RECONCILIATION_SEED === 'random' ? undefined : Number(process.env.RECONCILIATION_SEED ?? 27);

// ---------- plain helpers (written for this file, not shared with the server) ----------

/** A calendar day's UTC midnight, and back: calendar arithmetic only, no zone. */
const utcMidnight = (day: string) => Date.parse(`${day}T00:00:00Z`);
const calendarDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const wallFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
});
/** The site's wall clock at an instant, as the ms of that wall time read as UTC. */
function wallMs(at: number): number {
  const p = Object.fromEntries(wallFormat.formatToParts(at).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
}
/** The site's day of an instant. */
const dayOf = (t: Date) => calendarDay(wallMs(t.getTime()));
/** The instant a site's day starts (its midnight in ZONE): UTC midnight moved by the zone's offset, twice to settle a DST change. */
function dayStartMs(day: string): number {
  let at = utcMidnight(day);
  for (let i = 0; i < 2; i++) at += utcMidnight(day) - wallMs(at);
  return at;
}
const shift = (day: string, n: number) => calendarDay(utcMidnight(day) + n * DAY_MS);
/** The site's today. */
const TODAY = dayOf(NOW);
function daysOf(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = shift(d, 1)) out.push(d);
  return out;
}
function periodKey(day: string, g: string): string {
  if (g === 'month') return day.slice(0, 7);
  if (g === 'week') return shift(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
  return day;
}
const pct = (a: number, b: number, d: number) => r(b > 0 ? (100 * a) / b : null, d);
const total = <T,>(list: T[], f: (x: T) => number) => list.reduce((a, x) => a + f(x), 0);

// ---------- the generated world ----------

const COUNTRIES = ['US', 'GB', 'DE'] as const;
const DEVICES = ['web', 'ios', 'roku'] as const;
const CURRENCIES = ['USD', 'GBP', 'EUR', 'CAD'] as const;
const STATUSES = ['succeeded', 'failed', 'refunded'] as const;
const DURATIONS = [1200, 2700, 5400];

/** A moment `ago` days before today at `minute`, never after NOW. */
const moment = (ago: number, minute: number) => new Date(Math.min(dayStartMs(shift(TODAY, -ago)) + minute * 60_000 + 7_000, NOW.getTime() - 5_000));

const worldArb = fc.record({
  people: fc.array(fc.record({ ago: fc.integer({ min: 0, max: HISTORY_DAYS }), minute: fc.integer({ min: 0, max: 1439 }), country: fc.constantFrom(...COUNTRIES), net: fc.integer({ min: 0, max: 1 }) }), { minLength: 1, maxLength: 10 }),
  subs: fc.array(fc.record({
    who: fc.nat(), plan: fc.integer({ min: 0, max: 1 }), ago: fc.integer({ min: 0, max: HISTORY_DAYS }), minute: fc.integer({ min: 0, max: 1439 }),
    trialDays: fc.option(fc.integer({ min: 0, max: 10 })), endAfterMinutes: fc.option(fc.integer({ min: 1, max: 30 * 1440 })),
    cancel: fc.boolean(), currency: fc.constantFrom(...CURRENCIES),
  }), { maxLength: 12 }),
  pays: fc.array(fc.record({ sub: fc.nat(), afterMinutes: fc.integer({ min: 0, max: 20 * 1440 }), status: fc.constantFrom(...STATUSES), amount: fc.integer({ min: 1, max: 20_000 }), otherCurrency: fc.option(fc.constantFrom(...CURRENCIES), { freq: 4 }) }), { maxLength: 16 }),
  sessions: fc.array(fc.record({
    who: fc.nat(), content: fc.integer({ min: 0, max: 2 }), ago: fc.integer({ min: 0, max: HISTORY_DAYS }), minute: fc.integer({ min: 0, max: 1439 }),
    device: fc.constantFrom(...DEVICES), isp: fc.constantFrom('BT', 'Comcast'), cdn: fc.constantFrom('akamai', 'fastly'),
    watchedShare: fc.integer({ min: 0, max: 100 }), startup: fc.integer({ min: 0, max: 12_000 }), rebuffer: fc.integer({ min: 0, max: 90 }),
    rebufferCount: fc.integer({ min: 0, max: 4 }), bitrate: fc.integer({ min: 300, max: 8000 }), error: fc.boolean(), plan: fc.integer({ min: -1, max: 1 }),
  }), { maxLength: 20 }),
});
type WorldSpec = typeof worldArb extends fc.Arbitrary<infer T> ? T : never;

interface Person { id: string; net: number; country: string; createdAt: Date }
interface Sub { id: string; subscriberId: string; net: number; plan: number; startedAt: Date; trialEndsAt: Date | null; cancelledAt: Date | null; endedAt: Date | null; currency: string }
interface Pay { subscriberId: string; net: number; plan: number; currency: string; status: string; amount: number; at: Date }
interface Play { subscriberId: string; net: number; content: number; device: string; country: string; isp: string; cdn: string; startedAt: Date; watched: number; startup: number; rebuffer: number; rebufferCount: number; bitrate: number; error: boolean; plan: number }
interface World {
  siteId: string; site: string; netIds: string[]; netNames: string[]; planIds: string[]; planNames: string[];
  contentIds: string[]; titles: string[];
  people: Person[]; subs: Sub[]; pays: Pay[]; plays: Play[];
}

let t: TestApp;
let seq = 0;

async function insertSite(): Promise<Pick<World, 'siteId' | 'site' | 'netIds' | 'netNames' | 'planIds' | 'planNames' | 'contentIds' | 'titles'>> {
  const name = `recon-${randomUUID().slice(0, 8)}-${seq++}`;
  const siteId = await createBareSite(t.db, name);
  await t.db.update(sites).set({ defaultTimezone: ZONE }).where(eq(sites.id, siteId));
  const nets = await t.db.insert(networks).values([
    { siteId, identifier: `${name}-main`, name: 'Main', image: '/logo.svg', isActive: true, isDefault: true },
    { siteId, identifier: `${name}-kids`, name: 'Kids', image: '/logo.svg', isActive: true, isDefault: false },
  ]).returning();
  const planRows = await t.db.insert(plans).values([
    { siteId, name: 'Monthly', prices: [{ currency: 'USD', amount: 999 }], billingPeriod: 'month', status: 'active' },
    { siteId, name: 'Annual', prices: [{ currency: 'USD', amount: 9999 }], billingPeriod: 'year', status: 'active' },
  ]).returning();
  const titles = ['Harbour Lights', 'Night Train', 'Salt Flats'];
  const content = await t.db.insert(contentItems).values(titles.map((title, i) => ({
    siteId, kind: 'video', title, titleSearch: title.toLowerCase(), genre: 'Drama', durationSeconds: DURATIONS[i]!, status: 'published',
  }))).returning();
  return {
    siteId, site: name, netIds: nets.map((n) => n.id), netNames: nets.map((n) => n.identifier),
    planIds: planRows.map((p) => p.id), planNames: planRows.map((p) => p.name), contentIds: content.map((c) => c.id), titles,
  };
}

async function insertWorld(spec: WorldSpec): Promise<World> {
  const base = await insertSite();
  const people: Person[] = spec.people.map((p) => ({ id: randomUUID(), net: p.net, country: p.country, createdAt: moment(p.ago, p.minute) }));
  await t.db.insert(subscribers).values(people.map((p, i) => ({
    id: p.id, siteId: base.siteId, networkId: base.netIds[p.net]!, email: `v${i}@${base.site}.test`, name: `Viewer ${i}`, country: p.country, createdAt: p.createdAt,
  })));
  const subs: Sub[] = spec.subs.map((s) => {
    const person = people[s.who % people.length]!;
    const startedAt = new Date(Math.max(moment(s.ago, s.minute).getTime(), person.createdAt.getTime()));
    const trialEndsAt = s.trialDays === null ? null : new Date(startedAt.getTime() + s.trialDays * DAY_MS);
    const endedAt = s.endAfterMinutes === null ? null : new Date(startedAt.getTime() + s.endAfterMinutes * 60_000);
    const cancelledAt = s.cancel ? new Date(Math.min(endedAt?.getTime() ?? NOW.getTime(), NOW.getTime() - 5_000, startedAt.getTime() + 3 * DAY_MS)) : null;
    return { id: randomUUID(), subscriberId: person.id, net: person.net, plan: s.plan, startedAt, trialEndsAt, cancelledAt: cancelledAt && cancelledAt < startedAt ? startedAt : cancelledAt, endedAt, currency: s.currency };
  });
  if (subs.length) {
    await t.db.insert(subscriptions).values(subs.map((s) => {
      const ended = s.endedAt !== null && s.endedAt <= NOW;
      const trialing = s.trialEndsAt !== null && s.trialEndsAt > NOW;
      return {
        id: s.id, siteId: base.siteId, networkId: base.netIds[s.net]!, subscriberId: s.subscriberId, planId: base.planIds[s.plan]!,
        status: ended ? (s.cancelledAt ? 'cancelled' : 'expired') : trialing ? 'trialing' : 'active', startedAt: s.startedAt, trialEndsAt: s.trialEndsAt,
        currentPeriodStart: s.startedAt, currentPeriodEnd: s.endedAt ?? new Date(s.startedAt.getTime() + 30 * DAY_MS),
        cancelAtPeriodEnd: s.cancelledAt !== null && !ended, cancelledAt: s.cancelledAt, endedAt: s.endedAt, amount: 999, currency: s.currency,
      };
    }));
  }
  const pays: Pay[] = subs.length === 0 ? [] : spec.pays.map((p) => {
    const sub = subs[p.sub % subs.length]!;
    return { subscriberId: sub.subscriberId, net: sub.net, plan: sub.plan, currency: p.otherCurrency ?? sub.currency, status: p.status, amount: p.amount, at: new Date(Math.min(sub.startedAt.getTime() + p.afterMinutes * 60_000, NOW.getTime() - 5_000)) };
  });
  if (pays.length) {
    await t.db.insert(payments).values(pays.map((p) => ({
      siteId: base.siteId, networkId: base.netIds[p.net]!, subscriberId: p.subscriberId, planId: base.planIds[p.plan]!,
      amount: p.amount, currency: p.currency, status: p.status, method: 'card', at: p.at,
    })));
  }
  const plays: Play[] = spec.sessions.map((s) => {
    const person = people[s.who % people.length]!;
    return {
      subscriberId: person.id, net: person.net, content: s.content, device: s.device, country: person.country, isp: s.isp, cdn: s.cdn,
      startedAt: moment(s.ago, s.minute), watched: Math.floor((DURATIONS[s.content]! * s.watchedShare) / 100), startup: s.startup,
      rebuffer: s.rebuffer, rebufferCount: s.rebufferCount, bitrate: s.bitrate, error: s.error, plan: s.plan,
    };
  });
  if (plays.length) {
    await t.db.insert(playbackSessions).values(plays.map((p) => ({
      id: randomUUID(), siteId: base.siteId, networkId: base.netIds[p.net]!, subscriberId: p.subscriberId, contentId: base.contentIds[p.content]!,
      deviceType: p.device, country: p.country, isp: p.isp, cdn: p.cdn, startedAt: p.startedAt,
      // Ended well before the real-time window, so the real-time reports see none of them.
      lastEventAt: p.startedAt, endedAt: p.startedAt, watchedSeconds: p.watched, startupMs: p.startup, rebufferCount: p.rebufferCount,
      rebufferSeconds: p.rebuffer, avgBitrateKbps: p.bitrate, errorCode: p.error ? 'E_NET' : null, planId: p.plan < 0 ? null : base.planIds[p.plan]!,
    })));
  }
  await rebuildRollups(t.db, { siteId: base.siteId, asOf: NOW });
  return { ...base, people, subs, pays, plays };
}

// ---------- the query ----------

interface Query {
  from: string; to: string; granularity: 'day' | 'week' | 'month'; net: number | null;
  country: string | null; device: string | null; plan: number | null; content: number | null;
}
const queryArb = fc.record({
  endAgo: fc.constantFrom(0, 0, 1, 5, 20), length: fc.constantFrom(1, 3, 7, 16, 31),
  granularity: fc.constantFrom('day', 'week', 'month') as fc.Arbitrary<'day' | 'week' | 'month'>,
  net: fc.constantFrom(null, 0, 1), filter: fc.constantFrom('none', 'none', 'country', 'device', 'plan', 'content'),
  country: fc.constantFrom(...COUNTRIES), device: fc.constantFrom(...DEVICES), plan: fc.integer({ min: 0, max: 1 }), content: fc.integer({ min: 0, max: 2 }),
}).map((q): Query => {
  const to = shift(TODAY, -q.endAgo);
  return {
    from: shift(to, -(q.length - 1)), to, granularity: q.granularity, net: q.net,
    country: q.filter === 'country' ? q.country : null, device: q.filter === 'device' ? q.device : null,
    plan: q.filter === 'plan' ? q.plan : null, content: q.filter === 'content' ? q.content : null,
  };
});

const sessions = new Map<string, Session>();

async function sessionFor(w: World): Promise<Session> {
  const known = sessions.get(w.site);
  if (known) return known;
  const user = await t.createUser({ site: w.site, roles: { 'Dashboard 360': 'read' }, prefix: 'recon' });
  const s = await t.login(user.username);
  sessions.set(w.site, s);
  return s;
}

/** The query string a report accepts: only the filters it supports. */
function queryString(report: ReportName, w: World, q: Query, extra: Record<string, string> = {}): string {
  const p = new URLSearchParams({ from: q.from, to: q.to, granularity: q.granularity });
  if (q.net !== null) p.set('network', w.netNames[q.net]!);
  const filters: Record<string, string | null> = {
    country: q.country, device: q.device, plan: q.plan === null ? null : w.planIds[q.plan]!, content: q.content === null ? null : w.contentIds[q.content]!,
  };
  const supported: Record<string, string[]> = {
    user_base: ['country', 'plan'], change_in_user_base: ['plan'], user_behavior: ['device', 'country', 'content', 'plan'],
    cohort_analysis: ['plan'], ltv_enhanced: ['plan'], payment_summary_report: ['plan'], qos: ['device', 'country', 'content', 'plan'],
  };
  for (const name of supported[report] ?? []) if (filters[name]) p.set(name, filters[name]);
  for (const [k, v] of Object.entries(extra)) p.set(k, v);
  return p.toString();
}

async function ask(w: World, report: ReportName, query: string): Promise<ReportAnswer> {
  const res = await t.get(`${REPORTS_PATH}/${report}?${query}`, (await sessionFor(w)).headers);
  if (res.statusCode !== 200) throw new Error(`${report}?${query}: ${res.statusCode} ${res.body}`);
  return res.json<ReportAnswer>();
}

// ---------- the second computation ----------

/** The moment the rollups were folded at: NOW for generated worlds, the write's time after a console write. */
let asOf = NOW;

const endOfDay = (day: string) => dayStartMs(shift(day, 1));
/** Whether a moment has happened by the end of `day` (or by now, for today). */
const happened = (at: Date | null, day: string) => at !== null && at.getTime() < endOfDay(day) && at.getTime() <= asOf.getTime();
const paidFrom = (s: Sub) => s.trialEndsAt ?? s.startedAt;
const payingAt = (subs: Sub[], day: string) => subs.filter((s) => happened(paidFrom(s), day) && !happened(s.endedAt, day)).length;
const trialEnd = (s: Sub) => (s.endedAt && s.trialEndsAt && s.endedAt < s.trialEndsAt ? s.endedAt : s.trialEndsAt);
const trialingAt = (subs: Sub[], day: string) => subs.filter((s) => s.trialEndsAt !== null && happened(s.startedAt, day) && !happened(trialEnd(s), day)).length;
function movements(subs: Sub[], day: string) {
  const on = (at: Date | null) => at !== null && dayOf(at) === day && at <= asOf;
  return {
    trialsStarted: subs.filter((s) => s.trialEndsAt !== null && on(s.startedAt)).length,
    paidStarted: subs.filter((s) => s.trialEndsAt === null && on(s.startedAt)).length,
    conversions: subs.filter((s) => s.trialEndsAt !== null && on(s.trialEndsAt) && !(s.endedAt && s.endedAt <= s.trialEndsAt)).length,
    cancellations: subs.filter((s) => on(s.cancelledAt)).length,
    expirations: subs.filter((s) => on(s.endedAt)).length,
  };
}
function subscriptionDayMoves(subs: Sub[], day: string): boolean {
  const m = movements(subs, day);
  return Object.values(m).some((v) => v !== 0) || payingAt(subs, day) !== 0 || trialingAt(subs, day) !== 0;
}

function scoped(w: World, q: Query) {
  const net = <T extends { net: number }>(x: T) => q.net === null || x.net === q.net;
  return {
    people: w.people.filter(net), subs: w.subs.filter(net), pays: w.pays.filter(net), plays: w.plays.filter(net),
  };
}
const inRange = (at: Date, q: Pick<Query, 'from' | 'to'>) => dayOf(at) >= q.from && dayOf(at) <= q.to;

/** Period buckets of the range: key and days inside the range. */
function periods(q: Query): { period: string; days: string[] }[] {
  const out: { period: string; days: string[] }[] = [];
  for (const d of daysOf(q.from, q.to)) {
    const k = periodKey(d, q.granularity);
    const last = out[out.length - 1];
    if (last?.period === k) last.days.push(d);
    else out.push({ period: k, days: [d] });
  }
  return out;
}
const dailyViewers = (plays: Play[], days: string[]) => total(days, (d) => new Set(plays.filter((p) => dayOf(p.startedAt) === d).map((p) => p.subscriberId)).size);

function expectUserBase(w: World, q: Query) {
  const s = scoped(w, q);
  const country = q.country;
  const plan = q.plan;
  const people = s.people.filter((p) => !country || p.country === country);
  const plays = s.plays.filter((p) => inRange(p.startedAt, q) && (!country || p.country === country) && (plan === null || p.plan === plan));
  const subs = s.subs.filter((x) => plan === null || x.plan === plan);
  const withSignups = plan === null;
  const withSubs = !country;
  const row = (days: string[]) => {
    const out: ReportRow = {};
    if (withSignups) out.signups = people.filter((p) => days.includes(dayOf(p.createdAt))).length;
    out.viewers = r(dailyViewers(plays, days) / days.length, 1);
    if (withSubs) Object.assign(out, { subscribers: payingAt(subs, days[days.length - 1]!), trialing: trialingAt(subs, days[days.length - 1]!) });
    return out;
  };
  const all = daysOf(q.from, q.to);
  const anything = (withSignups && people.some((p) => inRange(p.createdAt, q))) || plays.length > 0 || (withSubs && all.some((d) => subscriptionDayMoves(subs, d)));
  return { rows: anything ? periods(q).map((p) => ({ period: p.period, ...row(p.days) })) : [], totals: row(all) };
}

function expectChange(w: World, q: Query) {
  const subs = scoped(w, q).subs.filter((x) => q.plan === null || x.plan === q.plan);
  const measure = (days: string[]) => {
    const sums = { trialsStarted: 0, paidStarted: 0, conversions: 0, cancellations: 0, expirations: 0 };
    for (const d of days) for (const [k, v] of Object.entries(movements(subs, d))) sums[k as keyof typeof sums] += v;
    const start = payingAt(subs, shift(days[0]!, -1));
    const end = payingAt(subs, days[days.length - 1]!);
    const lostPaying = subs.filter((x) => days.some((d) => dayOf(x.endedAt ?? asOf) === d) && x.endedAt && x.endedAt <= asOf && x.endedAt > paidFrom(x) && paidFrom(x) <= asOf).length;
    return {
      trialsStarted: sums.trialsStarted, paidStarted: sums.paidStarted, conversions: sums.conversions,
      gained: sums.paidStarted + sums.conversions, cancellations: sums.cancellations, expirations: sums.expirations, lost: sums.expirations,
      net: end - start, activeAtEnd: end, churnPct: pct(lostPaying, start + sums.paidStarted + sums.conversions, 2),
    };
  };
  const all = daysOf(q.from, q.to);
  const anything = all.some((d) => subscriptionDayMoves(subs, d));
  return { rows: anything ? periods(q).map((p) => ({ period: p.period, ...measure(p.days) })) : [], totals: measure(all) };
}

function playsFor(w: World, q: Query): Play[] {
  return scoped(w, q).plays.filter((p) => inRange(p.startedAt, q)
    && (!q.country || p.country === q.country) && (!q.device || p.device === q.device)
    && (q.plan === null || p.plan === q.plan) && (q.content === null || p.content === q.content));
}

function playbackFigures(plays: Play[], days: number) {
  const n = plays.length;
  const watched = total(plays, (p) => p.watched);
  const rebuffer = total(plays, (p) => p.rebuffer);
  const startup = bucketCounts(plays.map((p) => p.startup), STARTUP_MS_BUCKETS);
  const ratios = bucketCounts(plays.map((p) => (p.watched + p.rebuffer > 0 ? p.rebuffer / (p.watched + p.rebuffer) : 0)), REBUFFER_RATIO_BUCKETS);
  return {
    sessions: n,
    viewers: r(dailyViewers(plays, [...new Set(plays.map((p) => dayOf(p.startedAt)))]) / Math.max(days, 1), 1),
    watchHours: r(watched / 3600, 1), avgMinutes: r(div(watched / 60, n), 1),
    startupAvgMs: r(div(total(plays, (p) => p.startup), n), 0),
    startupP50Ms: r(bucketQuantile(startup, STARTUP_MS_BUCKETS, 0.5), 0), startupP95Ms: r(bucketQuantile(startup, STARTUP_MS_BUCKETS, 0.95), 0),
    rebufferPct: pct(rebuffer, watched + rebuffer, 2),
    rebufferP50Pct: r(mul100(bucketQuantile(ratios, REBUFFER_RATIO_BUCKETS, 0.5)), 2), rebufferP95Pct: r(mul100(bucketQuantile(ratios, REBUFFER_RATIO_BUCKETS, 0.95)), 2),
    errorPct: pct(plays.filter((p) => p.error).length, n, 2), bitrateKbps: r(div(total(plays, (p) => p.bitrate), n), 0),
    startupCounts: startup,
  };
}
const mul100 = (v: number | null) => (v === null ? null : v * 100);
const only = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k] ?? null]));
const ENGAGEMENT = ['sessions', 'viewers', 'watchHours', 'avgMinutes'];
const QOS = ['sessions', 'startupAvgMs', 'startupP50Ms', 'startupP95Ms', 'rebufferPct', 'rebufferP50Pct', 'rebufferP95Pct', 'errorPct', 'bitrateKbps'];

function expectPlaybackSeries(w: World, q: Query, keys: string[]) {
  const plays = playsFor(w, q);
  const rows = plays.length === 0 ? [] : periods(q).map((p) => ({ period: p.period, ...only(playbackFigures(plays.filter((x) => p.days.includes(dayOf(x.startedAt))), p.days.length), keys) }));
  return { rows, totals: only(playbackFigures(plays, daysOf(q.from, q.to).length), keys) };
}

function keyOf(w: World, p: Play, by: string): string {
  if (by === 'device') return p.device;
  if (by === 'content') return w.titles[p.content]!;
  return (p as unknown as Record<string, string>)[by]!;
}

function expectQosBy(w: World, q: Query, by: string) {
  const plays = playsFor(w, { ...q, country: null, device: null, plan: null, content: null });
  const days = daysOf(q.from, q.to).length;
  const keys = [...new Set(plays.map((p) => keyOf(w, p, by)))];
  return {
    rows: new Map(keys.map((k) => [k, only(playbackFigures(plays.filter((p) => keyOf(w, p, by) === k), days), QOS)])),
    totals: only(playbackFigures(plays, days), QOS),
  };
}

function expectBuckets(w: World, q: Query, by: string) {
  const plays = playsFor(w, { ...q, country: null, device: null, plan: null, content: null });
  const measure = (list: Play[]) => {
    const f = playbackFigures(list, 1);
    return {
      sessions: list.length, ...Object.fromEntries(f.startupCounts.map((c, i) => [`b${i}`, pct(c, list.length, 1)])),
      startupP50Ms: f.startupP50Ms, startupP95Ms: f.startupP95Ms,
    };
  };
  const keys = [...new Set(plays.map((p) => keyOf(w, p, by)))];
  return { rows: new Map(keys.map((k) => [k, measure(plays.filter((p) => keyOf(w, p, by) === k))])), totals: measure(plays) };
}

function expectVideoEngagement(w: World, q: Query) {
  const plays = playsFor(w, { ...q, country: null, device: null, plan: null, content: null });
  const measure = (list: Play[]) => {
    const watched = total(list, (p) => p.watched);
    const possible = total(list, (p) => DURATIONS[p.content]!);
    return {
      sessions: list.length, watchHours: r(watched / 3600, 1), titles: new Set(list.map((p) => p.content)).size,
      avgMinutes: r(div(watched / 60, list.length), 1), watchThroughPct: pct(watched, possible, 1),
    };
  };
  return {
    rows: plays.length === 0 ? [] : periods(q).map((p) => ({ period: p.period, ...measure(plays.filter((x) => p.days.includes(dayOf(x.startedAt)))) })),
    totals: measure(plays),
  };
}

function expectDtl(w: World, q: Query) {
  const plays = playsFor(w, { ...q, country: null, device: null, plan: null, content: null });
  const rows = new Map<string, ReportRow>();
  for (const c of new Set(plays.map((p) => p.content))) {
    const list = plays.filter((p) => p.content === c);
    const watched = total(list, (p) => p.watched);
    rows.set(w.titles[c]!, {
      title: w.titles[c]!, contentId: w.contentIds[c]!, contentType: 'video', kind: 'video', genre: 'Drama', sessions: list.length, watchHours: r(watched / 3600, 1),
      avgMinutes: r(watched / 60 / list.length, 1), watchThroughPct: r(Math.min(100, (100 * watched) / (list.length * DURATIONS[c]!)), 1),
    });
  }
  const watched = total(plays, (p) => p.watched);
  return { rows, totals: { sessions: plays.length, watchHours: r(watched / 3600, 1), titles: rows.size, avgMinutes: r(div(watched / 60, plays.length), 1) } };
}

function moneyFigures(list: Pay[]) {
  const of = (status: string) => list.filter((p) => p.status === status);
  const refunds = total(of('refunded'), (p) => p.amount);
  const revenue = total(of('succeeded'), (p) => p.amount) + refunds;
  const taken = of('succeeded').length + of('refunded').length;
  const failed = of('failed').length;
  return { payments: taken, revenue, refunds, netRevenue: revenue - refunds, failed, successPct: pct(taken, taken + failed, 1) };
}

function paysFor(w: World, q: Query, currency: string | null): Pay[] {
  return scoped(w, q).pays.filter((p) => inRange(p.at, q) && (q.plan === null || p.plan === q.plan) && (currency === null || p.currency === currency));
}

function expectCurrencies(w: World, q: Query): string[] {
  const list = scoped(w, q).pays.filter((p) => dayOf(p.at) >= shift(q.to, -365 * 3) && dayOf(p.at) <= q.to);
  const sums = new Map<string, number>();
  for (const p of list) sums.set(p.currency, (sums.get(p.currency) ?? 0) + p.amount);
  return [...sums.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([c]) => c);
}

function expectPayments(w: World, q: Query, currency: string) {
  const list = paysFor(w, q, currency);
  return {
    rows: list.length === 0 ? [] : periods(q).map((p) => ({ period: p.period, ...moneyFigures(list.filter((x) => p.days.includes(dayOf(x.at)))) })),
    byPlan: new Map([...new Set(list.map((p) => p.plan))].map((k) => [w.planNames[k]!, moneyFigures(list.filter((p) => p.plan === k))])),
    totals: moneyFigures(list),
  };
}

/** Each subscriber's first subscription (within the network scope). */
function firsts(w: World, q: Query): Map<string, Sub> {
  const out = new Map<string, Sub>();
  for (const s of scoped(w, q).subs) {
    const known = out.get(s.subscriberId);
    if (!known || s.startedAt < known.startedAt || (s.startedAt.getTime() === known.startedAt.getTime() && s.id < known.id)) out.set(s.subscriberId, s);
  }
  return out;
}
/** A site's month (of an instant, or of a 'YYYY-MM-DD' day) as year * 12 + month - 1. */
const monthIndex = (at: Date | string) => {
  const day = typeof at === 'string' ? at : dayOf(at);
  return Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
};
const monthKey = (i: number) => `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;

function cohortsOf(w: World, q: Query): Map<string, Sub[]> {
  const lo = monthIndex(q.from);
  const hi = q.to;
  const out = new Map<string, Sub[]>();
  for (const f of firsts(w, q).values()) {
    if (monthIndex(f.startedAt) < lo || `${dayOf(f.startedAt).slice(0, 7)}-01` > hi) continue;
    if (q.plan !== null && f.plan !== q.plan) continue;
    const key = monthKey(monthIndex(f.startedAt));
    out.set(key, [...(out.get(key) ?? []), f]);
  }
  return out;
}

function expectCohorts(w: World, q: Query) {
  const subs = scoped(w, q).subs;
  const toMonth = monthIndex(q.to);
  const lists = [...cohortsOf(w, q).entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([cohort, members]) => {
    const c = monthIndex(`${cohort}-01`);
    const counts: number[] = [];
    for (const m of members) {
      const covered = new Set<number>();
      for (const s of subs.filter((x) => x.subscriberId === m.subscriberId)) {
        const last = Math.min(s.endedAt ? monthIndex(s.endedAt) : Infinity, toMonth);
        for (let k = monthIndex(s.startedAt); k <= last; k++) covered.add(k - c);
      }
      for (const k of covered) counts[k] = (counts[k] ?? 0) + 1;
    }
    return { cohort, counts };
  });
  const width = Math.min(12, Math.max(0, ...lists.map((l) => l.counts.length)));
  const rows = lists.map(({ cohort, counts }) => {
    const size = counts[0] ?? 0;
    const row: ReportRow = { cohort, subscribers: size };
    for (let i = 0; i < width; i++) row[`m${i}`] = i < counts.length ? pct(counts[i] ?? 0, size, 1) : null;
    return row;
  });
  const m1 = rows.filter((x) => typeof x.m1 === 'number');
  return { rows, totals: { cohorts: rows.length, subscribers: total(rows, (x) => x.subscribers as number), m1: m1.length ? r(total(m1, (x) => x.m1 as number) / m1.length, 1) : null } };
}

function expectLtv(w: World, q: Query, currency: string) {
  const rows: ReportRow[] = [];
  const end = endOfDay(q.to);
  for (const [cohort, members] of [...cohortsOf(w, q).entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const plan of [0, 1]) {
      // Only the members billed in this currency by the range's end: a subscription or a charge in it (issue 38).
      const billed = (id: string) => w.subs.some((s) => s.subscriberId === id && s.currency === currency && s.startedAt.getTime() < end)
        || w.pays.some((p) => p.subscriberId === id && p.currency === currency && p.at.getTime() < end);
      const mine = members.filter((m) => m.plan === plan && billed(m.subscriberId));
      if (mine.length === 0) continue;
      const ids = new Set(mine.map((m) => m.subscriberId));
      const theirs = w.pays.filter((p) => ids.has(p.subscriberId) && p.currency === currency && p.at.getTime() < end);
      const revenue = total(theirs, (p) => (p.status === 'succeeded' ? p.amount : 0));
      rows.push({ cohort, plan: w.planNames[plan]!, subscribers: mine.length, revenue, ltv: r(revenue / mine.length, 0) });
    }
  }
  const subscribers = total(rows, (x) => x.subscribers as number);
  const revenue = total(rows, (x) => x.revenue as number);
  return { rows, totals: { subscribers, revenue, ltv: r(div(revenue, subscribers), 0) } };
}

function expectContentPayments(w: World, q: Query, currency: string) {
  const list = paysFor(w, { ...q, plan: null }, currency);
  const plays = playsFor(w, { ...q, country: null, device: null, plan: null, content: null });
  return { netRevenue: total(list, (p) => (p.status === 'succeeded' ? p.amount : 0)), titles: new Set(plays.map((p) => p.content)).size };
}

// ---------- invariants of every answer ----------

function checkInvariants(a: ReportAnswer, additive: string[]) {
  const kinds = new Map(a.columns.map((c) => [c.key, c.kind]));
  for (const row of [...a.rows, a.totals as ReportRow]) {
    for (const [key, value] of Object.entries(row)) {
      if (typeof value !== 'number') continue;
      const kind = kinds.get(key);
      if ((kind === 'count' && key !== 'net') || kind === 'hours' || kind === 'minutes' || kind === 'ms' || kind === 'kbps') expect(value, `${a.report}.${key} not negative`).toBeGreaterThanOrEqual(0);
      if (kind === 'percent') {
        expect(value, `${a.report}.${key} ≥ 0 %`).toBeGreaterThanOrEqual(0);
        expect(value, `${a.report}.${key} ≤ 100 %`).toBeLessThanOrEqual(100);
      }
    }
    for (const [lo, hi] of [['startupP50Ms', 'startupP95Ms'], ['rebufferP50Pct', 'rebufferP95Pct']] as const) {
      if (typeof row[lo] === 'number' && typeof row[hi] === 'number') expect(row[lo] as number, `${a.report} ${lo} ≤ ${hi}`).toBeLessThanOrEqual(row[hi] as number);
    }
  }
  if (a.rows.length > 0) {
    for (const key of additive) expect(total(a.rows, (x) => (x[key] as number) ?? 0), `${a.report}: the rows' ${key} sum to the total`).toBe(a.totals[key]);
  }
}

const eqSite = (siteId: string) => eq(subscriptions.siteId, siteId);
const unlabeled = (rows: ReportRow[], label: string) => new Map(rows.map((x) => [x[label] as string, Object.fromEntries(Object.entries(x).filter(([k]) => k !== label))]));

// ---------- the properties ----------

beforeAll(async () => {
  t = await createTestApp({ demo: true });
}, 60_000);
afterAll(async () => t?.close());

async function property(check: (w: World, q: Query) => Promise<void>) {
  await fc.assert(fc.asyncProperty(worldArb, fc.array(queryArb, { minLength: 2, maxLength: 2 }), async (spec, queries) => {
    const w = await insertWorld(spec);
    for (const q of queries) await check(w, q);
  }), { numRuns: RUNS, endOnFailure: true, ...(SEED === undefined ? {} : { seed: SEED }) });
}

/** One check per report family: the answer equals the recomputation and keeps the invariants. */
const CHECKS: { name: string; check: (w: World, q: Query) => Promise<void> }[] = [
  { name: 'user_base', check: async (w, q) => {
    const a = await ask(w, 'user_base', queryString('user_base', w, q, { compare: 'previous' }));
    const e = expectUserBase(w, q);
    expect(a.rows).toEqual(e.rows);
    expect(a.totals).toEqual(e.totals);
    checkInvariants(a, q.plan === null ? ['signups'] : []);
    const length = daysOf(q.from, q.to).length;
    const previous = { ...q, from: shift(q.from, -length), to: shift(q.from, -1) };
    expect(a.previousTotals).toEqual(expectUserBase(w, previous).totals);
    expect(a.previousTotals).toEqual((await ask(w, 'user_base', queryString('user_base', w, previous))).totals);
  } },
  { name: 'change_in_user_base', check: async (w, q) => {
    const a = await ask(w, 'change_in_user_base', queryString('change_in_user_base', w, q, { compare: 'previous' }));
    const e = expectChange(w, q);
    expect(a.rows).toEqual(e.rows);
    expect(a.totals).toEqual(e.totals);
    checkInvariants(a, ['trialsStarted', 'paidStarted', 'conversions', 'gained', 'cancellations', 'lost', 'net']);
    const length = daysOf(q.from, q.to).length;
    expect(a.previousTotals).toEqual(expectChange(w, { ...q, from: shift(q.from, -length), to: shift(q.from, -1) }).totals);
  } },
  { name: 'user_behavior, qos (by period), video_engagement', check: async (w, q) => {
    const behavior = await ask(w, 'user_behavior', queryString('user_behavior', w, q, { compare: 'previous' }));
    const eb = expectPlaybackSeries(w, q, ENGAGEMENT);
    expect(behavior.rows).toEqual(eb.rows);
    expect(behavior.totals).toEqual(eb.totals);
    checkInvariants(behavior, ['sessions']);
    const length = daysOf(q.from, q.to).length;
    const previous = { ...q, from: shift(q.from, -length), to: shift(q.from, -1) };
    expect(behavior.previousTotals).toEqual(expectPlaybackSeries(w, previous, ENGAGEMENT).totals);

    const quality = await ask(w, 'qos', queryString('qos', w, q));
    const eq = expectPlaybackSeries(w, q, QOS);
    expect(quality.rows).toEqual(eq.rows);
    expect(quality.totals).toEqual(eq.totals);
    checkInvariants(quality, ['sessions']);

    const engagement = await ask(w, 'video_engagement', queryString('video_engagement', w, q));
    const ev = expectVideoEngagement(w, q);
    expect(engagement.rows).toEqual(ev.rows);
    expect(engagement.totals).toEqual(ev.totals);
    checkInvariants(engagement, ['sessions']);
  } },
  { name: 'qos by device, country, isp, cdn and content, qos_video_level_report, qos_bucket_metric_report, dtl_video_engagement', check: async (w, q) => {
    const by = (['device', 'country', 'isp', 'cdn', 'content'] as const)[(q.from.charCodeAt(9) + (q.net ?? 2)) % 5]!;
    const a = await ask(w, 'qos', queryString('qos', w, { ...q, country: null, device: null, plan: null, content: null }, { by }));
    const e = expectQosBy(w, q, by);
    // Issue 41: breakdown rows also carry their stored value and their share of the sessions (server/qoe-routes.test.ts checks those).
    const withoutShare = <V,>(o: Record<string, V>): Record<string, V> => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'value' && k !== 'sharePct'));
    expect(unlabeled(a.rows.map(withoutShare), 'key')).toEqual(e.rows);
    expect(withoutShare(a.totals)).toEqual(e.totals);
    checkInvariants(a, ['sessions']);

    const level = await ask(w, 'qos_video_level_report', queryString('qos_video_level_report', w, q));
    expect(unlabeled(level.rows, 'key')).toEqual(expectQosBy(w, q, 'content').rows);

    const bucketBy = (['device', 'cdn', 'country', 'isp'] as const)[(q.to.charCodeAt(9) + (q.net ?? 2)) % 4]!;
    const buckets = await ask(w, 'qos_bucket_metric_report', queryString('qos_bucket_metric_report', w, q, { by: bucketBy }));
    const eb = expectBuckets(w, q, bucketBy);
    expect(unlabeled(buckets.rows, 'key')).toEqual(eb.rows);
    expect(buckets.totals).toEqual(eb.totals);
    checkInvariants(buckets, ['sessions']);

    const dtl = await ask(w, 'dtl_video_engagement', queryString('dtl_video_engagement', w, q));
    const ed = expectDtl(w, q);
    expect(new Map(dtl.rows.map((x) => [x.title as string, x]))).toEqual(ed.rows);
    expect(dtl.totals).toEqual(ed.totals);
    checkInvariants(dtl, ['sessions']);
  } },
  { name: 'payment_summary_report per currency (by period, plan and content)', check: async (w, q) => {
    const first = await ask(w, 'payment_summary_report', queryString('payment_summary_report', w, q, { compare: 'previous' }));
    const currencies = expectCurrencies(w, q);
    expect(first.currencies).toEqual(currencies);
    expect(first.currency).toBe(currencies[0] ?? 'USD');
    for (const currency of currencies.length ? currencies : ['USD']) {
      const a = currency === first.currency ? first : await ask(w, 'payment_summary_report', queryString('payment_summary_report', w, q, { currency, compare: 'previous' }));
      const e = expectPayments(w, q, currency);
      expect(a.rows).toEqual(e.rows);
      expect(a.totals).toEqual(e.totals);
      checkInvariants(a, ['payments', 'revenue', 'refunds', 'netRevenue', 'failed']);
      const length = daysOf(q.from, q.to).length;
      expect(a.previousTotals).toEqual(expectPayments(w, { ...q, from: shift(q.from, -length), to: shift(q.from, -1) }, currency).totals);

      const byPlan = await ask(w, 'payment_summary_report', queryString('payment_summary_report', w, q, { currency, by: 'plan' }));
      expect(unlabeled(byPlan.rows, 'key')).toEqual(e.byPlan);
      expect(byPlan.totals).toEqual(e.totals);
      checkInvariants(byPlan, ['payments', 'revenue', 'refunds', 'netRevenue', 'failed']);

      if (q.plan === null) {
        const byContent = await ask(w, 'payment_summary_report', queryString('payment_summary_report', w, q, { currency, by: 'content' }));
        const ec = expectContentPayments(w, q, currency);
        expect(byContent.totals.netRevenue).toBe(ec.netRevenue);
        expect(byContent.totals.titles).toBe(ec.titles);
        checkInvariants(byContent, []);
      }
    }
  } },
  { name: 'cohort_analysis and ltv_enhanced', check: async (w, q) => {
    const cohorts = await ask(w, 'cohort_analysis', queryString('cohort_analysis', w, q));
    const ec = expectCohorts(w, q);
    expect(cohorts.rows).toEqual(ec.rows);
    expect(cohorts.totals).toEqual(ec.totals);
    checkInvariants(cohorts, ['subscribers']);
    for (const currency of expectCurrencies(w, q)) {
      const ltv = await ask(w, 'ltv_enhanced', queryString('ltv_enhanced', w, q, { currency }));
      const el = expectLtv(w, q, currency);
      const order = (rows: ReportRow[]) => [...rows].sort((a, b) => `${a.cohort}${a.plan}`.localeCompare(`${b.cohort}${b.plan}`));
      expect(order(ltv.rows)).toEqual(order(el.rows));
      expect(ltv.totals).toEqual(el.totals);
      checkInvariants(ltv, ['subscribers', 'revenue']);
    }
  } },
];

describe('reports equal a recomputation from the raw rows over generated worlds', () => {
  it('user_base: sign-ups, daily viewers, paying and in trial at the end of each period', async () => {
    await property(CHECKS[0]!.check);
  }, 120_000);

  it('change_in_user_base: trials, paid starts, conversions, cancellations, endings, net, paying at end, churn', async () => {
    await property(CHECKS[1]!.check);
  }, 120_000);

  it('user_behavior, qos (by period), video_engagement: every column per period and in total', async () => {
    await property(CHECKS[2]!.check);
  }, 120_000);

  it('qos by device, country, isp, cdn and content, qos_video_level_report, qos_bucket_metric_report, dtl_video_engagement', async () => {
    await property(CHECKS[3]!.check);
  }, 120_000);

  it('payment_summary_report per currency (by period, plan and content): counts exact, money exact to the cent', async () => {
    await property(CHECKS[4]!.check);
  }, 120_000);

  it('cohort_analysis and ltv_enhanced: cohort sizes, monthly retention, net revenue and value per subscriber', async () => {
    await property(CHECKS[5]!.check);
  }, 120_000);
});

// ---------- the failing cases the properties found, pinned ----------

const person = (ago: number, net = 0, country: (typeof COUNTRIES)[number] = 'US') => ({ ago, minute: 60, country, net });
const sub = (who: number, ago: number, extra: Partial<WorldSpec['subs'][number]> = {}): WorldSpec['subs'][number] =>
  ({ who, plan: 0, ago, minute: 120, trialDays: null, endAfterMinutes: null, cancel: false, currency: 'USD', ...extra });
const pay = (s: number, afterMinutes: number, currency: (typeof CURRENCIES)[number], amount: number): WorldSpec['pays'][number] =>
  ({ sub: s, afterMinutes, status: 'succeeded', amount, otherCurrency: currency });
const play = (who: number, ago: number, plan: number): WorldSpec['sessions'][number] => ({
  who, content: 0, ago, minute: 300, device: 'web', isp: 'BT', cdn: 'akamai', watchedShare: 50, startup: 900, rebuffer: 3, rebufferCount: 1, bitrate: 3000, error: false, plan,
});
const lastDays = (days: number, extra: Partial<Query> = {}): Query => ({
  from: shift(TODAY, -(days - 1)), to: TODAY, granularity: 'day', net: null, country: null, device: null, plan: null, content: null, ...extra,
});

describe('the failing cases found, pinned (every check on each)', () => {
  const cases: { name: string; spec: WorldSpec; queries: Query[]; also?: (w: World) => Promise<void> }[] = [
    {
      // LEAST ignores NULLs: a paid subscription without a trial that ended took one off "In trial" (fixed in fb4c703).
      name: 'in trial at the end of the day: a paid subscription that ends is not a trial ending',
      spec: { people: [person(20), person(10)], subs: [sub(0, 15, { endAfterMinutes: 5 * 1440 }), sub(1, 3, { trialDays: 7 })], pays: [], sessions: [] },
      queries: [lastDays(14), lastDays(14, { granularity: 'week' })],
      also: async (w) => {
        const a = await ask(w, 'user_base', queryString('user_base', w, lastDays(14)));
        expect(a.totals.trialing).toBe(1);
        expect(a.rows.map((r) => r.trialing)).toEqual(daysOf(shift(TODAY, -13), TODAY).map((d) => (d >= shift(TODAY, -3) ? 1 : 0)));
      },
    },
    {
      // user_base read the plan filter's id as a country: no subscribers, sign-ups of "country <uuid>".
      name: 'user_base with a plan: that plan\'s viewers, paying and in trial; no sign-ups column',
      spec: { people: [person(20), person(18)], subs: [sub(0, 15), sub(1, 12, { plan: 1, trialDays: 30 })], pays: [], sessions: [play(0, 2, 0), play(1, 2, 1)] },
      queries: [lastDays(7, { plan: 0 }), lastDays(7, { plan: 1 })],
      also: async (w) => {
        const a = await ask(w, 'user_base', queryString('user_base', w, lastDays(7, { plan: 1 })));
        expect(a.columns.map((c) => c.key)).toEqual(['period', 'viewers', 'subscribers', 'trialing']);
        expect(a.totals).toEqual({ viewers: r(1 / 7, 1), subscribers: 0, trialing: 1 });
      },
    },
    {
      // compare=previous asked the earlier range for the answer's currency and refused it with a 400.
      name: 'compare=previous in a currency the earlier range had no payments in',
      spec: { people: [person(30)], subs: [sub(0, 25)], pays: [pay(0, 5 * 1440, 'USD', 5000), pay(0, 30 * 1440, 'CAD', 1234)], sessions: [] },
      queries: [lastDays(1)],
      also: async (w) => {
        const a = await ask(w, 'payment_summary_report', queryString('payment_summary_report', w, lastDays(1), { currency: 'CAD', compare: 'previous' }));
        expect(a.totals.revenue).toBe(1234);
        expect(a.previousTotals).toEqual({ payments: 0, revenue: 0, refunds: 0, netRevenue: 0, failed: 0, successPct: null });
      },
    },
    {
      // Churn over the paying at the start alone: one paying at the start and one gained, both lost, was 200 %.
      name: 'churn stays within 100 % when subscribers gained in the period are lost in it too',
      spec: { people: [person(20), person(10)], subs: [sub(0, 15, { endAfterMinutes: 12 * 1440 }), sub(1, 5, { endAfterMinutes: 2 * 1440 })], pays: [], sessions: [] },
      queries: [lastDays(7)],
      also: async (w) => {
        const a = await ask(w, 'change_in_user_base', queryString('change_in_user_base', w, lastDays(7)));
        expect(a.totals).toMatchObject({ paidStarted: 1, gained: 1, lost: 2, net: -1, activeAtEnd: 0, churnPct: 100 });
      },
    },
    {
      // Churn divided every ending (trials that never paid too) by the paying at the start: 100 % with nobody lost.
      name: 'churn counts paying subscriptions lost, not trials that ended unpaid',
      spec: { people: [person(20), person(10)], subs: [sub(0, 15), sub(1, 5, { trialDays: 3, endAfterMinutes: 1440 })], pays: [], sessions: [] },
      queries: [lastDays(7)],
      also: async (w) => {
        const a = await ask(w, 'change_in_user_base', queryString('change_in_user_base', w, lastDays(7)));
        expect(a.totals).toMatchObject({ lost: 1, net: 0, activeAtEnd: 1, churnPct: 0 });
      },
    },
    {
      // ltv_enhanced with a plan filter referred to f.plan_id inside the CTE defining f: a 500.
      name: 'ltv_enhanced with a plan filter and a network',
      spec: { people: [person(20), person(20, 1)], subs: [sub(0, 15), sub(1, 15, { plan: 1 })], pays: [pay(0, 60, 'USD', 999), pay(1, 60, 'USD', 9999)], sessions: [] },
      queries: [lastDays(30, { plan: 0, net: 0 }), lastDays(30, { plan: 1 })],
    },
    {
      // Two subscriptions of one viewer starting at the same moment: the cohort's plan was whichever came first.
      name: 'cohorts: two first subscriptions at the same moment go to the lower id, in both cohort reads',
      spec: { people: [person(20)], subs: [sub(0, 25), sub(0, 25, { plan: 1 })], pays: [pay(0, 60, 'USD', 999)], sessions: [] },
      queries: [lastDays(30), lastDays(30, { plan: 1 }), lastDays(30, { plan: 0 })],
    },
  ];
  it.each(cases)('$name', async ({ spec, queries, also }) => {
    const w = await insertWorld(spec);
    for (const q of queries) for (const { check } of CHECKS) await check(w, q);
    await also?.(w);
  }, 60_000);
});

// ---------- console writes that move a figure ----------

const CANCEL = `mutation subscriptionCancel($subscriptionId: ID!, $mode: String!, $reason: String!, $version: Int!) {
  subscriptionCancel(subscriptionId: $subscriptionId, mode: $mode, reason: $reason, version: $version) { profile { id } }
}`;
const REFUND = `mutation paymentRefund($paymentId: ID!, $amount: Int!, $reason: String!, $version: Int!) {
  paymentRefund(paymentId: $paymentId, amount: $amount, reason: $reason, version: $version) { profile { id } }
}`;
const isoDayOf = dayOf;
const GRANT = `mutation subscriptionGrantDays($subscriptionId: ID!, $days: Int!, $reason: String!, $version: Int!) {
  subscriptionGrantDays(subscriptionId: $subscriptionId, days: $days, reason: $reason, version: $version) { profile { id } }
}`;

describe('every console write that moves a figure leaves the rollups equal to a recomputation', () => {
  let w: World;
  let agent: Session;
  const liveIds: string[] = [];

  /** The world as the database holds it now (the raw subscriptions re-read), and the reports compared with it. */
  async function reconcileToday() {
    const rows = await t.db.select().from(subscriptions).where(eqSite(w.siteId));
    w.subs = rows.map((s) => ({
      id: s.id, subscriberId: s.subscriberId, net: w.netIds.indexOf(s.networkId), plan: w.planIds.indexOf(s.planId), startedAt: s.startedAt,
      trialEndsAt: s.trialEndsAt, cancelledAt: s.cancelledAt, endedAt: s.endedAt, currency: s.currency,
    }));
    asOf = new Date();
    try {
      for (const net of [null, 0, 1]) {
        const q: Query = { from: shift(TODAY, -9), to: TODAY, granularity: 'day', net, country: null, device: null, plan: null, content: null };
        const base = await ask(w, 'user_base', queryString('user_base', w, q));
        expect({ rows: base.rows, totals: base.totals }).toEqual(expectUserBase(w, q));
        const change = await ask(w, 'change_in_user_base', queryString('change_in_user_base', w, q));
        expect({ rows: change.rows, totals: change.totals }).toEqual(expectChange(w, q));
      }
    } finally {
      asOf = NOW;
    }
  }

  beforeAll(async () => {
    const base = await insertSite();
    const people: Person[] = Array.from({ length: 4 }, (_, i) => ({ id: randomUUID(), net: i % 2, country: 'US', createdAt: moment(20, 60 * i) }));
    await t.db.insert(subscribers).values(people.map((p, i) => ({
      id: p.id, siteId: base.siteId, networkId: base.netIds[p.net]!, email: `w${i}@${base.site}.test`, name: `Writer ${i}`, country: p.country, createdAt: p.createdAt,
    })));
    // Paying (no trial), paying after a trial, in trial (ends in 5 days), paying: one per write below.
    const specs = [{ ago: 15, trial: null }, { ago: 18, trial: 7 }, { ago: 2, trial: 7 }, { ago: 12, trial: null }];
    const subs: Sub[] = specs.map((s, i) => {
      const startedAt = moment(s.ago, 600);
      return { id: randomUUID(), subscriberId: people[i]!.id, net: people[i]!.net, plan: i % 2, startedAt, trialEndsAt: s.trial === null ? null : new Date(startedAt.getTime() + s.trial * DAY_MS), cancelledAt: null, endedAt: null, currency: 'USD' };
    });
    await t.db.insert(subscriptions).values(subs.map((s) => ({
      id: s.id, siteId: base.siteId, networkId: base.netIds[s.net]!, subscriberId: s.subscriberId, planId: base.planIds[s.plan]!,
      status: s.trialEndsAt && s.trialEndsAt > NOW ? 'trialing' : 'active', startedAt: s.startedAt, trialEndsAt: s.trialEndsAt,
      currentPeriodStart: s.startedAt, currentPeriodEnd: new Date(s.startedAt.getTime() + 30 * DAY_MS), amount: 999, currency: 'USD',
    })));
    liveIds.push(...subs.map((s) => s.id));
    await rebuildRollups(t.db, { siteId: base.siteId });
    w = { ...base, people, subs, pays: [], plays: [] };
    const user = await t.createUser({ site: w.site, roles: { 'Customer Support': 'write', 'Dashboard 360': 'read' }, prefix: 'recon-agent' });
    agent = await t.login(user.username);
    sessions.set(w.site, agent);
  }, 60_000);

  async function write(query: string, variables: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: agent.headers, payload: { query, variables } });
    const body = res.json<{ data: unknown; errors?: { message: string }[] }>();
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  }

  it('before any write, the rollups equal the recomputation (paying, in trial, every movement)', async () => {
    await reconcileToday();
  });

  it('cancel now: the subscription ends today; paying, endings and cancellations follow', async () => {
    await write(CANCEL, { subscriptionId: liveIds[0], mode: 'NOW', reason: 'Asked by phone', version: 1 });
    await reconcileToday();
  });

  it('cancel at period end: a cancellation today, still paying until the period ends', async () => {
    await write(CANCEL, { subscriptionId: liveIds[1], mode: 'AT_PERIOD_END', reason: 'Asked by e-mail', version: 1 });
    await reconcileToday();
  });

  it('cancel now during a trial: in trial drops today, an ending, no paying change', async () => {
    await write(CANCEL, { subscriptionId: liveIds[2], mode: 'NOW', reason: 'Trial not wanted', version: 1 });
    await reconcileToday();
  });

  it('grant days: the period end moves, no figure does', async () => {
    await write(GRANT, { subscriptionId: liveIds[3], days: 7, reason: 'Outage credit', version: 1 });
    await reconcileToday();
  });

  it('refund half of a charge (issue 29): the charge stays revenue on its day, the refund counts on today; payments report equal to the raw rows', async () => {
    const charged = moment(3, 600);
    const [charge] = await t.db.insert(payments).values({
      siteId: w.siteId, networkId: w.netIds[0]!, subscriberId: w.people[0]!.id, subscriptionId: liveIds[3], planId: w.planIds[1]!,
      amount: 1999, currency: 'USD', status: 'succeeded', method: 'card', at: charged,
    }).returning();
    await rebuildRollups(t.db, { siteId: w.siteId });
    await write(REFUND, { paymentId: charge!.id, amount: 999, reason: 'Outage for half the month', version: 1 });
    const today = isoDayOf(new Date());
    const q = `from=${shift(today, -9)}&to=${today}&granularity=day&currency=USD`;
    const answer = await ask(w, 'payment_summary_report', q);
    // The second computation, from the raw rows: the charges of the world and the refund rows by their own days.
    const raw = await t.db.select().from(payments).where(eq(payments.siteId, w.siteId));
    const refundRows = await t.db.select().from(paymentRefunds).where(eq(paymentRefunds.siteId, w.siteId));
    expect(refundRows.map((r) => [r.amount, isoDayOf(r.at)])).toEqual([[999, today]]);
    const chargeDay = isoDayOf(charged);
    const dayFigures = (day: string) => {
      const taken = raw.filter((p) => isoDayOf(p.at) === day && (p.status === 'succeeded' || p.refundedAmount > 0 || p.status === 'refunded'));
      const revenue = total(taken, (p) => p.amount);
      const refunds = total(refundRows.filter((r) => isoDayOf(r.at) === day), (r) => r.amount);
      return { payments: taken.length, revenue, refunds, netRevenue: revenue - refunds };
    };
    const row = (day: string) => answer.rows.find((r) => r.period === day);
    expect(row(chargeDay)).toMatchObject(dayFigures(chargeDay));
    expect(row(today)).toMatchObject(dayFigures(today));
    expect(row(chargeDay)).toMatchObject({ revenue: 1999, refunds: 0 });
    expect(row(today)).toMatchObject({ refunds: 999 });
    expect(answer.totals).toMatchObject({ revenue: 1999, refunds: 999, netRevenue: 1000 });
  });
});

describe('real-time reports equal a recomputation from the raw sessions', () => {
  it('realtime_content and realtime_content_enhanced: streams, viewers, startup p50/p95 (nearest rank), rebuffer and error shares per title', async () => {
    const w = await insertWorld({ people: [person(5), person(5, 0, 'GB'), person(5, 1)], subs: [], pays: [], sessions: [] });
    const now = Date.now();
    // Playing now (the last heartbeat is ahead of every minute of the window), and one that ended hours ago.
    const live = [
      { who: 0, content: 0, startup: 700, watched: 300, rebuffer: 4, error: false, device: 'web' },
      { who: 0, content: 1, startup: 2400, watched: 120, rebuffer: 0, error: true, device: 'ios' },
      { who: 1, content: 0, startup: 1500, watched: 600, rebuffer: 30, error: false, device: 'web' },
      { who: 2, content: 2, startup: 9000, watched: 60, rebuffer: 12, error: false, device: 'roku' },
    ];
    const rows = [...live.map((s) => ({ ...s, startedAt: new Date(now - 10 * 60_000), lastEventAt: new Date(now + 10 * 60_000) })),
      { who: 1, content: 1, startup: 100, watched: 50, rebuffer: 0, error: false, device: 'web', startedAt: new Date(now - 4 * 3_600_000), lastEventAt: new Date(now - 3 * 3_600_000) }];
    await t.db.insert(playbackSessions).values(rows.map((s) => ({
      id: randomUUID(), siteId: w.siteId, networkId: w.netIds[w.people[s.who]!.net]!, subscriberId: w.people[s.who]!.id, contentId: w.contentIds[s.content]!,
      deviceType: s.device, country: w.people[s.who]!.country, isp: 'BT', cdn: 'akamai', startedAt: s.startedAt, lastEventAt: s.lastEventAt,
      watchedSeconds: s.watched, startupMs: s.startup, rebufferSeconds: s.rebuffer, avgBitrateKbps: 3000, errorCode: s.error ? 'E_NET' : null,
    })));
    const nearestRank = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1]!;
    const measure = (list: typeof live) => ({
      streams: list.length, viewers: new Set(list.map((s) => s.who)).size,
      startupP50Ms: nearestRank(list.map((s) => s.startup), 0.5), startupP95Ms: nearestRank(list.map((s) => s.startup), 0.95),
      rebufferPct: pct(total(list, (s) => s.rebuffer), total(list, (s) => s.watched + s.rebuffer), 2),
      errorPct: pct(list.filter((s) => s.error).length, list.length, 1),
    });
    for (const net of [null, 0, 1]) {
      const mine = live.filter((s) => net === null || w.people[s.who]!.net === net);
      const query = net === null ? '' : `network=${w.netNames[net]}`;
      const series = await ask(w, 'realtime_content', query);
      expect(series.totals).toEqual({ streams: mine.length, viewers: new Set(mine.map((s) => s.who)).size, peakStreams: mine.length, sessions: mine.length });
      expect(series.rows).toHaveLength(30);
      checkInvariants(series, []);
      const titles = await ask(w, 'realtime_content_enhanced', query);
      expect(titles.totals).toEqual(measure(mine));
      expect(new Map(titles.rows.map((x) => [x.title, x]))).toEqual(new Map([...new Set(mine.map((s) => s.content))].map((c) => [w.titles[c]!, { title: w.titles[c]!, contentId: w.contentIds[c]!, contentType: 'video', ...measure(mine.filter((s) => s.content === c)) }])));
      checkInvariants(titles, ['streams']);
    }
    const web = await ask(w, 'realtime_content_enhanced', 'device=web');
    expect(web.totals).toEqual(measure(live.filter((s) => s.device === 'web')));
  });
});
