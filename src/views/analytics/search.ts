/**
 * The filter values of every analytics page live in the URL's search params; the router validates
 * them with `validateAnalyticsSearch` (an invalid value is dropped, so a bad link still opens), and
 * pages turn them into report requests with `requestsFor`.
 */
import { DATE_PRESETS, REPORT_FILTERS, isoDay, presetRange, type Granularity, type ReportFilter } from '../../../common/report-dates';
import type { ReportName, ReportParams } from '../../../common/reports';
import { isOneOf } from '../../../common/one-of';
import type { ReportRequest } from '../../../machines/report.machine';
import type { AnalyticsPageDef } from './pages';

export const PAGE_GRANULARITIES = ['day', 'week', 'month'] as const satisfies readonly Granularity[];

export interface AnalyticsSearch {
  /** A preset: the last N days (default 30 when no custom range is set). */
  days?: (typeof DATE_PRESETS)[number];
  from?: string;
  to?: string;
  granularity?: (typeof PAGE_GRANULARITIES)[number];
  network?: string;
  device?: string;
  country?: string;
  /** A plan id. */
  plan?: string;
  /** A content id. */
  content?: string;
  sort?: string;
  dir?: 'asc' | 'desc';
  /** The currency of money pages (payments, lifetime value): each currency is shown apart. */
  currency?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isDay = (v: unknown): v is string => typeof v === 'string' && DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
const text = (v: unknown, re: RegExp): string | undefined => (typeof v === 'string' && re.test(v) ? v : undefined);

export function validateAnalyticsSearch(raw: Record<string, unknown>): AnalyticsSearch {
  const search: AnalyticsSearch = {};
  const days = Number(raw.days);
  if (isOneOf(DATE_PRESETS, days)) search.days = days;
  // A reversed or too long range is kept: the report machine explains it (with a swap) or clamps it with a note.
  if (isDay(raw.from) && isDay(raw.to)) {
    search.from = raw.from;
    search.to = raw.to;
    delete search.days;
  }
  if (isOneOf(PAGE_GRANULARITIES, raw.granularity)) search.granularity = raw.granularity;
  const network = text(raw.network, /^[\w.-]{1,200}$/);
  if (network) search.network = network;
  const device = text(raw.device, /^[a-z0-9_-]{1,32}$/);
  if (device) search.device = device;
  const country = text(raw.country, /^[A-Z]{2}$/);
  if (country) search.country = country;
  const plan = text(raw.plan, UUID);
  if (plan) search.plan = plan;
  const content = text(raw.content, UUID);
  if (content) search.content = content;
  const sort = text(raw.sort, /^\w{1,40}$/);
  if (sort) search.sort = sort;
  if (raw.dir === 'asc' || raw.dir === 'desc') search.dir = raw.dir;
  const currency = text(raw.currency, /^[A-Z]{3}$/);
  if (currency) search.currency = currency;
  return search;
}

/** The date range a search means on `today` (the site's today: the pages pass `useSiteToday()`). */
export function rangeOf(search: AnalyticsSearch, today: string = isoDay(new Date())): { from: string; to: string } {
  if (search.from && search.to) return { from: search.from, to: search.to };
  return presetRange(search.days ?? 30, today);
}

/** The filter of a search among those a page offers (the reports take one at a time). */
export function activeFilter(filters: readonly ReportFilter[], search: AnalyticsSearch): ReportFilter | undefined {
  return filters.find((f) => search[f]);
}

/**
 * The report request of a page for a search: its fixed parameters plus the filter it offers, and
 * the choices of its plan and content pickers when it has them.
 */
export function requestFor(def: Pick<AnalyticsPageDef, 'report' | 'params' | 'filters' | 'realtime'>, search: AnalyticsSearch, today?: string): ReportRequest {
  const params: ReportParams = { ...def.params };
  if (!def.realtime) Object.assign(params, rangeOf(search, today), { granularity: search.granularity ?? 'day' });
  if (search.network) params.network = search.network;
  const filter = activeFilter(def.filters, search);
  if (filter) params[filter] = search[filter];
  if (def.filters.some((f) => PICKED_FILTERS.includes(f))) params.include = 'options';
  if (search.currency && MONEY_REPORTS.includes(def.report)) params.currency = search.currency;
  return { report: def.report, params };
}

/** Reports whose amounts are in one currency at a time (the answer names it and the others). */
export const MONEY_REPORTS: readonly ReportName[] = ['payment_summary_report', 'ltv_enhanced'];

/** Filters whose choices come from the report's answer (`options`), not from a fixed list. */
export const PICKED_FILTERS: readonly ReportFilter[] = ['plan', 'content'];

/** The search with `filter` set to `value` (or cleared), the other filters cleared. */
export function withFilter(search: AnalyticsSearch, filter: ReportFilter, value: string): AnalyticsSearch {
  const next = without(search, ...REPORT_FILTERS);
  return value ? { ...next, [filter]: value } : next;
}

/** What a link to another analytics page keeps: the range, granularity and network. */
export function sharedFilters(search: AnalyticsSearch): AnalyticsSearch {
  const kept: AnalyticsSearch = {};
  for (const key of ['days', 'from', 'to', 'granularity', 'network'] as const) if (search[key] !== undefined) Object.assign(kept, { [key]: search[key] });
  return kept;
}

/** The search with its from and to exchanged (the one-click fix of a reversed range). */
export function swapped(search: AnalyticsSearch): AnalyticsSearch {
  return { ...search, from: search.to, to: search.from };
}

/** The search without one key (a filter cleared). */
export function without(search: AnalyticsSearch, ...keys: (keyof AnalyticsSearch)[]): AnalyticsSearch {
  const next = { ...search };
  for (const key of keys) delete next[key];
  return next;
}
