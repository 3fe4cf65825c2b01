/**
 * What every report family shares: the request a builder answers (ReportContext), the part of the
 * answer it builds (ReportBody), column helpers and the playback sums' arithmetic.
 */
import type { ReportAnswer, ReportColumn, ReportRow } from '../../../../common/reports';
import type { FigureKey } from '../../../../common/figures';
import type { PlaybackSums, QoeReads, ReportReads, ReportScope } from '../reads';
import type { ParsedReportParams } from '../params';
import { addCounts } from '../stats';

export interface ReportContext {
  /** The rollup reads (server/domain/reports/reads.ts), bound to the database by the composition root. */
  reads: ReportReads;
  siteId: string;
  networkId: string | null;
  params: ParsedReportParams;
  now: Date;
  /** Set for the preceding range of compare=previous (issue 27: it refused the answer's own currency with a 400). */
  previousPeriod?: boolean;
  /** Issue 41: raw playback sessions, for the QoS report's filter sets and breakdowns the rollups do not keep. */
  qoe?: QoeReads;
}


/** The part of a report's answer its builder makes (build.ts adds the request's echo and the comparison). */
export type ReportBody = Pick<ReportAnswer, 'columns' | 'rows' | 'totals' | 'currency' | 'currencies' | 'currencyTotals'>;

/** One report kind's builder (one entry of the registry in build.ts). */
export type ReportBuilder = (ctx: ReportContext) => Promise<ReportBody>;

/** A text or period column (no figure). */
export const col = (key: string, label: string, kind: 'text' | 'period'): ReportColumn => ({ key, label, kind });
/** A figure column: `figure` names its definition in common/figures.ts (by default the column key). */
export const fig = (key: string, label: string, kind: ReportColumn['kind'], figure?: FigureKey): ReportColumn => ({ key, label, kind, figure: figure ?? key });
export const PERIOD = col('period', 'Period', 'period');

export function scopeOf(ctx: ReportContext): ReportScope {
  return { siteId: ctx.siteId, networkId: ctx.networkId, from: ctx.params.from, to: ctx.params.to };
}

export function emptySums(): PlaybackSums {
  return {
    sessions: 0, viewers: 0, watchedSeconds: 0, startupMsSum: 0, rebufferCount: 0, rebufferSeconds: 0,
    errorSessions: 0, bitrateKbpsSum: 0, startupHistogram: [], rebufferHistogram: [],
  };
}

export function addSums(into: PlaybackSums, more: PlaybackSums): PlaybackSums {
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

export { percent } from '../../../../common/playback-measures';

export function pickKeys(columns: ReportColumn[]) {
  return (m: Record<string, number | null>): Record<string, number | null> => Object.fromEntries(columns.map((c) => [c.key, m[c.key] ?? null]));
}

/** How many titles a per-title report lists (the most watched / best earning first). */
export const TOP_LIMIT = 200;

/**
 * The row fields (not columns) that let a title link to its content item (issue 27); none for a
 * removed title, which has no item to open.
 */
export function contentLinkFields(id: string, info: Map<string, { kind: string }>): ReportRow {
  const item = info.get(id);
  return item ? { contentId: id, contentType: item.kind } : {};
}
