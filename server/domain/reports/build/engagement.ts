/**
 * Engagement: user_behavior (the playback series), video_engagement (watch-through by period) and
 * dtl_video_engagement (the most watched titles). Issue 41: each also answers a filter set `f` from
 * raw sessions (session-filters.ts), with the rollups' figures for the same sessions.
 */
import type { PlaybackSums } from '../reads';
import { periodOf, periodsOf, ratio, round } from '../stats';
import { playbackSeriesFor, sumsByTitle, watchByDayAndTitle } from './session-filters';
import {
  PERIOD, TOP_LIMIT, addSums, col, contentLinkFields, emptySums, fig, percent, pickKeys, type ReportBody, type ReportContext,
} from './shared';

const ENGAGEMENT_COLUMNS = [
  fig('sessions', 'Sessions', 'count'), fig('viewers', 'Viewers (daily average)', 'count'),
  fig('watchHours', 'Watch time (hours)', 'hours'), fig('avgMinutes', 'Minutes per session', 'minutes'),
];

export function userBehavior(ctx: ReportContext): Promise<ReportBody> {
  return playbackSeriesFor(ctx, pickKeys(ENGAGEMENT_COLUMNS), ENGAGEMENT_COLUMNS);
}

export async function videoEngagement(ctx: ReportContext): Promise<ReportBody> {
  const rows = await watchByDayAndTitle(ctx);
  const info = await ctx.reads.contentInfo(ctx.siteId, [...new Set(rows.map((r) => r.key))]);
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

export async function dtlVideoEngagement(ctx: ReportContext): Promise<ReportBody> {
  const rows = await sumsByTitle(ctx);
  rows.sort((a, b) => b.watchedSeconds - a.watchedSeconds);
  const shown = rows.slice(0, TOP_LIMIT);
  const info = await ctx.reads.contentInfo(ctx.siteId, shown.map((r) => r.key));
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
