/**
 * Dashboard 360 as a QoE tool (issue 41): the dimensions every playback session carries, the filter
 * set every QoE page and API takes (several values per dimension, include or exclude, all in the
 * URL), the metrics in one list, and the shapes of the views (sessions behind a figure), alerts and
 * saved views APIs. Browser, machines and server all read this module; nothing here touches I/O.
 *
 *   GET /appcms/v2/reports/qos?...&f=<filters>&by=<dimension>   the QoS report, any filter, any breakdown
 *   GET /appcms/v2/qoe/values?dimension=&from&to&network&f=        counts per value (the picker)
 *   GET /appcms/v2/qoe/views?from&to&network&f=&page=&sort=&dir=   the sessions behind a figure
 *   GET /appcms/v2/qoe/views/:sessionId                             one view: dimensions and timeline
 *   /appcms/v2/qoe/alert-rules[/:id], /appcms/v2/qoe/incidents[/count], /appcms/v2/qoe/alert-settings
 *   /appcms/v2/qoe/saved-views[/:id]
 */
import { isOneOf } from './one-of';

export const QOE_PATH = '/appcms/v2/qoe';
export const QOE_VALUES_PATH = `${QOE_PATH}/values`;
export const QOE_VIEWS_PATH = `${QOE_PATH}/views`;
export const QOE_ALERT_RULES_PATH = `${QOE_PATH}/alert-rules`;
export const QOE_INCIDENTS_PATH = `${QOE_PATH}/incidents`;
export const QOE_INCIDENT_COUNT_PATH = `${QOE_PATH}/incidents/count`;
export const QOE_ALERT_SETTINGS_PATH = `${QOE_PATH}/alert-settings`;
export const QOE_SAVED_VIEWS_PATH = `${QOE_PATH}/saved-views`;

/* ------------------------------------------------------------------------------------------------
 * Dimensions
 * ---------------------------------------------------------------------------------------------- */

/**
 * Every dimension a playback session is recorded with (migration 0040 adds the columns the player
 * events did not carry before). `column` is the playback_sessions column (the server's SQL reads
 * only these names); `title` and `series` are the content item and its series; `plan` the plan the
 * viewer's subscription had when the session started. A value the player did not report is stored
 * as '' and shown as QOE_NOT_REPORTED.
 */
export const QOE_DIMENSIONS = [
  { key: 'device', label: 'Device type', column: 'device_type' },
  { key: 'os', label: 'Operating system', column: 'os' },
  { key: 'osVersion', label: 'OS version', column: 'os_version' },
  { key: 'browser', label: 'Browser', column: 'browser' },
  { key: 'player', label: 'Player', column: 'player_name' },
  { key: 'playerVersion', label: 'Player version', column: 'player_version' },
  { key: 'appVersion', label: 'App version', column: 'app_version' },
  { key: 'country', label: 'Country', column: 'country' },
  { key: 'region', label: 'Region', column: 'region' },
  { key: 'isp', label: 'ISP', column: 'isp' },
  { key: 'cdn', label: 'CDN', column: 'cdn' },
  { key: 'title', label: 'Title', column: 'content_id' },
  { key: 'series', label: 'Series', column: 'series_id' },
  { key: 'streamType', label: 'Stream type', column: 'stream_type' },
  { key: 'sourceHost', label: 'Video source host', column: 'source_host' },
  { key: 'plan', label: 'Plan', column: 'plan_id' },
  { key: 'network', label: 'Network', column: 'network_id' },
] as const;
export type QoeDimension = (typeof QOE_DIMENSIONS)[number]['key'];
export const QOE_DIMENSION_KEYS: readonly QoeDimension[] = QOE_DIMENSIONS.map((d) => d.key);
export function isQoeDimension(value: unknown): value is QoeDimension {
  return isOneOf(QOE_DIMENSION_KEYS, value);
}
export function qoeDimensionLabel(key: QoeDimension): string {
  return QOE_DIMENSIONS.find((d) => d.key === key)?.label ?? key;
}

/** Stream types a player reports (session.start `streamType`). */
export const QOE_STREAM_TYPES = ['vod', 'live'] as const;
export type QoeStreamType = (typeof QOE_STREAM_TYPES)[number];

/** How a value the player did not report reads (its stored value is ''). */
export const QOE_NOT_REPORTED = 'Not reported';
/** The console's own preview player's name (issue 40): previews are filterable as this player. */
export const QOE_CONSOLE_PLAYER = 'CMS Tools preview';

/* ------------------------------------------------------------------------------------------------
 * Filters: `f` in the URL and on the wire
 * ---------------------------------------------------------------------------------------------- */

export interface QoeFilter {
  dimension: QoeDimension;
  /** true: sessions whose value is NOT one of `values`. */
  exclude: boolean;
  /** One or more values (OR); '' is "not reported". */
  values: string[];
}

export const QOE_MAX_FILTERS = 10;
export const QOE_MAX_FILTER_VALUES = 25;
export const QOE_MAX_VALUE_LENGTH = 200;

/**
 * The URL form of a filter set, `f=device:web,ios;!isp:Slow%20Net`: filters joined by ';', each
 * `[!]dimension:value,value`, values percent-encoded (so ',', ';', ':' and '!' inside a value are
 * safe). One filter per dimension and include/exclude side; the order is kept as given.
 */
export function formatQoeFilters(filters: readonly QoeFilter[]): string {
  return filters
    .filter((f) => f.values.length > 0)
    .map((f) => `${f.exclude ? '!' : ''}${f.dimension}:${f.values.map(encodeURIComponent).join(',')}`)
    .join(';');
}

export type QoeFiltersParse = { ok: true; filters: QoeFilter[] } | { ok: false; message: string };

/** Reads `f`; a bad part is refused with words that name it (the server answers 400 with them). */
export function parseQoeFilters(raw: string | undefined | null): QoeFiltersParse {
  if (raw === undefined || raw === null || raw.trim() === '') return { ok: true, filters: [] };
  const parts = raw.split(';').filter((p) => p !== '');
  if (parts.length > QOE_MAX_FILTERS) return { ok: false, message: QOE_MESSAGES.tooManyFilters };
  const filters: QoeFilter[] = [];
  for (const part of parts) {
    const exclude = part.startsWith('!');
    const body = exclude ? part.slice(1) : part;
    const colon = body.indexOf(':');
    const dimension = colon < 0 ? body : body.slice(0, colon);
    if (!isQoeDimension(dimension)) return { ok: false, message: QOE_MESSAGES.unknownDimension(dimension) };
    if (filters.some((f) => f.dimension === dimension && f.exclude === exclude)) {
      return { ok: false, message: QOE_MESSAGES.repeatedDimension(qoeDimensionLabel(dimension)) };
    }
    const encoded = colon < 0 ? [] : body.slice(colon + 1).split(',');
    const values: string[] = [];
    for (const e of encoded) {
      let value: string;
      try {
        value = decodeURIComponent(e);
      } catch {
        return { ok: false, message: QOE_MESSAGES.badValue(qoeDimensionLabel(dimension)) };
      }
      if (value.length > QOE_MAX_VALUE_LENGTH) return { ok: false, message: QOE_MESSAGES.valueTooLong(qoeDimensionLabel(dimension)) };
      if (!values.includes(value)) values.push(value);
    }
    if (values.length === 0) return { ok: false, message: QOE_MESSAGES.noValues(qoeDimensionLabel(dimension)) };
    if (values.length > QOE_MAX_FILTER_VALUES) return { ok: false, message: QOE_MESSAGES.tooManyValues(qoeDimensionLabel(dimension)) };
    filters.push({ dimension, exclude, values });
  }
  return { ok: true, filters };
}

/* ------------------------------------------------------------------------------------------------
 * Metrics: one list (pages, tooltips, CSV headers, alerts)
 * ---------------------------------------------------------------------------------------------- */

export type QoeUnit = 'count' | 'ms' | 'percent' | 'kbps' | 'hours' | 'per-hour';
export type QoeDirection = 'higher-is-better' | 'lower-is-better' | 'neutral';

export interface QoeMetric {
  key: string;
  /** The words of common/figures.ts FIGURES[figure] are its label and definition. */
  figure: string;
  unit: QoeUnit;
  direction: QoeDirection;
  /** Whether an alert rule may watch it. */
  alertable: boolean;
}

/**
 * The QoE metrics, each the figure of the same key in common/figures.ts (its label and definition
 * in operator words; the QoS report's columns use the same keys). Views are playback sessions
 * started in the range.
 */
export const QOE_METRICS = [
  { key: 'sessions', figure: 'sessions', unit: 'count', direction: 'neutral', alertable: false },
  { key: 'viewers', figure: 'qoeViewers', unit: 'count', direction: 'neutral', alertable: false },
  { key: 'watchHours', figure: 'watchHours', unit: 'hours', direction: 'higher-is-better', alertable: false },
  { key: 'startupP50Ms', figure: 'startupP50Ms', unit: 'ms', direction: 'lower-is-better', alertable: true },
  { key: 'startupP95Ms', figure: 'startupP95Ms', unit: 'ms', direction: 'lower-is-better', alertable: true },
  { key: 'rebufferPct', figure: 'rebufferPct', unit: 'percent', direction: 'lower-is-better', alertable: true },
  { key: 'rebufferP95Pct', figure: 'rebufferP95Pct', unit: 'percent', direction: 'lower-is-better', alertable: true },
  { key: 'errorPct', figure: 'errorPct', unit: 'percent', direction: 'lower-is-better', alertable: true },
  { key: 'bitrateKbps', figure: 'bitrateKbps', unit: 'kbps', direction: 'higher-is-better', alertable: true },
] as const satisfies readonly QoeMetric[];
export type QoeMetricKey = (typeof QOE_METRICS)[number]['key'];
export const QOE_METRIC_KEYS: readonly QoeMetricKey[] = QOE_METRICS.map((m) => m.key);
export function isQoeMetricKey(value: unknown): value is QoeMetricKey {
  return isOneOf(QOE_METRIC_KEYS, value);
}
export const QOE_ALERTABLE_METRICS: readonly QoeMetricKey[] = QOE_METRICS.filter((m) => m.alertable).map((m) => m.key);

/* ------------------------------------------------------------------------------------------------
 * Values (the picker), views and one view
 * ---------------------------------------------------------------------------------------------- */

/** Common query of the QoE APIs: the range and network of the reports (YYYY-MM-DD, site days) plus `f`. */
export interface QoeQuery {
  from?: string;
  to?: string;
  network?: string;
  f?: string;
}

/** Values offered per dimension in the picker (the most viewed in the range, plus any filtered on). */
export const QOE_VALUES_LIMIT = 100;

export interface QoeValue {
  /** '' is "not reported". */
  value: string;
  /** What the operator reads: the title's name, the plan's name, the country's code, QOE_NOT_REPORTED… */
  label: string;
  /** Sessions with this value in the range under the other filters (the filters on this dimension left out). */
  sessions: number;
}

export interface QoeValuesAnswer {
  success: true;
  dimension: QoeDimension;
  values: QoeValue[];
}

export const QOE_VIEWS_PAGE_SIZE = 50;
export const QOE_VIEW_SORTS = ['startedAt', 'startupMs', 'rebufferPct', 'watchedSeconds', 'bitrateKbps'] as const;
export type QoeViewSort = (typeof QOE_VIEW_SORTS)[number];

/** One playback session in the Views list. */
export interface QoeViewRow {
  sessionId: string;
  startedAt: string;
  endedAt: string | null;
  subscriberId: string;
  /** The viewer's e-mail or name as Customer Support shows it. */
  viewer: string;
  contentId: string;
  contentType: string;
  title: string;
  device: string;
  os: string;
  player: string;
  country: string;
  isp: string;
  cdn: string;
  watchedSeconds: number;
  startupMs: number;
  rebufferCount: number;
  /** rebuffer ÷ (watched + rebuffer) seconds × 100 (the rebufferPct figure of this one session). */
  rebufferPct: number;
  bitrateKbps: number | null;
  errorCode: string | null;
}

export interface QoeViewsAnswer {
  success: true;
  total: number;
  page: number;
  pageSize: number;
  rows: QoeViewRow[];
}

export type QoeTimelineKind = 'start' | 'bitrate' | 'rebuffer' | 'heartbeat' | 'error' | 'end';

export interface QoeTimelineEntry {
  at: string;
  kind: QoeTimelineKind;
  /** Seconds into the video when known (heartbeats). */
  playheadSeconds: number | null;
  /** What happened, in operator words ("Started after 1,240 ms", "Bitrate 2,400 → 1,100 kbps", "Rebuffered 3 s"). */
  text: string;
}

export interface QoeViewAnswer {
  success: true;
  view: QoeViewRow & {
    /** Every dimension of the session with its readable value. */
    dimensions: { dimension: QoeDimension; value: string; label: string }[];
  };
  timeline: QoeTimelineEntry[];
}

/* ------------------------------------------------------------------------------------------------
 * Alerts
 * ---------------------------------------------------------------------------------------------- */

export const QOE_ALERT_COMPARISONS = ['above', 'below'] as const;
export type QoeAlertComparison = (typeof QOE_ALERT_COMPARISONS)[number];
/** How long a metric must stay past its threshold before an incident opens (minutes). */
export const QOE_ALERT_DURATIONS = [1, 5, 10, 15, 30, 60] as const;
/** Sessions the window must hold before a rule is judged (a handful of views decides nothing). */
export const QOE_ALERT_MIN_SESSIONS = 10;

export interface QoeAlertRuleInput {
  name: string;
  metric: QoeMetricKey;
  comparison: QoeAlertComparison;
  threshold: number;
  durationMinutes: (typeof QOE_ALERT_DURATIONS)[number];
  /** The filter set (URL form parsed), network included as a `network` filter when wanted. */
  filters: QoeFilter[];
  enabled: boolean;
}

export interface QoeAlertRule extends QoeAlertRuleInput {
  id: string;
  version: number;
  createdAt: string;
  updatedAt: string;
  /** Set while the metric is past the threshold (before or during an incident). */
  breachingSince: string | null;
  lastValue: number | null;
  lastEvaluatedAt: string | null;
}

export const QOE_INCIDENT_STATES = ['open', 'resolved'] as const;
export type QoeIncidentState = (typeof QOE_INCIDENT_STATES)[number];

export interface QoeIncident {
  id: string;
  ruleId: string;
  ruleName: string;
  metric: QoeMetricKey;
  comparison: QoeAlertComparison;
  threshold: number;
  filters: QoeFilter[];
  state: QoeIncidentState;
  startedAt: string;
  resolvedAt: string | null;
  /** The worst value seen while open. */
  peakValue: number;
  lastValue: number;
  /** The filtered report for the incident's time, e.g. /analytics/qos-overall?f=…&from=…&to=… */
  reportPath: string;
}

export interface QoeAlertSettings {
  /** Where opened/resolved incidents are POSTed (signed), or null. */
  webhookUrl: string | null;
  /** Addresses the e-mail outbox writes to. */
  emails: string[];
}

/** Header of a webhook delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the site's secret>`. */
export const QOE_WEBHOOK_SIGNATURE_HEADER = 'x-cms-signature';

/* ------------------------------------------------------------------------------------------------
 * Saved views
 * ---------------------------------------------------------------------------------------------- */

export interface QoeSavedViewInput {
  name: string;
  /** The Dashboard 360 page it opens (e.g. /analytics/qos-overall). */
  path: string;
  /** The page's search params (range, filters `f`, breakdown `by`, sort), as the URL has them. */
  search: Record<string, string>;
  /** Shared with everyone on the site who reads Dashboard 360; else only its owner sees it. */
  shared: boolean;
}

export interface QoeSavedView extends QoeSavedViewInput {
  id: string;
  ownerId: string;
  ownerName: string;
  /** Whether the caller may rename, share or delete it (its owner, with Dashboard 360 write). */
  mine: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/* ------------------------------------------------------------------------------------------------
 * Alerts and saved views: requests and answers (qoe-alerts, server/http/qoe-alert-routes.ts)
 * ---------------------------------------------------------------------------------------------- */

/** A rule's or a saved view's name: 1 to this many characters. */
export const QOE_ALERT_NAME_MAX = 120;
/**
 * The longest window a rule is judged over: sessions with an event in the rule's last durationMinutes,
 * at most this many (select 'active'; server/domain/qoe-alert-evaluator.ts qoeAlertWindowMinutes).
 */
export const QOE_ALERT_WINDOW_MINUTES = 5;
/** POST { version }: a new webhook signing secret for the site (Dashboard 360 write), answered once. */
export const QOE_ALERT_SECRET_PATH = `${QOE_PATH}/alert-settings/secret`;
/** At most this many e-mail addresses per site. */
export const QOE_ALERT_EMAILS_MAX = 20;
export const QOE_INCIDENTS_PAGE_SIZE = 20;
/** Why an incident closed: its metric came back (or too few sessions were left to judge), or its rule was turned off, changed or deleted. */
export const QOE_INCIDENT_RESOLUTIONS = ['recovered', 'disabled', 'changed', 'deleted'] as const;
export type QoeIncidentResolution = (typeof QOE_INCIDENT_RESOLUTIONS)[number];

/** POST (no version) / PUT (version required) of a rule: `filters` in the URL form (`f`) or as a list. */
export interface QoeAlertRuleRequest extends Omit<QoeAlertRuleInput, 'filters' | 'enabled' | 'durationMinutes'> {
  durationMinutes: number;
  filters: string | QoeFilter[];
  enabled?: boolean;
  version?: number;
}

export interface QoeAlertRulesAnswer {
  success: true;
  rules: QoeAlertRule[];
  /** Whether the caller may create, change and delete rules (Dashboard 360 write). */
  canEdit: boolean;
}

export interface QoeAlertRuleAnswer {
  success: true;
  rule: QoeAlertRule;
}

/** GET incidents: `state=open|resolved|all` (default all: open first), `page` from 1. */
export interface QoeIncidentsAnswer {
  success: true;
  incidents: (QoeIncident & { resolvedReason: QoeIncidentResolution | null })[];
  total: number;
  page: number;
  pageSize: number;
}

export interface QoeIncidentCountAnswer {
  success: true;
  open: number;
}

export interface QoeAlertSettingsRequest extends QoeAlertSettings {
  /** The settings' version as read (0 before the first save). */
  version: number;
}

export interface QoeAlertSettingsAnswer {
  success: true;
  settings: QoeAlertSettings & {
    version: number;
    /**
     * The site's webhook signing secret, shown once: only in the answer of the save that made it (the
     * first) and of a rotation (QOE_ALERT_SECRET_PATH); null otherwise and always for readers.
     */
    webhookSecret: string | null;
    /** Which secret is in use (8 hex of its SHA-256, never the secret): Dashboard 360 editors only, null before the first save. */
    secretFingerprint: string | null;
  };
  canEdit: boolean;
}

/** POST / PUT (version required) of a saved view. */
export interface QoeSavedViewRequest extends QoeSavedViewInput {
  version?: number;
}

export interface QoeSavedViewsAnswer {
  success: true;
  views: QoeSavedView[];
}

export interface QoeSavedViewAnswer {
  success: true;
  view: QoeSavedView;
}

/** What a webhook receives (JSON, signed): the event and the incident as the incidents list shows it. */
export interface QoeWebhookPayload {
  event: 'incident.opened' | 'incident.resolved';
  site: string;
  incident: QoeIncident & { resolvedReason: QoeIncidentResolution | null };
}

/* ------------------------------------------------------------------------------------------------
 * Words
 * ---------------------------------------------------------------------------------------------- */

export const QOE_MESSAGES = {
  tooManyFilters: `At most ${QOE_MAX_FILTERS} filters can be applied at once: remove one to add another.`,
  unknownDimension: (name: string) => `"${name}" is not something sessions can be filtered by.`,
  repeatedDimension: (label: string) => `${label} is filtered twice the same way: keep one filter per dimension.`,
  badValue: (label: string) => `A value of the ${label} filter is not readable: pick it again from the list.`,
  valueTooLong: (label: string) => `A value of the ${label} filter is longer than ${QOE_MAX_VALUE_LENGTH} characters.`,
  noValues: (label: string) => `The ${label} filter has no value: pick at least one.`,
  tooManyValues: (label: string) => `The ${label} filter has more than ${QOE_MAX_FILTER_VALUES} values: pick fewer.`,
  include: 'is',
  exclude: 'is not',
  // Additions of qoe-query (the engine and its routes).
  removedTitle: 'Removed title',
  removedPlan: 'Removed plan',
  removedNetwork: 'Removed network',
  /** A report that does not take `f`. */
  noSessionFilters: (report: string) => `${report} counts subscribers and payments, not playback sessions: session filters apply to playback reports only.`,
  unknownDimensionParam: (name: string) => `"${name}" is not a dimension sessions are recorded with: pick one from the list.`,
  badDay: (param: string) => `${param}: must be a day as YYYY-MM-DD.`,
  reversedRange: 'from: must not be after to.',
  rangeTooLong: (days: number) => `to: the range may span at most ${days} days.`,
  unknownNetwork: (identifier: string) => `network: no network ${identifier} on this site.`,
  badPage: 'page: must be a whole number from 1.',
  badSort: `sort: must be one of ${QOE_VIEW_SORTS.join(', ')}.`,
  badDir: 'dir: must be asc or desc.',
  unknownParam: (name: string) => `${name}: unknown parameter.`,
  repeatedParam: (name: string) => `${name}: give it once.`,
  viewNotFound: 'This view is not one of this site\'s playback sessions: it may belong to another site or be older than the history kept.',
} as const;

/** The words of one view's timeline (QoeTimelineEntry.text). */
export const QOE_TIMELINE_WORDS = {
  start: (startupMs: number) => `Started after ${startupMs.toLocaleString('en-US')} ms`,
  startNoFrame: 'Started (no first frame reported)',
  bitrate: (from: number, to: number) => `Bitrate ${from.toLocaleString('en-US')} → ${to.toLocaleString('en-US')} kbps`,
  firstBitrate: (kbps: number) => `Bitrate ${kbps.toLocaleString('en-US')} kbps`,
  rebuffer: (count: number, seconds: number) =>
    `Rebuffered${count > 1 ? ` ${count} times` : ''} (${seconds.toLocaleString('en-US', { maximumFractionDigits: 1 })} s)`,
  error: (code: string) => `Error ${code}`,
  end: (watchedSeconds: number) => `Ended after ${watchedSeconds.toLocaleString('en-US')} s watched`,
  lastSeen: (watchedSeconds: number) => `Last event (not ended) after ${watchedSeconds.toLocaleString('en-US')} s watched`,
} as const;
