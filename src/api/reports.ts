/**
 * Reporting service calls (GET /appcms/v2/reports/<report>, common/reports.ts) with an answer cache
 * keyed by the exact request: switching between analytics pages that read the same report with the
 * same filters shows the cached answer instead of fetching it again. Real-time refreshes bypass it.
 */
import { REALTIME_POLL_MS, REPORTS_PATH, REPORT_SPECS, type ReportAnswer, type ReportName, type ReportParams } from '../../common/reports';
import { ApiError, apiRequest, authHeaders } from './client';
import { clearReportCache, reportCache, reportsInFlight } from './report-cache';

/** Periodic reports change when rollups are rebuilt; a few minutes old is fresh enough to reuse. */
export const REPORT_CACHE_MS = 5 * 60_000;

const cache = reportCache;
const inFlight = reportsInFlight;

export function reportUrl(report: ReportName, params: ReportParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params).sort(([a], [b]) => a.localeCompare(b))) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  const qs = query.toString();
  return `${REPORTS_PATH}/${report}${qs ? `?${qs}` : ''}`;
}

export interface ReportCallOptions {
  credentials: { accessToken: string; apiKey: string };
  signal?: AbortSignal;
  fresh?: boolean;
  now?: () => number;
  request?: typeof apiRequest;
}

export async function fetchReport(report: ReportName, params: ReportParams, options: ReportCallOptions): Promise<ReportAnswer> {
  const { now = Date.now, request = apiRequest } = options;
  const url = reportUrl(report, params);
  const maxAge = REPORT_SPECS[report].realtime ? REALTIME_POLL_MS : REPORT_CACHE_MS;
  const hit = cache.get(url);
  if (!options.fresh && hit && now() - hit.at < maxAge) return hit.answer;
  const pending = options.fresh ? undefined : inFlight.get(url);
  if (pending) return pending;
  const call = (async () => {
    const body = await request<ReportAnswer & { message?: string }>(url, { headers: authHeaders(options.credentials), signal: options.signal });
    if (body.status !== 200 || body.success !== true) throw new ApiError(body.message ?? 'The report could not be loaded.', body.status, body);
    const { status: _status, contentStatus: _contentStatus, ...answer } = body;
    void _status;
    void _contentStatus;
    cache.set(url, { answer, at: now() });
    return answer;
  })();
  // Only a request nobody can abort is shared: another caller's abort must not fail this one.
  if (!options.signal) {
    inFlight.set(url, call);
    void call.then(() => inFlight.delete(url), () => inFlight.delete(url));
  }
  return call;
}

/** Drops every cached answer (sign-out, a write that moves the figures, tests): src/api/report-cache.ts. */
export { clearReportCache };
