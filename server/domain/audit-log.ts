/**
 * The audit log (issue 28, Admin › Audit): one site's audit rows filtered by area, action, actor,
 * object and dates, each in words: the action's label (common/audit-actions.ts), its object
 * ("brand of network Kids Zone") with a link to its page, and what changed as "field: before →
 * after", read from the revisions the same request wrote (values that are ids of the site's objects
 * read as their names, so a reorder lists group names in order). The CSV export reads every row the
 * filter matches (up to AUDIT_EXPORT_MAX), the same entries as the page.
 */
import type { AuditSearch } from '../../common/audit-search';
import {
  AUDIT_EXPORT_MAX, AUDIT_LOG_MESSAGES, auditActionInfo, auditRowLabel, auditActionsOfArea, auditObjectLink, auditObjectWords, isAuditArea,
  type AuditChange, type AuditLogEntry,
} from '../../common/audit-actions';
import { AUDIT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../common/admin-contract';
import { fieldLabel, IMAGE_SET_WORDS, imageChangeWords, isImageField } from '../../common/field-labels';
import { AREAS } from '../../common/constants';
import { ADMIN_MESSAGES } from '../../common/messages';
import { DATE_INPUT_MESSAGES, type DateFilterParam } from '../../common/messages/dates';
import { formatDateTime } from '../../common/display-format';
import { AFTER_LAST_INSTANT_MS, FIRST_INSTANT_MS, siteDaySpan } from '../../common/site-day';
import { formatMoney } from '../../common/monetization-rules';
import type { RevisionChange } from '../../common/revisions';
import { SEARCH_TOTAL_CAPPED_TEXT } from '../../common/support';
import { isSecondFactorRule, SECOND_FACTOR_TEXT } from '../../common/second-factor-rule';
import { canContinue } from '../../common/roles';
import type { AuditLogRepository } from './ports';
import type { AuditLogFilter, AuditLogRow } from './rows';
import type { AuthContext } from './auth-context';
import { forbidden, invalid } from './errors';

/** The audit log's query: the console address's filters and page (common/audit-search.ts), and a page size. */
export interface AuditLogQuery extends AuditSearch {
  pageSize?: number;
}

export interface AuditLogPage {
  success: true;
  items: AuditLogEntry[];
  total: number;
  page: number;
  pageSize: number;
}

export interface AuditLogExport {
  success: true;
  items: AuditLogEntry[];
  total: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_VALUE_LENGTH = 120;
/** An instant as JSON carries it ('2026-12-05T23:00:00.000Z'). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A From/To day is the SITE's day (issue 38: the page states the site's zone): From is the site's midnight
 * that starts it, To ends where the next site day starts. At the calendar's ends the bounds clamp (the
 * fuzz found 500s there: PostgreSQL takes no year 0 nor 10000): a start before year 1 or an end after
 * year 9999 is no bound at all. Never throws but for a text that is not a day.
 */
export function siteDayBounds(query: { from?: string; to?: string }, timeZone: unknown): { from: Date | null; toExclusive: Date | null } {
  const spanOf = (text: string, field: DateFilterParam) => {
    const span = ISO_DATE.test(text) ? siteDaySpan(text, timeZone) : null;
    if (!span) throw invalid(field, DATE_INPUT_MESSAGES.notADay(field));
    return span;
  };
  const from = query.from ? spanOf(query.from, 'from') : null;
  const to = query.to ? spanOf(query.to, 'to') : null;
  // Days as 'YYYY-MM-DD' sort as text.
  if (query.from && query.to && from && to && query.from > query.to) throw invalid('from', ADMIN_MESSAGES.invalidDateRange);
  return {
    from: from && from.start >= FIRST_INSTANT_MS ? new Date(from.start) : null,
    toExclusive: to && to.end < AFTER_LAST_INSTANT_MS ? new Date(to.end) : null,
  };
}

/** The filter of a query: an unknown area is refused; an action outside the area matches nothing. */
function filterOf(query: AuditLogQuery, timeZone: unknown): AuditLogFilter {
  if (query.area && !isAuditArea(query.area)) throw invalid('area', AUDIT_LOG_MESSAGES.badArea);
  const areaActions = query.area && isAuditArea(query.area) ? auditActionsOfArea(query.area).map((a) => a.action) : null;
  const action = query.action ?? '';
  const actions = action ? (areaActions && !areaActions.includes(action) ? [] : [action]) : areaActions;
  return {
    actions,
    who: query.who ?? '',
    objectKind: query.objectKind || null,
    object: query.object ?? '',
    ...siteDayBounds(query, timeZone),
  };
}

/** A field's label: the one mapping the History panel shares (common/field-labels.ts). */
export { fieldLabel };

/** The revision kinds of a network's own data (their object id is the network's). */
const NETWORK_PARTS: ReadonlySet<string> = new Set(['brand', 'settings', 'devices']);

type Names = Map<string, { name: string; contentKind?: string }>;

/** { amount, currency } and nothing else: a price in minor units. */
function isPriceValue(record: Record<string, unknown>): record is { amount: number; currency: string } {
  const keys = Object.keys(record);
  return keys.length === 2 && Number.isInteger(record.amount) && typeof record.currency === 'string' && /^[A-Z]{3}$/.test(record.currency);
}

/**
 * A value in words: names for ids of the site's objects, yes/no, "(none)", lists joined in order, an
 * instant as the console writes it in the site's zone (issue 38: "5 Dec 2026, 23:00 (UTC)", never
 * "2026-12-05T23:00:00.000Z").
 */
export function valueWords(value: unknown, names: Names, timeZone: unknown = 'UTC'): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const named = UUID.test(value) ? names.get(value)?.name : undefined;
    if (!named && INSTANT.test(value) && !Number.isNaN(Date.parse(value))) return formatDateTime(value, timeZone);
    const text = named ?? value;
    return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
  }
  if (Array.isArray(value)) return value.length === 0 ? '(none)' : value.map((v) => valueWords(v, names, timeZone)).join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // A price reads as money in its currency, as the History does ('7.99 USD', not 'amount 799, currency USD'; issue 38).
    if (isPriceValue(record)) return `${formatMoney(record.amount, record.currency)} ${record.currency}`;
    // An entry that names itself ({ id, name } of a reorder): its name.
    const own = typeof record.name === 'string' ? record.name : typeof record.title === 'string' ? record.title : null;
    if (own !== null && typeof record.id === 'string') return valueWords(own, names, timeZone);
    const entries = Object.entries(record);
    if (entries.length === 0) return '(none)';
    return entries.map(([k, v]) => `${fieldLabel(k).toLowerCase()} ${valueWords(v, names, timeZone)}`).join(', ');
  }
  return String(value);
}

/** A changed value in words; the site's second-factor rule reads as its label (issue 30: 'Not required → Required — an authenticator app'). */
function changeValueWords(field: string, value: unknown, names: Names, timeZone: unknown): string {
  return field === 'secondFactorRule' && isSecondFactorRule(value) ? SECOND_FACTOR_TEXT.options[value].label : valueWords(value, names, timeZone);
}

/** An image's change reads as there being one, never as its address (issue 38: 'Poster: an image → a new image'). */
function imageWords(before: unknown, after: unknown): Pick<AuditChange, 'before' | 'after'> {
  const done = imageChangeWords(before, after);
  const had = done === 'changed' || done === 'removed';
  return { before: had ? IMAGE_SET_WORDS : '(none)', after: done === 'changed' ? `a new image` : done === 'removed' ? '(none)' : IMAGE_SET_WORDS };
}

function idsIn(value: unknown, into: string[]): void {
  if (typeof value === 'string' && UUID.test(value)) into.push(value);
  else if (Array.isArray(value)) for (const v of value) idsIn(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) idsIn(v, into);
}

/** The before/after pairs an older row (or one without a revision, a staff event) carries in its detail. */
function detailChanges(detail: Record<string, unknown>): RevisionChange[] {
  const before = (detail.before ?? {}) as Record<string, unknown>;
  const after = (detail.after ?? {}) as Record<string, unknown>;
  if (typeof after !== 'object' || after === null) return [];
  return Object.keys(after)
    .filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null))
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

/** What a row without changes says: whom it concerned, from where, how many. */
function noteOf(row: AuditLogRow): string {
  const d = row.detail;
  const parts: string[] = [];
  if (typeof d.targetUsername === 'string') parts.push(`account ${d.targetUsername}`);
  if (typeof d.username === 'string' && !row.objectId) parts.push(`username ${d.username}`);
  if (typeof d.reason === 'string') parts.push(`reason: ${d.reason}`);
  if (typeof d.status === 'string' && Array.isArray(d.items)) parts.push(`${d.items.length} ${d.items.length === 1 ? 'item' : 'items'} set to ${d.status}`);
  if (typeof d.ip === 'string') parts.push(`from ${d.ip}`);
  // Issue 38: a Customer Support search whose count reached the cap recorded the cap, not the real count.
  if (d.resultCountIsCapped === true) parts.push(SEARCH_TOTAL_CAPPED_TEXT);
  return parts.join(' · ');
}

export function createAuditLogService(repo: AuditLogRepository) {
  function requireAdmin(ctx: AuthContext): void {
    if (!canContinue(ctx.user.roles, AREAS.admin)) throw forbidden();
  }

  /** The rows in words: each row's changes from its request's revisions (else its detail), ids named. */
  /** `timeZone`: the site's, in which the changed instants read (the page states it once). */
  async function entriesOf(siteId: string, rows: AuditLogRow[], timeZone: unknown): Promise<AuditLogEntry[]> {
    const requestIds = [...new Set(rows.map((r) => r.requestId).filter((id): id is string => !!id))];
    const revisions = await repo.revisionsOfRequests(siteId, requestIds);
    type KindChange = RevisionChange & { kind: string | null };
    const changesOf = (row: AuditLogRow): KindChange[] => {
      // Issue 37: a request's revisions are its actor's (request ids are the server's; rows stored
      // before that may share a caller-chosen id with another actor's, and never join them).
      const own = row.requestId ? revisions.filter((r) => r.requestId === row.requestId && (!row.actorUserId || !r.actorUserId || r.actorUserId === row.actorUserId)) : [];
      // A network's row (a copy from the default) lists what the request changed in its brand and settings (issue 38).
      const ofObject = row.objectId ? own.filter((r) => r.objectId === row.objectId && (r.objectKind === row.objectKind || (row.objectKind === 'network' && NETWORK_PARTS.has(r.objectKind)))) : own;
      // A bulk write names no single object: every revision of its request (one per item).
      if (ofObject.length > 0) return ofObject.flatMap((r) => r.changes.map((c) => ({ ...c, kind: r.objectKind })));
      return detailChanges(row.detail).map((c) => ({ ...c, kind: row.objectKind }));
    };
    const raw = rows.map((row) => ({ row, changes: changesOf(row) }));
    const ids: string[] = [];
    for (const { row, changes } of raw) {
      if (row.objectId) ids.push(row.objectId);
      for (const c of changes) { idsIn(c.before, ids); idsIn(c.after, ids); }
    }
    const names = await repo.namesOf(siteId, ids);
    return raw.map(({ row, changes }): AuditLogEntry => {
      const info = auditActionInfo(row.action);
      const words: AuditChange[] = changes.map((c) => ({
        field: fieldLabel(c.field, c.kind),
        ...(isImageField(c.field) ? imageWords(c.before, c.after) : { before: changeValueWords(c.field, c.before, names, timeZone), after: changeValueWords(c.field, c.after, names, timeZone) }),
      }));
      return {
        id: row.id,
        at: new Date(row.at).toISOString(),
        action: row.action,
        label: auditRowLabel(row.action, row.detail),
        area: info?.area ?? null,
        actor: row.actorUserId && row.actorUsername ? { id: row.actorUserId, username: row.actorUsername } : null,
        object: row.objectKind && row.objectId ? {
          kind: row.objectKind,
          id: row.objectId,
          name: row.objectName,
          words: auditObjectWords(row.objectKind, row.objectName ?? names.get(row.objectId)?.name ?? null),
          // A staff account's and a coupon's link searches their list for its username or code (issue 38).
          link: auditObjectLink(row.objectKind, row.objectId, row.networkIdentifier, names.get(row.objectId)?.contentKind, names.get(row.objectId)?.name ?? null),
        } : null,
        changes: words,
        note: words.length > 0 ? '' : noteOf(row),
        detail: row.detail,
      };
    });
  }

  return {
    async list(ctx: AuthContext, query: AuditLogQuery): Promise<AuditLogPage> {
      requireAdmin(ctx);
      const filter = filterOf(query, ctx.site.defaultTimezone);
      const pageSize = Math.min(query.pageSize ?? AUDIT_PAGE_SIZE, MAX_PAGE_SIZE);
      const page = Math.max(1, query.page ?? 1);
      if (filter.actions && filter.actions.length === 0) return { success: true, items: [], total: 0, page, pageSize };
      const { rows, total } = await repo.list(ctx.site.id, filter, { offset: (page - 1) * pageSize, limit: pageSize });
      return { success: true, items: await entriesOf(ctx.site.id, rows, ctx.site.defaultTimezone), total, page, pageSize };
    },

    /** Every row the filter matches, in the log's order; more than AUDIT_EXPORT_MAX is refused (narrow the filter). */
    async export(ctx: AuthContext, query: AuditLogQuery): Promise<AuditLogExport> {
      requireAdmin(ctx);
      const filter = filterOf(query, ctx.site.defaultTimezone);
      if (filter.actions && filter.actions.length === 0) return { success: true, items: [], total: 0 };
      const { rows, total } = await repo.list(ctx.site.id, filter, { offset: 0, limit: AUDIT_EXPORT_MAX + 1 });
      if (total > AUDIT_EXPORT_MAX) throw invalid('filter', AUDIT_LOG_MESSAGES.exportTooLarge(total));
      return { success: true, items: await entriesOf(ctx.site.id, rows, ctx.site.defaultTimezone), total };
    },
  };
}

export type AuditLogService = ReturnType<typeof createAuditLogService>;
