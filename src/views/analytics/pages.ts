/**
 * Every Dashboard 360 detail page (spec §2.5) as data: which report it reads, which filters it offers,
 * which charts it draws and which totals it heads with. Three page kinds render them all: `series`
 * (periods), `breakdown` (one row per key) and `matrix` (the cohort triangle).
 */
import type { ReportFilter, ReportName, ReportParams } from '../../../common/reports';
import { ANALYTICS_GROUPS } from '../../config';

export type PageKind = 'series' | 'breakdown' | 'matrix';

export interface ChartDef {
  title: string;
  type: 'line' | 'bar' | 'stacked';
  /** Column keys drawn (one series each). */
  y: string[];
}

export interface AnalyticsPageDef {
  path: string;
  title: string;
  /** One sentence under the title: what the numbers are. */
  summary: string;
  kind: PageKind;
  report: ReportName;
  /** Parameters fixed by the page (the breakdown). */
  params?: Partial<ReportParams>;
  /** Filters offered in the filter bar. */
  filters: ReportFilter[];
  realtime?: boolean;
  charts: ChartDef[];
  /** Totals shown as headline tiles. */
  headline: string[];
  /** Columns that name a row (breakdowns): joined with ' · '. */
  labelKeys?: string[];
  /** Default sort column of the table (descending); periods default to their own order. */
  sort?: string;
}

const QOS_HEADLINE = ['sessions', 'startupP50Ms', 'startupP95Ms', 'rebufferP50Pct', 'rebufferP95Pct', 'errorPct'];
const QOS_CHARTS: ChartDef[] = [
  { title: 'Startup time p50 and p95 (ms)', type: 'bar', y: ['startupP50Ms', 'startupP95Ms'] },
  { title: 'Rebuffer ratio p50 and p95 (%)', type: 'bar', y: ['rebufferP50Pct', 'rebufferP95Pct'] },
];
const qosBy = (path: string, by: string, what: string): Omit<AnalyticsPageDef, 'title'> => ({
  path, summary: `Quality of service by ${what}: startup time and rebuffer ratio percentiles from the daily histograms, errors and bitrate.`,
  kind: 'breakdown', report: 'qos', params: { by }, filters: [], charts: QOS_CHARTS, headline: QOS_HEADLINE, labelKeys: ['key'], sort: 'sessions',
});

const DEFS: Omit<AnalyticsPageDef, 'title'>[] = [
  {
    path: '/analytics/real-streaming-users', summary: 'Streams and viewers per minute over the last 30 minutes.',
    kind: 'series', report: 'realtime_content', filters: ['device', 'country', 'content'], realtime: true,
    charts: [{ title: 'Streams and viewers per minute', type: 'line', y: ['streams', 'viewers'] }], headline: ['streams', 'viewers', 'peakStreams'],
  },
  {
    path: '/analytics/real-top-content', summary: 'The titles streamed most in the last 30 minutes.',
    kind: 'breakdown', report: 'realtime_content_enhanced', filters: ['device', 'country'], realtime: true,
    charts: [{ title: 'Streams per title (30 min)', type: 'bar', y: ['streams'] }], headline: ['streams', 'viewers'], labelKeys: ['title'], sort: 'streams',
  },
  {
    path: '/analytics/content-level-qos', summary: 'Startup time, rebuffering and errors per title over the last 30 minutes.',
    kind: 'breakdown', report: 'realtime_content_enhanced', filters: ['device', 'country'], realtime: true,
    charts: [{ title: 'Startup time p50 and p95 per title (ms)', type: 'bar', y: ['startupP50Ms', 'startupP95Ms'] }],
    headline: ['startupP50Ms', 'startupP95Ms', 'rebufferPct', 'errorPct'], labelKeys: ['title'], sort: 'streams',
  },
  {
    path: '/analytics/audience-overview', summary: 'Sign-ups, daily viewers and subscribers at the end of each period.',
    kind: 'series', report: 'user_base', filters: ['country', 'plan'],
    charts: [{ title: 'Paying subscribers and trials', type: 'line', y: ['subscribers', 'trialing'] }, { title: 'Sign-ups and daily viewers', type: 'line', y: ['signups', 'viewers'] }],
    headline: ['subscribers', 'trialing', 'signups', 'viewers'],
  },
  {
    path: '/analytics/audience-acquisition', summary: 'New trials, paid starts and trial conversions per period.',
    kind: 'series', report: 'change_in_user_base', filters: ['plan'],
    charts: [{ title: 'Trials, paid starts and conversions', type: 'line', y: ['trialsStarted', 'paidStarted', 'conversions'] }],
    headline: ['trialsStarted', 'paidStarted', 'conversions', 'gained'],
  },
  {
    path: '/analytics/audience-churn', summary: 'Cancellations, ended subscriptions and churn (paying lost ÷ everyone who paid in the period).',
    kind: 'series', report: 'change_in_user_base', filters: ['plan'],
    charts: [{ title: 'Cancellations and ended subscriptions', type: 'line', y: ['cancellations', 'lost'] }, { title: 'Churn (%)', type: 'line', y: ['churnPct'] }],
    headline: ['lost', 'cancellations', 'churnPct', 'net'],
  },
  {
    path: '/analytics/behaviour-video-engagement', summary: 'Sessions, watch time and minutes per session per period.',
    kind: 'series', report: 'user_behavior', filters: ['device', 'country', 'content', 'plan'],
    charts: [{ title: 'Watch time (hours)', type: 'line', y: ['watchHours'] }, { title: 'Sessions', type: 'line', y: ['sessions'] }],
    headline: ['sessions', 'watchHours', 'avgMinutes', 'viewers'],
  },
  {
    path: '/analytics/behaviour-cohort-analysis', summary: 'Of the subscribers who first subscribed in a month, the share still subscribed each month after.',
    kind: 'matrix', report: 'cohort_analysis', filters: ['plan'], charts: [], headline: ['cohorts', 'subscribers', 'm1'],
  },
  {
    path: '/analytics/behaviour-user-lifetime-value', summary: 'Net revenue per subscriber by plan and month of first subscription.',
    kind: 'breakdown', report: 'ltv_enhanced', filters: ['plan'],
    charts: [{ title: 'Lifetime value per subscriber', type: 'bar', y: ['ltv'] }], headline: ['subscribers', 'revenue', 'ltv'], labelKeys: ['cohort', 'plan'],
  },
  {
    path: '/analytics/content-overview', summary: 'Sessions, watch time, titles watched and watch-through per period.',
    kind: 'series', report: 'video_engagement', filters: [],
    charts: [{ title: 'Watch time (hours)', type: 'line', y: ['watchHours'] }, { title: 'Titles watched', type: 'line', y: ['titles'] }],
    headline: ['sessions', 'watchHours', 'titles', 'watchThroughPct'],
  },
  {
    path: '/analytics/top-content', summary: 'The titles with the most watch time in the range.',
    kind: 'breakdown', report: 'dtl_video_engagement', filters: [],
    charts: [{ title: 'Watch time per title (hours)', type: 'bar', y: ['watchHours'] }], headline: ['titles', 'sessions', 'watchHours'], labelKeys: ['title'], sort: 'watchHours',
  },
  {
    path: '/analytics/video-watch-through', summary: 'How much of each title its viewers watch: watched time ÷ (sessions × duration).',
    kind: 'breakdown', report: 'dtl_video_engagement', filters: [],
    charts: [{ title: 'Watch-through per title (%)', type: 'bar', y: ['watchThroughPct'] }], headline: ['titles', 'avgMinutes'], labelKeys: ['title'], sort: 'watchThroughPct',
  },
  {
    path: '/analytics/payments', summary: 'Revenue, refunds and failed payments per period, in one currency.',
    kind: 'series', report: 'payment_summary_report', params: { by: 'period' }, filters: ['plan'],
    charts: [{ title: 'Revenue and refunds', type: 'line', y: ['revenue', 'refunds'] }, { title: 'Successful and failed payments', type: 'line', y: ['payments', 'failed'] }],
    headline: ['netRevenue', 'revenue', 'refunds', 'payments', 'successPct'],
  },
  {
    path: '/analytics/content-level-payments', summary: 'Each day’s net revenue shared among the titles watched that day, by watch time.',
    kind: 'breakdown', report: 'payment_summary_report', params: { by: 'content' }, filters: ['plan'],
    charts: [{ title: 'Attributed net revenue per title', type: 'bar', y: ['revenue'] }], headline: ['netRevenue', 'revenue', 'titles'], labelKeys: ['title'], sort: 'revenue',
  },
  {
    path: '/analytics/qos-overall', summary: 'Startup time and rebuffer ratio percentiles, errors and bitrate per period.',
    // Issue 41: any filter set as chips (`f`), not the reports' one-at-a-time filters.
    kind: 'series', report: 'qos', params: { by: 'period' }, filters: [],
    charts: [
      { title: 'Startup time p50 and p95 (ms)', type: 'line', y: ['startupP50Ms', 'startupP95Ms'] },
      { title: 'Rebuffer ratio p50 and p95 (%)', type: 'line', y: ['rebufferP50Pct', 'rebufferP95Pct'] },
    ],
    headline: QOS_HEADLINE,
  },
  qosBy('/analytics/qos-device-info', 'device', 'device type'),
  qosBy('/analytics/qos-geography', 'country', 'country'),
  qosBy('/analytics/qos-isp', 'isp', 'internet provider (ISP)'),
  qosBy('/analytics/qos-distribution-overview', 'cdn', 'distribution network (CDN)'),
  {
    path: '/analytics/qos-distribution-device', summary: 'How startup times spread per device type: the share of sessions in each startup-time bucket.',
    kind: 'breakdown', report: 'qos_bucket_metric_report', params: { by: 'device' }, filters: [],
    charts: [{ title: 'Sessions per startup-time bucket (%)', type: 'stacked', y: ['b0', 'b1', 'b2', 'b3', 'b4', 'b5'] }],
    headline: ['sessions', 'startupP50Ms', 'startupP95Ms'], labelKeys: ['key'], sort: 'sessions',
  },
  {
    path: '/analytics/qos-content', summary: 'Quality of service per title: startup time and rebuffer ratio percentiles and errors.',
    kind: 'breakdown', report: 'qos_video_level_report', filters: [], charts: QOS_CHARTS, headline: QOS_HEADLINE, labelKeys: ['key'], sort: 'sessions',
  },
];

const TITLES = new Map(ANALYTICS_GROUPS.flatMap((g) => g.pages).map((p) => [p.path, p.title]));

export const ANALYTICS_PAGES: readonly AnalyticsPageDef[] = DEFS.map((d) => ({ ...d, title: TITLES.get(d.path) ?? d.path }));

/** The page defined at `path`, or undefined for an address outside Dashboard 360's pages. */
export function pageDefAt(path: string): AnalyticsPageDef | undefined {
  return ANALYTICS_PAGES.find((p) => p.path === path);
}

export function pageDefFor(path: string): AnalyticsPageDef {
  const def = ANALYTICS_PAGES.find((p) => p.path === path);
  if (!def) throw new Error(`No analytics page definition for ${path}`);
  return def;
}
