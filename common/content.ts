/**
 * The content library's wire contract (spec §3 content browsing, §7.5 `content/` and `live/video`):
 * kinds, statuses, list bounds, the request schemas the server validates with and the shapes both
 * sides compile against. The search key rule (`searchKeyOf`) lives here too, because the server
 * stores it on every write and normalises queries with the same function.
 */
import { VERSION_SCHEMA } from './contract';
import type { FromSchema } from './json-schema';

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
export type ContentSort = ContentSortField | `-${ContentSortField}`;
export const CONTENT_SORTS: readonly ContentSort[] = CONTENT_SORT_FIELDS.flatMap((f) => [f, `-${f}` as const]);
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
  artworkUrl: string;
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
}

export interface ContentBulkStatusResponse {
  success: true;
  updated: number;
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
