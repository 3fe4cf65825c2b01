/**
 * The audit log's address (issue 38): its applied filters and page as search params of /admin/audit,
 * e.g. `/admin/audit?area=monetization&who=ana&from=2026-01-01&page=2`, so following a row's link and
 * pressing Back shows the same filtered page, and a link opens the log filtered. The route validates
 * them with `validateAuditSearch` (TanStack Router's validateSearch, src/router.tsx); a value that is
 * not allowed is dropped (no filter, page 1), never an error. Empty filters and page 1 are left out.
 */
import { auditActionInfo, isAuditArea } from './audit-actions';
import { REVISION_KINDS } from './revisions';

export interface AuditSearch {
  area?: string;
  action?: string;
  who?: string;
  objectKind?: string;
  object?: string;
  /** YYYY-MM-DD. */
  from?: string;
  /** YYYY-MM-DD. */
  to?: string;
  /** 1-based. */
  page?: number;
}

/** The filters of the address, '' for none (the audit page machine's `AuditFilters`). */
export type AuditSearchFilters = {
  area: string;
  action: string;
  who: string;
  objectKind: string;
  object: string;
  from: string;
  to: string;
};

/** The server's bounds (AUDIT_LOG_QUERY_SCHEMA): a longer text or a later page would be refused. */
const TEXT_MAX = 200;
export const AUDIT_MAX_PAGE = 100000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function text(value: unknown): string {
  return typeof value === 'string' && value.trim() !== '' && value.length <= TEXT_MAX ? value : '';
}

function date(value: unknown): string {
  return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : '';
}

export function validateAuditSearch(raw: Record<string, unknown>): AuditSearch {
  const out: AuditSearch = {};
  if (isAuditArea(raw.area)) out.area = raw.area;
  const action = typeof raw.action === 'string' ? auditActionInfo(raw.action) : undefined;
  // An action of another area than the one named does not apply (the filter form drops it the same way).
  if (action && (!out.area || action.area === out.area)) out.action = raw.action as string;
  const who = text(raw.who);
  if (who) out.who = who;
  if (typeof raw.objectKind === 'string' && Object.prototype.hasOwnProperty.call(REVISION_KINDS, raw.objectKind)) out.objectKind = raw.objectKind;
  const object = text(raw.object);
  if (object) out.object = object;
  const from = date(raw.from);
  const to = date(raw.to);
  // A range that ends before it starts is dropped whole (the form refuses it too).
  if (!(from && to && from > to)) {
    if (from) out.from = from;
    if (to) out.to = to;
  }
  const page = typeof raw.page === 'number' ? raw.page : typeof raw.page === 'string' ? Number(raw.page) : NaN;
  if (Number.isInteger(page) && page > 1 && page <= AUDIT_MAX_PAGE) out.page = page;
  return out;
}

export function auditFiltersOf(search: AuditSearch): AuditSearchFilters {
  return {
    area: search.area ?? '', action: search.action ?? '', who: search.who ?? '', objectKind: search.objectKind ?? '',
    object: search.object ?? '', from: search.from ?? '', to: search.to ?? '',
  };
}

/** The address of some applied filters and a page (empty ones and page 1 left out; a fixed order). */
export function auditHref(filters: AuditSearchFilters, page: number, path = '/admin/audit'): string {
  const clean = validateAuditSearch({ ...filters, page });
  const params = new URLSearchParams();
  for (const key of ['area', 'action', 'who', 'objectKind', 'object', 'from', 'to'] as const) {
    const value = clean[key];
    if (value) params.set(key, value);
  }
  if (clean.page) params.set('page', String(clean.page));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
