/**
 * The content library's wire contract (spec §3 content browsing, §7.5 `content/` and `live/video`):
 * kinds, statuses, list bounds, the request schemas the server validates with and the shapes both
 * sides compile against. The search key rule (`searchKeyOf`) lives here too, because the server
 * stores it on every write and normalises queries with the same function.
 */
import { VERSION_SCHEMA } from './contract';
import { INSTANT_MESSAGES } from './instant-bounds';
import type { FromSchema } from './json-schema';
import { isOneOf } from './one-of';

export const CONTENT_KINDS = ['video', 'series', 'episode', 'live'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export const CONTENT_STATUSES = ['draft', 'published', 'unpublished', 'scheduled'] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

/** Statuses a bulk action may set on the selected rows. */
export const BULK_STATUSES = ['published', 'unpublished'] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];

/** Sort keys of the list; a leading '-' sorts descending. */
export const CONTENT_SORT_FIELDS = ['title', 'kind', 'status', 'duration', 'plays30d', 'updated'] as const;
export type ContentSortField = (typeof CONTENT_SORT_FIELDS)[number];
/** 'relevance' (issue 29): best match of the search first (title prefix, then ts_rank over the words of the title and tags); without a search it is '-updated'. */
export type ContentSort = ContentSortField | `-${ContentSortField}` | 'relevance';
export const CONTENT_SORTS: readonly ContentSort[] = [...CONTENT_SORT_FIELDS.flatMap((f) => [f, `-${f}` as const]), 'relevance'];
export const DEFAULT_CONTENT_SORT: ContentSort = '-updated';

/**
 * Bounds of the list query. A value outside them is refused with a 400 that names the parameter
 * (never clamped silently: a client asking for row 10^9 has a bug worth seeing).
 * `max` caps how many matching items the list covers at all (`total` never exceeds it).
 */
export const CONTENT_LIST_BOUNDS = {
  startMax: 100_000,
  limitMin: 1,
  limitMax: 100,
  limitDefault: 20,
  maxMin: 1,
  maxMax: 100_000,
  qMaxLength: 100,
} as const;

/** Field limits of an edit. */
export const CONTENT_FIELD_BOUNDS = {
  titleMax: 200,
  descriptionMax: 5000,
  genreMax: 60,
  tagMax: 40,
  tagsMax: 20,
  bulkMax: 100,
} as const;

/** The days "plays in the last 30 days" and the detail page's QoS summary cover. */
export const CONTENT_STATS_DAYS = 30;

/**
 * The search key of a title or a query: lower-cased, accents removed (NFD, combining marks
 * dropped), every run of characters that are not letters or digits turned into one space.
 */
export function searchKeyOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** One row of the library. */
export interface ContentSummary {
  id: string;
  kind: ContentKind;
  title: string;
  status: ContentStatus;
  durationSeconds: number;
  plays30d: number;
  updatedAt: string;
  version: number;
  /** The thumbnail (16:9); '' when the item has none (the console draws a placeholder). */
  artworkUrl: string;
  /**
   * Issue 38: a series' season numbers (declared, or used by its episodes), in order; only in a list of
   * series (mediaType=series), which Create New reads to say a typed season does not exist.
   */
  seasonNumbers?: number[];
}

export interface ContentListResponse {
  success: true;
  items: ContentSummary[];
  /** Matching items (at most `max`). */
  total: number;
  start: number;
  limit: number;
}

/** Quality of service of the last CONTENT_STATS_DAYS days, from the daily playback rollups. */
export interface ContentQosSummary {
  sessions: number;
  /** Average startup time (ms); null without sessions. */
  avgStartupMs: number | null;
  /** Rebuffer seconds per watched second; null without watch time. */
  rebufferRatio: number | null;
  /** Sessions that ended in an error, per session; null without sessions. */
  errorRate: number | null;
  avgBitrateKbps: number | null;
  /** Session counts per STARTUP_MS_BUCKETS bucket. */
  startupHistogram: number[];
  /** Session counts per REBUFFER_RATIO_BUCKETS bucket. */
  rebufferHistogram: number[];
}

export interface ContentItem extends ContentSummary {
  description: string;
  genre: string;
  tags: string[];
  scheduledAt: string | null;
  publishedAt: string | null;
  /** The poster (2:3); '' when the item has none. */
  posterUrl: string;
  rating: string;
  originalLanguage: string;
  /** 'YYYY-MM-DD'. */
  releaseDate: string | null;
  /** Live events: when they start (ISO, UTC). */
  startsAt: string | null;
  /** A series' declared seasons. */
  seasons: { number: number; title: string }[];
  seriesId: string | null;
  seasonNumber: number | null;
  episodeNumber: number | null;
  createdAt: string;
}

export interface ContentDetailResponse {
  success: true;
  item: ContentItem;
  /** Plays per day of the last CONTENT_STATS_DAYS days, oldest first (days without plays are 0). */
  playsByDay: { day: string; plays: number }[];
  qos: ContentQosSummary;
}

export interface ContentUpdateResponse {
  success: true;
  item: ContentItem;
  /** Issue 37: what the edit did besides the fields sent (a manual status change cancelled a pending unpublish); absent otherwise. */
  message?: string;
}

export interface ContentBulkStatusResponse {
  success: true;
  updated: number;
  /** Issue 37: as ContentUpdateResponse.message, for the items of a bulk change. */
  message?: string;
}

const B = CONTENT_LIST_BOUNDS;
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const F = CONTENT_FIELD_BOUNDS;

/** JSON schemas the server validates with (query strings are coerced to numbers by Fastify); the request types below derive from them. */
export const CONTENT_SCHEMAS = {
  listQuery: {
    type: 'object',
    additionalProperties: false,
    properties: {
      mediaType: { type: 'string', enum: [...CONTENT_KINDS] },
      start: { type: 'integer', minimum: 0, maximum: B.startMax, default: 0 },
      limit: { type: 'integer', minimum: B.limitMin, maximum: B.limitMax, default: B.limitDefault },
      max: { type: 'integer', minimum: B.maxMin, maximum: B.maxMax, default: B.maxMax },
      q: { type: 'string', maxLength: B.qMaxLength, default: '' },
      status: { type: 'string', enum: [...CONTENT_STATUSES] },
      sort: { type: 'string', enum: [...CONTENT_SORTS], default: DEFAULT_CONTENT_SORT },
    },
  },
  idParams: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', pattern: UUID_PATTERN } },
  },
  update: {
    type: 'object',
    additionalProperties: false,
    required: ['version'],
    properties: {
      version: VERSION_SCHEMA,
      title: { type: 'string', minLength: 1, maxLength: F.titleMax },
      description: { type: 'string', maxLength: F.descriptionMax },
      genre: { type: 'string', minLength: 1, maxLength: F.genreMax },
      tags: { type: 'array', maxItems: F.tagsMax, items: { type: 'string', minLength: 1, maxLength: F.tagMax } },
      status: { type: 'string', enum: [...CONTENT_STATUSES] },
      /** ISO date-time; required with status 'scheduled', refused with any other status. */
      scheduledAt: { type: ['string', 'null'], maxLength: 40 },
      /** The catalogue fields a new item is given (issue 29), changed later: one of CONTENT_RATINGS, a LANGUAGE_CODE, a day 'YYYY-MM-DD' or null. */
      rating: { type: 'string', maxLength: 10 },
      originalLanguage: { type: 'string', maxLength: 10 },
      releaseDate: { type: ['string', 'null'], maxLength: 10 },
      /** Issue 38: the item's artwork (a series' poster) replaced: a file this site uploaded (ARTWORK_URL), or '' for none. */
      artworkUrl: { type: 'string', maxLength: 300 },
      posterUrl: { type: 'string', maxLength: 300 },
    },
  },
  bulkStatus: {
    type: 'object',
    additionalProperties: false,
    required: ['status', 'items'],
    properties: {
      status: { type: 'string', enum: [...BULK_STATUSES] },
      items: {
        type: 'array',
        minItems: 1,
        maxItems: F.bulkMax,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'version'],
          properties: { id: { type: 'string', pattern: UUID_PATTERN }, version: VERSION_SCHEMA },
        },
      },
    },
  },
} as const;

export type ContentListQuery = FromSchema<typeof CONTENT_SCHEMAS.listQuery>;
/** An edit: the version read, and the fields that change. */
export type ContentUpdateRequest = FromSchema<typeof CONTENT_SCHEMAS.update>;
export type ContentBulkStatusRequest = FromSchema<typeof CONTENT_SCHEMAS.bulkStatus>;

/* ------------------------------- Creating items (issue 29) ------------------------------- */

/** Age ratings an item may carry ('NR': not rated). */
export const CONTENT_RATINGS = ['NR', 'G', 'PG', 'PG-13', 'R', 'NC-17', 'TV-Y', 'TV-G', 'TV-PG', 'TV-14', 'TV-MA'] as const;
export type ContentRating = (typeof CONTENT_RATINGS)[number];

/** Original languages offered by the form (ISO 639-1 code → name); the server accepts any code of the LANGUAGE_CODE shape. */
export const CONTENT_LANGUAGES: Readonly<Record<string, string>> = {
  en: 'English', es: 'Spanish', fr: 'French', de: 'German', it: 'Italian', pt: 'Portuguese', nl: 'Dutch',
  ja: 'Japanese', ko: 'Korean', zh: 'Chinese', hi: 'Hindi', ar: 'Arabic', ru: 'Russian', sv: 'Swedish',
};
export const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Z]{2})?$/;

/** Limits of a new item's fields beyond CONTENT_FIELD_BOUNDS. */
export const CONTENT_CREATE_BOUNDS = {
  durationMaxSeconds: 24 * 3600,
  seasonsMax: 50,
  seasonTitleMax: 100,
  seasonNumberMax: 100,
  episodeNumberMax: 1000,
} as const;

/** Artwork slots: the poster (2:3) and the thumbnail (16:9, the library's and the apps' rows). */
export const ARTWORK_SLOTS = ['poster', 'thumbnail'] as const;
export type ArtworkSlot = (typeof ARTWORK_SLOTS)[number];

/**
 * Each slot's shape: its aspect ratio (width / height, within ARTWORK_RATIO_TOLERANCE), the smallest
 * image accepted (the largest size the apps show it at) and the sizes the apps show it at (previews).
 */
export const ARTWORK_SPECS: Readonly<Record<ArtworkSlot, {
  label: string; ratio: [number, number]; minWidth: number; minHeight: number; previews: readonly { width: number; height: number }[];
}>> = {
  poster: { label: 'Poster', ratio: [2, 3], minWidth: 240, minHeight: 360, previews: [{ width: 240, height: 360 }, { width: 120, height: 180 }, { width: 60, height: 90 }] },
  thumbnail: { label: 'Thumbnail', ratio: [16, 9], minWidth: 320, minHeight: 180, previews: [{ width: 320, height: 180 }, { width: 160, height: 90 }, { width: 96, height: 54 }] },
};
export const ARTWORK_RATIO_TOLERANCE = 0.02;

/** Where a stored artwork lives (the AppCMS upload store, served by site and content hash; unscoped: from before issue 37). */
export const ARTWORK_URL = /^\/v2\.0\/appcms\/files\/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/)?[0-9a-f]{64}\.(png|webp)$/;

/** Paths of the create flow (under API_PATHS.content). */
export const CONTENT_CREATE_PATHS = {
  /** POST: a new item. */
  create: '/v2.0/content',
  /** POST /v2.0/content/artwork/:slot, the raw image as the body: answers the stored URL. */
  artwork: '/v2.0/content/artwork',
  /** GET /v2.0/content/:id/family: a series' seasons and episodes, an episode's series. */
  family: (id: string) => `/v2.0/content/${encodeURIComponent(id)}/family`,
} as const;

/** Messages of the create flow and the item page's family (one catalogue for the area). */
export const CONTENT_CREATE_MESSAGES = {
  created: (kind: string, title: string) => `${kind} “${title}” created.`,
  titleRequired: 'Enter a title.',
  genreRequired: 'Enter a genre.',
  ratingInvalid: 'Choose a rating from the list.',
  languageInvalid: 'Choose the original language (a language code such as “en” or “pt-BR”).',
  releaseDateInvalid: 'The release date is not a valid date (YYYY-MM-DD).',
  durationRequired: 'Enter the duration in minutes (a whole number, more than zero).',
  /** Issue 38: the upper bound as typed (in minutes, the form's unit) and as the server refuses it. */
  durationTooLong: `The duration must be no longer than ${(CONTENT_CREATE_BOUNDS.durationMaxSeconds / 60).toLocaleString('en-US')} minutes (${CONTENT_CREATE_BOUNDS.durationMaxSeconds / 3600} hours).`,
  durationNotForKind: 'A series has no duration of its own: its episodes have one.',
  startsAtRequired: 'Enter when the live event starts.',
  startsAtInvalid: 'The start time is not a valid date and time.',
  /** Issue 37: outside common/instant-bounds.ts's range. */
  startsAtOutOfRange: INSTANT_MESSAGES.outOfRange('The start time'),
  startsAtNotForKind: 'Only a live event has a start time.',
  seasonsRequired: 'A series needs at least one season.',
  seasonsTooMany: `A series can have at most ${CONTENT_CREATE_BOUNDS.seasonsMax} seasons.`,
  seasonsDuplicate: 'Two seasons have the same number.',
  seasonsNotForKind: 'Only a series has seasons.',
  seriesRequired: 'Choose the series this episode belongs to.',
  seriesMissing: 'The chosen series does not exist on your site.',
  seasonRequired: 'Choose the season of the episode.',
  /** The season as typed: the rule of the server's schema. */
  seasonNumberRule: `Enter the season as a whole number from 1 to ${CONTENT_CREATE_BOUNDS.seasonNumberMax}.`,
  seasonMissing: (season: number, series: string) => `Season ${season} does not exist in “${series}”.`,
  episodeNumberRequired: 'Enter the episode number.',
  episodeNumberRule: `Enter the episode number as a whole number from 1 to ${CONTENT_CREATE_BOUNDS.episodeNumberMax.toLocaleString('en-US')}.`,
  episodeTaken: (episode: number, season: number, series: string) => `“${series}” already has an episode ${episode} in season ${season}.`,
  episodeFieldsNotForKind: 'Only an episode belongs to a series.',
  artworkUrlInvalid: 'The artwork is not an uploaded image: upload it again.',
  artworkSlot: 'Artwork is a poster or a thumbnail.',
  artworkType: 'Artwork must be a PNG or WebP image.',
  artworkRatio: (slot: string, w: number, h: number, width: number, height: number) =>
    `A ${slot.toLowerCase()} must be ${w}:${h} (this image is ${width} × ${height} pixels).`,
  artworkTooSmall: (slot: string, minWidth: number, minHeight: number, width: number, height: number) =>
    `A ${slot.toLowerCase()} must be at least ${minWidth} × ${minHeight} pixels (this image is ${width} × ${height}).`,
  uploading: 'Uploading…',
  seriesLoadFailed: 'The list of series could not be loaded.',
  noSeries: 'There is no series yet: create a series first.',
  createFailed: 'The item could not be created. Try again.',
  unknownKind: (kind: string) => `There is no kind of content called “${kind}”.`,
  familyLoadFailed: 'The seasons and episodes could not be loaded.',
  noEpisodes: 'No episodes yet.',
} as const;

const C = CONTENT_CREATE_BOUNDS;

/** The body of POST /v2.0/content. Which fields a kind needs or refuses is the server's rule (server/domain/content-create.ts). */
export const CONTENT_CREATE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['kind', 'title', 'genre', 'rating', 'originalLanguage'],
  properties: {
    kind: { type: 'string', enum: [...CONTENT_KINDS] },
    title: { type: 'string', maxLength: F.titleMax },
    description: { type: 'string', maxLength: F.descriptionMax },
    genre: { type: 'string', maxLength: F.genreMax },
    tags: { type: 'array', maxItems: F.tagsMax, items: { type: 'string', minLength: 1, maxLength: F.tagMax } },
    rating: { type: 'string', maxLength: 10 },
    originalLanguage: { type: 'string', maxLength: 10 },
    /** 'YYYY-MM-DD' or null. */
    releaseDate: { type: ['string', 'null'], maxLength: 10 },
    durationSeconds: { type: 'integer', minimum: 0, maximum: C.durationMaxSeconds },
    /** Live events: the start, an ISO instant (the form converts the site's time zone to it). */
    startsAt: { type: ['string', 'null'], maxLength: 40 },
    seasons: {
      type: 'array',
      maxItems: C.seasonsMax,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['number'],
        properties: {
          number: { type: 'integer', minimum: 1, maximum: C.seasonNumberMax },
          title: { type: 'string', maxLength: C.seasonTitleMax },
        },
      },
    },
    seriesId: { type: ['string', 'null'], maxLength: 100 },
    seasonNumber: { type: ['integer', 'null'], minimum: 1, maximum: C.seasonNumberMax },
    episodeNumber: { type: ['integer', 'null'], minimum: 1, maximum: C.episodeNumberMax },
    posterUrl: { type: 'string', maxLength: 200 },
    thumbnailUrl: { type: 'string', maxLength: 200 },
  },
} as const;
export type ContentCreateRequest = FromSchema<typeof CONTENT_CREATE_SCHEMA>;

export interface ContentSeason { number: number; title: string }

export interface ArtworkUploadResponse {
  success: true;
  url: string;
  width: number;
  height: number;
}

export interface ContentFamilyEpisode {
  id: string;
  title: string;
  status: ContentStatus;
  seasonNumber: number | null;
  episodeNumber: number | null;
  artworkUrl: string;
}

/** GET /v2.0/content/:id/family. */
export interface ContentFamilyResponse {
  success: true;
  /** An episode's series (null for any other kind, or when its series is gone). */
  series: { id: string; title: string } | null;
  /** A series' seasons (empty for any other kind). */
  seasons: ContentSeason[];
  /** A series' episodes, by season and number (empty for any other kind). */
  episodes: ContentFamilyEpisode[];
}

export function isContentKind(value: unknown): value is ContentKind {
  return isOneOf(CONTENT_KINDS, value);
}

