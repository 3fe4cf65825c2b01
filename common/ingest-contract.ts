/**
 * Wire contract of player event ingestion (POST /v1/events): event types and their JSON schemas,
 * shared by the server (validation), the simulator and any player integration.
 *
 * Counters in heartbeats and session ends are cumulative since the session started (watched
 * seconds, rebuffer count and time): a lost or repeated event never double-counts, and the session
 * keeps the largest value it has seen.
 */
import type { FromSchema } from './json-schema';
import { QOE_STREAM_TYPES } from './qoe';

export const INGEST_PATH = '/v1/events';
/** Development only: subscribers and content a simulator may play (authenticated by the ingestion key). */
export const INGEST_ROSTER_PATH = '/v1/dev/roster';

export interface IngestRoster {
  subscribers: { id: string; country: string; networkId: string; deviceTypes: string[] }[];
  content: { id: string; kind: string; durationSeconds: number; networkId: string | null }[];
}

/** Header carrying the site's ingestion key (not a staff token). */
export const INGEST_KEY_HEADER = 'x-ingestion-key';
/** Largest batch accepted; a bigger one is refused whole (413-style 400 with a message). */
export const INGEST_MAX_EVENTS = 500;
/** Largest request body of a batch, bytes. */
export const INGEST_MAX_BODY_BYTES = 512 * 1024;
/** Events further in the future than this (clock skew) are refused. */
export const INGEST_MAX_FUTURE_MS = 5 * 60_000;
/** Events older than this are refused (the rollup of an old day is rebuilt by `npm run rollups`). */
export const INGEST_MAX_AGE_DAYS = 7;
/**
 * Days an event id (and a recorded session start) is remembered: events older than
 * INGEST_MAX_AGE_DAYS are refused before they are queued, so an id received more than this long
 * ago can only come back refused; one day of margin covers the 5 minutes of allowed clock skew.
 */
export const INGEST_WINDOW_DAYS = INGEST_MAX_AGE_DAYS + 1;

export const PLAYER_DEVICE_TYPES = ['web', 'ios', 'android', 'roku', 'firetv', 'appletv', 'smarttv'] as const;
export type PlayerDeviceType = (typeof PLAYER_DEVICE_TYPES)[number];

/** The batch as a client sends it (the envelope schema leaves the events to PLAYER_EVENT_SCHEMAS). */
export interface IngestRequest {
  events: PlayerEvent[];
}

/**
 * A queued batch (202): consumers write it within moments and the rollups follow within seconds
 * (issue 31). Events already received before are written once (event ids), so a resent batch is
 * answered the same and changes nothing.
 */
export interface IngestAccepted {
  success: true;
  /** Distinct event ids of the batch, queued (an id repeated inside the batch counts once). */
  accepted: number;
}

export interface IngestEventError {
  index: number;
  eventId: string | null;
  message: string;
}

/**
 * Why an accepted event went to the dead letters instead of the raw tables (issue 37; table
 * ingest_dead_letters, one row per event with its payload): its session's start never arrived
 * (every message stored before it was written and its start still was not, after the grace a late
 * start could need; also a heartbeat or end of a session id the site never started: the producer
 * does not look sessions up, issue 42), its start names a subscriber, a title (content item) or a
 * network that is not one of the site's (checked by the consumers, not on the request path; the start
 * and that session's events of the same write), or the queue held a message that is not a batch.
 */
export const INGEST_DEAD_LETTER_REASONS = ['session-start-missing', 'subscriber-missing', 'content-missing', 'network-missing', 'unreadable-message'] as const;
export type IngestDeadLetterReason = (typeof INGEST_DEAD_LETTER_REASONS)[number];

/** Dead letters of the caller's site per reason (Dashboard 360 readers). */
export const INGEST_DEAD_LETTERS_PATH = '/appcms/v2/ingest/dead-letters';

export interface IngestDeadLetterCounts {
  success: true;
  /** Events of this site in the dead letters, every reason. */
  total: number;
  /** Every reason, 0 where there is none; lastAt: the newest one's time (RFC 3339, UTC) or null. */
  reasons: { reason: IngestDeadLetterReason; events: number; lastAt: string | null }[];
}

/** A refused batch: nothing of it was written. */
export interface IngestRefused {
  success: false;
  message: string;
  errors: IngestEventError[];
}

/** Patterns rather than Ajv formats: the server's Ajv has no format plugin, and the messages say what is expected. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/**
 * RFC 3339 date-time with `Z` or an offset within ±14:00 (the real-world range; PostgreSQL refuses
 * offsets beyond ±15:59, which `Date` accepts): month 01-12, day 01-31, hour 00-23, minute and
 * second 00-59. That the day exists in its month is checked by isCalendarDateTime.
 */
export const DATE_TIME_PATTERN = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(\\.\\d{1,6})?(Z|[+-](0\\d|1[0-3]):[0-5]\\d|[+-]14:00)$';

/** A DATE_TIME_PATTERN string whose day exists in its month (2026-02-30 does not; `Date` would roll it over). */
export function isCalendarDateTime(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && !Number.isNaN(Date.parse(value));
}
/** Longest text a player reports about itself (os, osVersion, browser, playerName, playerVersion, appVersion, region). */
export const PLAYER_TEXT_MAX = 80;
/** Longest video source host name (a DNS name is at most 253 characters). */
export const PLAYER_HOST_MAX = 253;
/** The session.start fields of issue 41 a player may add (each optional). */
export const PLAYER_DIMENSION_FIELDS = ['os', 'osVersion', 'browser', 'playerName', 'playerVersion', 'appVersion', 'region', 'streamType', 'sourceHost'] as const;
const uuid = { type: 'string', pattern: UUID_PATTERN } as const;
const count = { type: 'integer', minimum: 0, maximum: 10_000_000 } as const;
const base = {
  /** Unique per site; a resent event with a known id is counted once. */
  eventId: { type: 'string', minLength: 1, maxLength: 100 },
  sessionId: uuid,
  /** ISO 8601 date-time. */
  at: { type: 'string', pattern: DATE_TIME_PATTERN },
} as const;

/** One JSON schema per event type (validated after the type is known, for a precise message); the event types derive from them. */
export const PLAYER_EVENT_SCHEMAS = {
  'session.start': {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'eventId', 'sessionId', 'at', 'subscriberId', 'contentId', 'deviceType', 'country', 'isp', 'cdn', 'startupMs'],
    properties: {
      type: { const: 'session.start' }, ...base,
      subscriberId: uuid, contentId: uuid,
      /** Defaults to the network the viewer signed up on. */
      networkId: uuid,
      deviceId: uuid,
      deviceType: { enum: [...PLAYER_DEVICE_TYPES] },
      /** ISO 3166-1 alpha-2. */
      country: { type: 'string', pattern: '^[A-Z]{2}$' },
      isp: { type: 'string', minLength: 1, maxLength: 80 },
      cdn: { type: 'string', minLength: 1, maxLength: 80 },
      startupMs: { type: 'integer', minimum: 0, maximum: 600_000 },
      /*
       * Issue 41 (optional, so today's senders keep working): what the player reports about itself
       * and the stream (common/qoe.ts QOE_DIMENSIONS). Absent or '' is stored as '' ("not reported");
       * an absent streamType is 'vod'. The title's series and the viewer's plan are not sent: the
       * consumers fix them when the session starts.
       */
      /** Operating system, e.g. "iOS", "Android", "Windows", "Roku OS". */
      os: { type: 'string', maxLength: PLAYER_TEXT_MAX },
      /** e.g. "17.5". */
      osVersion: { type: 'string', maxLength: PLAYER_TEXT_MAX },
      /** Web players only, e.g. "Chrome" (native apps send none). */
      browser: { type: 'string', maxLength: PLAYER_TEXT_MAX },
      /** e.g. "hls.js", "AVPlayer", "ExoPlayer", QOE_CONSOLE_PLAYER. */
      playerName: { type: 'string', maxLength: PLAYER_TEXT_MAX },
      playerVersion: { type: 'string', maxLength: PLAYER_TEXT_MAX },
      /** The app's own release, e.g. "5.4.1". */
      appVersion: { type: 'string', maxLength: PLAYER_TEXT_MAX },
      /** State, province or region of `country`, e.g. "California". */
      region: { type: 'string', maxLength: PLAYER_TEXT_MAX },
      streamType: { enum: [...QOE_STREAM_TYPES] },
      /** Host name the video is fetched from, e.g. "vod.example-cdn.net". */
      sourceHost: { type: 'string', maxLength: PLAYER_HOST_MAX },
    },
  },
  heartbeat: {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'eventId', 'sessionId', 'at', 'playheadSeconds', 'watchedSeconds', 'bitrateKbps', 'rebufferCount', 'rebufferMs'],
    properties: {
      type: { const: 'heartbeat' }, ...base,
      playheadSeconds: count, watchedSeconds: count, bitrateKbps: { type: 'integer', minimum: 0, maximum: 200_000 },
      rebufferCount: count, rebufferMs: count,
    },
  },
  'session.end': {
    type: 'object',
    additionalProperties: false,
    required: ['type', 'eventId', 'sessionId', 'at', 'watchedSeconds', 'rebufferCount', 'rebufferMs'],
    properties: {
      type: { const: 'session.end' }, ...base,
      watchedSeconds: count, rebufferCount: count, rebufferMs: count,
      avgBitrateKbps: { type: 'integer', minimum: 0, maximum: 200_000 },
      errorCode: { type: 'string', minLength: 1, maxLength: 80 },
    },
  },
} as const;

/** The batch envelope (each event is checked against PLAYER_EVENT_SCHEMAS afterwards). */
export const INGEST_REQUEST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['events'],
  properties: {
    events: { type: 'array', minItems: 1, maxItems: INGEST_MAX_EVENTS, items: { type: 'object' } },
  },
} as const;

export type SessionStartEvent = FromSchema<(typeof PLAYER_EVENT_SCHEMAS)['session.start']>;
export type HeartbeatEvent = FromSchema<(typeof PLAYER_EVENT_SCHEMAS)['heartbeat']>;
export type SessionEndEvent = FromSchema<(typeof PLAYER_EVENT_SCHEMAS)['session.end']>;
export type PlayerEvent = SessionStartEvent | HeartbeatEvent | SessionEndEvent;
