/**
 * Creating content (issue 29): a video, a series with its seasons, an episode in a season of a
 * series, a live event; their artwork (poster 2:3, thumbnail 16:9) uploaded with the brand images'
 * checks and storage; the item page's family (a series' seasons and episodes, an episode's series).
 *
 * Roles as the library's edits (spec §6: Content write or contributor creates; read is refused,
 * 403), every query scoped to the caller's site. Which fields a kind needs or refuses is decided
 * here, each refusal a 400 naming the field (`fields` carries the message beside it). The insert, its
 * revision (a creation: before null) and its audit entry commit in one transaction (issue 28).
 */
import { createHash } from 'node:crypto';
import { AREAS } from '../../common/constants';
import {
  ARTWORK_RATIO_TOLERANCE, ARTWORK_SLOTS, ARTWORK_SPECS, ARTWORK_URL, CONTENT_CREATE_MESSAGES as M, CONTENT_RATINGS,
  LANGUAGE_CODE, searchKeyOf,
  type ArtworkSlot, type ArtworkUploadResponse, type ContentCreateRequest, type ContentFamilyResponse, type ContentSeason,
  type ContentUpdateResponse,
} from '../../common/content';
import { readInstant } from '../../common/instant-bounds';
import { OWN_MESSAGES } from '../../common/messages';
import { canContinue, canEdit } from '../../common/roles';
import { scrubDetail } from '../../common/audit-detail';
import type { ContentCreateRepository } from './ports';
import type { ContentRow, NewContentRow } from './rows';
import { checkImage } from '../storage/image-check';
import { parseFileUrl, siteFileUrl, type UploadStorage } from '../storage/upload-storage';
import type { AuthContext } from './auth-context';
import { conflict, forbidden, invalid, notFound } from './errors';
import { auditObject, recordRevision } from './revisions';

export interface ContentCreateService {
  create(caller: AuthContext, request: ContentCreateRequest): Promise<ContentUpdateResponse>;
  uploadArtwork(caller: AuthContext, slot: string, bytes: Buffer): Promise<ArtworkUploadResponse>;
  family(caller: AuthContext, id: string): Promise<ContentFamilyResponse>;
}

function requireRead(caller: AuthContext): void {
  if (!canContinue(caller.user.roles, AREAS.content)) throw forbidden();
}

function requireEdit(caller: AuthContext): void {
  requireRead(caller);
  if (!canEdit(caller.user.roles, AREAS.content)) throw forbidden(OWN_MESSAGES.contentNoEditRole);
}

/** A 400 for one field, with the message beside it. */
const refuse = (field: string, message: string) => invalid(field, message, { [field]: message });

/** A calendar day 'YYYY-MM-DD' that exists, from 1888 (the first film) to 9999. */
export function isRealDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1888 && y <= 9999 && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** An ISO date and time with its offset → the instant, 'invalid', or 'out_of_range' (common/instant-bounds.ts; issue 37). */
function parseInstant(text: string): Date | 'invalid' | 'out_of_range' {
  // An ISO date and time with its offset (the form converts the site's time zone to UTC).
  if (!/^(\d{4}|[+-]\d{6})-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return 'invalid';
  const ms = readInstant(text);
  return typeof ms === 'number' ? new Date(ms) : ms;
}

function artworkUrl(field: string, value: string | undefined): string {
  const url = (value ?? '').trim();
  if (url && !ARTWORK_URL.test(url)) throw refuse(field, M.artworkUrlInvalid);
  return url;
}

function normaliseTags(tags: string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((tag) => tag.trim()).filter(Boolean))];
}

function normaliseSeasons(seasons: ContentCreateRequest['seasons']): ContentSeason[] {
  const list = (seasons ?? []).map((s) => ({ number: s.number, title: (s.title ?? '').trim() || `Season ${s.number}` }));
  if (list.length === 0) throw refuse('seasons', M.seasonsRequired);
  if (new Set(list.map((s) => s.number)).size !== list.length) throw refuse('seasons', M.seasonsDuplicate);
  return list.sort((a, b) => a.number - b.number);
}

/** The row a request makes (before the series checks of an episode), or a 400 naming the field. */
export function rowOf(siteId: string, request: ContentCreateRequest, now: Date): NewContentRow {
  const { kind } = request;
  const title = request.title.trim();
  if (!title) throw refuse('title', M.titleRequired);
  const genre = request.genre.trim();
  if (!genre) throw refuse('genre', M.genreRequired);
  if (!(CONTENT_RATINGS as readonly string[]).includes(request.rating)) throw refuse('rating', M.ratingInvalid);
  if (!LANGUAGE_CODE.test(request.originalLanguage)) throw refuse('originalLanguage', M.languageInvalid);
  const releaseDate = request.releaseDate ? request.releaseDate : null;
  if (releaseDate !== null && !isRealDay(releaseDate)) throw refuse('releaseDate', M.releaseDateInvalid);

  const duration = request.durationSeconds ?? 0;
  if (kind === 'series' && duration > 0) throw refuse('durationSeconds', M.durationNotForKind);
  if ((kind === 'video' || kind === 'episode') && duration <= 0) throw refuse('durationSeconds', M.durationRequired);

  let startsAt: Date | null = null;
  if (kind === 'live') {
    if (!request.startsAt) throw refuse('startsAt', M.startsAtRequired);
    const read = parseInstant(request.startsAt);
    if (read === 'invalid') throw refuse('startsAt', M.startsAtInvalid);
    if (read === 'out_of_range') throw refuse('startsAt', M.startsAtOutOfRange);
    startsAt = read;
  } else if (request.startsAt) {
    throw refuse('startsAt', M.startsAtNotForKind);
  }

  let seasons: ContentSeason[] = [];
  if (kind === 'series') seasons = normaliseSeasons(request.seasons);
  else if (request.seasons?.length) throw refuse('seasons', M.seasonsNotForKind);

  if (kind === 'episode') {
    if (!request.seriesId) throw refuse('seriesId', M.seriesRequired);
    if (!request.seasonNumber) throw refuse('seasonNumber', M.seasonRequired);
    if (!request.episodeNumber) throw refuse('episodeNumber', M.episodeNumberRequired);
  } else if (request.seriesId || request.seasonNumber || request.episodeNumber) {
    throw refuse('seriesId', M.episodeFieldsNotForKind);
  }

  return {
    siteId,
    networkId: null,
    kind,
    title,
    titleSearch: searchKeyOf(title),
    description: (request.description ?? '').trim(),
    genre,
    tags: normaliseTags(request.tags),
    durationSeconds: duration,
    status: 'draft',
    rating: request.rating,
    originalLanguage: request.originalLanguage,
    releaseDate,
    startsAt,
    seasons,
    seriesId: kind === 'episode' ? request.seriesId!.toLowerCase() : null,
    seasonNumber: kind === 'episode' ? request.seasonNumber! : null,
    episodeNumber: kind === 'episode' ? request.episodeNumber! : null,
    posterUrl: artworkUrl('posterUrl', request.posterUrl),
    artworkUrl: artworkUrl('thumbnailUrl', request.thumbnailUrl),
    createdAt: now,
    updatedAt: now,
  };
}

/** What a creation's revision and audit entry keep: the fields an operator set. */
const RECORDED = [
  'kind', 'title', 'description', 'genre', 'tags', 'rating', 'originalLanguage', 'releaseDate', 'durationSeconds', 'startsAt',
  'seasons', 'seriesId', 'seasonNumber', 'episodeNumber', 'posterUrl', 'artworkUrl', 'status',
] as const;

function recorded(row: ContentRow): Record<string, unknown> {
  const record = row as unknown as Record<string, unknown>;
  return Object.fromEntries(RECORDED.map((key) => {
    const value = record[key];
    return [key, value instanceof Date ? value.toISOString() : value ?? null];
  }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isArtworkSlot(slot: string): slot is ArtworkSlot {
  return (ARTWORK_SLOTS as readonly string[]).includes(slot);
}

/** Whether width × height is the slot's ratio (within the tolerance). */
export function hasArtworkRatio(slot: ArtworkSlot, width: number, height: number): boolean {
  const [w, h] = ARTWORK_SPECS[slot].ratio;
  return Math.abs(width / height - w / h) <= (w / h) * ARTWORK_RATIO_TOLERANCE;
}

/** The declared seasons and those its episodes use, by number (a declared title wins). */
export function mergeSeasons(declared: readonly ContentSeason[], used: readonly number[]): ContentSeason[] {
  const byNumber = new Map<number, ContentSeason>();
  for (const number of used) byNumber.set(number, { number, title: `Season ${number}` });
  for (const season of declared) byNumber.set(season.number, { number: season.number, title: season.title || `Season ${season.number}` });
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}

export function createContentCreateService(deps: { store: ContentCreateRepository; storage: UploadStorage; now?: () => Date }): ContentCreateService {
  const { store, storage } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    async create(caller, request) {
      requireEdit(caller);
      const at = now();
      const values = rowOf(caller.site.id, request, at);
      for (const [field, url] of [['posterUrl', values.posterUrl], ['thumbnailUrl', values.artworkUrl]] as const) {
        // Only a file this server stored (an upload answers its URL): never a link to elsewhere.
        // Issue 37: and a file of this site (another site's is refused like one never uploaded).
        const ref = url ? parseFileUrl(url) : undefined;
        if (url && (typeof ref !== 'object' || !(await store.siteMayReference(caller.site.id, ref)) || !(await storage.get(ref.key)))) {
          throw refuse(field, M.artworkUrlInvalid);
        }
      }
      const takenMessage = () => M.episodeTaken(values.episodeNumber!, values.seasonNumber!, seriesTitle);
      let seriesTitle = '';
      const saved = await store.transaction(async (tx) => {
        if (values.kind === 'episode') {
          const seriesId = values.seriesId!;
          const series = UUID.test(seriesId) ? await tx.findSeries(caller.site.id, seriesId) : undefined;
          if (!series) throw refuse('seriesId', M.seriesMissing);
          seriesTitle = series.title;
          const seasons = mergeSeasons(series.seasons, await tx.episodeSeasons(caller.site.id, series.id));
          if (!seasons.some((s) => s.number === values.seasonNumber)) throw refuse('seasonNumber', M.seasonMissing(values.seasonNumber!, series.title));
          if (await tx.episodeTaken(caller.site.id, series.id, values.seasonNumber!, values.episodeNumber!)) {
            throw conflict(takenMessage());
          }
        }
        const row = await tx.insertContent(values);
        const object = { kind: 'content', objectId: row.id, objectName: row.title } as const;
        await recordRevision(tx, {
          ...object, siteId: caller.site.id, actorUserId: caller.user.id, objectVersion: row.version,
          before: null, after: recorded(row),
        });
        await tx.insertAuditEvent({
          at, action: 'content.create', actorUserId: caller.user.id, siteId: caller.site.id, ...auditObject(object),
          detail: scrubDetail({ contentId: row.id, kind: row.kind, after: recorded(row) }),
        });
        return row;
      }).catch((error: unknown) => {
        // Two creations of the same episode at once: the unique index refuses the second (not a 500).
        const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
        if (code === '23505' && values.kind === 'episode') throw conflict(takenMessage());
        throw error;
      });
      return { success: true, item: store.toItem(saved, 0) };
    },

    async uploadArtwork(caller, slot, bytes) {
      requireEdit(caller);
      if (!isArtworkSlot(slot)) throw refuse('slot', M.artworkSlot);
      const spec = ARTWORK_SPECS[slot];
      // The brand images' check (server/storage/image-check.ts): decoded by content, real size, re-encoded.
      const checked = await checkImage(bytes);
      if (!checked.ok) throw refuse('file', checked.message);
      if (checked.ext === 'svg') throw refuse('file', M.artworkType);
      const { width, height } = checked;
      if (!hasArtworkRatio(slot, width, height)) throw refuse('file', M.artworkRatio(spec.label, spec.ratio[0], spec.ratio[1], width, height));
      if (width < spec.minWidth || height < spec.minHeight) throw refuse('file', M.artworkTooSmall(spec.label, spec.minWidth, spec.minHeight, width, height));
      const key = `${createHash('sha256').update(checked.bytes).digest('hex')}.${checked.ext}`;
      await storage.put(key, checked.bytes);
      await store.recordSiteFile(caller.site.id, key);
      await store.insertAuditEvent({
        at: now(), action: 'content.artwork_upload', actorUserId: caller.user.id, siteId: caller.site.id,
        detail: scrubDetail({ slot, key, bytes: checked.bytes.length, contentType: checked.contentType, width, height }),
      });
      return { success: true, url: siteFileUrl(caller.site.id, key), width, height };
    },

    async family(caller, id) {
      requireRead(caller);
      const row = UUID.test(id) ? await store.findContent(caller.site.id, id.toLowerCase()) : undefined;
      if (!row) throw notFound(OWN_MESSAGES.contentNotFound);
      if (row.kind === 'series') {
        const [episodes, used] = await Promise.all([store.seriesEpisodes(caller.site.id, row.id), store.episodeSeasons(caller.site.id, row.id)]);
        return { success: true, series: null, seasons: mergeSeasons(row.seasons, used), episodes };
      }
      const series = row.kind === 'episode' && row.seriesId ? await store.findSeries(caller.site.id, row.seriesId) : undefined;
      return { success: true, series: series ? { id: series.id, title: series.title } : null, seasons: [], episodes: [] };
    },
  };
}
