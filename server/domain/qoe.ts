/**
 * The QoE pages' reads (issue 41): counts per value of a dimension (the filter picker), the sessions
 * behind a figure ("Views", paged on the server) and one view with its dimensions and timeline. The
 * range is the reports' (from/to: the site's days, in its zone; network by identifier) and the filter
 * set is `f` (common/qoe.ts), so a Views list holds exactly the sessions a QoS figure counts. Bad input
 * is refused in words naming the parameter (400); another site's session is not found (404).
 */
import {
  QOE_DIMENSIONS, QOE_MESSAGES, QOE_TIMELINE_WORDS, QOE_VALUES_LIMIT, QOE_VIEW_SORTS, QOE_VIEWS_PAGE_SIZE, isQoeDimension, parseQoeFilters,
  type QoeDimension, type QoeFilter, type QoeTimelineEntry, type QoeValuesAnswer, type QoeViewAnswer, type QoeViewRow, type QoeViewSort, type QoeViewsAnswer,
} from '../../common/qoe';
import { MAX_REPORT_RANGE_DAYS, daysBetween, presetRange } from '../../common/reports';
import { percent, ratio, round } from '../../common/playback-measures';
import { isOneOf } from '../../common/one-of';
import { siteDaySpan } from '../../common/site-day';
import type { QoeHeartbeatRow, QoeSelection, QoeSessionRow } from '../qoe-shapes';
import { invalid, notFound } from './errors';
import { isNamedDimension, qoeValueLabel } from './qoe-labels';
import { isRealDay } from './reports/params';

/** What the QoE pages read (server/db/qoe-repository.ts createQoeRepository, plus the network lookup of the reports). */
export interface QoeStore {
  siteTimeZone(siteId: string): Promise<string>;
  names(siteId: string, dimension: QoeDimension, values: readonly string[]): Promise<Map<string, string>>;
  valueCounts(selection: QoeSelection, dimension: QoeDimension, limit: number, include: readonly string[]): Promise<{ value: string; sessions: number }[]>;
  sessions(selection: QoeSelection, page: { sort: QoeViewSort; dir: 'asc' | 'desc'; offset: number; limit: number }): Promise<{ total: number; rows: QoeSessionRow[] }>;
  session(siteId: string, sessionId: string): Promise<{ row: QoeSessionRow; heartbeats: QoeHeartbeatRow[] } | null>;
  networkIdOf(siteId: string, identifier: string): Promise<string | null>;
}

type Query = Record<string, unknown>;

/** A parameter given once (repeated keys arrive as arrays): undefined when absent or empty. */
function one(query: Query, key: string): string | undefined {
  const raw = query[key];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw invalid(key, QOE_MESSAGES.repeatedParam(key));
  return raw;
}

function refuseUnknown(query: Query, known: readonly string[]): void {
  for (const key of Object.keys(query)) if (!known.includes(key)) throw invalid(key, QOE_MESSAGES.unknownParam(key));
}

/** The range, network and filter set of a QoE query, as a selection of the site's sessions started in the range. */
async function selectionOf(store: QoeStore, siteId: string, query: Query, today: string): Promise<{ selection: QoeSelection; filters: QoeFilter[] }> {
  const fallback = presetRange(30, today);
  const from = one(query, 'from') ?? fallback.from;
  const to = one(query, 'to') ?? (one(query, 'from') ? today : fallback.to);
  if (!isRealDay(from)) throw invalid('from', QOE_MESSAGES.badDay('from'));
  if (!isRealDay(to)) throw invalid('to', QOE_MESSAGES.badDay('to'));
  if (from > to) throw invalid('from', QOE_MESSAGES.reversedRange);
  if (daysBetween(from, to) > MAX_REPORT_RANGE_DAYS) throw invalid('to', QOE_MESSAGES.rangeTooLong(MAX_REPORT_RANGE_DAYS));
  const parsed = parseQoeFilters(one(query, 'f'));
  if (!parsed.ok) throw invalid('f', parsed.message);
  const network = one(query, 'network');
  let networkId: string | null = null;
  if (network !== undefined) {
    networkId = network.length > 200 ? null : await store.networkIdOf(siteId, network);
    if (!networkId) throw invalid('network', QOE_MESSAGES.unknownNetwork(network.slice(0, 200)));
  }
  const zone = await store.siteTimeZone(siteId);
  const start = siteDaySpan(from, zone);
  const end = siteDaySpan(to, zone);
  if (!start || !end) throw invalid('from', QOE_MESSAGES.badDay('from'));
  return {
    filters: parsed.filters,
    selection: { siteId, networkId, filters: parsed.filters, since: new Date(start.start), until: new Date(end.end), select: 'started' },
  };
}

const RANGE_PARAMS = ['from', 'to', 'network', 'f'] as const;

export function createQoeService(deps: { store: QoeStore }) {
  const { store } = deps;
  return {
    /**
     * Sessions per value of `dimension` in the range, under the other filters (those on this
     * dimension left out, so the picker shows what choosing a value would give): the most viewed
     * QOE_VALUES_LIMIT values, plus every value filtered on.
     */
    async values(siteId: string, query: Query, today: string): Promise<QoeValuesAnswer> {
      refuseUnknown(query, [...RANGE_PARAMS, 'dimension']);
      const dimension = one(query, 'dimension');
      if (dimension === undefined || !isQoeDimension(dimension)) throw invalid('dimension', QOE_MESSAGES.unknownDimensionParam(dimension ?? ''));
      const { selection, filters } = await selectionOf(store, siteId, query, today);
      const own = filters.filter((f) => f.dimension === dimension);
      const include = [...new Set(own.flatMap((f) => f.values))];
      const counts = await store.valueCounts({ ...selection, filters: filters.filter((f) => f.dimension !== dimension) }, dimension, QOE_VALUES_LIMIT, include);
      const names = isNamedDimension(dimension) ? await store.names(siteId, dimension, counts.map((c) => c.value)) : new Map<string, string>();
      return { success: true, dimension, values: counts.map((c) => ({ value: c.value, label: qoeValueLabel(dimension, c.value, names), sessions: c.sessions })) };
    },

    /** The sessions a QoS figure of the same range, network and filters counts, one page of QOE_VIEWS_PAGE_SIZE. */
    async views(siteId: string, query: Query, today: string): Promise<QoeViewsAnswer> {
      refuseUnknown(query, [...RANGE_PARAMS, 'page', 'sort', 'dir']);
      const pageText = one(query, 'page') ?? '1';
      if (!/^\d{1,6}$/.test(pageText) || Number(pageText) < 1) throw invalid('page', QOE_MESSAGES.badPage);
      const sort = one(query, 'sort') ?? 'startedAt';
      if (!isOneOf(QOE_VIEW_SORTS, sort)) throw invalid('sort', QOE_MESSAGES.badSort);
      const dir = one(query, 'dir') ?? 'desc';
      if (dir !== 'asc' && dir !== 'desc') throw invalid('dir', QOE_MESSAGES.badDir);
      const { selection } = await selectionOf(store, siteId, query, today);
      const page = Number(pageText);
      const { total, rows } = await store.sessions(selection, { sort, dir, offset: (page - 1) * QOE_VIEWS_PAGE_SIZE, limit: QOE_VIEWS_PAGE_SIZE });
      const titles = await store.names(siteId, 'title', rows.map((r) => r.contentId));
      return { success: true, total, page, pageSize: QOE_VIEWS_PAGE_SIZE, rows: rows.map((r) => viewRowOf(r, titles)) };
    },

    /** One view: its row, every dimension with its label, and its timeline. */
    async view(siteId: string, sessionId: string): Promise<QoeViewAnswer> {
      const found = await store.session(siteId, sessionId);
      if (!found) throw notFound(QOE_MESSAGES.viewNotFound);
      const { row, heartbeats } = found;
      const dimensions = await Promise.all(QOE_DIMENSIONS.map(async (d) => {
        const value = row.dims[d.key];
        const names = isNamedDimension(d.key) && value !== '' ? await store.names(siteId, d.key, [value]) : new Map<string, string>();
        return { dimension: d.key, value, label: qoeValueLabel(d.key, value, names) };
      }));
      const titles = new Map(row.title === null ? [] : [[row.contentId, row.title]]);
      return { success: true, view: { ...viewRowOf(row, titles), dimensions }, timeline: timelineOf(row, heartbeats) };
    },
  };
}
export type QoeService = ReturnType<typeof createQoeService>;

/** The Views row of a session (rebufferPct: this session's rebuffer ratio, as the rebufferPct figure counts it). */
export function viewRowOf(r: QoeSessionRow, titles: ReadonlyMap<string, string>): QoeViewRow {
  return {
    sessionId: r.sessionId, startedAt: r.startedAt, endedAt: r.endedAt, subscriberId: r.subscriberId,
    viewer: r.viewerEmail ?? r.viewerName ?? '', contentId: r.contentId, contentType: r.contentType ?? '',
    title: qoeValueLabel('title', r.contentId, titles),
    device: r.dims.device, os: r.dims.os, player: r.dims.player, country: r.dims.country, isp: r.dims.isp, cdn: r.dims.cdn,
    watchedSeconds: r.watchedSeconds, startupMs: r.startupMs, rebufferCount: r.rebufferCount,
    rebufferPct: round(percent(ratio(r.rebufferSeconds, r.watchedSeconds + r.rebufferSeconds)), 2) ?? 0,
    bitrateKbps: r.avgBitrateKbps > 0 ? r.avgBitrateKbps : null, errorCode: r.errorCode,
  };
}

/**
 * A view's timeline from the session and its stored heartbeats (cumulative counters): the start with
 * its startup time, each bitrate change, each rebuffer (a heartbeat whose rebuffer count or time went
 * up), the error, and the end (or the last event of a session not ended).
 */
export function timelineOf(row: QoeSessionRow, heartbeats: readonly QoeHeartbeatRow[]): QoeTimelineEntry[] {
  const out: QoeTimelineEntry[] = [{
    at: row.startedAt, kind: 'start', playheadSeconds: 0,
    text: row.startupMs > 0 ? QOE_TIMELINE_WORDS.start(row.startupMs) : QOE_TIMELINE_WORDS.startNoFrame,
  }];
  let bitrate: number | null = null;
  let rebufferCount = 0;
  let rebufferMs = 0;
  for (const hb of heartbeats) {
    if (hb.bitrateKbps > 0 && hb.bitrateKbps !== bitrate) {
      out.push({ at: hb.at, kind: 'bitrate', playheadSeconds: hb.playheadSeconds,
        text: bitrate === null ? QOE_TIMELINE_WORDS.firstBitrate(hb.bitrateKbps) : QOE_TIMELINE_WORDS.bitrate(bitrate, hb.bitrateKbps) });
      bitrate = hb.bitrateKbps;
    }
    if (hb.rebufferCount > rebufferCount || hb.rebufferMs > rebufferMs) {
      out.push({ at: hb.at, kind: 'rebuffer', playheadSeconds: hb.playheadSeconds,
        text: QOE_TIMELINE_WORDS.rebuffer(Math.max(hb.rebufferCount - rebufferCount, 1), Math.max(hb.rebufferMs - rebufferMs, 0) / 1000) });
    }
    rebufferCount = Math.max(rebufferCount, hb.rebufferCount);
    rebufferMs = Math.max(rebufferMs, hb.rebufferMs);
  }
  const last = row.endedAt ?? row.lastEventAt;
  if (row.errorCode !== null) out.push({ at: last, kind: 'error', playheadSeconds: null, text: QOE_TIMELINE_WORDS.error(row.errorCode) });
  out.push(row.endedAt !== null
    ? { at: row.endedAt, kind: 'end', playheadSeconds: null, text: QOE_TIMELINE_WORDS.end(row.watchedSeconds) }
    : { at: row.lastEventAt, kind: 'heartbeat', playheadSeconds: null, text: QOE_TIMELINE_WORDS.lastSeen(row.watchedSeconds) });
  // In time order; at one instant the start first and the end last (a stable sort keeps the rest as pushed).
  return out.map((e, i) => ({ e, i })).sort((a, b) => (a.e.at < b.e.at ? -1 : a.e.at > b.e.at ? 1 : a.i - b.i)).map((x) => x.e);
}

