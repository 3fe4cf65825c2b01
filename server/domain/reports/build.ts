/**
 * The reports of the reporting service (spec §7.6), each a function of rollup reads: columns, rows
 * and headline totals. Periods cover the whole range (zeros included) so charts show gaps as gaps;
 * a range with no data at all answers no rows, which the browser shows as an empty state.
 */
import { REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS, type PlaybackDimension } from '../../../common/constants';
import {
  CONTENT_OPTIONS_LIMIT, REALTIME_WINDOW_MINUTES, REPORT_SPECS, addDays, daysBetween,
  type QosBreakdown, type ReportAnswer, type ReportColumn, type ReportName, type ReportRow,
} from '../../../common/reports';
import type { Db } from '../../db/client';
import {
  cohortRetention, cohortRevenue, contentInfo, contentOptions, currenciesOf, planOptions, liveSessions, paymentsBy, planNames, playbackByDay,
  playbackByKey, signupsByDay, subscriptionsByDay, watchByDayAndContent,
  type PaymentDayRow, type PlaybackSums, type ReportScope,
} from '../../db/report-repository';
import type { ParsedReportParams } from './params';
import { reportParamError } from './params';
import { addCounts, histogramQuantile, periodOf, periodsOf, ratio, round } from './stats';
import type { FigureKey } from '../../../common/figures';

export interface ReportContext {
  db: Db;
  siteId: string;
  networkId: string | null;
  params: ParsedReportParams;
  now: Date;
  /** Set for the preceding range of compare=previous (issue 27: it refused the answer's own currency with a 400). */
  previousPeriod?: boolean;
}

type ReportBody = Pick<ReportAnswer, 'columns' | 'rows' | 'totals' | 'currency' | 'currencies' | 'currencyTotals'>;

/** A text or period column (no figure). */
const col = (key: string, label: string, kind: 'text' | 'period'): ReportColumn => ({ key, label, kind });
/** A figure column: `figure` names its definition in common/figures.ts (by default the column key). */
const fig = (key: string, label: string, kind: ReportColumn['kind'], figure: FigureKey = key as FigureKey): ReportColumn => ({ key, label, kind, figure });
const PERIOD = col('period', 'Period', 'period');

function scopeOf(ctx: ReportContext): ReportScope {
  return { siteId: ctx.siteId, networkId: ctx.networkId, from: ctx.params.from, to: ctx.params.to };
}

function emptySums(): PlaybackSums {
  return {
    sessions: 0, viewers: 0, watchedSeconds: 0, startupMsSum: 0, rebufferCount: 0, rebufferSeconds: 0,
    errorSessions: 0, bitrateKbpsSum: 0, startupHistogram: [], rebufferHistogram: [],
  };
}

function addSums(into: PlaybackSums, more: PlaybackSums): PlaybackSums {
  into.sessions += more.sessions;
  into.viewers += more.viewers;
  into.watchedSeconds += more.watchedSeconds;
  into.startupMsSum += more.startupMsSum;
  into.rebufferCount += more.rebufferCount;
  into.rebufferSeconds += more.rebufferSeconds;
  into.errorSessions += more.errorSessions;
  into.bitrateKbpsSum += more.bitrateKbpsSum;
  addCounts(into.startupHistogram, more.startupHistogram);
  addCounts(into.rebufferHistogram, more.rebufferHistogram);
  return into;
}

/** Playback measures of a slice; `days` turns summed daily viewers into an average per day. */
function playbackMeasures(s: PlaybackSums, days: number): Record<string, number | null> {
  return {
    sessions: s.sessions,
    viewers: round(s.viewers / Math.max(days, 1), 1),
    watchHours: round(s.watchedSeconds / 3600, 1),
    avgMinutes: round(ratio(s.watchedSeconds / 60, s.sessions), 1),
    startupAvgMs: round(ratio(s.startupMsSum, s.sessions), 0),
    startupP50Ms: round(histogramQuantile(s.startupHistogram, STARTUP_MS_BUCKETS, 0.5), 0),
    startupP95Ms: round(histogramQuantile(s.startupHistogram, STARTUP_MS_BUCKETS, 0.95), 0),
    rebufferPct: round(percent(ratio(s.rebufferSeconds, s.watchedSeconds + s.rebufferSeconds)), 2),
    rebufferP50Pct: round(percent(histogramQuantile(s.rebufferHistogram, REBUFFER_RATIO_BUCKETS, 0.5)), 2),
    rebufferP95Pct: round(percent(histogramQuantile(s.rebufferHistogram, REBUFFER_RATIO_BUCKETS, 0.95)), 2),
    errorPct: round(percent(ratio(s.errorSessions, s.sessions)), 2),
    bitrateKbps: round(ratio(s.bitrateKbpsSum, s.sessions), 0),
  };
}

const percent = (value: number | null): number | null => (value === null ? null : value * 100);

const ENGAGEMENT_COLUMNS = [
  fig('sessions', 'Sessions', 'count'), fig('viewers', 'Viewers (daily average)', 'count'),
  fig('watchHours', 'Watch time (hours)', 'hours'), fig('avgMinutes', 'Minutes per session', 'minutes'),
];
const QOS_COLUMNS = [
  fig('sessions', 'Sessions', 'count'), fig('startupAvgMs', 'Startup avg (ms)', 'ms'),
  fig('startupP50Ms', 'Startup p50 (ms)', 'ms'), fig('startupP95Ms', 'Startup p95 (ms)', 'ms'),
  fig('rebufferPct', 'Rebuffer ratio (%)', 'percent'), fig('rebufferP50Pct', 'Rebuffer p50 (%)', 'percent'),
  fig('rebufferP95Pct', 'Rebuffer p95 (%)', 'percent'), fig('errorPct', 'Error sessions (%)', 'percent'),
  fig('bitrateKbps', 'Bitrate avg (kbps)', 'kbps'),
];

/** The playback slice a filter selects ('all' without one). */
function slice(params: ParsedReportParams): { dimension: PlaybackDimension; key: string } {
  return params.filter ? { dimension: params.filter.name, key: params.filter.value } : { dimension: 'all', key: '' };
}

async function playbackSeries(ctx: ReportContext, pick: (m: Record<string, number | null>) => ReportRow, columns: ReportColumn[]): Promise<ReportBody> {
  const { dimension, key } = slice(ctx.params);
  const days = await playbackByDay(ctx.db, scopeOf(ctx), dimension, key);
  const byPeriod = new Map<string, PlaybackSums>();
  const total = emptySums();
  for (const day of days) {
    const period = periodOf(day.day, ctx.params.granularity);
    byPeriod.set(period, addSums(byPeriod.get(period) ?? emptySums(), day));
    addSums(total, day);
  }
  if (total.sessions === 0) return { columns: [PERIOD, ...columns], rows: [], totals: pick(playbackMeasures(total, 1)) as Record<string, number | null> };
  const rows = periodsOf(ctx.params.from, ctx.params.to, ctx.params.granularity).map(({ period, days: n }) => ({
    period, ...pick(playbackMeasures(byPeriod.get(period) ?? emptySums(), n)),
  }));
  return { columns: [PERIOD, ...columns], rows, totals: pick(playbackMeasures(total, daysBetween(ctx.params.from, ctx.params.to))) as Record<string, number | null> };
}

function pickKeys(columns: ReportColumn[]) {
  return (m: Record<string, number | null>): ReportRow => Object.fromEntries(columns.map((c) => [c.key, m[c.key] ?? null]));
}

/** A breakdown row's label: the title for content (its key is the content id), else the key itself. */
async function labelsFor(ctx: ReportContext, dimension: QosBreakdown, keys: string[]): Promise<(key: string) => string> {
  if (dimension !== 'content') return (key) => key;
  const info = await contentInfo(ctx.db, ctx.siteId, keys);
  return (key) => info.get(key)?.title ?? 'Removed title';
}

async function qos(ctx: ReportContext): Promise<ReportBody> {
  const by = ctx.params.by ?? 'period';
  if (by === 'period') return playbackSeries(ctx, pickKeys(QOS_COLUMNS), QOS_COLUMNS);
  return qosByKey(ctx, by as QosBreakdown);
}

/** Rollup rows always count at least one session (each is a group of sessions), so no row is empty. */
async function qosByKey(ctx: ReportContext, dimension: QosBreakdown): Promise<ReportBody> {
  const filter = ctx.params.filter;
  if (filter && filter.name !== dimension) throw reportParamError(`${filter.name}: cannot be combined with by=${dimension}; filter on the breakdown's own dimension`);
  const rows = await playbackByKey(ctx.db, scopeOf(ctx), dimension, filter?.value ?? null);
  const label = await labelsFor(ctx, dimension, rows.map((r) => r.key));
  const days = daysBetween(ctx.params.from, ctx.params.to);
  const pick = pickKeys(QOS_COLUMNS);
  const total = rows.reduce((acc, r) => addSums(acc, r), emptySums());
  return {
    columns: [col('key', dimensionLabel(dimension), 'text'), ...QOS_COLUMNS],
    rows: rows.sort((a, b) => b.sessions - a.sessions).map((r) => ({ key: label(r.key), ...pick(playbackMeasures(r, days)) })),
    totals: pick(playbackMeasures(total, days)) as Record<string, number | null>,
  };
}

function dimensionLabel(dimension: QosBreakdown): string {
  return ({ device: 'Device', country: 'Country', isp: 'ISP', cdn: 'CDN', content: 'Title' } satisfies Record<QosBreakdown, string>)[dimension];
}

function bucketLabels(bounds: readonly number[], format: (n: number) => string): string[] {
  return [`< ${format(bounds[0]!)}`, ...bounds.slice(1).map((b, i) => `${format(bounds[i]!)}–${format(b)}`), `≥ ${format(bounds[bounds.length - 1]!)}`];
}

async function qosBuckets(ctx: ReportContext): Promise<ReportBody> {
  const dimension = (ctx.params.by ?? 'device') as QosBreakdown;
  const rows = await playbackByKey(ctx.db, scopeOf(ctx), dimension, null);
  const labels = bucketLabels(STARTUP_MS_BUCKETS, (ms) => `${ms / 1000} s`);
  const bucketColumns = labels.map((label, i) => fig(`b${i}`, `Startup ${label} (%)`, 'percent', 'startupBucketPct'));
  const measure = (counts: number[], sessions: number): ReportRow => ({
    sessions,
    ...Object.fromEntries(labels.map((_, i) => [`b${i}`, round(percent(ratio(counts[i] ?? 0, sessions)), 1)])),
    startupP50Ms: round(histogramQuantile(counts, STARTUP_MS_BUCKETS, 0.5), 0),
    startupP95Ms: round(histogramQuantile(counts, STARTUP_MS_BUCKETS, 0.95), 0),
  });
  const total = rows.reduce((acc, r) => addSums(acc, r), emptySums());
  return {
    columns: [col('key', dimensionLabel(dimension), 'text'), fig('sessions', 'Sessions', 'count'), ...bucketColumns,
      fig('startupP50Ms', 'Startup p50 (ms)', 'ms'), fig('startupP95Ms', 'Startup p95 (ms)', 'ms')],
    rows: rows.sort((a, b) => b.sessions - a.sessions).map((r) => ({ key: r.key, ...measure(r.startupHistogram, r.sessions) })),
    totals: measure(total.startupHistogram, total.sessions) as Record<string, number | null>,
  };
}

async function userBase(ctx: ReportContext): Promise<ReportBody> {
  const scope = scopeOf(ctx);
  // Country: sign-ups and viewers of that country (subscriptions have none). Plan: viewers on that
  // plan and its subscriptions; sign-ups have no plan. (Issue 27: the plan id was read as a country.)
  const country = ctx.params.filter?.name === 'country' ? ctx.params.filter.value : null;
  const plan = ctx.params.filter?.name === 'plan' ? ctx.params.filter.value : null;
  const [signups, playback, subs] = await Promise.all([
    plan ? Promise.resolve([]) : signupsByDay(ctx.db, scope, country),
    playbackByDay(ctx.db, scope, country ? 'country' : plan ? 'plan' : 'all', country ?? plan ?? ''),
    country ? Promise.resolve([]) : subscriptionsByDay(ctx.db, scope, plan),
  ]);
  const periods = periodsOf(ctx.params.from, ctx.params.to, ctx.params.granularity);
  const g = ctx.params.granularity;
  const signupBy = new Map<string, number>();
  for (const r of signups) signupBy.set(periodOf(r.day, g), (signupBy.get(periodOf(r.day, g)) ?? 0) + r.signups);
  const viewerBy = new Map<string, number>();
  for (const r of playback) viewerBy.set(periodOf(r.day, g), (viewerBy.get(periodOf(r.day, g)) ?? 0) + r.viewers);
  const subsByDay = new Map(subs.map((r) => [r.day, r]));
  const lastDayOf = (period: string) => {
    let last = ctx.params.from;
    for (let day = ctx.params.from; day <= ctx.params.to; day = addDays(day, 1)) if (periodOf(day, g) === period) last = day;
    return last;
  };
  const columns = [PERIOD, ...(plan ? [] : [fig('signups', 'Sign-ups', 'count')]), fig('viewers', 'Viewers (daily average)', 'count')];
  if (!country) columns.push(fig('subscribers', 'Paying subscribers (end)', 'count', 'subscribers'), fig('trialing', 'In trial (end)', 'count'));
  const rows: ReportRow[] = periods.map(({ period, days }) => {
    const end = subsByDay.get(lastDayOf(period));
    const row: ReportRow = { period, ...(!plan && { signups: signupBy.get(period) ?? 0 }), viewers: round((viewerBy.get(period) ?? 0) / days, 1) };
    if (!country) Object.assign(row, { subscribers: end?.activeAtEnd ?? 0, trialing: end?.trialingAtEnd ?? 0 });
    return row;
  });
  const last = subsByDay.get(ctx.params.to);
  const totals: Record<string, number | null> = {
    ...(!plan && { signups: signups.reduce((a, r) => a + r.signups, 0) }),
    viewers: round(playback.reduce((a, r) => a + r.viewers, 0) / daysBetween(ctx.params.from, ctx.params.to), 1),
  };
  if (!country) Object.assign(totals, { subscribers: last?.activeAtEnd ?? 0, trialing: last?.trialingAtEnd ?? 0 });
  const anything = signups.length + playback.length + subs.length > 0;
  return { columns, rows: anything ? rows : [], totals };
}

async function changeInUserBase(ctx: ReportContext): Promise<ReportBody> {
  const scope = { ...scopeOf(ctx), from: addDays(ctx.params.from, -1) };
  const days = await subscriptionsByDay(ctx.db, scope, ctx.params.filter?.value ?? null);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const g = ctx.params.granularity;
  const startActive = (day: string) => byDay.get(addDays(day, -1))?.activeAtEnd ?? 0;
  const sums = new Map<string, { trials: number; paid: number; conv: number; canc: number; expi: number; start: number; end: number }>();
  for (let day = ctx.params.from; day <= ctx.params.to; day = addDays(day, 1)) {
    const period = periodOf(day, g);
    const d = byDay.get(day);
    const s = sums.get(period) ?? { trials: 0, paid: 0, conv: 0, canc: 0, expi: 0, start: startActive(day), end: 0 };
    s.trials += d?.trialsStarted ?? 0;
    s.paid += d?.paidStarted ?? 0;
    s.conv += d?.conversions ?? 0;
    s.canc += d?.cancellations ?? 0;
    s.expi += d?.expirations ?? 0;
    s.end = d?.activeAtEnd ?? 0;
    sums.set(period, s);
  }
  const measure = (s: { trials: number; paid: number; conv: number; canc: number; expi: number; start: number; end: number }) => ({
    trialsStarted: s.trials, paidStarted: s.paid, conversions: s.conv, cancellations: s.canc, expirations: s.expi,
    gained: s.paid + s.conv, lost: s.expi, net: s.end - s.start, activeAtEnd: s.end,
    // Churn: paying subscriptions lost (paying at the start + gained - paying at the end) over everyone
    // who paid in the period (paying at the start + gained), so it stays within 0-100 % (over paying at
    // the start alone, a subscriber gained and lost in the period made it 200 %: found by the
    // reconciliation suite). Endings also count trials that never paid, which are not churn.
    churnPct: round(percent(ratio(s.start + s.paid + s.conv - s.end, s.start + s.paid + s.conv)), 2),
  });
  const all = [...sums.values()];
  const total = all.reduce((a, s) => ({
    trials: a.trials + s.trials, paid: a.paid + s.paid, conv: a.conv + s.conv, canc: a.canc + s.canc, expi: a.expi + s.expi, start: a.start, end: s.end,
  }), { trials: 0, paid: 0, conv: 0, canc: 0, expi: 0, start: startActive(ctx.params.from), end: 0 });
  const anything = days.some((d) => d.day >= ctx.params.from);
  return {
    columns: [PERIOD, fig('trialsStarted', 'Trials started', 'count'), fig('paidStarted', 'Paid starts', 'count'),
      fig('conversions', 'Trial conversions', 'count'), fig('gained', 'Paying gained', 'count'),
      fig('cancellations', 'Cancellations', 'count'), fig('lost', 'Subscriptions ended', 'count'),
      fig('net', 'Net change (paying)', 'count'), fig('activeAtEnd', 'Paying at end', 'count'), fig('churnPct', 'Churn (%)', 'percent')],
    rows: anything ? [...sums.entries()].map(([period, s]) => ({ period, ...measure(s) })) : [],
    totals: measure(total),
  };
}

async function videoEngagement(ctx: ReportContext): Promise<ReportBody> {
  const rows = await watchByDayAndContent(ctx.db, scopeOf(ctx));
  const info = await contentInfo(ctx.db, ctx.siteId, [...new Set(rows.map((r) => r.key))]);
  const g = ctx.params.granularity;
  type Acc = { sessions: number; watched: number; possible: number; titles: Set<string> };
  const fresh = (): Acc => ({ sessions: 0, watched: 0, possible: 0, titles: new Set() });
  const byPeriod = new Map<string, Acc>();
  const total = fresh();
  for (const r of rows) {
    const acc = byPeriod.get(periodOf(r.day, g)) ?? fresh();
    for (const a of [acc, total]) {
      a.sessions += r.sessions;
      a.watched += r.watchedSeconds;
      a.possible += r.sessions * (info.get(r.key)?.durationSeconds ?? 0);
      a.titles.add(r.key);
    }
    byPeriod.set(periodOf(r.day, g), acc);
  }
  const measure = (a: Acc) => ({
    sessions: a.sessions, watchHours: round(a.watched / 3600, 1), titles: a.titles.size,
    avgMinutes: round(ratio(a.watched / 60, a.sessions), 1), watchThroughPct: round(percent(ratio(a.watched, a.possible)), 1),
  });
  return {
    columns: [PERIOD, fig('sessions', 'Sessions', 'count'), fig('watchHours', 'Watch time (hours)', 'hours'),
      fig('titles', 'Titles watched', 'count'), fig('avgMinutes', 'Minutes per session', 'minutes'),
      fig('watchThroughPct', 'Watch-through (%)', 'percent')],
    rows: total.sessions === 0 ? [] : periodsOf(ctx.params.from, ctx.params.to, g).map(({ period }) => ({ period, ...measure(byPeriod.get(period) ?? fresh()) })),
    totals: measure(total),
  };
}

const TOP_LIMIT = 200;

/**
 * The row fields (not columns) that let a title link to its content item (issue 27); none for a
 * removed title, which has no item to open.
 */
function contentLinkFields(id: string, info: Map<string, { kind: string }>): ReportRow {
  const item = info.get(id);
  return item ? { contentId: id, contentType: item.kind } : {};
}

async function dtlVideoEngagement(ctx: ReportContext): Promise<ReportBody> {
  const rows = await playbackByKey(ctx.db, scopeOf(ctx), 'content', null, false);
  rows.sort((a, b) => b.watchedSeconds - a.watchedSeconds);
  const shown = rows.slice(0, TOP_LIMIT);
  const info = await contentInfo(ctx.db, ctx.siteId, shown.map((r) => r.key));
  const total = rows.reduce((a, r) => addSums(a, r), emptySums());
  const possible = (r: PlaybackSums, key: string) => r.sessions * (info.get(key)?.durationSeconds ?? 0);
  return {
    columns: [col('title', 'Title', 'text'), col('kind', 'Kind', 'text'), col('genre', 'Genre', 'text'),
      fig('sessions', 'Sessions', 'count'), fig('watchHours', 'Watch time (hours)', 'hours'),
      fig('avgMinutes', 'Minutes per session', 'minutes'), fig('watchThroughPct', 'Watch-through (%)', 'percent')],
    rows: shown.map((r) => ({
      title: info.get(r.key)?.title ?? 'Removed title', ...contentLinkFields(r.key, info), kind: info.get(r.key)?.kind ?? '', genre: info.get(r.key)?.genre ?? '',
      sessions: r.sessions, watchHours: round(r.watchedSeconds / 3600, 1),
      avgMinutes: round(ratio(r.watchedSeconds / 60, r.sessions), 1),
      watchThroughPct: round(percent(Math.min(1, ratio(r.watchedSeconds, possible(r, r.key)) ?? 0)), 1),
    })),
    totals: { sessions: total.sessions, watchHours: round(total.watchedSeconds / 3600, 1), titles: rows.length,
      avgMinutes: round(ratio(total.watchedSeconds / 60, total.sessions), 1) },
  };
}

function quantile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  // Nearest rank: 0 < q ≤ 1 puts the rank within 1..n.
  return [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1]!;
}

async function realtimeContent(ctx: ReportContext): Promise<ReportBody> {
  const minuteMs = 60_000;
  const end = Math.floor(ctx.now.getTime() / minuteMs) * minuteMs + minuteMs;
  const since = new Date(end - REALTIME_WINDOW_MINUTES * minuteMs);
  const f = ctx.params.filter;
  const sessions = await liveSessions(ctx.db, {
    siteId: ctx.siteId, networkId: ctx.networkId, since,
    device: f?.name === 'device' ? f.value : null, country: f?.name === 'country' ? f.value : null, content: f?.name === 'content' ? f.value : null,
  });
  const rows: ReportRow[] = [];
  for (let t = since.getTime(); t < end; t += minuteMs) {
    const active = sessions.filter((s) => Date.parse(s.startedAt) < t + minuteMs && Date.parse(s.lastEventAt) >= t);
    rows.push({ period: new Date(t).toISOString().slice(0, 16) + 'Z', streams: active.length, viewers: new Set(active.map((s) => s.subscriberId)).size });
  }
  const last = rows[rows.length - 1]!;
  return {
    columns: [col('period', 'Minute', 'period'), fig('streams', 'Streams', 'count', 'streamsMinute'), fig('viewers', 'Viewers', 'count', 'viewersMinute')],
    rows: sessions.length === 0 ? [] : rows,
    totals: { streams: last.streams as number, viewers: last.viewers as number, peakStreams: Math.max(0, ...rows.map((r) => r.streams as number)), sessions: sessions.length },
  };
}

async function realtimeContentEnhanced(ctx: ReportContext): Promise<ReportBody> {
  const since = new Date(ctx.now.getTime() - REALTIME_WINDOW_MINUTES * 60_000);
  const f = ctx.params.filter;
  const sessions = await liveSessions(ctx.db, {
    siteId: ctx.siteId, networkId: ctx.networkId, since,
    device: f?.name === 'device' ? f.value : null, country: f?.name === 'country' ? f.value : null, content: null,
  });
  const byContent = new Map<string, typeof sessions>();
  for (const s of sessions) byContent.set(s.contentId, [...(byContent.get(s.contentId) ?? []), s]);
  const info = await contentInfo(ctx.db, ctx.siteId, [...byContent.keys()]);
  const measure = (list: typeof sessions) => {
    const watched = list.reduce((a, s) => a + s.watchedSeconds, 0);
    const rebuffer = list.reduce((a, s) => a + s.rebufferSeconds, 0);
    return {
      streams: list.length, viewers: new Set(list.map((s) => s.subscriberId)).size,
      startupP50Ms: quantile(list.map((s) => s.startupMs), 0.5), startupP95Ms: quantile(list.map((s) => s.startupMs), 0.95),
      rebufferPct: round(percent(ratio(rebuffer, watched + rebuffer)), 2),
      errorPct: round(percent(ratio(list.filter((s) => s.errorCode !== null).length, list.length)), 1),
    };
  };
  return {
    columns: [col('title', 'Title', 'text'), fig('streams', 'Streams (30 min)', 'count', 'streamsWindow'), fig('viewers', 'Viewers (30 min)', 'count', 'viewersWindow'),
      fig('startupP50Ms', 'Startup p50 (ms)', 'ms'), fig('startupP95Ms', 'Startup p95 (ms)', 'ms'),
      fig('rebufferPct', 'Rebuffer ratio (%)', 'percent'), fig('errorPct', 'Error sessions (%)', 'percent')],
    rows: [...byContent.entries()].map(([id, list]) => ({ title: info.get(id)?.title ?? 'Removed title', ...contentLinkFields(id, info), ...measure(list) }))
      .sort((a, b) => b.streams - a.streams).slice(0, 50),
    totals: measure(sessions),
  };
}

const COHORT_MONTHS = 12;

async function cohortAnalysis(ctx: ReportContext): Promise<ReportBody> {
  const cells = await cohortRetention(ctx.db, scopeOf(ctx), ctx.params.filter?.value ?? null);
  const byCohort = new Map<string, number[]>();
  for (const c of cells) {
    const list = byCohort.get(c.cohort) ?? [];
    list[c.offset] = (list[c.offset] ?? 0) + c.value;
    byCohort.set(c.cohort, list);
  }
  const width = Math.min(COHORT_MONTHS, Math.max(0, ...[...byCohort.values()].map((l) => l.length)));
  const columns = [col('cohort', 'Cohort (first subscription)', 'text'), fig('subscribers', 'Subscribers', 'count', 'cohortSubscribers'),
    ...Array.from({ length: width }, (_, i) => fig(`m${i}`, `Month ${i} (%)`, 'percent', 'retentionPct'))];
  const rows = [...byCohort.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([cohort, list]) => {
    const size = list[0] ?? 0;
    const row: ReportRow = { cohort, subscribers: size };
    for (let i = 0; i < width; i++) row[`m${i}`] = i < list.length ? round(percent(ratio(list[i] ?? 0, size)), 1) : null;
    return row;
  });
  const withMonth1 = rows.filter((r) => typeof r.m1 === 'number');
  return {
    columns, rows,
    totals: {
      cohorts: rows.length, subscribers: rows.reduce((a, r) => a + (r.subscribers as number), 0),
      m1: withMonth1.length ? round(withMonth1.reduce((a, r) => a + (r.m1 as number), 0) / withMonth1.length, 1) : null,
    },
  };
}

async function chosenCurrency(ctx: ReportContext): Promise<{ currency: string; currencies: string[] }> {
  const currencies = await currenciesOf(ctx.db, { ...scopeOf(ctx), from: addDays(ctx.params.to, -365 * 3) });
  const asked = ctx.params.currency;
  // The previous-period comparison reuses the answer's currency even when the earlier range had none of it.
  if (asked && !currencies.includes(asked) && currencies.length > 0 && !ctx.previousPeriod) throw reportParamError(`currency: no payments in ${asked}; this site has ${currencies.join(', ')}`);
  return { currency: asked ?? currencies[0] ?? 'USD', currencies };
}

async function ltvEnhanced(ctx: ReportContext): Promise<ReportBody> {
  const { currency, currencies } = await chosenCurrency(ctx);
  const [rows, names] = await Promise.all([
    cohortRevenue(ctx.db, scopeOf(ctx), ctx.params.filter?.value ?? null, currency),
    planNames(ctx.db, ctx.siteId),
  ]);
  const subscribers = rows.reduce((a, r) => a + r.subscribers, 0);
  const revenue = rows.reduce((a, r) => a + r.revenue, 0);
  return {
    currency, currencies,
    columns: [col('cohort', 'Cohort (first subscription)', 'text'), col('plan', 'Plan', 'text'), fig('subscribers', 'Subscribers billed in this currency', 'count', 'ltvSubscribers'),
      fig('revenue', 'Lifetime net revenue', 'money', 'cohortNetRevenue'), fig('ltv', 'Lifetime value per subscriber', 'money', 'ltv')],
    rows: rows.map((r) => ({ cohort: r.cohort, plan: names.get(r.key) ?? 'Removed plan', subscribers: r.subscribers, revenue: r.revenue, ltv: round(ratio(r.revenue, r.subscribers), 0) })),
    totals: { subscribers, revenue, ltv: round(ratio(revenue, subscribers), 0) },
  };
}

function paymentMeasures(list: PaymentDayRow[]) {
  const sum = (status: string, field: 'payments' | 'amount') => list.filter((r) => r.status === status).reduce((a, r) => a + r[field], 0);
  // A refunded payment is a charge that was taken and then given back. The generated worlds mark the
  // charge 'refunded' (no second row: taken and refunded on its day); a support refund (issue 29) is
  // its own row, status 'refund', on the day it was given, and its charge still counts as taken
  // ('succeeded') on its own day. So revenue (gross) counts every charge taken; refunds are both kinds;
  // net revenue is what was kept. Subtracting refunds from succeeded payments only took each refund
  // off twice (a refunded 193.18 charge showed -193.18 net).
  const taken = sum('succeeded', 'payments') + sum('refunded', 'payments');
  const failed = sum('failed', 'payments');
  const revenue = sum('succeeded', 'amount') + sum('refunded', 'amount');
  const refunds = sum('refunded', 'amount') + sum('refund', 'amount');
  return { payments: taken, revenue, refunds, netRevenue: revenue - refunds, failed, successPct: round(percent(ratio(taken, taken + failed)), 1) };
}

const PAYMENT_COLUMNS = [
  fig('payments', 'Successful payments', 'count'), fig('revenue', 'Revenue', 'money'), fig('refunds', 'Refunds', 'money'),
  fig('netRevenue', 'Net revenue', 'money'), fig('failed', 'Failed payments', 'count'), fig('successPct', 'Success rate (%)', 'percent'),
];

/** The payment totals of each currency apart (a figure is never summed across currencies). */
function totalsPerCurrency(rows: PaymentDayRow[]): Record<string, Record<string, number | null>> {
  const codes = [...new Set(rows.map((r) => r.currency))].sort();
  return Object.fromEntries(codes.map((code) => [code, paymentMeasures(rows.filter((r) => r.currency === code))]));
}

async function paymentSummary(ctx: ReportContext): Promise<ReportBody> {
  const { currency, currencies } = await chosenCurrency(ctx);
  const plan = ctx.params.filter?.value ?? null;
  const by = ctx.params.by ?? 'period';
  if (by === 'plan') {
    const [rows, names] = await Promise.all([paymentsBy(ctx.db, scopeOf(ctx), plan, 'plan'), planNames(ctx.db, ctx.siteId)]);
    const mine = rows.filter((r) => r.currency === currency);
    const keys = [...new Set(mine.map((r) => r.key))];
    return {
      currency, currencies, currencyTotals: totalsPerCurrency(rows),
      columns: [col('key', 'Plan', 'text'), ...PAYMENT_COLUMNS],
      rows: keys.map((k) => ({ key: names.get(k) ?? 'No plan', ...paymentMeasures(mine.filter((r) => r.key === k)) })).sort((a, b) => b.netRevenue - a.netRevenue),
      totals: paymentMeasures(mine),
    };
  }
  const allDays = await paymentsBy(ctx.db, scopeOf(ctx), plan, 'day');
  const days = allDays.filter((r) => r.currency === currency);
  if (by === 'content') return contentPayments(ctx, days, currency, currencies);
  const g = ctx.params.granularity;
  return {
    currency, currencies, currencyTotals: totalsPerCurrency(allDays),
    columns: [PERIOD, ...PAYMENT_COLUMNS],
    rows: days.length === 0 ? [] : periodsOf(ctx.params.from, ctx.params.to, g).map(({ period }) => ({ period, ...paymentMeasures(days.filter((r) => periodOf(r.day, g) === period)) })),
    totals: paymentMeasures(days),
  };
}

/** Each day's net revenue shared among the titles watched that day, by watch time (a payout model). */
async function contentPayments(ctx: ReportContext, days: PaymentDayRow[], currency: string, currencies: string[]): Promise<ReportBody> {
  const watch = await watchByDayAndContent(ctx.db, scopeOf(ctx));
  const netByDay = new Map<string, number>();
  for (const r of days) {
    // Net revenue: what was kept (a refunded charge was taken and given back: it adds nothing).
    if (r.status === 'succeeded') netByDay.set(r.day, (netByDay.get(r.day) ?? 0) + r.amount);
    // A support refund (issue 29) takes its amount off the day it was given.
    if (r.status === 'refund') netByDay.set(r.day, (netByDay.get(r.day) ?? 0) - r.amount);
  }
  const watchedByDay = new Map<string, number>();
  for (const w of watch) watchedByDay.set(w.day, (watchedByDay.get(w.day) ?? 0) + w.watchedSeconds);
  const byContent = new Map<string, { revenue: number; watched: number; sessions: number }>();
  for (const w of watch) {
    const share = (netByDay.get(w.day) ?? 0) * (ratio(w.watchedSeconds, watchedByDay.get(w.day) ?? 0) ?? 0);
    const acc = byContent.get(w.key) ?? { revenue: 0, watched: 0, sessions: 0 };
    acc.revenue += share;
    acc.watched += w.watchedSeconds;
    acc.sessions += w.sessions;
    byContent.set(w.key, acc);
  }
  const top = [...byContent.entries()].sort(([, a], [, b]) => b.revenue - a.revenue).slice(0, TOP_LIMIT);
  const info = await contentInfo(ctx.db, ctx.siteId, top.map(([k]) => k));
  const attributed = [...byContent.values()].reduce((a, r) => a + r.revenue, 0);
  return {
    currency, currencies,
    columns: [col('title', 'Title', 'text'), fig('sessions', 'Sessions', 'count'), fig('watchHours', 'Watch time (hours)', 'hours'),
      fig('revenue', 'Attributed net revenue', 'money', 'attributedRevenue'), fig('sharePct', 'Share of revenue (%)', 'percent')],
    rows: top.map(([k, r]) => ({
      title: info.get(k)?.title ?? 'Removed title', ...contentLinkFields(k, info), sessions: r.sessions, watchHours: round(r.watched / 3600, 1),
      revenue: Math.round(r.revenue), sharePct: round(percent(ratio(r.revenue, attributed)), 2),
    })),
    totals: { revenue: Math.round(attributed), netRevenue: [...netByDay.values()].reduce((a, b) => a + b, 0), titles: byContent.size },
  };
}

const BUILDERS: Record<ReportName, (ctx: ReportContext) => Promise<ReportBody>> = {
  user_base: userBase,
  change_in_user_base: changeInUserBase,
  user_behavior: (ctx) => playbackSeries(ctx, pickKeys(ENGAGEMENT_COLUMNS), ENGAGEMENT_COLUMNS),
  video_engagement: videoEngagement,
  dtl_video_engagement: dtlVideoEngagement,
  realtime_content: realtimeContent,
  realtime_content_enhanced: realtimeContentEnhanced,
  cohort_analysis: cohortAnalysis,
  ltv_enhanced: ltvEnhanced,
  payment_summary_report: paymentSummary,
  qos,
  qos_bucket_metric_report: qosBuckets,
  qos_video_level_report: (ctx) => qosByKey(ctx, 'content'),
};

async function filterOptions(report: ReportName, ctx: ReportContext): Promise<NonNullable<ReportAnswer['options']>> {
  const filters = REPORT_SPECS[report].filters;
  const [plan, content] = await Promise.all([
    filters.includes('plan') ? planOptions(ctx.db, ctx.siteId) : undefined,
    filters.includes('content') ? contentOptions(ctx.db, scopeOf(ctx), CONTENT_OPTIONS_LIMIT, ctx.params.content ?? null) : undefined,
  ]);
  return { ...(plan && { plan }), ...(content && { content }) };
}

/** One report's answer; with compare=previous also the totals of the preceding range of equal length. */
export async function buildReport(report: ReportName, ctx: ReportContext): Promise<Omit<ReportAnswer, 'success'>> {
  const body = await BUILDERS[report](ctx);
  const { filter: _filter, ...params } = ctx.params;
  void _filter;
  const answer: Omit<ReportAnswer, 'success'> = { report, params, generatedAt: ctx.now.toISOString(), ...body };
  if (ctx.params.compare === 'previous') {
    const length = daysBetween(ctx.params.from, ctx.params.to);
    const previous = await BUILDERS[report]({
      ...ctx, previousPeriod: true, params: { ...ctx.params, from: addDays(ctx.params.from, -length), to: addDays(ctx.params.from, -1), currency: body.currency },
    });
    answer.previousTotals = previous.totals;
  }
  if (ctx.params.include === 'options') answer.options = await filterOptions(report, ctx);
  return answer;
}
