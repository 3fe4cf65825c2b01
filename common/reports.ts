/**
 * The reporting service's vocabulary (spec §7.6): report names, parameters, limits and the answer
 * shape. The server validates against it, the browser builds its requests and pages from it.
 *
 *   GET /appcms/v2/reports/<report>?from=YYYY-MM-DD&to=YYYY-MM-DD&granularity=day&network=<identifier>
 *       &device=&country=&content=&plan=&by=&currency=&compare=previous&include=options&f=<filters> (playback reports, issue 41)
 */

// Granularities, filters, presets and day arithmetic live in their own small module: the router's
// search validator needs them on the sign-in page's first load, the report specs are not (issue 26).
import {
  DATE_PRESETS, GRANULARITIES, REPORT_FILTERS, addDays, daysBetween, isoDay, presetRange, type Granularity, type ReportFilter,
} from './report-dates';
import { isOneOf } from './one-of';
import { QOE_DIMENSION_KEYS, type QoeDimension } from './qoe';

export { DATE_PRESETS, GRANULARITIES, REPORT_FILTERS, addDays, daysBetween, isoDay, presetRange, type Granularity, type ReportFilter };

export const REPORTS_PATH = '/appcms/v2/reports';

export const REPORT_NAMES = [
  'user_base', 'payment_summary_report', 'change_in_user_base', 'user_behavior', 'video_engagement',
  'realtime_content', 'realtime_content_enhanced', 'dtl_video_engagement', 'cohort_analysis', 'qos',
  'qos_bucket_metric_report', 'qos_video_level_report', 'ltv_enhanced',
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];



/** Breakdowns of the QoS reports (playback rollup dimensions). */
export const QOS_BREAKDOWNS = ['device', 'country', 'isp', 'cdn', 'content'] as const;
export type QosBreakdown = (typeof QOS_BREAKDOWNS)[number];
/**
 * Issue 41: the QoS report also breaks down by every other dimension sessions are recorded with
 * (common/qoe.ts; `title` is `content` by its QoE name). Those, and any filter set `f`, are answered
 * from raw playback sessions; the rollups keep answering the breakdowns above unfiltered.
 */
export const QOS_QOE_BREAKDOWNS: readonly QoeDimension[] = QOE_DIMENSION_KEYS.filter((d) => !isOneOf(QOS_BREAKDOWNS, d));
/** qos_bucket_metric_report's breakdowns: the rollups' four first (device the default), then every other session dimension (issue 41). */
export const QOS_BUCKET_BREAKDOWNS: readonly string[] = ['device', 'cdn', 'country', 'isp', ...QOE_DIMENSION_KEYS.filter((d) => !isOneOf(['device', 'cdn', 'country', 'isp'] as const, d))];
export const PAYMENT_BREAKDOWNS = ['period', 'plan', 'content'] as const;

/** The longest date range one request may ask for. */
export const MAX_REPORT_RANGE_DAYS = 366;
/** Real-time reports look at sessions active in this many last minutes. */
export const REALTIME_WINDOW_MINUTES = 30;
/** Real-time pages refresh this often while visible. */
export const REALTIME_POLL_MS = 15_000;

export interface ReportSpec {
  realtime: boolean;
  filters: readonly ReportFilter[];
  /** Allowed values of `by` (the first is the default); none = the report has no breakdown. */
  by?: readonly string[];
  /** Whether the answer is a series over periods (granularity applies). */
  periodic: boolean;
  /**
   * Issue 41: whether the report takes a filter set of session dimensions `f` (common/qoe.ts): every
   * playback report does; the subscriber and payment reports (user_base, change_in_user_base,
   * cohort_analysis, ltv_enhanced, payment_summary_report) count no sessions and refuse it.
   */
  sessionFilters?: boolean;
}

export const REPORT_SPECS: Record<ReportName, ReportSpec> = {
  user_base: { realtime: false, filters: ['country', 'plan'], periodic: true },
  change_in_user_base: { realtime: false, filters: ['plan'], periodic: true },
  user_behavior: { realtime: false, filters: ['device', 'country', 'content', 'plan'], periodic: true, sessionFilters: true },
  video_engagement: { realtime: false, filters: [], periodic: true, sessionFilters: true },
  dtl_video_engagement: { realtime: false, filters: [], periodic: false, sessionFilters: true },
  realtime_content: { realtime: true, filters: ['device', 'country', 'content'], periodic: true, sessionFilters: true },
  realtime_content_enhanced: { realtime: true, filters: ['device', 'country'], periodic: false, sessionFilters: true },
  cohort_analysis: { realtime: false, filters: ['plan'], periodic: false },
  ltv_enhanced: { realtime: false, filters: ['plan'], periodic: false },
  payment_summary_report: { realtime: false, filters: ['plan'], by: PAYMENT_BREAKDOWNS, periodic: true },
  qos: { realtime: false, filters: ['device', 'country', 'content', 'plan'], by: ['period', ...QOS_BREAKDOWNS, ...QOS_QOE_BREAKDOWNS], periodic: true, sessionFilters: true },
  qos_bucket_metric_report: { realtime: false, filters: [], by: QOS_BUCKET_BREAKDOWNS, periodic: false, sessionFilters: true },
  qos_video_level_report: { realtime: false, filters: [], periodic: false, sessionFilters: true },
};

export function isReportName(value: string): value is ReportName {
  return isOneOf(REPORT_NAMES, value);
}

/** Query parameters of every report (all optional on the wire; the server fills defaults). */
export interface ReportParams {
  from?: string;
  to?: string;
  granularity?: Granularity;
  network?: string;
  device?: string;
  country?: string;
  content?: string;
  plan?: string;
  by?: string;
  currency?: string;
  /** 'previous': also answer the totals of the equally long period just before. */
  compare?: 'previous';
  /** Issue 41: a filter set of session dimensions, URL form (common/qoe.ts formatQoeFilters); the playback reports (`sessionFilters`). */
  f?: string;
  /** 'options': also answer the choices of the report's plan and content filters (`options`). */
  include?: 'options';
}

/** How many titles the content filter offers: the most watched of the range. */
export const CONTENT_OPTIONS_LIMIT = 100;

export interface FilterOption {
  value: string;
  label: string;
}

export type ColumnKind = 'text' | 'period' | 'count' | 'hours' | 'minutes' | 'ms' | 'percent' | 'money' | 'kbps';

export interface ReportColumn {
  key: string;
  label: string;
  kind: ColumnKind;
  /**
   * The figure this column shows (a key of FIGURES in common/figures.ts), whose definition is its help
   * text. Every column that is not text or a period has one: one column key (`revenue`, `viewers`) can
   * mean different figures in different reports, so help is never looked up by the column key.
   */
  figure?: string;
}

export type ReportCell = string | number | null;
/**
 * One row: a cell per column key, plus fields that are not columns (never shown as a cell, never in
 * the CSV): rows about one title carry `contentId` and `contentType` (its kind), so the title can
 * link to the content item (issue 27).
 */
export type ReportRow = Record<string, ReportCell>;

/** The content item a row is about (/content/$contentType/$id), when the row names one. */
export function contentLinkOf(row: ReportRow): { contentType: string; id: string } | null {
  const { contentId, contentType } = row;
  return typeof contentId === 'string' && typeof contentType === 'string' ? { contentType, id: contentId } : null;
}

export interface ReportAnswer {
  success: true;
  report: ReportName;
  /** The parameters the answer is for, defaults filled in. */
  params: ReportParams & { from: string; to: string; granularity: Granularity };
  generatedAt: string;
  columns: ReportColumn[];
  rows: ReportRow[];
  /** Headline numbers over the whole range (keys are column keys). */
  totals: Record<string, number | null>;
  /** With compare=previous: the same totals over the preceding range of equal length. */
  previousTotals?: Record<string, number | null>;
  /** Money reports: the currency shown and every currency with payments in the range. */
  currency?: string;
  currencies?: string[];
  /**
   * payment_summary_report by period or plan: the totals of every currency apart (keyed by currency
   * code), so a page can show each currency; amounts are never summed across currencies.
   */
  currencyTotals?: Record<string, Record<string, number | null>>;
  /**
   * With include=options, for the plan and content filters the report supports: the site's plans
   * (by name) and the titles with the most sessions in the range (plus the one filtered on).
   */
  options?: Partial<Record<'plan' | 'content', FilterOption[]>>;
}


/** What the analytics filters say about a range or a failed choice list (issue 27). */
export const REPORT_FILTER_MESSAGES = {
  reversed: (from: string, to: string) => `The start date (${from}) is after the end date (${to}): nothing was loaded. Swap them to see ${to} to ${from}.`,
  swap: 'Swap dates',
  clamped: (asked: string, from: string, to: string) =>
    `Reports cover at most ${MAX_REPORT_RANGE_DAYS} days: showing ${from} to ${to} instead of from ${asked}.`,
  optionsFailed: 'Could not be loaded',
  optionsWaiting: 'Fix the date range first',
  currency: 'Currency',
  noRetry: 'Change the filters above: asking again with the same ones gives the same answer.',
} as const;

/** Rows per page of a report table (issue 27): the machine pages the sorted rows of the answer. */
export const REPORT_PAGE_SIZE = 25;

/** What a report table says about its rows and pages (issue 27). */
export const REPORT_TABLE_MESSAGES = {
  rows: (count: number) => `${count} ${count === 1 ? 'row' : 'rows'}`,
  range: (first: number, last: number, total: number) => `Rows ${first}–${last} of ${total}`,
  pages: 'Table pages',
  previous: 'Previous',
  next: 'Next',
  openTitle: (title: string) => `Open ${title} in Content`,
} as const;
