/**
 * Issue 41: every playback report takes a filter set `f` (several dimensions, include or exclude,
 * several values each) with its own one-value filter, and qos_bucket_metric_report breaks down by any
 * session dimension. For random filter sets each answer's totals and rows are recomputed here in plain
 * TypeScript from the generated sessions (server/test/qoe-world.ts), never from the builders or the
 * engine's SQL. Without `f` the rollups answer, with the same figures as raw sessions under an empty
 * filter set; the subscriber and payment reports refuse `f`. PGlite by default, PostgreSQL under
 * scripts/with-fresh-postgres.mjs (the worlds are sites of their own: nothing reads the whole database).
 */
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTUP_MS_BUCKETS } from '../common/constants';
import { QOE_MESSAGES, QOE_NOT_REPORTED, formatQoeFilters, type QoeDimension, type QoeFilter } from '../common/qoe';
import { QOS_BUCKET_BREAKDOWNS, REPORTS_PATH, REPORT_NAMES, REPORT_SPECS, REALTIME_WINDOW_MINUTES, type ReportAnswer, type ReportName } from '../common/reports';
import { siteDayOf } from '../common/site-day';
import { createQoeRepository } from './db/qoe-repository';
import { rebuildRollups } from './db/rollups';
import { playbackSessions } from './db/schema';
import { createReportReads } from './db/stores';
import { buildReport } from './domain/reports/build';
import { parseReportParams } from './domain/reports/params';
import { createTestApp, type Session, type TestApp } from './test/kit';
import { DAY_MS, NOW, QOE_ZONE, figuresOf, filtersArb, insertQoeWorld, matches, sum, type Row, type World } from './test/qoe-world';
import { bucketCounts, bucketQuantile, div, r } from './test/recompute';

const RUNS = Number(process.env.RECONCILIATION_RUNS ?? 12);
const SEED = process.env.RECONCILIATION_SEED === 'random' ? undefined : Number(process.env.RECONCILIATION_SEED ?? 41);
const PLAYBACK: readonly ReportName[] = [
  'user_behavior', 'video_engagement', 'dtl_video_engagement', 'qos', 'qos_bucket_metric_report', 'qos_video_level_report', 'realtime_content', 'realtime_content_enhanced',
];
const BUSINESS = REPORT_NAMES.filter((n) => !PLAYBACK.includes(n));
/** Every title of the generated world lasts this long (server/test/qoe-world.ts). */
const TITLE_SECONDS = 1800;
const MINUTE = 60_000;

let t: TestApp;
let world: World;
/** Sessions of the last day only, so the real-time window holds a few dozen. */
let live: World;
let analyst: Session;
/** An analyst of the `live` site. */
let liveAnalyst: Session;

const TO = siteDayOf(NOW, QOE_ZONE);
const dayBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);
const FROM = dayBefore(TO, 6);
const DAYS = Array.from({ length: 7 }, (_, i) => dayBefore(TO, 6 - i));
const dayOf = (p: Row) => siteDayOf(p.startedAt, QOE_ZONE);

async function answer(report: ReportName, query: string, as = analyst): Promise<ReportAnswer> {
  const res = await t.get(`${REPORTS_PATH}/${report}?${query}`, as.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ReportAnswer>();
}
const fOf = (filters: QoeFilter[]) => (filters.length > 0 ? `&f=${encodeURIComponent(formatQoeFilters(filters))}` : '');

/** A report's one-value filter as the query says it and as the session dimension it selects. */
type OneFilter = { name: 'device' | 'country' | 'content' | 'plan'; dimension: QoeDimension; value: string } | null;
const oneFilterArb = (w: World, names: readonly ('device' | 'country' | 'content' | 'plan')[]): fc.Arbitrary<OneFilter> =>
  fc.option(fc.constantFrom(...names).chain((name) => {
    const dimension: QoeDimension = name === 'content' ? 'title' : name;
    return fc.constantFrom(...w.values[dimension].filter((v) => v !== '')).map((value) => ({ name, dimension, value }));
  }), { nil: null });
const keeps = (p: Row, filters: QoeFilter[], one: OneFilter) => matches(p, filters) && (!one || p.dims[one.dimension] === one.value);
const oneQuery = (one: OneFilter) => (one ? `&${one.name}=${one.value}` : '');

// ---------- plain recomputations ----------

/** user_behavior's figures: daily viewers are distinct viewers of each day and network, summed, over the days. */
function engagementOf(rows: Row[], days: number) {
  const watched = sum(rows, (p) => p.watched);
  const dailyViewers = new Set(rows.map((p) => `${dayOf(p)} ${p.dims.network} ${p.subscriberId}`)).size;
  return { sessions: rows.length, viewers: r(dailyViewers / days, 1), watchHours: r(watched / 3600, 1), avgMinutes: r(div(watched / 60, rows.length), 1) };
}

function watchThroughOf(rows: Row[]) {
  const watched = sum(rows, (p) => p.watched);
  const through = div(watched, rows.length * TITLE_SECONDS);
  return {
    sessions: rows.length, watchHours: r(watched / 3600, 1), titles: new Set(rows.map((p) => p.dims.title)).size,
    avgMinutes: r(div(watched / 60, rows.length), 1), watchThroughPct: r(through === null ? null : through * 100, 1),
  };
}

function startupBucketsOf(rows: Row[]) {
  const counts = bucketCounts(rows.map((p) => p.startup), STARTUP_MS_BUCKETS);
  return {
    sessions: rows.length,
    ...Object.fromEntries(counts.map((c, i) => { const share = div(c, rows.length); return [`b${i}`, r(share === null ? null : share * 100, 1)]; })),
    startupP50Ms: r(bucketQuantile(counts, STARTUP_MS_BUCKETS, 0.5), 0), startupP95Ms: r(bucketQuantile(counts, STARTUP_MS_BUCKETS, 0.95), 0),
  };
}

const QOS = ['sessions', 'startupAvgMs', 'startupP50Ms', 'startupP95Ms', 'rebufferPct', 'rebufferP50Pct', 'rebufferP95Pct', 'errorPct', 'bitrateKbps'] as const;
const qosOf = (rows: Row[]) => { const f: Record<string, unknown> = figuresOf(rows); return Object.fromEntries(QOS.map((k) => [k, f[k] ?? null])); };

/** What a breakdown row reads for a value of the generated world. */
function labelOf(w: World, dimension: QoeDimension, value: string): string {
  if (value === '') return QOE_NOT_REPORTED;
  if (dimension === 'series') return QOE_MESSAGES.removedTitle; // the world's series are not content items
  return dimension === 'title' || dimension === 'plan' || dimension === 'network' ? w.names.get(value) ?? value : value;
}

function groupBy(rows: Row[], key: (p: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const p of rows) groups.set(key(p), [...(groups.get(key(p)) ?? []), p]);
  return groups;
}

/** Rows compared whatever the order of equal ones (the order itself is checked apart). */
const unordered = (rows: readonly Record<string, unknown>[]) => rows.map((row) => JSON.stringify(row)).sort();

/** The nearest-rank quantile of the real-time reports. */
function nearestRank(values: number[], q: number): number | null {
  return values.length === 0 ? null : [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1]!;
}

beforeAll(async () => {
  t = await createTestApp();
  world = await insertQoeWorld(t, { sessions: 300, days: 8, seed: 141 });
  live = await insertQoeWorld(t, { sessions: 240, days: 1, seed: 142 });
  analyst = await t.login((await t.createUser({ site: world.site, roles: { 'Dashboard 360': 'read' }, prefix: 'rf' })).username);
  liveAnalyst = await t.login((await t.createUser({ site: live.site, roles: { 'Dashboard 360': 'read' }, prefix: 'rf' })).username);
}, 180_000);
afterAll(async () => { await t.close(); });

describe('playback reports under a filter set f (issue 41), recomputed from the sessions', () => {
  const RANGE = `from=${FROM}&to=${TO}`;
  const inRange = (p: Row) => dayOf(p) >= FROM && dayOf(p) <= TO;

  it('user_behavior: totals, every day, and the range before (compare=previous), with a one-value filter besides', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), oneFilterArb(world, ['device', 'country', 'content', 'plan']), async (filters, one) => {
      const body = await answer('user_behavior', `${RANGE}&compare=previous${fOf(filters)}${oneQuery(one)}`);
      const rows = world.rows.filter((p) => inRange(p) && keeps(p, filters, one));
      expect(body.totals).toEqual(engagementOf(rows, 7));
      expect(body.rows).toEqual(rows.length === 0 ? [] : DAYS.map((day) => ({ period: day, ...engagementOf(rows.filter((p) => dayOf(p) === day), 1) })));
      const before = world.rows.filter((p) => dayOf(p) >= dayBefore(FROM, 7) && dayOf(p) < FROM && keeps(p, filters, one));
      expect(body.previousTotals).toEqual(engagementOf(before, 7));
    }), { numRuns: RUNS, seed: SEED });
  }, 240_000);

  it('video_engagement: sessions, watch time, titles and watch-through, in total and per day', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), async (filters) => {
      const body = await answer('video_engagement', `${RANGE}${fOf(filters)}`);
      const rows = world.rows.filter((p) => inRange(p) && matches(p, filters));
      expect(body.totals).toEqual(watchThroughOf(rows));
      expect(body.rows).toEqual(rows.length === 0 ? [] : DAYS.map((day) => ({ period: day, ...watchThroughOf(rows.filter((p) => dayOf(p) === day)) })));
    }), { numRuns: RUNS, seed: SEED });
  }, 240_000);

  it('dtl_video_engagement: one row per title watched, most watched first', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), async (filters) => {
      const body = await answer('dtl_video_engagement', `${RANGE}${fOf(filters)}`);
      const rows = world.rows.filter((p) => inRange(p) && matches(p, filters));
      const titles = [...groupBy(rows, (p) => p.dims.title)].sort(([, a], [, b]) => sum(b, (p) => p.watched) - sum(a, (p) => p.watched));
      expect(body.rows).toEqual(titles.map(([id, mine]) => {
        const { sessions, watchHours, avgMinutes } = watchThroughOf(mine);
        const through = Math.min(1, div(sum(mine, (p) => p.watched), mine.length * TITLE_SECONDS) ?? 0);
        return { title: world.names.get(id), contentId: id, contentType: 'video', kind: 'video', genre: 'Drama', sessions, watchHours, avgMinutes, watchThroughPct: r(through * 100, 1) };
      }));
      const { sessions, watchHours, titles: count, avgMinutes } = watchThroughOf(rows);
      expect(body.totals).toEqual({ sessions, watchHours, titles: count, avgMinutes });
    }), { numRuns: RUNS, seed: SEED });
  }, 240_000);

  it('qos_bucket_metric_report: startup-time shares per value of any session dimension', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), fc.constantFrom(...QOS_BUCKET_BREAKDOWNS), async (filters, by) => {
      const body = await answer('qos_bucket_metric_report', `${RANGE}&by=${by}${fOf(filters)}`);
      const dimension = by as QoeDimension;
      const rows = world.rows.filter((p) => inRange(p) && matches(p, filters));
      expect(body.totals).toEqual(startupBucketsOf(rows));
      const groups = [...groupBy(rows, (p) => p.dims[dimension])];
      expect(unordered(body.rows)).toEqual(unordered(groups.map(([value, mine]) => ({ key: labelOf(world, dimension, value), ...startupBucketsOf(mine) }))));
      const counts = body.rows.map((row) => Number(row.sessions));
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    }), { numRuns: RUNS, seed: SEED });
  }, 240_000);

  it('qos_video_level_report: the QoS figures of each title', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), async (filters) => {
      const body = await answer('qos_video_level_report', `${RANGE}${fOf(filters)}`);
      const rows = world.rows.filter((p) => inRange(p) && matches(p, filters));
      expect(body.totals).toEqual(qosOf(rows));
      expect(unordered(body.rows)).toEqual(unordered([...groupBy(rows, (p) => p.dims.title)].map(([id, mine]) => ({ key: world.names.get(id), ...qosOf(mine) }))));
    }), { numRuns: RUNS, seed: SEED });
  }, 240_000);

  it('realtime_content: streams and viewers of every minute of the window, with a one-value filter besides', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(live), oneFilterArb(live, ['device', 'country', 'content']), async (filters, one) => {
      const body = await answer('realtime_content', `${fOf(filters)}${oneQuery(one)}`.slice(1), liveAnalyst);
      const end = Math.floor(Date.parse(body.generatedAt) / MINUTE) * MINUTE + MINUTE;
      const since = end - REALTIME_WINDOW_MINUTES * MINUTE;
      const seen = live.rows.filter((p) => p.lastEventAt.getTime() >= since && p.startedAt.getTime() >= since - DAY_MS && keeps(p, filters, one));
      const minutes = Array.from({ length: REALTIME_WINDOW_MINUTES }, (_, i) => since + i * MINUTE).map((at) => {
        const active = seen.filter((p) => p.startedAt.getTime() < at + MINUTE && p.lastEventAt.getTime() >= at);
        return { period: new Date(at).toISOString().slice(0, 16) + 'Z', streams: active.length, viewers: new Set(active.map((p) => p.subscriberId)).size };
      });
      expect(body.rows).toEqual(seen.length === 0 ? [] : minutes);
      const last = minutes[minutes.length - 1]!;
      expect(body.totals).toEqual({ streams: last.streams, viewers: last.viewers, peakStreams: Math.max(0, ...minutes.map((m) => m.streams)), sessions: seen.length });
    }), { numRuns: RUNS, seed: SEED });
  }, 240_000);

  it('realtime_content_enhanced: per title over the window (nearest-rank startup, rebuffer and error shares)', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(live), oneFilterArb(live, ['device', 'country']), async (filters, one) => {
      const body = await answer('realtime_content_enhanced', `${fOf(filters)}${oneQuery(one)}`.slice(1), liveAnalyst);
      const since = Date.parse(body.generatedAt) - REALTIME_WINDOW_MINUTES * MINUTE;
      const seen = live.rows.filter((p) => p.lastEventAt.getTime() >= since && p.startedAt.getTime() >= since - DAY_MS && keeps(p, filters, one));
      const measure = (list: Row[]) => {
        const watched = sum(list, (p) => p.watched);
        const rebuffer = sum(list, (p) => p.rebuffer);
        const rebufferShare = div(rebuffer, watched + rebuffer);
        const errorShare = div(list.filter((p) => p.error).length, list.length);
        return {
          streams: list.length, viewers: new Set(list.map((p) => p.subscriberId)).size,
          startupP50Ms: nearestRank(list.map((p) => p.startup), 0.5), startupP95Ms: nearestRank(list.map((p) => p.startup), 0.95),
          rebufferPct: r(rebufferShare === null ? null : rebufferShare * 100, 2), errorPct: r(errorShare === null ? null : errorShare * 100, 1),
        };
      };
      expect(body.totals).toEqual(measure(seen));
      const titles = [...groupBy(seen, (p) => p.dims.title)].map(([id, list]) => ({ title: live.names.get(id), contentId: id, contentType: 'video', ...measure(list) }));
      expect(unordered(body.rows)).toEqual(unordered(titles));
      const streams = body.rows.map((row) => Number(row.streams));
      expect(streams).toEqual([...streams].sort((a, b) => b - a));
    }), { numRuns: RUNS, seed: SEED });
  }, 240_000);
});

describe('without f the rollups answer, with the figures of raw sessions under an empty filter set', () => {
  // An exclude filter on a value no session has keeps every session but sends the answer to raw sessions.
  const EVERYTHING = `&f=${encodeURIComponent('!device:nobody-has-this')}`;
  const RANGE = `from=${FROM}&to=${TO}`;
  const CASES: [ReportName, string][] = [
    ['user_behavior', ''], ['user_behavior', '&granularity=week&compare=previous'], ['user_behavior', '&device=web'], ['user_behavior', '&content=<a title>'],
    ['video_engagement', ''], ['video_engagement', '&granularity=month'], ['dtl_video_engagement', ''], ['qos_video_level_report', ''],
    ...['device', 'cdn', 'country', 'isp'].map((by): [ReportName, string] => ['qos_bucket_metric_report', `&by=${by}`]),
  ];

  it.each(CASES)('%s%s', async (report, query) => {
    const q = query.replace('<a title>', world.values.title[0]!);
    const rollups = await answer(report, `${RANGE}${q}`);
    const raw = await answer(report, `${RANGE}${q}${EVERYTHING}`);
    expect(rollups.rows.length).toBeGreaterThan(0);
    expect({ columns: raw.columns, rows: raw.rows, totals: raw.totals, previousTotals: raw.previousTotals })
      .toEqual({ columns: rollups.columns, rows: rollups.rows, totals: rollups.totals, previousTotals: rollups.previousTotals });
  });

  it.each([['realtime_content', {}], ['realtime_content', { device: 'web' }], ['realtime_content_enhanced', {}], ['realtime_content_enhanced', { country: 'US' }]] as const)(
    '%s %j (at the same instant)', async (report, query) => {
      const ctx = async (withF: boolean) => ({
        reads: createReportReads(t.db), qoe: createQoeRepository(t.db), siteId: live.siteId, networkId: null, now: NOW,
        params: parseReportParams(report, { ...query, ...(withF && { f: '!device:nobody-has-this' }) }, TO),
      });
      const unfiltered = await buildReport(report, await ctx(false));
      const raw = await buildReport(report, await ctx(true));
      expect(unfiltered.totals.sessions ?? unfiltered.totals.streams).toBeGreaterThan(0);
      // Titles with as many streams may come in either order (each read's own); the figures may not differ.
      expect({ rows: unordered(raw.rows), totals: raw.totals }).toEqual({ rows: unordered(unfiltered.rows), totals: unfiltered.totals });
    });
});

describe('which reports take f', () => {
  it('every playback report takes f; the subscriber and payment reports do not', () => {
    expect(REPORT_NAMES.filter((n) => REPORT_SPECS[n].sessionFilters)).toEqual(REPORT_NAMES.filter((n) => PLAYBACK.includes(n)));
    expect(BUSINESS).toEqual(['user_base', 'payment_summary_report', 'change_in_user_base', 'cohort_analysis', 'ltv_enhanced']);
  });

  it('f on a subscriber or payment report is refused (400) saying session filters apply to playback reports only', async () => {
    for (const report of BUSINESS) {
      const res = await t.get(`${REPORTS_PATH}/${report}?f=device:web`, analyst.headers);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(`f: ${QOE_MESSAGES.noSessionFilters(report)}`);
      expect(QOE_MESSAGES.noSessionFilters(report)).toContain('session filters apply to playback reports only');
    }
  });

  it("a bad f on a playback report is refused (400) with the filter parser's words", async () => {
    for (const report of PLAYBACK) {
      const bad = await t.get(`${REPORTS_PATH}/${report}?f=planet:mars`, analyst.headers);
      expect({ status: bad.statusCode, message: bad.json<{ message: string }>().message }).toEqual({ status: 400, message: QOE_MESSAGES.unknownDimension('planet') });
      const empty = await t.get(`${REPORTS_PATH}/${report}?f=device`, analyst.headers);
      expect({ status: empty.statusCode, message: empty.json<{ message: string }>().message }).toEqual({ status: 400, message: QOE_MESSAGES.noValues('Device type') });
    }
  });
});

describe('daily viewers under f are counted per network, as the rollups count them', () => {
  it('a viewer watching on two networks the same day counts once on each, with and without f', async () => {
    const two = await insertQoeWorld(t, { sessions: 60, days: 2, seed: 144 });
    const [a, b] = [...two.netIdentifiers.keys()];
    const pair = two.rows.flatMap((p) => two.rows.filter((q) => q.id !== p.id && q.subscriberId === p.subscriberId && dayOf(q) === dayOf(p)).map((q) => [p, q] as const))[0];
    expect(pair).toBeDefined();
    const moved = pair![1];
    moved.dims.network = pair![0].dims.network === a ? b! : a!;
    await t.db.update(playbackSessions).set({ networkId: moved.dims.network }).where(eq(playbackSessions.id, moved.id));
    await rebuildRollups(t.db, { siteId: two.siteId, asOf: NOW });
    const as = await t.login((await t.createUser({ site: two.site, roles: { 'Dashboard 360': 'read' }, prefix: 'rf' })).username);
    const range = `from=${dayOf(moved)}&to=${dayOf(moved)}`;
    const rollups = await answer('user_behavior', range, as);
    const raw = await answer('user_behavior', `${range}&f=${encodeURIComponent('!device:nobody-has-this')}`, as);
    const rows = two.rows.filter((p) => dayOf(p) === dayOf(moved));
    expect(rollups.totals).toEqual(engagementOf(rows, 1));
    expect(raw.totals).toEqual(rollups.totals);
    // The case bites: distinct viewers of the day alone would be one fewer.
    expect(rollups.totals.viewers).toBe(new Set(rows.map((p) => p.subscriberId)).size + 1);
  });
});
