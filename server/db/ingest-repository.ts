/**
 * The database side of player event ingestion (issue 31; the path is in docs/data-model.md):
 *
 * - the producer (POST /v1/events) checks what a batch refers to (`checkBatch`) and records the
 *   sessions it starts (`recordSessionStarts`) before the batch is queued, so a refused batch is a
 *   400 with one message per event and nothing queued;
 * - consumers write queued batches (`writeBatches`): one transaction of set-based statements per
 *   group of batches: lock the sessions, insert session starts and heartbeats in bulk (ON CONFLICT
 *   DO NOTHING on the raw tables' keys), apply only what was inserted (and ends that move or set an
 *   end) to their sessions, mark the (site, day) rollup slices touched dirty. No row per event
 *   (issue 42): exactly-once is JetStream's duplicate window for a batch published again plus the
 *   raw tables' keys for a batch delivered again (see `writeBatches`);
 * - fold workers re-aggregate dirty slices (`foldDirtySlices`: a try-lock per slice, marks deleted
 *   only if no consumer renewed them meanwhile);
 * - the maintenance (server/db/raw-history.ts) forgets session starts older than INGEST_WINDOW_DAYS
 *   and keeps the raw tables' day partitions (the per-event record `ingested_events`, unwritten since
 *   issue 42, was dropped by migration 0048).
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { HeartbeatEvent, IngestRoster, PlayerEvent, SessionEndEvent, SessionStartEvent } from '../../common/ingest-contract';
import { INGEST_DEAD_LETTER_REASONS, INGEST_WINDOW_DAYS, type IngestDeadLetterReason } from '../../common/ingest-contract';
import type { Db } from './client';
import { analyzeGrowingDays, ensureRawHistoryDays, utcDayOf } from './raw-history';
import { foldPlaybackDays, siteDay, siteTimeZone, tryLockRollupDay, type SqlRunner } from './rollups';
import { hashIngestionKey, queryRows } from './seed-world';
import { epochMicros, SessionCounters, type StoredSession } from './ingest-session-counters';
import { RETRYABLE_SQLSTATES, sqlState } from './sql-state';

/**
 * How long a known ingestion key is answered from memory (issue 42: the request path touches no
 * database). Keys are created by the seed and revoked only by hand in the database (no route does
 * either), so a revoked key is refused at the latest this long after; an unknown key is never cached.
 */
export const INGESTION_KEY_CACHE_MS = 30_000;
/** Known keys per database (a test process opens many), by SHA-256; bounded: cleared whole past 10,000 entries. */
const keyCaches = new WeakMap<object, Map<string, { siteId: string; until: number }>>();

/** The site of an active ingestion key, or null; a known key is answered from memory for INGESTION_KEY_CACHE_MS. */
export async function siteOfIngestionKey(db: Db, key: string): Promise<string | null> {
  const hash = hashIngestionKey(key);
  let cache = keyCaches.get(db);
  if (!cache) {
    cache = new Map();
    keyCaches.set(db, cache);
  }
  const cached = cache.get(hash);
  if (cached && cached.until > Date.now()) return cached.siteId;
  const [row] = await queryRows<{ site_id: string }>(db, sql`
    SELECT site_id FROM ingestion_keys WHERE key_hash = ${hash} AND revoked_at IS NULL LIMIT 1`);
  if (!row) {
    cache.delete(hash);
    return null;
  }
  if (cache.size >= 10_000) cache.clear();
  cache.set(hash, { siteId: row.site_id, until: Date.now() + INGESTION_KEY_CACHE_MS });
  return row.site_id;
}

/** Days an event id (and a recorded session start) is remembered (common/ingest-contract.ts). */
export { INGEST_WINDOW_DAYS };

/** A batch as queued: the site of its ingestion key and its schema-valid, checked events. */
export interface QueuedBatch {
  siteId: string;
  events: PlayerEvent[];
}

/** A group of batches that still met a deadlock or serialization failure after INGEST_TRANSACTION_ATTEMPTS tries. */
export class IngestBusy extends Error {
  constructor(cause: unknown) {
    super('ingestion busy', { cause });
  }
}

/** Tries of one transaction (a consumer's write, a fold) before IngestBusy. */
export const INGEST_TRANSACTION_ATTEMPTS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deadlocks (40P01) and serialization failures (40001) met and retried by this process (tests, bench). */
export const ingestRetries: Record<string, number> = { '40001': 0, '40P01': 0 };

/** Runs `run` again (full jitter: up to 40, 80, 160, 320 ms) after a deadlock or serialization failure; IngestBusy when the tries run out. */
async function withRetries<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      const state = sqlState(error) ?? '';
      if (!RETRYABLE_SQLSTATES.has(state)) throw error;
      ingestRetries[state] = (ingestRetries[state] ?? 0) + 1;
      if (attempt >= INGEST_TRANSACTION_ATTEMPTS) throw new IngestBusy(error);
      await sleep(Math.random() * 20 * 2 ** attempt);
    }
  }
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::json`;
/**
 * A column of values as one typed array parameter (`$n::uuid[]`, `$n::int[]`...), unnested in the
 * statement: a flush's 10,000 rows went in as one JSON document each statement parsed whole (every
 * row's keys again) and cast field by field. Written as an array literal here (every text quoted, so
 * any event id is safe), the same on both drivers.
 */
const array = (values: readonly (string | number | boolean | null | undefined)[], type: string) => sql`${arrayLiteral(values)}::${sql.raw(type)}[]`;
const ESCAPED = /[\\"]/;
/** `{"a","b\\"c",NULL,1}`, built in one pass (map, join and a replace per value took 3-4x as long: ~4 ms a column of 10,000). */
function arrayLiteral(values: readonly (string | number | boolean | null | undefined)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i];
    if (i > 0) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'string') out += `"${ESCAPED.test(v) ? v.replace(/[\\"]/g, '\\$&') : v}"`;
    else out += String(v);
  }
  return `${out}}`;
}
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The first occurrence of each event id, with its index in the batch (a repeat counts once). */
function firstOccurrences(events: PlayerEvent[]): { e: PlayerEvent; index: number }[] {
  const seen = new Set<string>();
  const out: { e: PlayerEvent; index: number }[] = [];
  events.forEach((e, index) => {
    if (seen.has(e.eventId)) return;
    seen.add(e.eventId);
    out.push({ e, index });
  });
  return out;
}

/**
 * Sessions a consumer knows are written (`<site id>:<session id>`): those it wrote and those it
 * found, so a heartbeat of a session it has seen costs no look-up in batchesWaitingForStarts. Bounded:
 * forgotten all at once past `max` entries (a forgotten session is simply looked up again).
 */
/** What the look-ups read and add to (a WrittenSessions): sessions by site and id (lower case). */
export interface KnownSessions {
  has(siteId: string, sessionId: string): boolean;
  add(siteId: string, sessionId: string): void;
}

/**
 * Per site, then by the session id as the event carries it (lower case): no `<site>:<session>` text
 * made per look-up, and the id's hash is the string's own, computed once (a consumer asks ~3 times per
 * event: 0.2-0.4 s of a consumer's CPU per 200,000 events with a key made each time).
 */
export class WrittenSessions implements KnownSessions {
  private readonly sites = new Map<string, Set<string>>();
  private size = 0;
  private since = Date.now();
  constructor(private readonly max = 500_000, private readonly maxAgeMs = 60 * 60_000) {}
  has(siteId: string, sessionId: string): boolean {
    if (Date.now() - this.since > this.maxAgeMs) this.clear();
    return this.sites.get(siteId)?.has(sessionId) ?? false;
  }
  add(siteId: string, sessionId: string): void {
    if (this.size >= this.max || Date.now() - this.since > this.maxAgeMs) this.clear();
    let site = this.sites.get(siteId);
    if (!site) this.sites.set(siteId, (site = new Set()));
    if (site.has(sessionId)) return;
    site.add(sessionId);
    this.size += 1;
  }
  private clear(): void {
    this.sites.clear();
    this.size = 0;
    this.since = Date.now();
  }
}

/**
 * The batches a consumer must put back for a moment: they carry a heartbeat or an end of a session
 * neither written yet nor started by a batch of this group. Its start may be in the queue (a second
 * consumer has it in hand or it is further back): the pipeline waits for it as long as it can still
 * arrive, then keeps the events as dead letters (the producer no longer checks sessions, issue 42).
 */
export async function batchesWaitingForStarts(db: Db, batches: QueuedBatch[], known: WrittenSessions = new WrittenSessions()): Promise<Set<number>> {
  await lookUpWrittenSessions(db, batches, known);
  return waitingBatches(batches, known);
}

/** Adds to `known` the sessions the batches' heartbeats and ends name that are written (one round trip, none when all are known). */
export async function lookUpWrittenSessions(db: Db, batches: QueuedBatch[], known: KnownSessions): Promise<void> {
  const needed = new Map<string, Set<string>>();
  batches.forEach(({ siteId, events }) => {
    for (const e of events) {
      if (e.type === 'session.start' || known.has(siteId, e.sessionId.toLowerCase())) continue;
      const set = needed.get(siteId) ?? new Set<string>();
      set.add(e.sessionId.toLowerCase());
      needed.set(siteId, set);
    }
  });
  if (needed.size === 0) return;
  for (const [siteId, ids] of needed) {
    const ats = batches.filter((b) => b.siteId === siteId).flatMap((b) => b.events.map((e) => e.at));
    for (const id of (await findSessions(db, siteId, [...ids], ats)).keys()) known.add(siteId, id);
  }
}

/** How far before the earliest event of a group its sessions are first looked for (a longer session is found by the second look-up). */
const SESSION_SEARCH_DAYS_BEFORE = 2;

/**
 * Stored sessions of a site by id (lower case), with their partition key and end as PostgreSQL
 * text (exact). Sessions are partitioned by the day they started and a heartbeat does not say
 * when that was: looking an id up in every kept day's partition (90 by default) cost 90 index
 * probes per event and made the consumer's session update take 2–6 s per group (issue 37). First
 * look only in the days from SESSION_SEARCH_DAYS_BEFORE before the group's earliest event to a day
 * after its latest (a constant range: the planner prunes the other partitions), then everywhere for
 * the ids not found (a session older than that, or none: rare).
 */
async function findSessions(db: SqlRunner, siteId: string, ids: string[], ats: string[]): Promise<Map<string, StoredSession>> {
  const found = new Map<string, StoredSession>();
  if (ids.length === 0) return found;
  const times = ats.map((a) => Date.parse(a)).filter((n) => Number.isFinite(n));
  const lo = new Date(Math.min(...times) - SESSION_SEARCH_DAYS_BEFORE * 86_400_000).toISOString();
  const hi = new Date(Math.max(...times) + 86_400_000).toISOString();
  const look = async (wanted: string[], range: boolean) => {
    const rows = await queryRows<{ id: string; started_at: string; started_epoch: number | string; ended_at: string | null; ended_ms: number | string | null; ended_us: number | string | null }>(db, sql`
      SELECT p.id::text, p.started_at::text, extract(epoch FROM p.started_at)::float8 AS started_epoch, p.ended_at::text,
        round(extract(epoch FROM date_trunc('milliseconds', p.ended_at)) * 1000)::float8 AS ended_ms,
        (extract(epoch FROM p.ended_at) * 1000000)::float8 AS ended_us FROM playback_sessions p
      WHERE p.site_id = ${siteId}::uuid AND p.id = ANY(${array(wanted, 'uuid')})
        ${range ? sql`AND p.started_at >= ${lo}::timestamptz AND p.started_at <= ${hi}::timestamptz` : sql``}`);
    for (const r of rows) {
      found.set(r.id.toLowerCase(), { startedAt: r.started_at, startedEpoch: Number(r.started_epoch), endedAt: r.ended_at,
        endedMs: r.ended_ms === null ? null : Number(r.ended_ms), endedUs: r.ended_us === null ? null : Number(r.ended_us) });
    }
  };
  if (times.length > 0) await look(ids, true);
  const rest = ids.filter((id) => !found.has(id.toLowerCase()));
  if (rest.length > 0) await look(rest, false);
  return found;
}

/**
 * The stored sessions of `ids` (lower case): from what this transaction inserted or the counters
 * know, else looked up (findSessions) and remembered once the transaction commits. Those in `fresh`
 * are read under the sessions' locks whatever the counters know (their end decides what is written,
 * and another consumer may have written one: two own a session during a handover).
 */
async function sessionsOf(tx: SqlRunner, siteId: string, ids: Set<string>, ats: string[], counters: SessionCounters | undefined, changes: SessionChanges, fresh: Set<string>): Promise<Map<string, StoredSession>> {
  const out = new Map<string, StoredSession>();
  const missing: string[] = [];
  for (const id of ids) {
    const known = changes.remember.get(id) ?? (fresh.has(id) ? undefined : counters?.session(siteId, id));
    if (known) out.set(id, known);
    else missing.push(id);
  }
  if (missing.length === 0) return out;
  for (const [id, session] of await findSessions(tx, siteId, missing, ats)) {
    out.set(id, session);
    if (counters) changes.remember.set(id, session);
  }
  return out;
}

/** What a consumer's transaction teaches its SessionCounters, applied once it has committed (applyChanges). */
interface SessionChanges {
  siteId: string;
  /** Sessions inserted or looked up. */
  remember: Map<string, StoredSession>;
  /** Sessions whose end was written (looked up again when next needed). */
  forget: Set<string>;
  /** Sessions counted again from every stored heartbeat: nothing owed any more. */
  drop: Set<string>;
  /** Heartbeats written that their sessions' rows are owed. */
  add: { id: string; session: StoredSession; hb: HeartbeatEvent }[];
}

function applyChanges(counters: SessionCounters, c: SessionChanges): void {
  for (const [id, session] of c.remember) counters.remember(c.siteId, id, session);
  for (const id of c.forget) counters.forgetSession(c.siteId, id);
  for (const id of c.drop) counters.drop(c.siteId, id);
  for (const { id, session, hb } of c.add) counters.add(c.siteId, id, session, hb);
}

/** The earliest and latest start of a set of sessions, as PostgreSQL wrote them: a constant range that keeps the planner to their days' partitions. */
const sessionBounds = (sessions: [string, StoredSession][]) => {
  let first = sessions[0]![1];
  let last = first;
  for (const [, t] of sessions) {
    if (t.startedEpoch < first.startedEpoch) first = t;
    if (t.startedEpoch > last.startedEpoch) last = t;
  }
  return { lo: first.startedAt, hi: last.startedAt };
};

/**
 * Counts sessions again from their stored heartbeats (up to their end): the heartbeats' count and
 * bitrate sum are set from them, the maxima keep the larger of theirs and the row's (an end's own
 * figures stay), the mean bitrate follows them if they found heartbeats the row had not counted. For sessions whose heartbeats were refused as repeats while counters are kept in
 * memory: the consumer that wrote them may have died before it wrote what their rows were owed.
 */
async function recountSessions(tx: SqlRunner, siteId: string, zone: string, sessions: [string, StoredSession][]): Promise<string[]> {
  const bounds = sessionBounds(sessions);
  const rows = await queryRows<{ day: string }>(tx, sql`
    UPDATE playback_sessions p SET
      watched_seconds = greatest(p.watched_seconds, u.watched),
      rebuffer_count = greatest(p.rebuffer_count, u.rebuffer_count),
      rebuffer_seconds = greatest(p.rebuffer_seconds, u.rebuffer_ms / 1000),
      last_event_at = greatest(p.last_event_at, u.last_at),
      heartbeat_count = u.n,
      bitrate_kbps_sum = coalesce(u.bitrate_sum, 0),
      -- The mean follows the heartbeats only if the count finds some the row did not have (as the
      -- update that adds them would have); otherwise the row's mean (an end's own figure) stays.
      avg_bitrate_kbps = CASE WHEN (u.n, coalesce(u.bitrate_sum, 0)) IS DISTINCT FROM (p.heartbeat_count, p.bitrate_kbps_sum)
        THEN coalesce(round(u.bitrate_sum::numeric / nullif(u.n, 0))::int, p.avg_bitrate_kbps) ELSE p.avg_bitrate_kbps END
    FROM (
      SELECT s.id, s.started_at, r.* FROM unnest(${array(sessions.map(([id]) => id), 'uuid')}, ${array(sessions.map(([, t]) => t.startedAt), 'timestamptz')},
        ${array(sessions.map(([, t]) => t.endedAt), 'timestamptz')}) AS s(id, started_at, ended_at)
      CROSS JOIN LATERAL (
        SELECT max(h.watched_seconds) AS watched, max(h.rebuffer_count) AS rebuffer_count, max(h.rebuffer_ms) AS rebuffer_ms,
          max(h.at) AS last_at, sum(h.bitrate_kbps) AS bitrate_sum, count(*)::int AS n
        FROM (SELECT * FROM player_heartbeats h WHERE h.session_id = s.id AND h.at <= coalesce(s.ended_at, 'infinity'::timestamptz) OFFSET 0) h
        WHERE h.site_id = ${siteId}::uuid) r
    ) u
    WHERE p.site_id = ${siteId}::uuid AND p.id = u.id AND p.started_at = u.started_at
      AND p.started_at >= ${bounds.lo}::timestamptz AND p.started_at <= ${bounds.hi}::timestamptz
    RETURNING to_char(${siteDay(sql`p.started_at`, zone)}, 'YYYY-MM-DD') AS day`);
  return rows.map((r) => r.day);
}

/**
 * Writes what the sessions' rows are owed (SessionCounters: heartbeats written by writeBatches with
 * counters) in one transaction, under the sessions' advisory locks, and marks their days' rollup
 * slices dirty; returns how many sessions it updated. On failure nothing is written and the counters
 * keep everything (the caller acknowledges the messages only after this committed).
 */
export async function applySessionCounters(db: Db, counters: SessionCounters): Promise<number> {
  const taken = counters.take();
  if (taken.size === 0) return 0;
  // Sessions whose end changed under these counters (counted again): what is known of them is stale.
  let staleIds: [string, string][] = [];
  try {
    const n = await withRetries(() => db.transaction(async (tx) => {
      staleIds = [];
      let n = 0;
      for (const siteId of [...taken.keys()].sort(byText)) {
        const owed = [...taken.get(siteId)!].sort(([a], [b]) => byText(a, b));
        if (owed.length === 0) continue;
        const siteKey = sessionLockSite(siteId);
        const slots = [...new Set(owed.map(([id]) => sessionLockSlot(siteId, id)))].sort((a, b) => a - b);
        await tx.execute(sql`SELECT count(pg_advisory_xact_lock(${siteKey}::int, x.b)) FROM unnest(${array(slots, 'int')}) AS x(b)`);
        const zone = await siteTimeZone(tx, siteId);
        const bounds = sessionBounds(owed.map(([id, p]) => [id, p.session]));
        // Incremental, as a flush's own update of sessions it does not end: the maxima grow, the
        // count and the bitrate sum add up; the mean bitrate follows them (an end's own figure goes,
        // as it did when a heartbeat came after it: issue 31's rule). Only where the session's end is
        // still the one the heartbeats were counted against: one another consumer ended meanwhile (a
        // handover) is counted again from its stored heartbeats instead.
        const rows = await queryRows<{ id: string; day: string }>(tx, sql`
          UPDATE playback_sessions p SET
            watched_seconds = greatest(p.watched_seconds, u.watched),
            rebuffer_count = greatest(p.rebuffer_count, u.rebuffer_count),
            rebuffer_seconds = greatest(p.rebuffer_seconds, u.rebuffer_ms / 1000),
            last_event_at = greatest(p.last_event_at, u.last_at),
            heartbeat_count = p.heartbeat_count + u.n,
            bitrate_kbps_sum = p.bitrate_kbps_sum + u.bitrate_sum,
            avg_bitrate_kbps = coalesce(round((p.bitrate_kbps_sum + u.bitrate_sum)::numeric / nullif(p.heartbeat_count + u.n, 0))::int, p.avg_bitrate_kbps)
          FROM unnest(${array(owed.map(([id]) => id), 'uuid')}, ${array(owed.map(([, p]) => p.session.startedAt), 'timestamptz')},
            ${array(owed.map(([, p]) => p.watched), 'int')}, ${array(owed.map(([, p]) => p.rebufferCount), 'int')},
            ${array(owed.map(([, p]) => p.rebufferMs), 'int')}, ${array(owed.map(([, p]) => p.lastAt), 'timestamptz')},
            ${array(owed.map(([, p]) => p.bitrateSum), 'bigint')}, ${array(owed.map(([, p]) => p.n), 'int')},
            ${array(owed.map(([, p]) => p.session.endedAt), 'timestamptz')})
            AS u(id, started_at, watched, rebuffer_count, rebuffer_ms, last_at, bitrate_sum, n, ended_at)
          WHERE p.site_id = ${siteId}::uuid AND p.id = u.id AND p.started_at = u.started_at
            AND p.started_at >= ${bounds.lo}::timestamptz AND p.started_at <= ${bounds.hi}::timestamptz
            AND p.ended_at IS NOT DISTINCT FROM u.ended_at
          RETURNING p.id::text, to_char(${siteDay(sql`p.started_at`, zone)}, 'YYYY-MM-DD') AS day`);
        n += rows.length;
        const days = new Set(rows.map((r) => r.day));
        if (rows.length < owed.length) {
          const updated = new Set(rows.map((r) => r.id.toLowerCase()));
          const rest = owed.filter(([id]) => !updated.has(id));
          const now = await findSessions(tx, siteId, rest.map(([id]) => id), rest.map(([, p]) => p.lastAt));
          if (now.size > 0) for (const day of await recountSessions(tx, siteId, zone, [...now])) days.add(day);
          n += now.size;
          for (const [id] of rest) staleIds.push([siteId, id]);
        }
        if (days.size > 0) {
          await tx.execute(sql`
            INSERT INTO dirty_rollup_slices (site_id, day)
            SELECT ${siteId}::uuid, d FROM unnest(${array([...days].sort(), 'date')}) AS d
            ON CONFLICT (site_id, day) DO UPDATE SET marked_at = dirty_rollup_slices.marked_at`);
        }
      }
      return n;
    }));
    for (const [siteId, id] of staleIds) counters.forgetSession(siteId, id);
    return n;
  } catch (error) {
    counters.restore(taken);
    throw error;
  }
}

/**
 * The batches of a group that must wait (no database access): a heartbeat or end of a session
 * neither written (`written`) nor started by a batch of the group that goes ahead.
 */
export function waitingBatches(batches: QueuedBatch[], written: KnownSessions): Set<number> {
  const waiting = new Set<number>();
  // Starts carried by batches that go ahead count; a batch held back holds back the starts it carries.
  for (let changed = true; changed;) {
    changed = false;
    const started = new WrittenSessions();
    batches.forEach(({ siteId, events }, i) => {
      if (waiting.has(i)) return;
      for (const e of events) if (e.type === 'session.start') started.add(siteId, e.sessionId.toLowerCase());
    });
    batches.forEach(({ siteId, events }, i) => {
      if (waiting.has(i)) return;
      const missing = events.some((e) => {
        if (e.type === 'session.start') return false;
        const id = e.sessionId.toLowerCase();
        return !written.has(siteId, id) && !started.has(siteId, id);
      });
      if (missing) {
        waiting.add(i);
        changed = true;
      }
    });
  }
  return waiting;
}

/**
 * The sessions of `batch` whose start is nowhere: neither written nor carried by any batch of the
 * group (`<site id>:<session id>`). A batch given up on keeps everything else.
 */
export function sessionsWithoutStart(batch: QueuedBatch, group: QueuedBatch[], written: KnownSessions): Set<string> {
  const started = new Set<string>();
  for (const { siteId, events } of group) for (const e of events) if (e.type === 'session.start') started.add(`${siteId}:${e.sessionId.toLowerCase()}`);
  const missing = new Set<string>();
  for (const e of batch.events) {
    const key = `${batch.siteId}:${e.sessionId.toLowerCase()}`;
    if (e.type !== 'session.start' && !written.has(batch.siteId, e.sessionId.toLowerCase()) && !started.has(key)) missing.add(key);
  }
  return missing;
}

/** Why an accepted event was not placed (common/ingest-contract.ts lists them for the readers). */
export type DeadLetterReason = IngestDeadLetterReason;

export interface DeadLetter {
  siteId: string;
  reason: DeadLetterReason;
  detail: string;
  /** The event as received (or, for an unreadable message, `{ text }`). */
  payload: unknown;
  eventId: string;
}

/**
 * Records events no consumer can place (issue 37): one row per (site, event id), so a redelivery
 * after a crash records nothing twice; returns how many rows are new. Never drops: the caller
 * acknowledges the message only after this committed.
 */
export async function recordDeadLetters(db: Db | SqlRunner, letters: DeadLetter[]): Promise<number> {
  if (letters.length === 0) return 0;
  const rows = await queryRows<{ event_id: string }>(db, sql`
    INSERT INTO ingest_dead_letters (site_id, event_id, reason, detail, payload)
    SELECT x.site_id::uuid, x.event_id, x.reason, x.detail, x.payload
    FROM json_to_recordset(${json(letters.map((l) => ({ site_id: l.siteId, event_id: l.eventId, reason: l.reason, detail: l.detail, payload: l.payload })))})
      AS x(site_id text, event_id text, reason text, detail text, payload jsonb)
    ORDER BY x.site_id, x.event_id
    ON CONFLICT (site_id, event_id) DO NOTHING
    RETURNING event_id`);
  return rows.length;
}

/** Dead letters of a site per reason (every reason, 0 where none), and the newest one's time. */
export async function deadLetterCounts(db: Db, siteId: string): Promise<{ reason: DeadLetterReason; events: number; lastAt: string | null }[]> {
  const rows = await queryRows<{ reason: string; events: number; last_at: string | null }>(db, sql`
    SELECT reason, count(*)::int AS events, to_char(max(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_at
    FROM ingest_dead_letters WHERE site_id = ${siteId}::uuid GROUP BY reason`);
  const byReason = new Map(rows.map((r) => [r.reason, r]));
  return INGEST_DEAD_LETTER_REASONS.map((reason) => ({ reason, events: byReason.get(reason)?.events ?? 0, lastAt: byReason.get(reason)?.last_at ?? null }));
}

/**
 * Session lock slots per site. A flush of 10,000 events can name 10,000 sessions; one lock each filled
 * PostgreSQL's shared lock table (max_locks_per_transaction 64 × max_connections 100 = 6,400 slots):
 * 9,500–12,000 locks were seen held at once beside two consumers, and every other transaction of the
 * server could then fail with "out of shared memory". Sessions share a slot by hash instead, so a
 * flush holds at most this many locks.
 */
export const SESSION_LOCK_SLOTS = 512;

/**
 * The advisory lock of one session of a site: two int4 halves (a key space apart from the one-bigint
 * locks of the rollup fold), the site's hash and the session's slot. Consumers take their sessions'
 * locks sorted by this key, so two consumers touching the same sessions (or slots) in any order wait
 * for each other instead of deadlocking.
 */
export function sessionLockKey(siteId: string, sessionId: string): [number, number] {
  return [sessionLockSite(siteId), sessionLockSlot(siteId, sessionId)];
}

/** The site half of sessionLockKey. */
function sessionLockSite(siteId: string): number {
  return createHash('sha256').update(`ingest-session:${siteId}`).digest().readInt32BE(0);
}

/**
 * Slots already hashed, by site and then session id (no key text made per look-up): a session sends a heartbeat every few seconds, so
 * a consumer hashes each once instead of once per flush (SHA-256 of a flush's 10,000 sessions took
 * ~30 ms of the consumer's CPU). Bounded: cleared whole past 200,000 entries.
 */
const lockSlots = new Map<string, Map<string, number>>();
let lockSlotCount = 0;

/** The slot half of sessionLockKey. */
function sessionLockSlot(siteId: string, sessionId: string): number {
  let site = lockSlots.get(siteId);
  if (!site) lockSlots.set(siteId, (site = new Map()));
  let slot = site.get(sessionId);
  if (slot === undefined) {
    slot = createHash('sha256').update(`${siteId}:${sessionId}`).digest().readUInt32BE(0) % SESSION_LOCK_SLOTS;
    if (lockSlotCount >= 200_000) {
      lockSlots.clear();
      lockSlotCount = 0;
      lockSlots.set(siteId, (site = new Map()));
    }
    site.set(sessionId, slot);
    lockSlotCount += 1;
  }
  return slot;
}

export interface WriteResult {
  /** Events written for the first time. */
  written: number;
  /** Events whose id was already written (a redelivery, a resent batch, a repeat inside the group). */
  duplicates: number;
}

/**
 * Writes a group of queued batches (of any sites) in one transaction, taken again (with jitter)
 * after a deadlock or serialization failure; IngestBusy when the tries run out.
 *
 * Exactly once without a row per event (issue 42; docs/data-model.md "The window"): the same batch
 * published again within INGEST_DUPLICATE_WINDOW_MS is stored once by the stream (JetStream's
 * duplicate_window on the batch's message id; the memory queue's the same). Everything else that
 * comes again (a message delivered again after a crash between commit and acknowledgement, a copy
 * published after the window, a batch cut differently) is caught here, in the same transaction, by
 * the raw tables' keys: a start inserts no second row of its session (one row per (site, id)), a
 * heartbeat inserts nothing on (site, event id, at) (ON CONFLICT DO NOTHING RETURNING: only the
 * heartbeats returned count in the session), an end whose time is already the session's end is
 * dropped (ends are idempotent anyway: the earliest end, the largest cumulative counters). Rollup
 * slices are marked only from rows this transaction inserted or updated (RETURNING), and the fold
 * re-aggregates them from the raw rows, so a batch written twice counts once and, written again
 * whole, marks nothing. What only a per-event record caught: an event id reused with another time is
 * a new heartbeat.
 */
export async function writeBatches(db: Db, batches: QueuedBatch[], known?: KnownSessions, counters?: SessionCounters): Promise<WriteResult> {
  const bySite = new Map<string, PlayerEvent[]>();
  for (const { siteId, events } of batches) bySite.set(siteId, [...(bySite.get(siteId) ?? []), ...events]);
  const total = batches.reduce((n, b) => n + b.events.length, 0);
  // The day partitions the rows go to, before the write transaction (a known day costs nothing). If
  // this fails (a lock timeout), the default partition takes the rows and the maintenance moves
  // them into their day later: never a failed insert for a missing day.
  const rowsByDay = new Map<string, number>();
  for (const { events } of batches) {
    for (const e of events) {
      if (e.type === 'session.end') continue;
      // Once per event: a Date made and printed per call, ~10 ms of a flush's CPU each time.
      const day = utcDayOf(e.at);
      rowsByDay.set(day, (rowsByDay.get(day) ?? 0) + 1);
    }
  }
  await ensureRawHistoryDays(db, rowsByDay.keys()).catch(() => 0);
  const { written, sessions, staged } = await withRetries(() => db.transaction(async (tx) => {
    let events = 0;
    const inserted: [string, string][] = [];
    // What the counters learn from this transaction, applied to them only once it has committed.
    const changes: SessionChanges[] = [];
    for (const siteId of [...bySite.keys()].sort(byText)) {
      const site = await writeSiteEvents(tx, siteId, bySite.get(siteId)!, counters);
      events += site.events;
      for (const id of site.sessions) inserted.push([siteId, id.toLowerCase()]);
      changes.push(site.changes);
    }
    return { written: events, sessions: inserted, staged: changes };
  }));
  // Committed: the sessions inserted are written for good (the caller's cache, batchesWaitingForStarts).
  for (const [siteId, id] of sessions) known?.add(siteId, id);
  if (counters) for (const c of staged) applyChanges(counters, c);
  // Statistics of the days written to, while they are young (see analyzeGrowingDays).
  await analyzeGrowingDays(db, rowsByDay);
  return { written, duplicates: total - written };
}

/*
 * Lock order of a consumer's transaction (every consumer takes its locks in this order, each kind
 * sorted, so no two can wait for each other in a circle): sites sorted; per site its sessions'
 * advisory locks (sorted by key), then session rows and
 * heartbeats (only under those locks), then the dirty-slice rows (sorted by day). Fold workers share
 * slices out by a try-lock per slice, hold no dirty-slice row while they fold, and lock the rows they
 * delete in the same (site, day) order at the very end; they never take a session lock.
 */
async function writeSiteEvents(tx: SqlRunner, siteId: string, events: PlayerEvent[], counters?: SessionCounters): Promise<{ events: number; sessions: string[]; changes: SessionChanges }> {
  const changes: SessionChanges = { siteId, remember: new Map(), forget: new Set(), drop: new Set(), add: [] };
  const written = { events: 0, sessions: [] as string[], changes };
  const days = new Set<string>();
  // No idempotency row per event (issue 42): a repeat is caught by the raw tables' keys below.
  const todo = firstOccurrences(events).map(({ e }) => e);
  if (todo.length === 0) return written;
  // Events that changed nothing because they were written before (counted as duplicates).
  let duplicates = 0;
  // The rollup slices are the site's days, in its zone (issue 38).
  const zone = await siteTimeZone(tx, siteId);

  const sessionIds = [...new Set(todo.map((e) => e.sessionId.toLowerCase()))].sort(byText);
  // One site: its half of the key is the same for every session (sessionLockKey's), hashed once.
  const siteKey = sessionLockSite(siteId);
  const slots = [...new Set(sessionIds.map((id) => sessionLockSlot(siteId, id)))].sort((a, b) => a - b);
  await tx.execute(sql`
    SELECT count(pg_advisory_xact_lock(${siteKey}::int, x.b)) FROM unnest(${array(slots, 'int')}) AS x(b)`);

  const starts = todo.filter((e): e is SessionStartEvent => e.type === 'session.start');
  let updates = todo.filter((e): e is HeartbeatEvent | SessionEndEvent => e.type !== 'session.start');
  let unplaced = 0;
  if (starts.length > 0) {
    // A subscriber deleted between the producer's check and this write leaves no session (the JOIN).
    // One row per (site, session id): the key is (site, id, started_at) since the table is partitioned
    // by day (0017), so a second start of a session (another event id, another time) is kept out by
    // taking the first start per session here and, against stored sessions, by NOT EXISTS under the
    // session's advisory lock (taken above); ON CONFLICT still catches the same start again.
    const firstStart = new Map<string, SessionStartEvent>();
    for (const e of starts) if (!firstStart.has(e.sessionId.toLowerCase())) firstStart.set(e.sessionId.toLowerCase(), e);
    const sortedStarts = [...firstStart.values()].sort((a, b) => byText(a.sessionId.toLowerCase(), b.sessionId.toLowerCase()));
    // An earlier start of the same session (another event id, another time) is looked for in the
    // days from SESSION_SEARCH_DAYS_BEFORE before these starts to a day after them: a constant range,
    // so the planner probes those few day partitions only. Without it every kept day's partition (90
    // by default) was probed per start: 35-40 % of a consumer's write in the bench (issue 42). The same
    // start again (a resend) has the same time and is kept out by the key (ON CONFLICT) anyway.
    const startTimes = sortedStarts.map((e) => Date.parse(e.at));
    const startsFrom = new Date(Math.min(...startTimes) - SESSION_SEARCH_DAYS_BEFORE * 86_400_000).toISOString();
    const startsTo = new Date(Math.max(...startTimes) + 86_400_000).toISOString();
    const inserted = await queryRows<{ id: string; day: string; started_at: string; started_epoch: number | string }>(tx, sql`
      INSERT INTO playback_sessions (id, site_id, network_id, subscriber_id, content_id, device_id, device_type, country, isp, cdn,
        started_at, last_event_at, startup_ms, plan_id, series_id,
        os, os_version, browser, player_name, player_version, app_version, region, stream_type, source_host)
      SELECT x.session_id::uuid, ${siteId}::uuid, coalesce(x.network_id::uuid, s.network_id), s.id, x.content_id::uuid, x.device_id::uuid,
        x.device_type, x.country, x.isp, x.cdn, x.at::timestamptz, x.at::timestamptz, x.startup_ms,
        (SELECT sub.plan_id FROM subscriptions sub WHERE sub.subscriber_id = s.id AND sub.started_at <= x.at::timestamptz
          ORDER BY sub.started_at DESC LIMIT 1),
        -- The title's series, fixed at the start like the plan (issue 41): the content row is joined anyway.
        c.series_id,
        x.os, x.os_version, x.browser, x.player_name, x.player_version, x.app_version, x.region, x.stream_type, x.source_host
      -- The starts drive the statement: each looks up its viewer and title by key (LATERAL, fenced by
      -- OFFSET 0 so the planner cannot turn it back into a join of its choice). Planned as joins, the
      -- site's few titles (an estimate of 1 row) went outside a nested loop and the starts inside it:
      -- the whole list read again per title (61 times, 0.4 of the 0.67 s of a flush of 10,000 starts
      -- in the bench; 1.4 s once the list was an array).
      FROM unnest(${array(sortedStarts.map((_, n) => n), 'int')}, ${array(sortedStarts.map((e) => e.sessionId), 'text')},
        ${array(sortedStarts.map((e) => e.subscriberId), 'text')}, ${array(sortedStarts.map((e) => e.contentId), 'text')},
        ${array(sortedStarts.map((e) => e.networkId ?? null), 'text')}, ${array(sortedStarts.map((e) => e.deviceId ?? null), 'text')},
        ${array(sortedStarts.map((e) => e.deviceType), 'text')}, ${array(sortedStarts.map((e) => e.country), 'text')},
        ${array(sortedStarts.map((e) => e.isp), 'text')}, ${array(sortedStarts.map((e) => e.cdn), 'text')},
        ${array(sortedStarts.map((e) => e.at), 'text')}, ${array(sortedStarts.map((e) => e.startupMs), 'int')},
        -- What the player did not report is '' (and a stream type, 'vod'): the columns' defaults (migration 0040).
        ${array(sortedStarts.map((e) => e.os ?? ''), 'text')}, ${array(sortedStarts.map((e) => e.osVersion ?? ''), 'text')},
        ${array(sortedStarts.map((e) => e.browser ?? ''), 'text')}, ${array(sortedStarts.map((e) => e.playerName ?? ''), 'text')},
        ${array(sortedStarts.map((e) => e.playerVersion ?? ''), 'text')}, ${array(sortedStarts.map((e) => e.appVersion ?? ''), 'text')},
        ${array(sortedStarts.map((e) => e.region ?? ''), 'text')}, ${array(sortedStarts.map((e) => e.streamType ?? 'vod'), 'text')},
        ${array(sortedStarts.map((e) => e.sourceHost ?? ''), 'text')})
        AS x(n, session_id, subscriber_id, content_id, network_id, device_id, device_type, country, isp, cdn, at, startup_ms,
          os, os_version, browser, player_name, player_version, app_version, region, stream_type, source_host)
      JOIN LATERAL (SELECT s.id, s.network_id FROM subscribers s WHERE s.id = x.subscriber_id::uuid AND s.site_id = ${siteId}::uuid OFFSET 0) s ON true
      JOIN LATERAL (SELECT c.series_id FROM content_items c WHERE c.id = x.content_id::uuid AND c.site_id = ${siteId}::uuid OFFSET 0) c ON true
      WHERE (x.network_id IS NULL OR EXISTS (SELECT 1 FROM networks n WHERE n.id = x.network_id::uuid AND n.site_id = ${siteId}::uuid))
        AND NOT EXISTS (SELECT 1 FROM playback_sessions e WHERE e.site_id = ${siteId}::uuid AND e.id = x.session_id::uuid
          AND e.started_at >= ${startsFrom}::timestamptz AND e.started_at <= ${startsTo}::timestamptz)
      ORDER BY x.n
      ON CONFLICT (site_id, id, started_at) DO NOTHING
      RETURNING id::text, to_char(${siteDay(sql`started_at`, zone)}, 'YYYY-MM-DD') AS day,
        started_at::text, extract(epoch FROM started_at)::float8 AS started_epoch`);
    for (const row of inserted) {
      written.sessions.push(row.id);
      days.add(row.day);
      changes.remember.set(row.id.toLowerCase(), { startedAt: row.started_at, startedEpoch: Number(row.started_epoch), endedAt: null, endedMs: null, endedUs: null });
    }
    if (inserted.length < sortedStarts.length) {
      // Starts neither inserted nor already stored: their subscriber, title or network is not one of
      // this site (the producer no longer looks them up, issue 42; or a subscriber deleted after the
      // answer 202). The start and this group's events of its session go to the dead letters.
      const stored = await queryRows<{ id: string }>(tx, sql`
        SELECT p.id::text FROM playback_sessions p
        WHERE p.site_id = ${siteId}::uuid AND p.id IN (SELECT value::uuid FROM json_array_elements_text(${json(sortedStarts.map((e) => e.sessionId))}))`);
      const placed = new Set([...stored.map((r) => r.id.toLowerCase())]);
      // A start of a session already stored (this start again, or another start of it): nothing new.
      const insertedIds = new Set(inserted.map((r) => r.id.toLowerCase()));
      duplicates += sortedStarts.filter((e) => placed.has(e.sessionId.toLowerCase()) && !insertedIds.has(e.sessionId.toLowerCase())).length;
      const lostStarts = sortedStarts.filter((e) => !placed.has(e.sessionId.toLowerCase()));
      if (lostStarts.length > 0) {
        const why = await queryRows<{ session_id: string; subscriber: boolean; content: boolean }>(tx, sql`
          SELECT x.session_id,
            EXISTS (SELECT 1 FROM subscribers s WHERE s.id = x.subscriber_id::uuid AND s.site_id = ${siteId}::uuid) AS subscriber,
            EXISTS (SELECT 1 FROM content_items c WHERE c.id = x.content_id::uuid AND c.site_id = ${siteId}::uuid) AS content
          FROM json_to_recordset(${json(lostStarts.map((e) => ({ session_id: e.sessionId.toLowerCase(), subscriber_id: e.subscriberId, content_id: e.contentId })))})
            AS x(session_id text, subscriber_id text, content_id text)`);
        const reasons = new Map<string, { reason: DeadLetterReason; detail: string }>();
        // By id: a flush of 10,000 lost starts searched the list once per start (3-4 s of CPU).
        const lostById = new Map(lostStarts.map((e) => [e.sessionId.toLowerCase(), e]));
        for (const r of why) {
          const start = lostById.get(r.session_id)!;
          reasons.set(r.session_id, !r.subscriber
            ? { reason: 'subscriber-missing', detail: `Session ${start.sessionId} could not be written: subscriber ${start.subscriberId} is not a subscriber of this site.` }
            : !r.content
              ? { reason: 'content-missing', detail: `Session ${start.sessionId} could not be written: content ${start.contentId} is not a content item of this site.` }
              : { reason: 'network-missing', detail: `Session ${start.sessionId} could not be written: network ${start.networkId ?? ''} is not a network of this site.` });
        }
        const lost = new Set(reasons.keys());
        const events = todo.filter((e) => lost.has(e.sessionId.toLowerCase()));
        await recordDeadLetters(tx, events.map((e) => ({ siteId, eventId: e.eventId, payload: e, ...reasons.get(e.sessionId.toLowerCase())! })));
        updates = updates.filter((e) => !lost.has(e.sessionId.toLowerCase()));
        unplaced = events.length;
      }
    }
  }
  const heartbeats = updates.filter((e): e is HeartbeatEvent => e.type === 'heartbeat');
  // Heartbeats the insert below refused by the key (site, event id, at): the same heartbeat again (a
  // redelivery, a copy past the stream's duplicate window). They count for nothing in the sessions.
  let repeated = new Set<string>();
  if (heartbeats.length > 0) {
    // Every heartbeat is kept as received (also one after its session's end): the session's
    // counters below are computed from these rows, so they do not depend on the order of arrival.
    //
    // First a plain insert in a savepoint: almost every flush is new, and a plain insert costs ~15 %
    // less than one ON CONFLICT DO NOTHING (its speculative insertion; 196-202 vs 228-243 ms for
    // 10,000 rows on PostgreSQL 15 here) and needs no RETURNING. A key already there (a redelivery, a
    // copy past the stream's duplicate window: unique_violation) undoes it, and the same rows go
    // again with ON CONFLICT DO NOTHING, which returns only the heartbeats not inserted. The event ids
    // of a group are distinct (firstOccurrences), so "not returned" is "refused by the key".
    const sorted = [...heartbeats].sort((a, b) => byText(a.eventId, b.eventId));
    const rows = sql`unnest(${array(sorted.map((e) => e.eventId), 'text')}, ${array(sorted.map((e) => e.sessionId), 'uuid')},
      ${array(sorted.map((e) => e.at), 'timestamptz')}, ${array(sorted.map((e) => e.playheadSeconds), 'int')},
      ${array(sorted.map((e) => e.watchedSeconds), 'int')}, ${array(sorted.map((e) => e.bitrateKbps), 'int')},
      ${array(sorted.map((e) => e.rebufferCount), 'int')}, ${array(sorted.map((e) => e.rebufferMs), 'int')})
      AS x(event_id, session_id, at, playhead, watched, bitrate, rebuffer_count, rebuffer_ms)`;
    const insert = sql`INSERT INTO player_heartbeats (site_id, event_id, session_id, at, playhead_seconds, watched_seconds, bitrate_kbps, rebuffer_count, rebuffer_ms)
      SELECT ${siteId}::uuid, x.event_id, x.session_id, x.at, x.playhead, x.watched, x.bitrate, x.rebuffer_count, x.rebuffer_ms`;
    await tx.execute(sql`SAVEPOINT heartbeats`);
    try {
      await tx.execute(sql`${insert} FROM ${rows}`);
      await tx.execute(sql`RELEASE SAVEPOINT heartbeats`);
    } catch (error) {
      if (sqlState(error) !== '23505') throw error;
      await tx.execute(sql`ROLLBACK TO SAVEPOINT heartbeats`);
      const refused = await queryRows<{ event_id: string }>(tx, sql`
        WITH x AS (SELECT * FROM ${rows}),
        stored AS (${insert} FROM x ON CONFLICT (site_id, event_id, at) DO NOTHING RETURNING event_id)
        SELECT x.event_id FROM x WHERE NOT EXISTS (SELECT 1 FROM stored WHERE stored.event_id = x.event_id)`);
      repeated = new Set(refused.map((r) => r.event_id));
    }
  }
  duplicates += repeated.size;
  let applied = repeated.size === 0 ? updates : updates.filter((e) => e.type !== 'heartbeat' || !repeated.has(e.eventId));
  // The stored sessions these events apply to, with their partition key (started_at) and end, read
  // under the sessions' advisory locks: the update below goes straight to their rows.
  // With counters in memory (issue 42), the sessions this process wrote or looked up are not looked up
  // again; and the sessions of heartbeats refused as repeats are counted again from the stored ones
  // (below), since the process that wrote them may have died before their rows were written.
  const repeatedSessions = counters && repeated.size > 0
    ? new Set(heartbeats.filter((e) => repeated.has(e.eventId)).map((e) => e.sessionId.toLowerCase())) : new Set<string>();
  const fresh = new Set([...repeatedSessions, ...applied.filter((e) => e.type === 'session.end').map((e) => e.sessionId.toLowerCase())]);
  const stored = applied.length === 0 && repeatedSessions.size === 0 ? new Map<string, StoredSession>()
    : await sessionsOf(tx, siteId, new Set([...applied.map((e) => e.sessionId.toLowerCase()), ...repeatedSessions]),
      repeatedSessions.size === 0 ? applied.map((e) => e.at) : [...applied, ...heartbeats].map((e) => e.at), counters, changes, fresh);
  const appliedIds = new Set(applied.map((e) => e.sessionId.toLowerCase()));
  const targets = repeatedSessions.size === 0 ? stored : new Map([...stored].filter(([id]) => appliedIds.has(id)));
  // An end at the session's stored end is that end again (or one of the same moment): it changes
  // nothing, so it is dropped here and a batch written again whole marks no slice.
  const endedAgain = applied.filter((e) => e.type === 'session.end' && targets.get(e.sessionId.toLowerCase())?.endedMs === Math.floor(Date.parse(e.at)));
  if (endedAgain.length > 0) {
    duplicates += endedAgain.length;
    const again = new Set(endedAgain);
    applied = applied.filter((e) => !again.has(e));
    const left = new Set(applied.map((a) => a.sessionId.toLowerCase()));
    for (const e of endedAgain) if (!left.has(e.sessionId.toLowerCase())) targets.delete(e.sessionId.toLowerCase());
  }
  // Two updates: the sessions this group ends, whose stored heartbeats may have to be read again
  // (the LATERAL below), and the others (most: a flush of heartbeats names ~10,000 sessions and ends
  // a few dozen), whose update reads no heartbeat. One statement for both rescanned the LATERAL's
  // append over every kept day's heartbeat partition once per session, to read nothing: ~30 % of the
  // update's time in the bench (issue 42).
  const ending = new Set(applied.filter((e) => e.type === 'session.end').map((e) => e.sessionId.toLowerCase()));
  const withEnds = [...targets].filter(([id]) => ending.has(id));
  const withoutEnds = [...targets].filter(([id]) => !ending.has(id));
  // Sessions counted again from their stored heartbeats after the updates below: with counters, those
  // of heartbeats refused as repeats (one of them counts: not after the session's end), unless this
  // group's end sets or moves their end (the end's update reads the stored heartbeats anyway).
  const recount = new Map<string, StoredSession>();
  if (counters) {
    const firstEnd = new Map<string, number>();
    for (const e of applied) {
      if (e.type !== 'session.end') continue;
      const id = e.sessionId.toLowerCase();
      firstEnd.set(id, Math.min(firstEnd.get(id) ?? Infinity, epochMicros(e.at)));
    }
    for (const [id, us] of firstEnd) {
      // Its end is written now: its start and end are looked up again when next needed.
      changes.forget.add(id);
      const endedUs = targets.get(id)?.endedUs ?? null;
      // The end's update counts the session again from every stored heartbeat: nothing is owed any more.
      if (endedUs === null || us < endedUs) changes.drop.add(id);
    }
    for (const e of heartbeats) {
      if (!repeated.has(e.eventId)) continue;
      const id = e.sessionId.toLowerCase();
      const session = stored.get(id);
      if (!session || changes.drop.has(id) || (session.endedUs !== null && epochMicros(e.at) > session.endedUs)) continue;
      recount.set(id, session);
    }
  }
  for (const sessions of [withEnds, withoutEnds]) {
    if (sessions.length === 0) continue;
    const ends = sessions === withEnds;
    if (counters && !ends) {
      // Owed to the rows, written by applySessionCounters: the heartbeats that count (not after the
      // session's stored end), except those of sessions counted again below.
      for (const e of applied) {
        if (e.type !== 'heartbeat') continue;
        const id = e.sessionId.toLowerCase();
        const session = targets.get(id);
        if (!session || ending.has(id) || recount.has(id)) continue;
        if (session.endedUs !== null && epochMicros(e.at) > session.endedUs) continue;
        changes.add.push({ id, session, hb: e });
      }
      continue;
    }
    const ids = new Set(sessions.map(([id]) => id));
    const events = sessions.length === targets.size ? applied : applied.filter((e) => ids.has(e.sessionId.toLowerCase()));
    // The sessions' earliest and latest start, as PostgreSQL wrote them (no round trip to find them).
    const bounds = sessionBounds(sessions);
    // Counters are cumulative: a session keeps the largest value seen, whatever the order of
    // arrival, from its stored heartbeats up to its end (the earliest session.end) and its ends;
    // avg_bitrate_kbps is an end's own figure, else the mean bitrate of those heartbeats. Once
    // ended, the values it had stay (they already follow this rule).
    //
    // One statement for every session of the group, set-based and incremental (issue 31): `u` folds
    // the group's heartbeats dated up to the session's end (the stored one: `s`, read under the
    // session's advisory lock) into maxima, a bitrate sum and a count, which are added to the
    // session's; stored heartbeats are read again (`r`, the session + at index) only for a session
    // whose end this group sets or moves earlier, once per session in practice. Re-reading every
    // stored heartbeat of every session of every group made a consumer's write grow with the
    // sessions' age (7.6 s per group of 5,000 sessions in the bench before this).
    const updated = await queryRows<{ day: string }>(tx, sql`
      UPDATE playback_sessions p SET
        watched_seconds = CASE WHEN u.moves
          THEN coalesce(greatest(r.watched, u.end_watched, CASE WHEN p.ended_at IS NOT NULL THEN p.watched_seconds END), 0)
          ELSE greatest(p.watched_seconds, u.hb_watched, u.end_watched) END,
        rebuffer_count = CASE WHEN u.moves
          THEN coalesce(greatest(r.rebuffer_count, u.end_rebuffer_count, CASE WHEN p.ended_at IS NOT NULL THEN p.rebuffer_count END), 0)
          ELSE greatest(p.rebuffer_count, u.hb_rebuffer_count, u.end_rebuffer_count) END,
        rebuffer_seconds = CASE WHEN u.moves
          THEN coalesce(greatest(r.rebuffer_ms / 1000, u.end_rebuffer_ms / 1000, CASE WHEN p.ended_at IS NOT NULL THEN p.rebuffer_seconds END), 0)
          ELSE greatest(p.rebuffer_seconds, u.hb_rebuffer_ms / 1000, u.end_rebuffer_ms / 1000) END,
        last_event_at = CASE WHEN u.moves
          THEN greatest(p.started_at, r.last_at, u.end_last_at, CASE WHEN p.ended_at IS NOT NULL THEN p.last_event_at END)
          ELSE greatest(p.last_event_at, u.hb_last_at, u.end_last_at) END,
        heartbeat_count = CASE WHEN u.moves THEN r.n ELSE p.heartbeat_count + u.hb_n END,
        bitrate_kbps_sum = CASE WHEN u.moves THEN coalesce(r.bitrate_sum, 0) ELSE p.bitrate_kbps_sum + coalesce(u.hb_bitrate_sum, 0) END,
        avg_bitrate_kbps = coalesce(u.avg_bitrate,
          round((CASE WHEN u.moves THEN r.bitrate_sum ELSE p.bitrate_kbps_sum + u.hb_bitrate_sum END)::numeric
            / nullif(CASE WHEN u.moves THEN r.n ELSE p.heartbeat_count + u.hb_n END, 0))::int,
          p.avg_bitrate_kbps),
        ended_at = least(p.ended_at, u.ended_at),
        error_code = coalesce(p.error_code, u.error_code)
      FROM (
        SELECT x.session_id, x.started_at,
          (min(x.at::timestamptz) FILTER (WHERE x.ended)) < coalesce(x.stored_end, 'infinity'::timestamptz) AS moves,
          max(x.watched) FILTER (WHERE x.counted) AS hb_watched, max(x.rebuffer_count) FILTER (WHERE x.counted) AS hb_rebuffer_count,
          max(x.rebuffer_ms) FILTER (WHERE x.counted) AS hb_rebuffer_ms, max(x.at::timestamptz) FILTER (WHERE x.counted) AS hb_last_at,
          sum(x.bitrate) FILTER (WHERE x.counted) AS hb_bitrate_sum, count(*) FILTER (WHERE x.counted)::int AS hb_n,
          max(x.watched) FILTER (WHERE x.ended) AS end_watched, max(x.rebuffer_count) FILTER (WHERE x.ended) AS end_rebuffer_count,
          max(x.rebuffer_ms) FILTER (WHERE x.ended) AS end_rebuffer_ms, max(x.at::timestamptz) FILTER (WHERE x.ended) AS end_last_at,
          min(x.at::timestamptz) FILTER (WHERE x.ended) AS ended_at, max(x.error_code) AS error_code, max(x.avg_bitrate) AS avg_bitrate
        FROM (
          SELECT y.*, NOT y.ended AND y.at::timestamptz <= coalesce(s.ended_at, 'infinity'::timestamptz) AS counted, s.ended_at AS stored_end,
            s.started_at
          FROM unnest(${array(events.map((e) => e.sessionId), 'uuid')}, ${array(events.map((e) => e.at), 'timestamptz')},
            ${array(events.map((e) => e.watchedSeconds), 'int')}, ${array(events.map((e) => e.rebufferCount), 'int')},
            ${array(events.map((e) => e.rebufferMs), 'int')}, ${array(events.map((e) => (e.type === 'heartbeat' ? e.bitrateKbps : null)), 'int')},
            ${array(events.map((e) => e.type === 'session.end'), 'boolean')}, ${array(events.map((e) => (e.type === 'session.end' ? e.errorCode ?? null : null)), 'text')},
            ${array(events.map((e) => (e.type === 'session.end' ? e.avgBitrateKbps ?? null : null)), 'int')})
            AS y(session_id, at, watched, rebuffer_count, rebuffer_ms, bitrate, ended, error_code, avg_bitrate)
          JOIN unnest(${array(sessions.map(([id]) => id), 'uuid')}, ${array(sessions.map(([, t]) => t.startedAt), 'timestamptz')},
            ${array(sessions.map(([, t]) => t.endedAt), 'timestamptz')}) AS s(id, started_at, ended_at) ON s.id = y.session_id
        ) x
        GROUP BY x.session_id, x.stored_end, x.started_at
      ) u
      ${ends ? sql`LEFT JOIN LATERAL (
        SELECT max(h.watched_seconds) AS watched, max(h.rebuffer_count) AS rebuffer_count, max(h.rebuffer_ms) AS rebuffer_ms,
          max(h.at) AS last_at, sum(h.bitrate_kbps) AS bitrate_sum, count(*)::int AS n
        FROM (
          -- OFFSET 0 keeps the site test out of the index search: by the (site, event id) key it
          -- read every heartbeat of the site for each ending session.
          SELECT * FROM player_heartbeats h WHERE u.moves AND h.session_id = u.session_id AND h.at <= u.ended_at OFFSET 0) h
        WHERE h.site_id = ${siteId}::uuid
      ) r ON true` : sql`-- Without an end in the group u.moves is never true: r (what the LATERAL would read) is unused.
      CROSS JOIN (SELECT NULL::int AS watched, NULL::int AS rebuffer_count, NULL::int AS rebuffer_ms, NULL::timestamptz AS last_at,
        NULL::bigint AS bitrate_sum, NULL::int AS n) r`}
      -- started_at (the partition key) takes the update straight to the session's day.
      -- The constant range lets the planner keep only the partitions of these sessions' days.
      WHERE p.site_id = ${siteId}::uuid AND p.id = u.session_id AND p.started_at = u.started_at
        AND p.started_at >= ${bounds.lo}::timestamptz AND p.started_at <= ${bounds.hi}::timestamptz
      RETURNING to_char(${siteDay(sql`p.started_at`, zone)}, 'YYYY-MM-DD') AS day`);
    for (const row of updated) days.add(row.day);
  }
  if (recount.size > 0) {
    for (const day of await recountSessions(tx, siteId, zone, [...recount])) days.add(day);
    for (const id of recount.keys()) changes.drop.add(id);
  }
  // The slices to fold: the site's days the sessions written or updated started on (from the two
  // statements above, RETURNING). DO UPDATE (not DO NOTHING) makes a new version of a mark that is
  // there, so a fold that read the mark (and the sessions) before this commit leaves it for the next
  // fold; it keeps the first mark's time, so marked_at is the age of the oldest write not yet folded.
  if (days.size > 0) {
    await tx.execute(sql`
      INSERT INTO dirty_rollup_slices (site_id, day)
      SELECT ${siteId}::uuid, d FROM unnest(${array([...days].sort(), 'date')}) AS d
      ON CONFLICT (site_id, day) DO UPDATE SET marked_at = dirty_rollup_slices.marked_at`);
  }
  written.events = todo.length - duplicates - unplaced;
  return written;
}

/**
 * Folds up to `limit` dirty slices in one transaction: takes a try-lock per slice (a slice another
 * worker holds is left to it), reads each mark's version, re-aggregates each slice with the
 * rebuild's SQL (foldPlaybackDays) and deletes the marks still at the version it read. Returns how
 * many slices it folded (0: none left that no other worker holds).
 */
export async function foldDirtySlices(db: Db, limit = 20): Promise<number> {
  return withRetries(() => db.transaction(async (tx) => {
    // No row lock on the marks while folding: a consumer's mark (ON CONFLICT DO UPDATE) would wait
    // for the whole fold. Fold workers share out slices by a try-lock per slice instead, and note
    // each mark's version (xmin): the DELETE below removes only marks no consumer has renewed since.
    const slices = await queryRows<{ site_id: string; day: string; version: string }>(tx, sql`
      SELECT d.site_id, d.day, d.version FROM (
        SELECT site_id::text AS site_id, to_char(day, 'YYYY-MM-DD') AS day, xmin::text AS version FROM dirty_rollup_slices
        ORDER BY site_id, day LIMIT ${limit * 5}) d
      WHERE ${tryLockRollupDay(sql`d.site_id`, sql`d.day`)}
      LIMIT ${limit}`);
    if (slices.length === 0) return 0;
    const bySite = new Map<string, string[]>();
    for (const s of slices) bySite.set(s.site_id, [...(bySite.get(s.site_id) ?? []), s.day]);
    for (const [siteId, days] of [...bySite].sort(([a], [b]) => byText(a, b))) await foldPlaybackDays(tx, siteId, days);
    // Locked in (site, day) order, as consumers take them, and only while deleting: a mark a
    // consumer renewed meanwhile (a new version) stays for the next fold.
    await tx.execute(sql`
      WITH seen AS (
        SELECT d.site_id, d.day FROM dirty_rollup_slices d
        JOIN json_to_recordset(${json(slices)}) AS x(site_id text, day text, version text)
          ON d.site_id = x.site_id::uuid AND d.day = x.day::date AND d.xmin = x.version::xid
        ORDER BY d.site_id, d.day
        FOR UPDATE OF d)
      DELETE FROM dirty_rollup_slices d USING seen WHERE d.site_id = seen.site_id AND d.day = seen.day`);
    return slices.length;
  }));
}

/** Slices waiting for a fold (bench, tests). */
export async function dirtySliceCount(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM dirty_rollup_slices`);
  return row!.n;
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
