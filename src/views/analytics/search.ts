/**
 * The filter values of every analytics page live in the URL's search params; the router validates
 * them with `validateAnalyticsSearch` (an invalid value is dropped, so a bad link still opens), and
 * pages turn them into report requests with `requestsFor`.
 */
import { DATE_PRESETS, REPORT_FILTERS, addDays, daysBetween, isoDay, presetRange, type Granularity, type ReportFilter } from '../../../common/report-dates';
import { MAX_REPORT_RANGE_DAYS, REPORT_SPECS, type ReportName } from '../../../common/reports';
import { COMPARE_MESSAGES } from '../../../common/messages/analytics-compare';
import { isOneOf } from '../../../common/one-of';
import type { ReportRequest } from '../../../machines/report.machine';
import type { AnalyticsPageDef } from './pages';
import { QOE_PAGE_MESSAGES } from '../../../common/messages/qoe';
import { QOE_DIMENSION_KEYS, QOE_VIEW_SORTS, formatQoeFilters, isQoeDimension, parseQoeFilters, type QoeDimension, type QoeFilter, type QoeQuery, type QoeViewSort } from '../../../common/qoe';

/** Issue 41: the sessions behind the QoS figures (the Views list). */
export const VIEWS_PAGE = '/analytics/views';

export const COMPARE_MODES = ['previous', 'custom'] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];

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
  /** QoS pages and Views (issue 41): the filter set in its URL form (common/qoe.ts formatQoeFilters). */
  f?: string;
  /** Why the address's `f` was not applied (set by the validator only: a bad `f` is dropped, the page says why). */
  fNote?: string;
  /** QoS pages: the QoE dimension the figures are broken down by. */
  by?: QoeDimension;
  /**
   * Every non-realtime series page (and the QoS breakdowns): 'previous' draws the previous period of
   * equal length on the charts, 'custom' the period `cfrom`–`cto` (both required, validated like from/to).
   */
  compare?: CompareMode;
  /** compare=custom: the compared period's first and last day (YYYY-MM-DD). */
  cfrom?: string;
  cto?: string;
  /** Why the address's comparison was not applied (set by the validator only: a bad one is dropped). */
  compareNote?: string;
  /** Views: the page of sessions, from 1. */
  page?: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A real calendar day (2026-02-30 is not one: the round trip through a date keeps it). */
const isDay = (v: unknown): v is string => typeof v === 'string' && DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && isoDay(new Date(`${v}T00:00:00Z`)) === v;
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
  if (typeof raw.f === 'string' && raw.f !== '') {
    const parsed = parseQoeFilters(raw.f);
    if (parsed.ok) {
      if (parsed.filters.length > 0) search.f = formatQoeFilters(parsed.filters);
    } else search.fNote = QOE_PAGE_MESSAGES.droppedFilter(parsed.message);
  }
  if (isQoeDimension(raw.by)) search.by = raw.by;
  Object.assign(search, validCompare(raw));
  const page = Number(raw.page);
  if (Number.isInteger(page) && page >= 1 && page <= 100_000) search.page = page;
  // The router lays the validated search over the address's (TanStack Router: {...raw, ...validated}):
  // a value dropped here is written as undefined, so a bad one is gone, not kept raw. The notes are not
  // among them: the router writes them into the address, and they say why until the address changes.
  for (const key of VALIDATED_KEYS) if (key in raw && !(key in search)) Object.assign(search, { [key]: undefined });
  return search;
}

/** The keys of AnalyticsSearch the validator checks (all but the notes it writes). */
const VALIDATED_KEYS = [
  'days', 'from', 'to', 'granularity', 'network', 'device', 'country', 'plan', 'content', 'sort', 'dir', 'currency',
  'f', 'by', 'compare', 'cfrom', 'cto', 'page',
] as const satisfies readonly (keyof AnalyticsSearch)[];

/** The comparison of an address: previous, or custom with a valid cfrom–cto; a bad custom one is dropped with a note. */
function validCompare(raw: Record<string, unknown>): Pick<AnalyticsSearch, 'compare' | 'cfrom' | 'cto' | 'compareNote'> {
  if (raw.compare === 'previous') return { compare: 'previous' };
  if (raw.compare !== 'custom') return {};
  const { cfrom, cto } = raw;
  if (!isDay(cfrom) || !isDay(cto)) return { compareNote: COMPARE_MESSAGES.droppedDays };
  if (cfrom > cto) return { compareNote: COMPARE_MESSAGES.droppedReversed(cfrom, cto) };
  if (daysBetween(cfrom, cto) > MAX_REPORT_RANGE_DAYS) return { compareNote: COMPARE_MESSAGES.droppedTooLong(MAX_REPORT_RANGE_DAYS) };
  return { compare: 'custom', cfrom, cto };
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
  const params: ReportRequest['params'] = { ...def.params };
  if (!def.realtime) Object.assign(params, rangeOf(search, today), { granularity: search.granularity ?? 'day' });
  if (search.network) params.network = search.network;
  const chips = hasSessionFilters(def);
  // Issue 41: a page with filter chips sends its filter set (`f`) and none of the one-value filters.
  const filter = chips ? undefined : activeFilter(def.filters, search);
  if (filter) params[filter] = search[filter];
  if (!chips && def.filters.some((f) => PICKED_FILTERS.includes(f))) params.include = 'options';
  if (search.currency && MONEY_REPORTS.includes(def.report)) params.currency = search.currency;
  if (chips && search.f) params.f = search.f;
  // QoS Overall's own answer stays by period (its breakdown under the periods asks apart).
  if (search.by && def.params?.by !== 'period' && breakdownChoicesOf(def).includes(search.by)) params.by = search.by;
  return { report: def.report, params };
}

/** Whether a page's report takes a filter set of session dimensions (REPORT_SPECS `sessionFilters`): chips, `f`. */
export function hasSessionFilters(def: Pick<AnalyticsPageDef, 'report'>): boolean {
  return REPORT_SPECS[def.report].sessionFilters === true;
}

/** Whether a page is a QoS page (its report is `qos`): breakdown by any dimension, share of sessions, a row's views. */
export function isQoePage(def: Pick<AnalyticsPageDef, 'report'>): boolean {
  return def.report === 'qos';
}

/**
 * The dimensions a page's figures can be broken down by (the "Break down by" choice): on a QoS
 * breakdown any dimension, on QoS Overall any (a breakdown under its periods), on the startup-time
 * buckets those its report answers; none elsewhere.
 */
export function breakdownChoicesOf(def: Pick<AnalyticsPageDef, 'report' | 'params'>): readonly QoeDimension[] {
  const own = def.params?.by;
  if (own === undefined) return [];
  const allowed = REPORT_SPECS[def.report].by ?? [];
  return def.report === 'qos' || def.report === 'qos_bucket_metric_report' ? QOE_DIMENSION_KEYS.filter((d) => allowed.includes(d)) : [];
}

/** Whether a page draws a compared period (compare=previous/custom): every non-realtime series page and the QoS breakdowns. */
export function canCompare(def: Pick<AnalyticsPageDef, 'report' | 'kind' | 'realtime'>): boolean {
  return !def.realtime && (def.kind === 'series' || (def.kind === 'breakdown' && isQoePage(def)));
}

/** The compared period of a search for a page's range `range`, or null when there is none. */
export function comparedRange(search: AnalyticsSearch, range: { from?: string; to?: string }): { from: string; to: string } | null {
  if (search.compare === 'custom' && search.cfrom && search.cto) return { from: search.cfrom, to: search.cto };
  if (search.compare === 'previous' && range.from && range.to && range.from <= range.to) return previousRange({ from: range.from, to: range.to });
  return null;
}

/**
 * The requests of a page: its report for the search and, on pages that compare (canCompare) with
 * compare=previous or custom, the same report over the compared period (drawn on the charts beside this one).
 */
export function requestsFor(def: Pick<AnalyticsPageDef, 'report' | 'params' | 'filters' | 'realtime' | 'kind'>, search: AnalyticsSearch, today?: string): ReportRequest[] {
  const request = requestFor(def, search, today);
  const compared = canCompare(def) ? comparedRange(search, request.params) : null;
  if (!compared) return [request];
  return [request, { report: request.report, params: { ...request.params, ...compared } }];
}

/** The search with the comparison `mode` (none: cleared); a chosen period starts as the previous one, to be changed. */
export function withCompare(search: AnalyticsSearch, mode: CompareMode | null, today?: string): AnalyticsSearch {
  const next = without(search, 'compare', 'cfrom', 'cto', 'compareNote');
  if (mode === 'previous') return { ...next, compare: 'previous' };
  if (mode === 'custom') {
    const start = comparedRange({ ...search, compare: search.compare ?? 'previous' }, rangeOf(search, today)) ?? previousRange(rangeOf(search, today));
    return { ...next, compare: 'custom', cfrom: start.from, cto: start.to };
  }
  return next;
}

/** The search with the chosen compared period's first or last day set (a reversed one is swapped: the fields never leave a bad address). */
export function withComparedDay(search: AnalyticsSearch, end: 'cfrom' | 'cto', day: string): AnalyticsSearch {
  if (!isDay(day) || !search.cfrom || !search.cto) return search;
  const cfrom = end === 'cfrom' ? day : search.cfrom;
  const cto = end === 'cto' ? day : search.cto;
  return { ...without(search, 'compareNote'), compare: 'custom', cfrom: cfrom <= cto ? cfrom : cto, cto: cfrom <= cto ? cto : cfrom };
}

/** The one-value filters an old address may carry, as the QoE dimension each one is (device=… → Device type is …). */
const LEGACY_DIMENSIONS: Record<ReportFilter, QoeDimension> = { device: 'device', country: 'country', content: 'title', plan: 'plan' };

/**
 * A page with chips reads an old address's one-value filters (device=, country=, content=, plan=) as
 * filters of its set (added to an include filter on the same dimension, or a new one), so old links
 * keep working; the chips and every link from them then carry only `f`.
 */
export function withLegacyFiltersFolded(def: Pick<AnalyticsPageDef, 'report'>, search: AnalyticsSearch): AnalyticsSearch {
  if (!hasSessionFilters(def) || !REPORT_FILTERS.some((k) => search[k])) return search;
  let filters = qoeFiltersOf(search);
  for (const key of REPORT_FILTERS) {
    const value = search[key];
    if (!value) continue;
    const dimension = LEGACY_DIMENSIONS[key];
    const at = filters.findIndex((f) => f.dimension === dimension && !f.exclude);
    filters = at < 0
      ? [...filters, { dimension, exclude: false, values: [value] }]
      : filters.map((f, i) => (i === at && !f.values.includes(value) ? { ...f, values: [...f.values, value] } : f));
  }
  const next = without(search, ...REPORT_FILTERS);
  const f = formatQoeFilters(filters);
  return f ? { ...next, f } : next;
}

/** The filter set of a search (none when `f` is absent; the validator already dropped a bad one). */
export function qoeFiltersOf(search: AnalyticsSearch): QoeFilter[] {
  const parsed = parseQoeFilters(search.f);
  return parsed.ok ? parsed.filters : [];
}

/** The search with the filter set `filters` (none: `f` cleared), back on the first page of views. */
export function withQoeFilters(search: AnalyticsSearch, filters: readonly QoeFilter[]): AnalyticsSearch {
  // An old address's one-value filters were folded into the set: they leave with it.
  const next = without(search, 'f', 'fNote', 'page', ...REPORT_FILTERS);
  const f = formatQoeFilters(filters);
  return f ? { ...next, f } : next;
}

/** The filter set plus `value` of `dimension` included (added to an include filter of it, or a new one). */
export function addedQoeValue(filters: readonly QoeFilter[], dimension: QoeDimension, value: string): QoeFilter[] {
  const at = filters.findIndex((f) => f.dimension === dimension && !f.exclude);
  if (at < 0) return [...filters, { dimension, exclude: false, values: [value] }];
  // A row of a breakdown is one value: the views behind it are that value only.
  return filters.map((f, i) => (i === at ? { ...f, values: [value] } : f));
}

/** The query of the QoE APIs for a search: its range (the site's days), network and filter set. */
export function qoeQueryOf(search: AnalyticsSearch, today?: string): QoeQuery {
  return { ...rangeOf(search, today), ...(search.network && { network: search.network }), ...(search.f && { f: search.f }) };
}

/** The Views list's order: the URL's when it is one of the list's, else the newest first. */
export function viewsSortOf(search: AnalyticsSearch): { sort: QoeViewSort; dir: 'asc' | 'desc' } {
  const sort = QOE_VIEW_SORTS.find((s) => s === search.sort);
  return sort ? { sort, dir: search.dir ?? 'desc' } : { sort: 'startedAt', dir: 'desc' };
}

/** The 7/30/90-day preset a range is on `today`, else null (a range button says it is pressed). */
export function presetOf(range: { from?: string; to?: string }, today: string): number | null {
  return DATE_PRESETS.find((days) => { const p = presetRange(days, today); return p.from === range.from && p.to === range.to; }) ?? null;
}

/** The range of equal length just before `range` (compare with the previous period). */
export function previousRange(range: { from: string; to: string }): { from: string; to: string } {
  const days = daysBetween(range.from, range.to);
  return { from: addDays(range.from, -days), to: addDays(range.from, -1) };
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
