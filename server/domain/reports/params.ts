/**
 * Validation of a report's query: every failure names its parameter (400). Unknown parameters,
 * filters the report does not support, reversed or too long ranges and malformed values are refused
 * rather than ignored, so a link never silently shows something other than it says.
 */
import {
  GRANULARITIES, MAX_REPORT_RANGE_DAYS, REPORT_FILTERS, REPORT_SPECS, daysBetween, presetRange,
  type Granularity, type ReportFilter, type ReportName, type ReportParams,
} from '../../../common/reports';
import { QOE_MESSAGES, formatQoeFilters, parseQoeFilters, type QoeFilter } from '../../../common/qoe';
import { invalid, type DomainError } from '../errors';

/** A refused parameter: the message starts with the parameter's name ("from: ..."). */
export function reportParamError(message: string): DomainError {
  const param = message.slice(0, Math.max(0, message.indexOf(':'))) || 'query';
  return invalid(param, message);
}

const KNOWN = new Set(['from', 'to', 'granularity', 'network', 'by', 'currency', 'compare', 'include', 'f', ...REPORT_FILTERS]);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILTER_FORMATS: Record<ReportFilter, { test: RegExp; hint: string }> = {
  device: { test: /^[a-z0-9_-]{1,32}$/, hint: 'a device type such as web or ios' },
  country: { test: /^[A-Z]{2}$/, hint: 'a two-letter country code such as US' },
  content: { test: UUID, hint: 'a content id' },
  plan: { test: UUID, hint: 'a plan id' },
};

export interface ParsedReportParams extends ReportParams {
  from: string;
  to: string;
  granularity: Granularity;
  /** The one filter set, if any. */
  filter: { name: ReportFilter; value: string } | null;
  /** Issue 41: the filter set of session dimensions (`f`), when given and not empty. */
  qoeFilters?: QoeFilter[];
}

/** A day of the calendar as YYYY-MM-DD that PostgreSQL also reads (the QoE routes' range uses it too). */
export function isRealDay(value: string): boolean {
  // Year 0 is a day to Date but not to PostgreSQL.
  return DAY.test(value) && !value.startsWith('0000') && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}

/** `query` as Fastify parsed it (repeated keys arrive as arrays); `today` is the site's day (in its zone). */
export function parseReportParams(report: ReportName, query: Record<string, unknown>, today: string): ParsedReportParams {
  const spec = REPORT_SPECS[report];
  const value = (key: string): string | undefined => {
    const raw = query[key];
    if (raw === undefined || raw === '') return undefined;
    if (typeof raw !== 'string') throw reportParamError(`${key}: give it once`);
    return raw;
  };
  for (const key of Object.keys(query)) {
    if (!KNOWN.has(key)) throw reportParamError(`${key}: unknown parameter`);
  }

  const fallback = presetRange(30, today);
  const from = value('from') ?? fallback.from;
  const to = value('to') ?? (value('from') ? today : fallback.to);
  if (!isRealDay(from)) throw reportParamError('from: must be a day as YYYY-MM-DD');
  if (!isRealDay(to)) throw reportParamError('to: must be a day as YYYY-MM-DD');
  if (from > to) throw reportParamError('from: must not be after to');
  if (daysBetween(from, to) > MAX_REPORT_RANGE_DAYS) {
    throw reportParamError(`to: the range may span at most ${MAX_REPORT_RANGE_DAYS} days`);
  }

  const granularityRaw = value('granularity') ?? 'day';
  if (!(GRANULARITIES as readonly string[]).includes(granularityRaw)) {
    throw reportParamError(`granularity: must be one of ${GRANULARITIES.join(', ')}`);
  }
  const granularity = granularityRaw as Granularity;
  if (granularity === 'hour' && !spec.realtime) {
    throw reportParamError('granularity: hour is for real-time reports; this report is built from daily rollups (day, week or month)');
  }

  let filter: ParsedReportParams['filter'] = null;
  for (const name of REPORT_FILTERS) {
    const v = value(name);
    if (v === undefined) continue;
    if (!spec.filters.includes(name)) throw reportParamError(`${name}: ${report} has no ${name} filter`);
    if (!FILTER_FORMATS[name].test.test(v)) throw reportParamError(`${name}: must be ${FILTER_FORMATS[name].hint}`);
    if (filter) throw reportParamError(`${name}: only one of ${spec.filters.join(', ')} can be set at a time (${filter.name} is set)`);
    filter = { name, value: v };
  }

  const by = value('by');
  if (by !== undefined && !spec.by?.includes(by)) {
    throw reportParamError(spec.by ? `by: must be one of ${spec.by.join(', ')}` : `by: ${report} has no breakdown`);
  }
  const currency = value('currency');
  if (currency !== undefined && !/^[A-Z]{3}$/.test(currency)) throw reportParamError('currency: must be a three-letter currency code such as USD');
  const compare = value('compare');
  if (compare !== undefined && compare !== 'previous') throw reportParamError('compare: must be previous');
  const include = value('include');
  if (include !== undefined && include !== 'options') throw reportParamError('include: must be options');
  const f = value('f');
  let qoeFilters: QoeFilter[] = [];
  if (f !== undefined) {
    if (!spec.sessionFilters) throw invalid('f', `f: ${QOE_MESSAGES.noSessionFilters(report)}`);
    const parsed = parseQoeFilters(f);
    // The filter set's own words (common/qoe.ts QOE_MESSAGES), as the console shows them beside the chips.
    if (!parsed.ok) throw invalid('f', parsed.message);
    qoeFilters = parsed.filters;
  }
  const network = value('network');
  if (network !== undefined && network.length > 200) throw reportParamError('network: too long');

  const params: ParsedReportParams = { from, to, granularity, filter };
  if (network) params.network = network;
  if (filter) params[filter.name] = filter.value;
  const effectiveBy = by ?? spec.by?.[0];
  if (effectiveBy) params.by = effectiveBy;
  if (currency) params.currency = currency;
  if (compare) params.compare = 'previous';
  if (include) params.include = 'options';
  if (qoeFilters.length > 0) {
    params.qoeFilters = qoeFilters;
    params.f = formatQoeFilters(qoeFilters);
  }
  return params;
}
