/**
 * A consumer's session state in memory (issue 42): what it knows of the sessions of the partitions it
 * owns, and the heartbeats it has written but not yet added to their sessions' rows.
 *
 * Before this, every flush updated the row of every session it named: with a heartbeat a second, a
 * flush of 10,000 heartbeats updated ~10,000 session rows, the largest statement of the write (about
 * 160 of 355 ms of PostgreSQL per flush in `npm run bench:ingest-write -- --steps`), and looked each
 * session up first (~45 ms). A consumer that owns a session's partition is the only writer of that
 * session (server/domain/ingest-partitions.ts), so it can keep the session's start and end in memory
 * and add its heartbeats up here, writing each session's row once every INGEST_SESSION_FLUSH_MS
 * (applySessionCounters) instead of once per flush.
 *
 * Nothing is lost by a crash: the heartbeats themselves are inserted with each flush, and the
 * messages that carried them are acknowledged only once their sessions' rows are written. A consumer
 * that dies in between leaves its messages to be delivered again; their heartbeats are then refused by
 * the raw table's key, and their sessions are counted again from the stored heartbeats
 * (writeBatches' recount), which includes whatever this memory held.
 */

/** A stored session as the consumer's updates need it: partition key and end as PostgreSQL text (exact). */
export interface StoredSession {
  startedAt: string;
  /** started_at in epoch seconds (microseconds exact in a float8): orders the sessions without a round trip. */
  startedEpoch: number;
  endedAt: string | null;
  /** ended_at in epoch milliseconds (truncated), or null: an end sent again is recognised by its millisecond. */
  endedMs: number | null;
  /** ended_at in epoch microseconds (exact), or null: a heartbeat counts when it is not later. */
  endedUs: number | null;
}

/** The heartbeats of one session written and not yet in its row: maxima, a bitrate sum and a count. */
export interface PendingCounters {
  session: StoredSession;
  watched: number;
  rebufferCount: number;
  rebufferMs: number;
  /** The latest heartbeat's time as sent. */
  lastAt: string;
  bitrateSum: number;
  n: number;
}

/**
 * Epoch microseconds of a DATE_TIME_PATTERN string (up to 6 decimals, any offset): exact where
 * `Date.parse` keeps milliseconds only. NaN when unreadable.
 */
export function epochMicros(at: string): number {
  const ms = Date.parse(at);
  const dot = at.indexOf('.', 19);
  if (dot < 0) return ms * 1000;
  let digits = '';
  for (let i = dot + 1; i < at.length && at.charCodeAt(i) >= 48 && at.charCodeAt(i) <= 57; i += 1) digits += at[i];
  const micros = Number(`${digits}000000`.slice(3, 6));
  return ms * 1000 + micros;
}

/**
 * Whether event time `a` is later than `b`: two UTC times written alike ('…Z', as long) compare as
 * text (no parse: a flush compares ~10,000), others by their epoch microseconds.
 */
export function isLater(a: string, b: string): boolean {
  if (a.length === b.length && a.charCodeAt(a.length - 1) === 90 && b.charCodeAt(b.length - 1) === 90) return a > b;
  return epochMicros(a) > epochMicros(b);
}

/**
 * One consumer process's memory of its sessions: `known` (start and end of sessions it wrote or
 * looked up; bounded, forgotten whole when it takes partitions, since another process may have
 * changed them) and `pending` (counted heartbeats not in their rows yet, per site and session).
 */
export class SessionCounters {
  /** By site, then session id (no `<site>:<session>` text made per look-up). */
  private readonly known = new Map<string, Map<string, StoredSession>>();
  private knownCount = 0;
  private pending = new Map<string, Map<string, PendingCounters>>();
  constructor(private readonly maxKnown = 500_000) {}

  /** What is known of a site's session (`id` lower case). */
  session(siteId: string, id: string): StoredSession | undefined {
    return this.known.get(siteId)?.get(id);
  }

  remember(siteId: string, id: string, session: StoredSession): void {
    if (this.knownCount >= this.maxKnown) this.forgetKnown();
    let site = this.known.get(siteId);
    if (!site) this.known.set(siteId, (site = new Map()));
    if (!site.has(id)) this.knownCount += 1;
    site.set(id, session);
  }

  /** Forgets a session's start and end (its end was just written: looked up again when next needed). */
  forgetSession(siteId: string, id: string): void {
    if (this.known.get(siteId)?.delete(id)) this.knownCount -= 1;
  }

  /** Forgets every session's start and end (the process takes partitions another may have written). */
  forgetKnown(): void {
    this.known.clear();
    this.knownCount = 0;
  }

  /** Adds a counted heartbeat of a session to what its row is owed. */
  add(siteId: string, id: string, session: StoredSession, hb: { at: string; watchedSeconds: number; rebufferCount: number; rebufferMs: number; bitrateKbps: number }): void {
    this.owe(siteId, id, { session, watched: hb.watchedSeconds, rebufferCount: hb.rebufferCount, rebufferMs: hb.rebufferMs, lastAt: hb.at, bitrateSum: hb.bitrateKbps, n: 1 });
  }

  /** Drops what a session's row is owed (its row was just counted again from the stored heartbeats). */
  drop(siteId: string, id: string): void {
    this.pending.get(siteId)?.delete(id);
  }

  /** Sessions whose rows are owed heartbeats. */
  get pendingSessions(): number {
    let n = 0;
    for (const site of this.pending.values()) n += site.size;
    return n;
  }

  /** Takes everything owed (per site), leaving nothing; `restore` puts it back if its write failed. */
  take(): Map<string, Map<string, PendingCounters>> {
    const taken = this.pending;
    this.pending = new Map();
    return taken;
  }

  /** Puts back what a failed write took, merged with what was added since. */
  restore(taken: Map<string, Map<string, PendingCounters>>): void {
    for (const [siteId, sessions] of taken) for (const [id, p] of sessions) this.owe(siteId, id, p);
  }

  /** Adds counters to what a session's row is owed: maxima, the latest time, sums. */
  private owe(siteId: string, id: string, more: PendingCounters): void {
    let site = this.pending.get(siteId);
    if (!site) this.pending.set(siteId, (site = new Map()));
    const now = site.get(id);
    if (!now) {
      site.set(id, more);
      return;
    }
    now.watched = Math.max(now.watched, more.watched);
    now.rebufferCount = Math.max(now.rebufferCount, more.rebufferCount);
    now.rebufferMs = Math.max(now.rebufferMs, more.rebufferMs);
    if (isLater(more.lastAt, now.lastAt)) now.lastAt = more.lastAt;
    now.bitrateSum += more.bitrateSum;
    now.n += more.n;
  }
}
