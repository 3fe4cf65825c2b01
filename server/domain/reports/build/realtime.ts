/**
 * Real time: realtime_content (streams and viewers minute by minute) and realtime_content_enhanced
 * (per title over the window), both from the live sessions of the last REALTIME_WINDOW_MINUTES
 * (issue 41: under a filter set `f` too, session-filters.ts liveSessionsOf).
 */
import { REALTIME_WINDOW_MINUTES } from '../../../../common/reports';
import { ratio, round } from '../stats';
import { liveSessionsOf } from './session-filters';
import { col, contentLinkFields, fig, percent, type ReportBody, type ReportContext } from './shared';

function quantile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  // Nearest rank: 0 < q ≤ 1 puts the rank within 1..n.
  return [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1]!;
}

export async function realtimeContent(ctx: ReportContext): Promise<ReportBody> {
  const minuteMs = 60_000;
  const end = Math.floor(ctx.now.getTime() / minuteMs) * minuteMs + minuteMs;
  const since = new Date(end - REALTIME_WINDOW_MINUTES * minuteMs);
  const sessions = await liveSessionsOf(ctx, since);
  const rows: { period: string; streams: number; viewers: number }[] = [];
  for (let t = since.getTime(); t < end; t += minuteMs) {
    const active = sessions.filter((s) => Date.parse(s.startedAt) < t + minuteMs && Date.parse(s.lastEventAt) >= t);
    rows.push({ period: new Date(t).toISOString().slice(0, 16) + 'Z', streams: active.length, viewers: new Set(active.map((s) => s.subscriberId)).size });
  }
  const last = rows[rows.length - 1]!;
  return {
    columns: [col('period', 'Minute', 'period'), fig('streams', 'Streams', 'count', 'streamsMinute'), fig('viewers', 'Viewers', 'count', 'viewersMinute')],
    rows: sessions.length === 0 ? [] : rows,
    totals: { streams: last.streams, viewers: last.viewers, peakStreams: Math.max(0, ...rows.map((r) => r.streams)), sessions: sessions.length },
  };
}

export async function realtimeContentEnhanced(ctx: ReportContext): Promise<ReportBody> {
  const since = new Date(ctx.now.getTime() - REALTIME_WINDOW_MINUTES * 60_000);
  const sessions = await liveSessionsOf(ctx, since, true);
  const byContent = new Map<string, typeof sessions>();
  for (const s of sessions) byContent.set(s.contentId, [...(byContent.get(s.contentId) ?? []), s]);
  const info = await ctx.reads.contentInfo(ctx.siteId, [...byContent.keys()]);
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
