/**
 * Writes a batch of player events (POST /v1/events) in one transaction of set-based statements:
 * claim the event ids (the idempotency record), check what the events refer to, insert session
 * starts and heartbeats, apply heartbeats and ends to their sessions, and fold the touched days
 * into the playback rollups. A batch with any refused event rolls back whole: nothing is written.
 */
import { sql } from 'drizzle-orm';
import type { HeartbeatEvent, IngestEventError, IngestRoster, PlayerEvent, SessionEndEvent, SessionStartEvent } from '../../common/ingest-contract';
import type { Db } from './client';
import { foldPlaybackDays } from './rollups';
import { hashIngestionKey, queryRows } from './seed-world';

/** The site of an active ingestion key, or null. */
export async function siteOfIngestionKey(db: Db, key: string): Promise<string | null> {
  const [row] = await queryRows<{ site_id: string }>(db, sql`
    SELECT site_id FROM ingestion_keys WHERE key_hash = ${hashIngestionKey(key)} AND revoked_at IS NULL LIMIT 1`);
  return row?.site_id ?? null;
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
  /** Non-empty: the batch was refused and rolled back. */
  errors: IngestEventError[];
}

class BatchRefused extends Error {
  constructor(readonly errors: IngestEventError[]) {
    super('batch refused');
  }
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::json`;

/** `events` must already be schema-valid; error indexes are positions in `events`. */
export async function ingestBatch(db: Db, siteId: string, events: PlayerEvent[], options: { now?: Date; maxAgeDays: number; maxFutureMs: number }): Promise<IngestResult> {
  const now = (options.now ?? new Date()).getTime();
  // Repeats inside the batch: the first occurrence counts, the others are duplicates.
  const firstIndex = new Map<string, number>();
  events.forEach((e, i) => { if (!firstIndex.has(e.eventId)) firstIndex.set(e.eventId, i); });
  const unique = events.map((e, index) => ({ e, index })).filter(({ e, index }) => firstIndex.get(e.eventId) === index);

  try {
    return await db.transaction(async (tx) => {
      const claimed = await queryRows<{ event_id: string }>(tx, sql`
        INSERT INTO ingested_events (site_id, event_id)
        SELECT ${siteId}::uuid, value FROM json_array_elements_text(${json(unique.map(({ e }) => e.eventId))})
        ON CONFLICT (site_id, event_id) DO NOTHING
        RETURNING event_id`);
      const fresh = new Set(claimed.map((r) => r.event_id));
      const todo = unique.filter(({ e }) => fresh.has(e.eventId));
      const duplicates = events.length - todo.length;
      if (todo.length === 0) return { accepted: 0, duplicates, errors: [] };

      const starts = todo.filter((t): t is { e: SessionStartEvent; index: number } => t.e.type === 'session.start');
      const updates = todo.filter((t): t is { e: HeartbeatEvent | SessionEndEvent; index: number } => t.e.type !== 'session.start');
      const errors: IngestEventError[] = [];
      const refuse = (index: number, eventId: string, message: string) => errors.push({ index, eventId, message });

      // What the events refer to must exist on this site (other sites' rows are invisible).
      const ids = (values: (string | undefined)[]) => json([...new Set(values.filter((v): v is string => Boolean(v)).map((v) => v.toLowerCase()))]);
      const subscriberRows = starts.length === 0 ? [] : await queryRows<{ id: string }>(tx, sql`
        SELECT id FROM subscribers WHERE site_id = ${siteId}::uuid AND id IN (SELECT value::uuid FROM json_array_elements_text(${ids(starts.map(({ e }) => e.subscriberId))}))`);
      const contentRows = starts.length === 0 ? [] : await queryRows<{ id: string }>(tx, sql`
        SELECT id FROM content_items WHERE site_id = ${siteId}::uuid AND id IN (SELECT value::uuid FROM json_array_elements_text(${ids(starts.map(({ e }) => e.contentId))}))`);
      const networkRows = starts.every(({ e }) => !e.networkId) ? [] : await queryRows<{ id: string }>(tx, sql`
        SELECT id FROM networks WHERE site_id = ${siteId}::uuid AND id IN (SELECT value::uuid FROM json_array_elements_text(${ids(starts.map(({ e }) => e.networkId))}))`);
      const sessionRows = await queryRows<{ id: string; site_id: string }>(tx, sql`
        SELECT id, site_id FROM playback_sessions WHERE id IN (SELECT value::uuid FROM json_array_elements_text(${ids(todo.map(({ e }) => e.sessionId))}))`);
      const subscribersFound = new Set(subscriberRows.map((r) => r.id));
      const contentFound = new Set(contentRows.map((r) => r.id));
      const networksFound = new Set(networkRows.map((r) => r.id));
      const sessionSite = new Map(sessionRows.map((r) => [r.id, r.site_id]));
      const startedHere = new Set(starts.map(({ e }) => e.sessionId.toLowerCase()));

      for (const { e, index } of todo) {
        const at = Date.parse(e.at);
        if (at > now + options.maxFutureMs) refuse(index, e.eventId, `events[${index}].at is in the future (${e.at}).`);
        else if (at < now - options.maxAgeDays * 86_400_000) refuse(index, e.eventId, `events[${index}].at is older than ${options.maxAgeDays} days (${e.at}).`);
        const session = e.sessionId.toLowerCase();
        const owner = sessionSite.get(session);
        if (e.type === 'session.start') {
          if (!subscribersFound.has(e.subscriberId.toLowerCase())) refuse(index, e.eventId, `events[${index}].subscriberId ${e.subscriberId} is not a subscriber of this site.`);
          if (!contentFound.has(e.contentId.toLowerCase())) refuse(index, e.eventId, `events[${index}].contentId ${e.contentId} is not a content item of this site.`);
          if (e.networkId && !networksFound.has(e.networkId.toLowerCase())) refuse(index, e.eventId, `events[${index}].networkId ${e.networkId} is not a network of this site.`);
          if (owner && owner !== siteId) refuse(index, e.eventId, `events[${index}].sessionId ${e.sessionId} is already used.`);
        } else if (owner !== siteId && !startedHere.has(session)) {
          refuse(index, e.eventId, `events[${index}].sessionId ${e.sessionId} has no session.start on this site.`);
        }
      }
      if (errors.length > 0) throw new BatchRefused(errors);

      if (starts.length > 0) {
        await tx.execute(sql`
          INSERT INTO playback_sessions (id, site_id, network_id, subscriber_id, content_id, device_id, device_type, country, isp, cdn,
            started_at, last_event_at, startup_ms, plan_id)
          SELECT x.session_id::uuid, ${siteId}::uuid, coalesce(x.network_id::uuid, s.network_id), s.id, x.content_id::uuid, x.device_id::uuid,
            x.device_type, x.country, x.isp, x.cdn, x.at::timestamptz, x.at::timestamptz, x.startup_ms,
            (SELECT sub.plan_id FROM subscriptions sub WHERE sub.subscriber_id = s.id AND sub.started_at <= x.at::timestamptz
              ORDER BY sub.started_at DESC LIMIT 1)
          FROM json_to_recordset(${json(starts.map(({ e }) => ({
            session_id: e.sessionId, subscriber_id: e.subscriberId, content_id: e.contentId, network_id: e.networkId ?? null,
            device_id: e.deviceId ?? null, device_type: e.deviceType, country: e.country, isp: e.isp, cdn: e.cdn, at: e.at, startup_ms: e.startupMs,
          })))}) AS x(session_id text, subscriber_id text, content_id text, network_id text, device_id text, device_type text,
            country text, isp text, cdn text, at text, startup_ms integer)
          JOIN subscribers s ON s.id = x.subscriber_id::uuid AND s.site_id = ${siteId}::uuid
          ON CONFLICT (id) DO NOTHING`);
      }
      const heartbeats = updates.filter((t): t is { e: HeartbeatEvent; index: number } => t.e.type === 'heartbeat');
      if (heartbeats.length > 0) {
        await tx.execute(sql`
          INSERT INTO player_heartbeats (site_id, event_id, session_id, at, playhead_seconds, watched_seconds, bitrate_kbps, rebuffer_count, rebuffer_ms)
          SELECT ${siteId}::uuid, x.event_id, x.session_id::uuid, x.at::timestamptz, x.playhead, x.watched, x.bitrate, x.rebuffer_count, x.rebuffer_ms
          FROM json_to_recordset(${json(heartbeats.map(({ e }) => ({
            event_id: e.eventId, session_id: e.sessionId, at: e.at, playhead: e.playheadSeconds, watched: e.watchedSeconds,
            bitrate: e.bitrateKbps, rebuffer_count: e.rebufferCount, rebuffer_ms: e.rebufferMs,
          })))}) AS x(event_id text, session_id text, at text, playhead integer, watched integer, bitrate integer, rebuffer_count integer, rebuffer_ms integer)
          ON CONFLICT (site_id, event_id) DO NOTHING`);
      }
      if (updates.length > 0) {
        // Counters are cumulative: a session keeps the largest value seen, whatever the order of arrival.
        await tx.execute(sql`
          UPDATE playback_sessions p SET
            watched_seconds = greatest(p.watched_seconds, u.watched),
            rebuffer_count = greatest(p.rebuffer_count, u.rebuffer_count),
            rebuffer_seconds = greatest(p.rebuffer_seconds, u.rebuffer_ms / 1000),
            last_event_at = greatest(p.last_event_at, u.last_at),
            ended_at = coalesce(p.ended_at, u.ended_at),
            error_code = coalesce(p.error_code, u.error_code),
            avg_bitrate_kbps = coalesce(u.avg_bitrate,
              (SELECT round(avg(h.bitrate_kbps))::int FROM player_heartbeats h WHERE h.session_id = p.id AND h.site_id = p.site_id),
              p.avg_bitrate_kbps)
          FROM (
            SELECT x.session_id::uuid AS session_id, max(x.watched) AS watched, max(x.rebuffer_count) AS rebuffer_count,
              max(x.rebuffer_ms) AS rebuffer_ms, max(x.at::timestamptz) AS last_at,
              max(x.at::timestamptz) FILTER (WHERE x.ended) AS ended_at, max(x.error_code) AS error_code, max(x.avg_bitrate) AS avg_bitrate
            FROM json_to_recordset(${json(updates.map(({ e }) => ({
              session_id: e.sessionId, at: e.at, watched: e.watchedSeconds, rebuffer_count: e.rebufferCount, rebuffer_ms: e.rebufferMs,
              ended: e.type === 'session.end', error_code: e.type === 'session.end' ? e.errorCode ?? null : null,
              avg_bitrate: e.type === 'session.end' ? e.avgBitrateKbps ?? null : null,
            })))}) AS x(session_id text, at text, watched integer, rebuffer_count integer, rebuffer_ms integer, ended boolean, error_code text, avg_bitrate integer)
            GROUP BY 1
          ) u
          WHERE p.id = u.session_id AND p.site_id = ${siteId}::uuid`);
      }
      const days = await queryRows<{ day: string }>(tx, sql`
        SELECT DISTINCT to_char((started_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day FROM playback_sessions
        WHERE site_id = ${siteId}::uuid AND id IN (SELECT value::uuid FROM json_array_elements_text(${ids(todo.map(({ e }) => e.sessionId))}))`);
      await foldPlaybackDays(tx, siteId, days.map((d) => d.day));
      return { accepted: todo.length, duplicates, errors: [] };
    });
  } catch (error) {
    if (error instanceof BatchRefused) return { accepted: 0, duplicates: 0, errors: error.errors };
    throw error;
  }
}

/** Viewers who may watch now (entitled, or any open account where monetization is off) and playable items. */
export async function siteRoster(db: Db, siteId: string, limit: number): Promise<IngestRoster> {
  const subscribers = await queryRows<{ id: string; country: string; network_id: string; device_types: string[] }>(db, sql`
    SELECT s.id, s.country, s.network_id,
      coalesce((SELECT json_agg(DISTINCT d.device_type) FROM subscriber_devices d WHERE d.subscriber_id = s.id), '[]'::json) AS device_types
    FROM subscribers s
    WHERE s.site_id = ${siteId}::uuid AND s.status = 'active'
      AND (EXISTS (SELECT 1 FROM subscriptions x WHERE x.subscriber_id = s.id AND x.status IN ('active', 'trialing', 'past_due'))
        OR NOT (SELECT st.is_monetization_model_enabled FROM sites st WHERE st.id = s.site_id))
    ORDER BY s.created_at DESC LIMIT ${limit}`);
  const content = await queryRows<{ id: string; kind: string; duration_seconds: number; network_id: string | null }>(db, sql`
    SELECT id, kind, duration_seconds, network_id FROM content_items
    WHERE site_id = ${siteId}::uuid AND status = 'published' AND kind <> 'series'
    ORDER BY published_at DESC NULLS LAST LIMIT ${limit}`);
  return {
    subscribers: subscribers.map((r) => ({ id: r.id, country: r.country, networkId: r.network_id, deviceTypes: r.device_types })),
    content: content.map((r) => ({ id: r.id, kind: r.kind, durationSeconds: r.duration_seconds, networkId: r.network_id })),
  };
}
