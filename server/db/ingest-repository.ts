/**
 * Writes a batch of player events (POST /v1/events) in one transaction of set-based statements:
 * claim the event ids (the idempotency record), check what the events refer to, insert session
 * starts and heartbeats, apply heartbeats and ends to their sessions, and fold the touched days
 * into the playback rollups. A batch with any refused event rolls back whole: nothing is written.
 */
import { createHash } from 'node:crypto';
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
  /** Of the accepted: heartbeats dated after their session's end (stored, but they change nothing). */
  ignored: number;
  /** Non-empty: the batch was refused and rolled back. */
  errors: IngestEventError[];
}

class BatchRefused extends Error {
  constructor(readonly errors: IngestEventError[]) {
    super('batch refused');
  }
}

/** A batch that still met a deadlock or serialization failure after INGEST_TRANSACTION_ATTEMPTS tries (answered 503). */
export class IngestBusy extends Error {
  constructor(cause: unknown) {
    super('ingestion busy', { cause });
  }
}

/** Tries of one batch's transaction before IngestBusy. */
export const INGEST_TRANSACTION_ATTEMPTS = 5;
/** serialization_failure and deadlock_detected: the transaction rolled back whole and may simply run again. */
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);

/** The SQLSTATE of a database error, also when a driver or Drizzle wrapped it (`cause`). */
function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const json = (value: unknown) => sql`${JSON.stringify(value)}::json`;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The advisory lock of one session of a site: two int4 halves of a SHA-256 (a key space apart from
 * the one-bigint locks of the rollup fold). Batches take their sessions' locks sorted by this key,
 * so two batches touching the same sessions in any order wait for each other instead of deadlocking.
 */
function sessionLockKey(siteId: string, sessionId: string): [number, number] {
  const digest = createHash('sha256').update(`ingest-session:${siteId}:${sessionId}`).digest();
  return [digest.readInt32BE(0), digest.readInt32BE(4)];
}

/**
 * `events` must already be schema-valid; error indexes are positions in `events`. Runs in one
 * transaction, taken again (with jitter) after a deadlock or serialization failure; IngestBusy
 * when the tries run out.
 */
export async function ingestBatch(db: Db, siteId: string, events: PlayerEvent[], options: { now?: Date; maxAgeDays: number; maxFutureMs: number }): Promise<IngestResult> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await ingestOnce(db, siteId, events, options);
    } catch (error) {
      if (!RETRYABLE_SQLSTATES.has(sqlState(error) ?? '')) throw error;
      if (attempt >= INGEST_TRANSACTION_ATTEMPTS) throw new IngestBusy(error);
      // Full jitter: up to 40, 80, 160, 320 ms, so the batches that collided do not collide again.
      await sleep(Math.random() * 20 * 2 ** attempt);
    }
  }
}

/*
 * Lock order of a batch (every batch takes its locks in this order, each kind sorted, so no two
 * batches can wait for each other in a circle): its event ids (claimed sorted), then its sessions'
 * advisory locks (sorted by key), then session rows and heartbeats (only under those locks), then
 * the rollup days (sorted, foldPlaybackDays).
 */
async function ingestOnce(db: Db, siteId: string, events: PlayerEvent[], options: { now?: Date; maxAgeDays: number; maxFutureMs: number }): Promise<IngestResult> {
  const now = (options.now ?? new Date()).getTime();
  // Repeats inside the batch: the first occurrence counts, the others are duplicates.
  const firstIndex = new Map<string, number>();
  events.forEach((e, i) => { if (!firstIndex.has(e.eventId)) firstIndex.set(e.eventId, i); });
  const unique = events.map((e, index) => ({ e, index })).filter(({ e, index }) => firstIndex.get(e.eventId) === index);

  try {
    return await db.transaction(async (tx) => {
      const claimed = await queryRows<{ event_id: string }>(tx, sql`
        INSERT INTO ingested_events (site_id, event_id)
        SELECT ${siteId}::uuid, x.value FROM json_array_elements_text(${json(unique.map(({ e }) => e.eventId).sort(byText))}) WITH ORDINALITY AS x(value, n)
        ORDER BY x.n
        ON CONFLICT (site_id, event_id) DO NOTHING
        RETURNING event_id`);
      const fresh = new Set(claimed.map((r) => r.event_id));
      const todo = unique.filter(({ e }) => fresh.has(e.eventId));
      const duplicates = events.length - todo.length;
      if (todo.length === 0) return { accepted: 0, duplicates, ignored: 0, errors: [] };

      const starts = todo.filter((t): t is { e: SessionStartEvent; index: number } => t.e.type === 'session.start');
      const updates = todo.filter((t): t is { e: HeartbeatEvent | SessionEndEvent; index: number } => t.e.type !== 'session.start');
      const errors: IngestEventError[] = [];
      const refuse = (index: number, eventId: string, message: string) => errors.push({ index, eventId, message });

      // The batch's sessions, locked in key order before any of their rows is read or written.
      const sessionIds = [...new Set(todo.map(({ e }) => e.sessionId.toLowerCase()))].sort(byText);
      const lockKeys = [...new Map(sessionIds.map((id) => sessionLockKey(siteId, id)).map((k) => [`${k[0]}:${k[1]}`, k])).values()]
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      await tx.execute(sql`
        SELECT count(pg_advisory_xact_lock(x.a, x.b)) FROM json_to_recordset(${json(lockKeys.map(([a, b]) => ({ a, b })))}) AS x(a integer, b integer)`);

      // What the events refer to must exist on this site (other sites' rows are invisible).
      const ids = (values: (string | undefined)[]) => json([...new Set(values.filter((v): v is string => Boolean(v)).map((v) => v.toLowerCase()))]);
      const subscriberRows = starts.length === 0 ? [] : await queryRows<{ id: string }>(tx, sql`
        SELECT id FROM subscribers WHERE site_id = ${siteId}::uuid AND id IN (SELECT value::uuid FROM json_array_elements_text(${ids(starts.map(({ e }) => e.subscriberId))}))`);
      const contentRows = starts.length === 0 ? [] : await queryRows<{ id: string }>(tx, sql`
        SELECT id FROM content_items WHERE site_id = ${siteId}::uuid AND id IN (SELECT value::uuid FROM json_array_elements_text(${ids(starts.map(({ e }) => e.contentId))}))`);
      const networkRows = starts.every(({ e }) => !e.networkId) ? [] : await queryRows<{ id: string }>(tx, sql`
        SELECT id FROM networks WHERE site_id = ${siteId}::uuid AND id IN (SELECT value::uuid FROM json_array_elements_text(${ids(starts.map(({ e }) => e.networkId))}))`);
      // Session ids are scoped per site: another site's session with the same id is simply not there.
      const sessionRows = await queryRows<{ id: string; ended_at: string | Date | null }>(tx, sql`
        SELECT id, ended_at FROM playback_sessions
        WHERE site_id = ${siteId}::uuid AND id IN (SELECT value::uuid FROM json_array_elements_text(${json(sessionIds)}))`);
      const subscribersFound = new Set(subscriberRows.map((r) => r.id));
      const contentFound = new Set(contentRows.map((r) => r.id));
      const networksFound = new Set(networkRows.map((r) => r.id));
      const sessionsHere = new Map(sessionRows.map((r) => [r.id, r.ended_at === null ? null : new Date(r.ended_at).getTime()]));
      const startedHere = new Set(starts.map(({ e }) => e.sessionId.toLowerCase()));

      for (const { e, index } of todo) {
        const at = Date.parse(e.at);
        if (at > now + options.maxFutureMs) refuse(index, e.eventId, `events[${index}].at is in the future (${e.at}).`);
        else if (at < now - options.maxAgeDays * 86_400_000) refuse(index, e.eventId, `events[${index}].at is older than ${options.maxAgeDays} days (${e.at}).`);
        const session = e.sessionId.toLowerCase();
        if (e.type === 'session.start') {
          if (!subscribersFound.has(e.subscriberId.toLowerCase())) refuse(index, e.eventId, `events[${index}].subscriberId ${e.subscriberId} is not a subscriber of this site.`);
          if (!contentFound.has(e.contentId.toLowerCase())) refuse(index, e.eventId, `events[${index}].contentId ${e.contentId} is not a content item of this site.`);
          if (e.networkId && !networksFound.has(e.networkId.toLowerCase())) refuse(index, e.eventId, `events[${index}].networkId ${e.networkId} is not a network of this site.`);
        } else if (!sessionsHere.has(session) && !startedHere.has(session)) {
          refuse(index, e.eventId, `events[${index}].sessionId ${e.sessionId} has no session.start on this site.`);
        }
      }
      if (errors.length > 0) throw new BatchRefused(errors);

      // A session's end after this batch: the earliest session.end known. Heartbeats dated after it count for nothing.
      const endOf = new Map<string, number>();
      for (const [id, ended] of sessionsHere) if (ended !== null) endOf.set(id, ended);
      for (const { e } of updates) {
        if (e.type !== 'session.end') continue;
        const session = e.sessionId.toLowerCase();
        endOf.set(session, Math.min(endOf.get(session) ?? Infinity, Date.parse(e.at)));
      }
      const ignored = updates.filter(({ e }) => e.type === 'heartbeat' && Date.parse(e.at) > (endOf.get(e.sessionId.toLowerCase()) ?? Infinity)).length;

      if (starts.length > 0) {
        const sortedStarts = [...starts].sort((a, b) => byText(a.e.sessionId.toLowerCase(), b.e.sessionId.toLowerCase()));
        await tx.execute(sql`
          INSERT INTO playback_sessions (id, site_id, network_id, subscriber_id, content_id, device_id, device_type, country, isp, cdn,
            started_at, last_event_at, startup_ms, plan_id)
          SELECT x.session_id::uuid, ${siteId}::uuid, coalesce(x.network_id::uuid, s.network_id), s.id, x.content_id::uuid, x.device_id::uuid,
            x.device_type, x.country, x.isp, x.cdn, x.at::timestamptz, x.at::timestamptz, x.startup_ms,
            (SELECT sub.plan_id FROM subscriptions sub WHERE sub.subscriber_id = s.id AND sub.started_at <= x.at::timestamptz
              ORDER BY sub.started_at DESC LIMIT 1)
          FROM json_to_recordset(${json(sortedStarts.map(({ e }, n) => ({
            n, session_id: e.sessionId, subscriber_id: e.subscriberId, content_id: e.contentId, network_id: e.networkId ?? null,
            device_id: e.deviceId ?? null, device_type: e.deviceType, country: e.country, isp: e.isp, cdn: e.cdn, at: e.at, startup_ms: e.startupMs,
          })))}) AS x(n integer, session_id text, subscriber_id text, content_id text, network_id text, device_id text, device_type text,
            country text, isp text, cdn text, at text, startup_ms integer)
          JOIN subscribers s ON s.id = x.subscriber_id::uuid AND s.site_id = ${siteId}::uuid
          ORDER BY x.n
          ON CONFLICT (site_id, id) DO NOTHING`);
      }
      const heartbeats = updates.filter((t): t is { e: HeartbeatEvent; index: number } => t.e.type === 'heartbeat');
      if (heartbeats.length > 0) {
        // Every heartbeat is kept as received (also one after its session's end): the session's
        // counters below are computed from these rows, so they do not depend on the order of arrival.
        await tx.execute(sql`
          INSERT INTO player_heartbeats (site_id, event_id, session_id, at, playhead_seconds, watched_seconds, bitrate_kbps, rebuffer_count, rebuffer_ms)
          SELECT ${siteId}::uuid, x.event_id, x.session_id::uuid, x.at::timestamptz, x.playhead, x.watched, x.bitrate, x.rebuffer_count, x.rebuffer_ms
          FROM json_to_recordset(${json(heartbeats.map(({ e }) => ({
            event_id: e.eventId, session_id: e.sessionId, at: e.at, playhead: e.playheadSeconds, watched: e.watchedSeconds,
            bitrate: e.bitrateKbps, rebuffer_count: e.rebufferCount, rebuffer_ms: e.rebufferMs,
          })).sort((a, b) => byText(a.event_id, b.event_id)))}) AS x(event_id text, session_id text, at text, playhead integer, watched integer, bitrate integer, rebuffer_count integer, rebuffer_ms integer)
          ON CONFLICT (site_id, event_id) DO NOTHING`);
      }
      if (updates.length > 0) {
        // Counters are cumulative: a session keeps the largest value seen, whatever the order of
        // arrival, from its stored heartbeats up to its end (the earliest session.end) and its ends.
        // Once ended, the values it had stay (they already follow this rule).
        await tx.execute(sql`
          UPDATE playback_sessions p SET
            (watched_seconds, rebuffer_count, rebuffer_seconds, last_event_at, avg_bitrate_kbps) = (
              SELECT
                coalesce(greatest(max(h.watched_seconds), u.end_watched, CASE WHEN p.ended_at IS NOT NULL THEN p.watched_seconds END), 0),
                coalesce(greatest(max(h.rebuffer_count), u.end_rebuffer_count, CASE WHEN p.ended_at IS NOT NULL THEN p.rebuffer_count END), 0),
                coalesce(greatest(max(h.rebuffer_ms) / 1000, u.end_rebuffer_ms / 1000, CASE WHEN p.ended_at IS NOT NULL THEN p.rebuffer_seconds END), 0),
                greatest(p.started_at, max(h.at), u.end_last_at, CASE WHEN p.ended_at IS NOT NULL THEN p.last_event_at END),
                coalesce(u.avg_bitrate, round(avg(h.bitrate_kbps))::int, p.avg_bitrate_kbps)
              FROM player_heartbeats h
              WHERE h.site_id = p.site_id AND h.session_id = p.id
                AND h.at <= coalesce(least(p.ended_at, u.ended_at), 'infinity'::timestamptz)),
            ended_at = least(p.ended_at, u.ended_at),
            error_code = coalesce(p.error_code, u.error_code)
          FROM (
            SELECT x.session_id::uuid AS session_id,
              max(x.watched) FILTER (WHERE x.ended) AS end_watched, max(x.rebuffer_count) FILTER (WHERE x.ended) AS end_rebuffer_count,
              max(x.rebuffer_ms) FILTER (WHERE x.ended) AS end_rebuffer_ms, max(x.at::timestamptz) FILTER (WHERE x.ended) AS end_last_at,
              min(x.at::timestamptz) FILTER (WHERE x.ended) AS ended_at, max(x.error_code) AS error_code, max(x.avg_bitrate) AS avg_bitrate
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
        WHERE site_id = ${siteId}::uuid AND id IN (SELECT value::uuid FROM json_array_elements_text(${json(sessionIds)}))`);
      await foldPlaybackDays(tx, siteId, days.map((d) => d.day));
      return { accepted: todo.length, duplicates, ignored, errors: [] };
    });
  } catch (error) {
    if (error instanceof BatchRefused) return { accepted: 0, duplicates: 0, ignored: 0, errors: error.errors };
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
