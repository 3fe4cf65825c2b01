/**
 * Issue 41: every playback report takes a filter set of session dimensions (`f`, common/qoe.ts). With
 * one, its builder counts the sessions the filters keep (and the report's own one-value filter, as one
 * more included value) from raw playback sessions (ReportContext.qoe, server/db/qoe-repository.ts) into
 * the sums the rollups keep; without one, the rollups answer. Both give the same figures for the same
 * sessions (server/qoe-report-filters.test.ts). The reads here choose between the two; the builders
 * stay one computation over either.
 */
import { isQoeDimension, qoeDimensionLabel, type QoeDimension, type QoeFilter } from '../../../../common/qoe';
import type { QosBreakdown, ReportColumn, ReportFilter } from '../../../../common/reports';
import { siteDaySpan } from '../../../../common/site-day';
import type { QoeSelection } from '../../../qoe-shapes';
import { isNamedDimension, qoeValueLabel } from '../../qoe-labels';
import { reportParamError } from '../params';
import type { LiveSessionRow, PlaybackSums, QoeReads } from '../reads';
import { playbackSeries, playbackSeriesOf } from './playback';
import { addSums, emptySums, scopeOf, type ReportBody, type ReportContext } from './shared';

/** The breakdowns the rollups keep, by the `by` that asks for them (`title` is `content`'s QoE name). */
const ROLLUP_BREAKDOWN: Readonly<Record<string, QosBreakdown>> = { device: 'device', country: 'country', isp: 'isp', cdn: 'cdn', content: 'content', title: 'content' };
/** The session dimension of each report filter (a report filter is one included value of it). */
const FILTER_DIMENSION: Record<ReportFilter, QoeDimension> = { device: 'device', country: 'country', content: 'title', plan: 'plan' };
/**
 * The end of the real-time reports' window over raw sessions: open, as the unfiltered read
 * (liveSessions) has it, so a session whose last event is stamped ahead of the server's clock counts in both.
 */
const OPEN_END = new Date('9999-12-31T00:00:00Z');

/** Whether the request carries a filter set, so the answer is counted from raw sessions. */
export function hasSessionFilters(ctx: ReportContext): boolean {
  return (ctx.params.qoeFilters ?? []).length > 0;
}

/** The filter set of the raw answer: `f` and the report filter, if any (one included value). */
function sessionFilters(ctx: ReportContext): QoeFilter[] {
  const filter = ctx.params.filter;
  const own = ctx.params.qoeFilters ?? [];
  return filter ? [...own, { dimension: FILTER_DIMENSION[filter.name], exclude: false, values: [filter.value] }] : own;
}

function qoeOf(ctx: ReportContext): QoeReads {
  if (!ctx.qoe) throw new Error('reports: the raw session reads (ReportContext.qoe) were not handed in');
  return ctx.qoe;
}

/** The raw sessions a report counts: started within the range's site days, on the network, under the filters. */
async function selectionOf(ctx: ReportContext): Promise<{ qoe: QoeReads; selection: QoeSelection; zone: string }> {
  const qoe = qoeOf(ctx);
  const zone = await qoe.siteTimeZone(ctx.siteId);
  const from = siteDaySpan(ctx.params.from, zone);
  const to = siteDaySpan(ctx.params.to, zone);
  if (!from || !to) throw reportParamError('from: must be a day as YYYY-MM-DD');
  return { qoe, zone, selection: { siteId: ctx.siteId, networkId: ctx.networkId, filters: sessionFilters(ctx), since: new Date(from.start), until: new Date(to.end), select: 'started' } };
}

type Pick = (m: Record<string, number | null>) => Record<string, number | null>;

/**
 * The playback series over the range's periods (user_behavior, qos by period). Raw sessions are
 * added up per site day and network first, as the rollups count them, so daily viewers are the same.
 */
export async function playbackSeriesFor(ctx: ReportContext, pick: Pick, columns: ReportColumn[]): Promise<ReportBody> {
  if (!hasSessionFilters(ctx)) return playbackSeries(ctx, pick, columns);
  const { qoe, selection, zone } = await selectionOf(ctx);
  const byDay = new Map<string, PlaybackSums & { day: string }>();
  for (const row of await qoe.sums(selection, { by: 'network', dayZone: zone })) {
    const day = byDay.get(row.day) ?? { ...emptySums(), day: row.day };
    addSums(day, row);
    byDay.set(row.day, day);
  }
  return playbackSeriesOf(ctx, [...byDay.values()], pick, columns);
}

/** The QoE dimension a breakdown `by` names (`content` is `title`). */
function qoeDimensionOf(by: string): QoeDimension {
  const dimension = by === 'content' ? 'title' : by;
  if (!isQoeDimension(dimension)) throw reportParamError(`by: ${by} is not a dimension sessions are recorded with`);
  return dimension;
}

async function rawSumsBy(ctx: ReportContext, dimension: QoeDimension) {
  const { qoe, selection } = await selectionOf(ctx);
  return qoe.sums(selection, { by: dimension });
}

export interface ValueSums {
  /** The dimension's stored value ('' = not reported). */
  value: string;
  /** What an operator reads for it (a title's name, "Not reported"). */
  label: string;
  sums: PlaybackSums;
}

/**
 * The sums of each value of a breakdown (qos, qos_video_level_report, qos_bucket_metric_report): from
 * the rollups when they keep it and there is no `f`, else counted from raw sessions, by any dimension.
 */
export async function sumsByValue(ctx: ReportContext, by: string): Promise<ValueSums[]> {
  const dimension = qoeDimensionOf(by);
  const rollup = ROLLUP_BREAKDOWN[by];
  if (rollup && !hasSessionFilters(ctx)) {
    const filter = ctx.params.filter;
    if (filter && filter.name !== rollup) throw reportParamError(`${filter.name}: cannot be combined with by=${by}; filter on the breakdown's own dimension`);
    const rows = await ctx.reads.playbackByKey(scopeOf(ctx), rollup, filter?.value ?? null);
    const info = rollup === 'content' ? await ctx.reads.contentInfo(ctx.siteId, rows.map((r) => r.key)) : new Map<string, { title: string }>();
    const names = new Map([...info].map(([id, item]) => [id, item.title]));
    return rows.map((r) => ({ value: r.key, label: qoeValueLabel(dimension, r.key, names), sums: r }));
  }
  const rows = await rawSumsBy(ctx, dimension);
  const names = isNamedDimension(dimension) ? await qoeOf(ctx).names(ctx.siteId, dimension, rows.map((r) => r.key)) : new Map<string, string>();
  return rows.map((r) => ({ value: r.key, label: qoeValueLabel(dimension, r.key, names), sums: r }));
}

/** Most sessions first, then by value (the same order whichever source answered). */
export function bySessions(a: ValueSums, b: ValueSums): number {
  return b.sums.sessions - a.sums.sessions || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}

/** The key column's label of a breakdown: the rollup breakdowns keep their words, every other dimension its QoE label. */
export function breakdownLabel(by: string): string {
  const own: Record<string, string> = { device: 'Device', country: 'Country', isp: 'ISP', cdn: 'CDN', content: 'Title', title: 'Title' };
  return own[by] ?? (isQoeDimension(by) ? qoeDimensionLabel(by) : by);
}

/** Playback sums per title over the range (dtl_video_engagement). */
export async function sumsByTitle(ctx: ReportContext): Promise<(PlaybackSums & { key: string })[]> {
  return hasSessionFilters(ctx) ? rawSumsBy(ctx, 'title') : ctx.reads.playbackByKey(scopeOf(ctx), 'content', null, false);
}

/** Sessions and watched seconds per site day and title (video_engagement's watch-through). */
export async function watchByDayAndTitle(ctx: ReportContext): Promise<{ day: string; key: string; sessions: number; watchedSeconds: number }[]> {
  if (!hasSessionFilters(ctx)) return ctx.reads.watchByDayAndContent(scopeOf(ctx));
  const { qoe, selection, zone } = await selectionOf(ctx);
  const rows = await qoe.sums(selection, { by: 'title', dayZone: zone });
  return rows.map((r) => ({ day: r.day, key: r.key, sessions: r.sessions, watchedSeconds: r.watchedSeconds }));
}

/**
 * The sessions seen since `since` (the real-time reports), under the report filter and, with `f`, the
 * filter set; `perTitle` (realtime_content_enhanced, one row per title) leaves a content filter out.
 */
export async function liveSessionsOf(ctx: ReportContext, since: Date, perTitle = false): Promise<LiveSessionRow[]> {
  const f = perTitle && ctx.params.filter?.name === 'content' ? null : ctx.params.filter;
  if (hasSessionFilters(ctx)) {
    const filters = sessionFilters({ ...ctx, params: { ...ctx.params, filter: f } });
    return qoeOf(ctx).liveSessions({ siteId: ctx.siteId, networkId: ctx.networkId, filters, since, until: OPEN_END, select: 'active' });
  }
  return ctx.reads.liveSessions({
    siteId: ctx.siteId, networkId: ctx.networkId, since,
    device: f?.name === 'device' ? f.value : null, country: f?.name === 'country' ? f.value : null, content: f?.name === 'content' ? f.value : null,
  });
}
