/**
 * The content library's rules: who may read and write (spec §6: Content read/write/contributor to
 * read, write/contributor to edit), what an edit may change, the status rules (a scheduled item has
 * a go-live date, no other status has one; publishing stamps the first publication), optimistic
 * concurrency by `version` (409 with a message that says what to do), and the audit record of every
 * write with its before and after. Every query is scoped to the caller's site.
 */
import { AREAS } from '../../common/constants';
import {
  ARTWORK_URL, CONTENT_CREATE_MESSAGES as M, CONTENT_RATINGS, LANGUAGE_CODE, searchKeyOf,
  type ContentBulkStatusRequest, type ContentBulkStatusResponse, type ContentDetailResponse, type ContentKind,
  type ContentListResponse, type ContentSort, type ContentStatus, type ContentUpdateRequest, type ContentUpdateResponse,
} from '../../common/content';
import { AVAILABILITY_MESSAGES } from '../../common/content-availability';
import { formatDateTime } from '../../common/display-format';
import { readInstant } from '../../common/instant-bounds';
import { OWN_MESSAGES } from '../../common/messages';
import { canContinue, canEdit } from '../../common/roles';
import { scrubDetail } from '../../common/audit-detail';
import type { AuditLog } from './audit';
import type { ContentRepository, LicenceReads } from './ports';
import type { ContentChanges, ContentRow } from './rows';
import { auditObject, recordRevision } from './revisions';
import type { AuthContext } from './auth-context';
import { isSiteArtwork } from './artwork-reference';
import { isRealDay } from './content-create';
import type { UploadStorage } from '../storage/upload-storage';
import { conflict, forbidden, invalid, notFound } from './errors';

export interface ContentListParams {
  mediaType?: ContentKind;
  start: number;
  limit: number;
  max: number;
  q: string;
  status?: ContentStatus;
  sort: ContentSort;
}

export interface ContentService {
  list(caller: AuthContext, params: ContentListParams): Promise<ContentListResponse>;
  detail(caller: AuthContext, id: string): Promise<ContentDetailResponse>;
  update(caller: AuthContext, id: string, request: ContentUpdateRequest): Promise<ContentUpdateResponse>;
  bulkStatus(caller: AuthContext, request: ContentBulkStatusRequest): Promise<ContentBulkStatusResponse>;
}

function requireRead(caller: AuthContext): void {
  if (!canContinue(caller.user.roles, AREAS.content)) throw forbidden();
}

function requireEdit(caller: AuthContext): void {
  requireRead(caller);
  if (!canEdit(caller.user.roles, AREAS.content)) throw forbidden(OWN_MESSAGES.contentNoEditRole);
}

const missing = () => notFound(OWN_MESSAGES.contentNotFound);

/** The go-live date: a date in common/instant-bounds.ts's range (issue 37), else a 400 naming scheduledAt. */
function parseDate(value: string): Date {
  const ms = readInstant(value);
  if (ms === 'invalid') throw invalid('scheduledAt', OWN_MESSAGES.contentScheduleInvalidDate, { scheduledAt: OWN_MESSAGES.contentScheduleInvalidDate });
  if (ms === 'out_of_range') throw invalid('scheduledAt', AVAILABILITY_MESSAGES.dateOutOfRange('The go-live date'), { scheduledAt: AVAILABILITY_MESSAGES.dateOutOfRange('The go-live date') });
  return new Date(ms);
}

/**
 * Issue 37: a manual status change (to anything but 'scheduled') cancels the item's pending unpublish
 * time: a timer left behind by an earlier schedule must not take the item down later. Only a real
 * change of status counts (an edit that sends the status the item already has keeps it).
 */
export function cancelsUnpublish(row: { status: string; unpublishAt: Date | null }, status: string | undefined): boolean {
  return status !== undefined && status !== row.status && status !== 'scheduled' && row.unpublishAt !== null;
}

function normaliseTags(tags: string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];
}

const ARTWORK_FIELDS = ['artworkUrl', 'posterUrl'] as const;

/** The columns an edit writes, after the status and schedule rules; throws a 400 naming the problem. */
export function changesFor(row: ContentRow, request: ContentUpdateRequest, now: Date): ContentChanges {
  const changes: ContentChanges = {};
  if (request.title !== undefined) {
    const title = request.title.trim();
    if (!title) throw invalid('title', OWN_MESSAGES.fieldRequired('Title'));
    changes.title = title;
    changes.titleSearch = searchKeyOf(title);
  }
  if (request.description !== undefined) changes.description = request.description.trim();
  if (request.genre !== undefined) {
    const genre = request.genre.trim();
    if (!genre) throw invalid('genre', OWN_MESSAGES.fieldRequired('Genre'));
    changes.genre = genre;
  }
  if (request.tags !== undefined) changes.tags = normaliseTags(request.tags);
  // The catalogue fields, by the rules a new item follows (server/domain/content-create.ts).
  if (request.rating !== undefined) {
    if (!(CONTENT_RATINGS as readonly string[]).includes(request.rating)) throw invalid('rating', M.ratingInvalid, { rating: M.ratingInvalid });
    changes.rating = request.rating;
  }
  if (request.originalLanguage !== undefined) {
    if (!LANGUAGE_CODE.test(request.originalLanguage)) throw invalid('originalLanguage', M.languageInvalid, { originalLanguage: M.languageInvalid });
    changes.originalLanguage = request.originalLanguage;
  }
  if (request.releaseDate !== undefined) {
    const releaseDate = request.releaseDate === '' ? null : request.releaseDate;
    if (releaseDate !== null && !isRealDay(releaseDate)) throw invalid('releaseDate', M.releaseDateInvalid, { releaseDate: M.releaseDateInvalid });
    changes.releaseDate = releaseDate;
  }
  // Issue 38: the artwork replaced ('' removes it); whether the file is the site's is checked by update().
  for (const field of ARTWORK_FIELDS) {
    const value = request[field];
    if (value === undefined) continue;
    const url = value.trim();
    if (url && !ARTWORK_URL.test(url)) throw invalid(field, M.artworkUrlInvalid, { [field]: M.artworkUrlInvalid });
    changes[field] = url;
  }

  const status = request.status ?? (row.status as ContentStatus);
  if (status === 'scheduled') {
    const given = request.scheduledAt;
    if (given === null || (given === undefined && !row.scheduledAt)) throw invalid('scheduledAt', OWN_MESSAGES.contentScheduleNeedsDate);
    if (given !== undefined) {
      const scheduledAt = parseDate(given);
      // As the availability route (issue 37): a go-live time must be in the future, unless it is the one already set.
      if (scheduledAt.getTime() <= now.getTime() && row.scheduledAt?.getTime() !== scheduledAt.getTime()) {
        throw invalid('scheduledAt', AVAILABILITY_MESSAGES.publishAtInPast, { scheduledAt: AVAILABILITY_MESSAGES.publishAtInPast });
      }
      changes.scheduledAt = scheduledAt;
    }
  } else if (request.scheduledAt) {
    throw invalid('scheduledAt', OWN_MESSAGES.contentScheduleOnlyWhenScheduled);
  } else if (row.scheduledAt) {
    changes.scheduledAt = null;
  }
  if (cancelsUnpublish(row, request.status)) changes.unpublishAt = null;
  if (request.status !== undefined) {
    changes.status = request.status;
    if (request.status === 'published' && !row.publishedAt) changes.publishedAt = now;
  }
  return changes;
}

/** The fields an audit record keeps of a row (what an operator can change). */
function auditView(row: Partial<ContentRow>, keys: readonly string[]): Record<string, unknown> {
  const record = row as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => {
    const value = record[key];
    return [key, value instanceof Date ? value.toISOString() : value ?? null];
  }));
}

const contentObject = (row: { id: string; title: string }) => ({ kind: 'content', objectId: row.id, objectName: row.title }) as const;

/** Issue 29: the licence rule of publishing (server/domain/content-availability.ts), and the availability jobs' sync after a write. */
export interface ContentWriteHooks {
  assertPublishable(reads: LicenceReads, siteId: string, contentIds: string[], at: Date, timeZone: string): Promise<void>;
  afterWrite(siteId: string, contentIds: string[]): Promise<void>;
  /** Issue 40: the video rule of a bulk publish, per item, before its transaction (it reads outside it). */
  assertVideosPublishable?(siteId: string, contentIds: string[]): Promise<void>;
}

/** `storage`: the upload store, where an artwork an edit names must be (issue 38; without it no artwork is accepted). */
export function createContentService(deps: { store: ContentRepository; audit: AuditLog; now?: () => Date; hooks?: ContentWriteHooks; storage?: UploadStorage }): ContentService {
  const { store } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    async list(caller, params) {
      requireRead(caller);
      const { items, total } = await store.listContent({
        siteId: caller.site.id,
        kind: params.mediaType,
        status: params.status,
        q: params.q,
        sort: params.sort,
        start: params.start,
        limit: params.limit,
        max: params.max,
        now: now(),
      });
      return { success: true, items, total, start: params.start, limit: params.limit };
    },

    async detail(caller, id) {
      requireRead(caller);
      const row = await store.findContent(caller.site.id, id);
      if (!row) throw missing();
      const stats = await store.contentStats(caller.site.id, id, now());
      return { success: true, item: store.toItem(row, stats.plays30d), playsByDay: stats.playsByDay, qos: stats.qos };
    },

    async update(caller, id, request) {
      requireEdit(caller);
      const row = await store.findContent(caller.site.id, id);
      if (!row) throw missing();
      if (row.version !== request.version) throw conflict(OWN_MESSAGES.contentConflict);
      const at = now();
      const changes = changesFor(row, request, at);
      for (const field of ARTWORK_FIELDS) {
        const url = changes[field];
        // Only a file this site uploaded (as a creation's artwork); the address it already has stays acceptable.
        if (url && url !== row[field] && !(await isSiteArtwork(store, deps.storage, caller.site.id, url))) {
          throw invalid(field, M.artworkUrlInvalid, { [field]: M.artworkUrlInvalid });
        }
      }
      // Publishing now, or at a scheduled time, must fall inside a licence of the item (issue 29).
      const publishAt = changes.status === 'published' && row.status !== 'published' ? at : changes.scheduledAt ?? null;
      if (publishAt) await deps.hooks?.assertPublishable(store, caller.site.id, [id], publishAt, caller.site.defaultTimezone);
      // The write, its revision and its audit entry commit together or not at all (issue 28).
      const updated = Object.keys(changes).length === 0 ? row : await store.transaction(async (tx) => {
        const saved = await tx.updateContent(caller.site.id, id, request.version, changes, at);
        if (!saved) throw conflict(OWN_MESSAGES.contentConflict);
        const keys = Object.keys(changes).filter((key) => key !== 'titleSearch');
        const object = contentObject(saved);
        await recordRevision(tx, {
          ...object, siteId: caller.site.id, actorUserId: caller.user.id, objectVersion: saved.version,
          before: auditView(row, keys), after: auditView(saved, keys),
        });
        await tx.insertAuditEvent({
          at, action: 'content.update', actorUserId: caller.user.id, siteId: caller.site.id, ...auditObject(object),
          detail: scrubDetail({ contentId: id, version: saved.version, before: auditView(row, keys), after: auditView(saved, keys) }),
        });
        return saved;
      });
      if (updated !== row) await deps.hooks?.afterWrite(caller.site.id, [id]);
      const stats = await store.contentStats(caller.site.id, id, at);
      const cancelled = changes.unpublishAt === null && row.unpublishAt !== null && updated !== row;
      return {
        success: true, item: store.toItem(updated, stats.plays30d),
        ...(cancelled ? { message: AVAILABILITY_MESSAGES.unpublishCancelled(formatDateTime(row.unpublishAt!.toISOString(), caller.site.defaultTimezone)) } : {}),
      };
    },

    async bulkStatus(caller, request) {
      requireEdit(caller);
      const at = now();
      if (request.status === 'published') await deps.hooks?.assertVideosPublishable?.(caller.site.id, request.items.map((item) => item.id));
      // One transaction: every item's write, one revision per item, the audit entry (issue 28).
      const updated = await store.transaction(async (tx) => {
        const result = await tx.bulkSetStatus(caller.site.id, request.items, request.status, at);
        if (result.conflict) {
          if (result.missing.length) throw missing();
          throw conflict(OWN_MESSAGES.contentBulkConflict);
        }
        if (request.status === 'published') {
          await deps.hooks?.assertPublishable(tx, caller.site.id, result.before.filter((row) => row.status !== 'published').map((row) => row.id), at, caller.site.defaultTimezone);
        }
        const keys = ['status', 'scheduledAt', 'publishedAt', 'unpublishAt'] as const;
        const afterById = new Map(result.after.map((row) => [row.id, row]));
        for (const row of result.before) {
          const after = afterById.get(row.id);
          if (!after) continue;
          await recordRevision(tx, {
            ...contentObject(after), siteId: caller.site.id, actorUserId: caller.user.id, objectVersion: after.version,
            before: auditView(row, keys), after: auditView(after, keys),
          });
        }
        await tx.insertAuditEvent({
          at,
          action: 'content.bulk_status',
          actorUserId: caller.user.id,
          siteId: caller.site.id,
          ...(result.after.length === 1 && result.after[0] ? auditObject(contentObject(result.after[0])) : {}),
          detail: scrubDetail({
            status: request.status,
            items: result.before.map((row) => ({
              contentId: row.id,
              title: row.title,
              before: auditView(row, keys),
              after: auditView(afterById.get(row.id) ?? {}, keys),
            })),
          }),
        });
        const cancelled = result.before.filter((row) => cancelsUnpublish(row, request.status)).length;
        return { ids: result.after.map((row) => row.id), cancelled };
      });
      await deps.hooks?.afterWrite(caller.site.id, updated.ids);
      return {
        success: true, updated: updated.ids.length,
        ...(updated.cancelled > 0 ? { message: AVAILABILITY_MESSAGES.unpublishCancelledMany(updated.cancelled) } : {}),
      };
    },
  };
}
