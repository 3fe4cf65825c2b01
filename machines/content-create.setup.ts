/**
 * Create New's setup (machines/content-create.machine.ts assembles it with its states): the form's
 * types and rules, its I/O actors (provided by src/adapters/content-actors.ts) and its guards by name.
 * The actions are added in ./content-create.actions.ts.
 */
import { setup } from 'xstate';
import { machineTypes } from './machine-types';
import {
  CONTENT_CREATE_MESSAGES as M, CONTENT_CREATE_BOUNDS,
  type ArtworkSlot, type ContentCreateRequest, type ContentItem, type ContentKind,
} from '../common/content';
import { zonedWallTimeToIso } from '../common/zoned-time';
import { formHasTypedInput } from './content-create-leaving';
import { readInstant } from '../common/instant-bounds';
import { providedLater } from './unprovided';

export interface ContentCreateInput {
  kind?: ContentKind;
  /** An episode's series and season, when the page was opened from the series. */
  seriesId?: string;
  seasonNumber?: number;
}

/** A series the episode can go in; its season numbers when the list says them (issue 38). */
export interface CreateSeries { id: string; title: string; seasons?: readonly number[] }

export interface CreateSetup {
  series: CreateSeries[];
  /** The site's default time zone: a live event's start is typed in it. */
  timeZone: string;
  /** The form this tab kept before a reload; null when there is none. */
  draft?: CreateDraft | null;
}

/** What the form keeps across a reload: the kind, the typed text and the uploaded artwork. */
export interface CreateDraft {
  kind: ContentKind;
  values: CreateValues;
  artwork: Partial<Record<ArtworkSlot, UploadedArtwork>>;
}

export interface UploadedArtwork { url: string; width: number; height: number }
export interface UploadArtworkInput { slot: ArtworkSlot; file: Blob }

/** A refusal of the server: its message and, when it names them, the fields at fault. */
export class CreateFailure extends Error {
  constructor(message: string, readonly fields: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'CreateFailure';
  }
}

/** The form's fields, as text. */
export const CREATE_FIELDS = [
  'title', 'description', 'genre', 'tags', 'rating', 'originalLanguage', 'releaseDate', 'durationMinutes', 'startsAt', 'seasons',
  'seriesId', 'seasonNumber', 'episodeNumber',
] as const;
export type CreateField = (typeof CREATE_FIELDS)[number];
export type CreateValues = Record<CreateField, string>;

export interface ContentCreateContext {
  kind: ContentKind;
  /**
   * The kind and values the form opened with (leaving asks only once they differ), and whether the
   * address chose them (an "Add episode" of a series).
   */
  openedWith: { kind: ContentKind; values: CreateValues; fromAddress: boolean };
  values: CreateValues;
  artwork: Partial<Record<ArtworkSlot, UploadedArtwork>>;
  uploadingSlot: ArtworkSlot | null;
  /** The file being uploaded (to `uploadingSlot`); null when none is. */
  uploadingFile: Blob | null;
  series: CreateSeries[];
  timeZone: string;
  error: string | null;
  fieldErrors: Partial<Record<string, string>>;
  created: ContentItem | null;
}

export type ContentCreateEvent =
  | { type: 'create.kind'; kind: ContentKind }
  | { type: 'create.change'; field: CreateField; value: string }
  | { type: 'create.upload'; slot: ArtworkSlot; file: Blob }
  | { type: 'create.submit' }
  | { type: 'create.retry' }
  | { type: 'create.cancel' }
  | { type: 'create.navigate' }
  | { type: 'create.leaveConfirm' }
  | { type: 'create.leaveCancel' };

export function initialValues(input: ContentCreateInput): CreateValues {
  return {
    title: '', description: '', genre: '', tags: '', rating: 'NR', originalLanguage: 'en', releaseDate: '', durationMinutes: '',
    startsAt: '', seasons: '1', seriesId: input.seriesId ?? '', seasonNumber: input.seasonNumber ? String(input.seasonNumber) : '1', episodeNumber: '1',
  };
}

const whole = (text: string): number | null => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** The season rule of the server's schema (common/content.ts): a whole number from 1 to seasonNumberMax. */
export function seasonNumberError(text: string): string | null {
  if (!text.trim()) return M.seasonRequired;
  const season = whole(text);
  return season !== null && season >= 1 && season <= CONTENT_CREATE_BOUNDS.seasonNumberMax ? null : M.seasonNumberRule;
}

/** The duration as typed, in minutes: needed (more than zero) for a video or an episode, optional for a live event; at most the schema's bound. */
export function durationError(kind: ContentKind, text: string): string | null {
  if (kind === 'series') return null;
  const minutes = whole(text);
  if (minutes !== null && minutes * 60 > CONTENT_CREATE_BOUNDS.durationMaxSeconds) return M.durationTooLong;
  return kind !== 'live' && !(minutes! > 0) ? M.durationRequired : null;
}

/** A series' number of seasons as typed: from 1 to seasonsMax. */
export function seasonsError(text: string): string | null {
  const count = whole(text);
  if (!(count! > 0)) return M.seasonsRequired;
  return count! > CONTENT_CREATE_BOUNDS.seasonsMax ? M.seasonsTooMany : null;
}

/** An episode's number as typed: a whole number from 1 to episodeNumberMax. */
export function episodeNumberError(text: string): string | null {
  if (!text.trim()) return M.episodeNumberRequired;
  const episode = whole(text);
  return episode !== null && episode >= 1 && episode <= CONTENT_CREATE_BOUNDS.episodeNumberMax ? null : M.episodeNumberRule;
}

/**
 * A field's error as it is typed (issue 38): the season and the episode number by the server's rule,
 * and the duration and number of seasons once past their upper bounds ("missing" waits for a submit).
 */
export function typedFieldError(kind: ContentKind, field: CreateField, value: string): string | null {
  if (field === 'seasonNumber') return seasonNumberError(value);
  if (field === 'episodeNumber') return value.trim() ? episodeNumberError(value) : null;
  if (field === 'durationMinutes') return durationError(kind, value) === M.durationTooLong ? M.durationTooLong : null;
  if (field === 'seasons') return seasonsError(value) === M.seasonsTooMany ? M.seasonsTooMany : null;
  return null;
}

/** Issue 38: the typed season is not one of the chosen series' seasons (the server's words); null when it is, or when unknown. */
export function seasonMissingError(context: Pick<ContentCreateContext, 'kind' | 'series'>, values: CreateValues): string | null {
  if (context.kind !== 'episode') return null;
  const seasons = context.series.find((s) => s.id === values.seriesId);
  const season = whole(values.seasonNumber);
  if (!seasons?.seasons || season === null || seasonNumberError(values.seasonNumber)) return null;
  return seasons.seasons.includes(season) ? null : M.seasonMissing(season, seasons.title);
}

/** The form's field errors after `field` was typed: that field's own rule, and the season against the chosen series. */
export function errorsAfterTyping(
  context: Pick<ContentCreateContext, 'kind' | 'series' | 'values' | 'fieldErrors'>, field: CreateField, value: string,
): Partial<Record<string, string>> {
  const values = { ...context.values, [field]: value };
  const { [field]: _dropped, ...errors } = context.fieldErrors;
  const typed = typedFieldError(context.kind, field, value);
  if (typed) errors[field] = typed;
  if (field !== 'seriesId' && field !== 'seasonNumber') return errors;
  const { seasonNumber: _season, ...others } = errors;
  const season = (field === 'seasonNumber' ? typed : null) ?? seasonMissingError(context, values);
  return season ? { ...others, seasonNumber: season } : others;
}

/**
 * Whether a kept form belongs to this opening: any kept form for plain Create New; for one the address
 * chose (an episode of a series), only a form of that kind and series.
 */
export function draftFits(context: Pick<ContentCreateContext, 'openedWith'>, draft: CreateDraft): boolean {
  const { openedWith } = context;
  return !openedWith.fromAddress || (draft.kind === openedWith.kind && draft.values.seriesId === openedWith.values.seriesId);
}

/** Whether the form differs from how it opened (typed text, another kind, uploaded artwork). */
export function hasTypedInput(context: Pick<ContentCreateContext, 'kind' | 'values' | 'artwork' | 'openedWith'>): boolean {
  return formHasTypedInput(context);
}

/** What the form misses before it goes to the server (the server checks everything again). */
export function missingFields(context: Pick<ContentCreateContext, 'kind' | 'values' | 'timeZone'>): Record<string, string> {
  const { kind, values } = context;
  const missing: Record<string, string> = {};
  if (!values.title.trim()) missing.title = M.titleRequired;
  if (!values.genre.trim()) missing.genre = M.genreRequired;
  const duration = durationError(kind, values.durationMinutes);
  if (duration) missing.durationMinutes = duration;
  if (kind === 'live') {
    const startsAt = zonedWallTimeToIso(values.startsAt, context.timeZone);
    if (!startsAt) missing.startsAt = values.startsAt ? M.startsAtInvalid : M.startsAtRequired;
    else if (readInstant(startsAt) === 'out_of_range') missing.startsAt = M.startsAtOutOfRange;
  }
  if (kind === 'series') {
    const seasons = seasonsError(values.seasons);
    if (seasons) missing.seasons = seasons;
  }
  if (kind === 'episode') {
    if (!values.seriesId) missing.seriesId = M.seriesRequired;
    const season = seasonNumberError(values.seasonNumber);
    if (season) missing.seasonNumber = season;
    const episode = episodeNumberError(values.episodeNumber);
    if (episode) missing.episodeNumber = episode;
  }
  return missing;
}

/** The body of POST /v2.0/content for the form (only the fields its kind takes). */
export function createRequestOf(context: Pick<ContentCreateContext, 'kind' | 'values' | 'artwork' | 'timeZone'>): ContentCreateRequest {
  const { kind, values, artwork } = context;
  const body: ContentCreateRequest = {
    kind,
    title: values.title.trim(),
    description: values.description.trim(),
    genre: values.genre.trim(),
    tags: [...new Set(values.tags.split(',').map((tag) => tag.trim()).filter(Boolean))],
    rating: values.rating,
    originalLanguage: values.originalLanguage,
    releaseDate: values.releaseDate || null,
    posterUrl: artwork.poster?.url ?? '',
    thumbnailUrl: artwork.thumbnail?.url ?? '',
  };
  if (kind === 'video' || kind === 'episode') body.durationSeconds = (whole(values.durationMinutes) ?? 0) * 60;
  if (kind === 'live') {
    body.startsAt = zonedWallTimeToIso(values.startsAt, context.timeZone);
    const minutes = whole(values.durationMinutes);
    if (minutes) body.durationSeconds = minutes * 60;
  }
  if (kind === 'series') {
    const count = whole(values.seasons) ?? 0;
    body.seasons = Array.from({ length: count }, (_, i) => ({ number: i + 1 }));
  }
  if (kind === 'episode') {
    body.seriesId = values.seriesId;
    body.seasonNumber = whole(values.seasonNumber);
    body.episodeNumber = whole(values.episodeNumber);
  }
  return body;
}

export const contentCreateBase = setup({
  // Create New has no children and no output.
  types: machineTypes<{ context: ContentCreateContext; events: ContentCreateEvent; input: ContentCreateInput }>(),
  actors: {
    loadSetup: providedLater<CreateSetup, void>('loadSetup'),
    uploadArtwork: providedLater<UploadedArtwork, UploadArtworkInput>('uploadArtwork'),
    createItem: providedLater<ContentItem, ContentCreateRequest>('createItem'),
  },
  guards: {
    incomplete: ({ context }) => Object.keys(missingFields(context)).length > 0,
    hasTypedInput: ({ context }) => hasTypedInput(context),
  },
});
