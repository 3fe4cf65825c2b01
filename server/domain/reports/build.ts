/**
 * The reports of the reporting service (spec §7.6), each a function of rollup reads: columns, rows
 * and headline totals. Periods cover the whole range (zeros included) so charts show gaps as gaps;
 * a range with no data at all answers no rows, which the browser shows as an empty state.
 *
 * The builders live by family in build/ (audience, engagement, qos, qos-buckets, realtime, revenue; the
 * playback reports' filter sets in session-filters.ts); BUILDERS below
 * is the one registry from report kind to builder ("How to add a report" in ARCHITECTURE.md).
 */
import {
  CONTENT_OPTIONS_LIMIT, REPORT_SPECS, addDays, daysBetween, type ReportAnswer, type ReportName,
} from '../../../common/reports';
import { changeInUserBase, cohortAnalysis, userBase } from './build/audience';
import { dtlVideoEngagement, userBehavior, videoEngagement } from './build/engagement';
import { qos, qosByTitle } from './build/qos';
import { qosBuckets } from './build/qos-buckets';
import { realtimeContent, realtimeContentEnhanced } from './build/realtime';
import { ltvEnhanced, paymentSummary } from './build/revenue';
import { scopeOf, type ReportBuilder, type ReportContext } from './build/shared';

export type { ReportContext } from './build/shared';

/** Every report kind's builder: the one place a report kind is wired to the function that builds it. */
const BUILDERS: Record<ReportName, ReportBuilder> = {
  user_base: userBase,
  change_in_user_base: changeInUserBase,
  cohort_analysis: cohortAnalysis,
  user_behavior: userBehavior,
  video_engagement: videoEngagement,
  dtl_video_engagement: dtlVideoEngagement,
  realtime_content: realtimeContent,
  realtime_content_enhanced: realtimeContentEnhanced,
  ltv_enhanced: ltvEnhanced,
  payment_summary_report: paymentSummary,
  qos,
  qos_bucket_metric_report: qosBuckets,
  qos_video_level_report: qosByTitle,
};

async function filterOptions(report: ReportName, ctx: ReportContext): Promise<NonNullable<ReportAnswer['options']>> {
  const filters = REPORT_SPECS[report].filters;
  const [plan, content] = await Promise.all([
    filters.includes('plan') ? ctx.reads.planOptions(ctx.siteId) : undefined,
    filters.includes('content') ? ctx.reads.contentOptions(scopeOf(ctx), CONTENT_OPTIONS_LIMIT, ctx.params.content ?? null) : undefined,
  ]);
  return { ...(plan && { plan }), ...(content && { content }) };
}

/** One report's answer; with compare=previous also the totals of the preceding range of equal length. */
export async function buildReport(report: ReportName, ctx: ReportContext): Promise<Omit<ReportAnswer, 'success'>> {
  const body = await BUILDERS[report](ctx);
  const { filter: _filter, qoeFilters: _qoeFilters, ...params } = ctx.params;
  void _filter;
  void _qoeFilters;
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
