/**
 * Player event ingestion off the request (issue 31; docs/data-model.md "Ingestion"):
 *
 *   POST /v1/events ─ split by session partition, publish ─> queue (JetStream when NATS_URL is set, else memory)
 *     ─> consumers of the partitions this process leases: writeBatches (bulk; idempotent by the raw
 *        tables' keys, no row per event), then acknowledge
 *     ─> fold worker: foldDirtySlices every INGEST_FOLD_INTERVAL_MS
 *
 * One pipeline per process: `npm start` runs INGEST_CONSUMERS consumer loops (default 1) and one
 * fold worker; `npm run ingest:worker` runs more consumers against the same stream and database.
 * Consumer processes share the partitions out among themselves (server/domain/ingest-partitions.ts).
 * `drain()` waits until everything published so far is written and folded (tests, bench, shutdown).
 */
import { INGEST_WINDOW_DAYS } from '../../common/ingest-contract';
import type { IngestStore } from './ports';
import type { DeadLetter, WriteResult } from './rows';
import { DEFAULT_INGEST_PARTITIONS, DEFAULT_REBALANCE_MS, planRebalance, publishPartitioned, soloLeases, validPartitionCount, type PartitionLeases } from './ingest-partitions';
import { createJetStreamQueue, createMemoryQueue, DUPLICATE_WINDOW_MS, type IngestQueue, type QueuedBatch, type QueuedMessage } from './ingest-queue';

export interface IngestConfig {
  /** NATS_URL: JetStream when set, else the in-process memory queue. */
  natsUrl: string | undefined;
  /** INGEST_STREAM (default INGEST): the stream; subjects are `<stream lowercased>.<site id>`. */
  stream: string;
  /** INGEST_DURABLE (default ingest-writer): the durable consumer every consumer process shares. */
  durable: string;
  /**
   * INGEST_PARTITIONS (default 4; a power of two up to 512): partitions of the stream by session,
   * when this process creates its consumers (a stream that has them keeps their number).
   */
  partitions: number;
  /** INGEST_REBALANCE_MS (default 2000): how often a consumer process counts the members and takes or gives partitions. */
  rebalanceMs: number;
  /** INGEST_CONSUMERS (default 1): consumer loops in this process; 0 = producer only. */
  consumers: number;
  /** INGEST_FOLD (default on; 0 turns it off): run a fold worker in this process. */
  fold: boolean;
  /** INGEST_FOLD_INTERVAL_MS (default 2000): how often the fold worker looks for dirty slices. */
  foldIntervalMs: number;
  /**
   * INGEST_ACK_WAIT_MS (default 10000; 30000 before issue 37): how long the messages a DEAD consumer
   * held stay out of reach before they are delivered again. A live consumer's messages never time
   * out (it tells the stream "still working" every third of it), so it only bounds a death's cost.
   */
  ackWaitMs: number;
  /**
   * INGEST_START_GRACE_MS (default: the publish timeout + 2 × the ack wait): how long after it was
   * stored a batch whose session start is nowhere still waits once every earlier message is written
   * (a start stored just after it, by a slow publish, may be in a dead consumer's hands), before its
   * events of those sessions go to the dead letters.
   */
  startGraceMs: number;
  /** INGEST_MESSAGES_PER_WRITE (default 1000; 20 before issue 42): at most this many messages in one consumer transaction. */
  maxMessagesPerWrite: number;
  /** INGEST_EVENTS_PER_WRITE (default 10000): a flush stops pulling once its messages hold this many events. */
  maxEventsPerWrite: number;
  /**
   * INGEST_SESSION_FLUSH_MS (default 2000; 0: with each flush, as before): how often a consumer process
   * writes what its sessions' rows are owed (server/db/ingest-session-counters.ts). The heartbeats are
   * written with each flush; their sessions' counters are added up in memory and written at most this
   * long after (at once when no message is waiting), and the messages are acknowledged only then.
   */
  sessionFlushMs: number;
  /**
   * INGEST_FLUSH_MS (default 100): how long after its first message a flush keeps pulling for more
   * (issue 42: bigger batches per flush, by count and time; under load the buffer fills the flush at once).
   */
  flushMs: number;
  /**
   * INGEST_RETENTION_DAYS (default 90, at least MIN_RETENTION_DAYS): days of raw history
   * (playback_sessions, player_heartbeats) kept; older day partitions are dropped, rollups stay.
   */
  retentionDays: number;
  /**
   * INGEST_DUPLICATE_WINDOW_MS (default 120000, JetStream's default): the stream's duplicate_window
   * (when this process creates the stream) and the memory queue's: a batch published again inside it
   * (same message id) is stored once. A message delivered again, or a copy outside the window, is
   * counted once by the raw tables' keys (writeBatches; docs/data-model.md "The window"); nothing
   * writes a row per event any more (issue 42; migration 0048 dropped ingested_events).
   */
  duplicateWindowMs: number;
  /** INGEST_MAINTENANCE_INTERVAL_MS (default 60000): partitions, retention and the windows, run by the fold worker. */
  maintenanceIntervalMs: number;
  /**
   * Tests only (INGEST_PAUSE_BEFORE_ACK=1): after a write commits, print `INGEST_WRITTEN <events>`
   * and stop before acknowledging, so a test can SIGKILL the process at exactly that point.
   */
  pauseBeforeAck: boolean;
}

const int = (value: string | undefined, fallback: number, min: number) => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= min ? n : fallback;
};

/** INGEST_WORKER_NICE's default: `npm run ingest:worker` runs below the servers' CPU priority (scripts/ingest-worker.ts). */
export const DEFAULT_WORKER_NICE = 10;

/** INGEST_WORKER_NICE: unset or empty → the default; a whole number 0-19 → it; anything else → null (refused). */
export function workerNice(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return DEFAULT_WORKER_NICE;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n <= 19 ? n : null;
}

/** INGEST_SESSION_FLUSH_MS's default. */
export const DEFAULT_SESSION_FLUSH_MS = 2000;

/** INGEST_ACK_WAIT_MS's default. */
export const DEFAULT_ACK_WAIT_MS = 10_000;

/** Raw history kept by default (INGEST_RETENTION_DAYS): the seeded world's 90 days of playback. */
export const DEFAULT_RETENTION_DAYS = 90;
/**
 * The least retention: an event may be up to INGEST_MAX_AGE_DAYS old when accepted and wait up to
 * the stream's 8 days' maximum age for a consumer, so its day must still be there 16 days on.
 */
export const MIN_RETENTION_DAYS = 2 * INGEST_WINDOW_DAYS;

export function loadIngestConfig(env: NodeJS.ProcessEnv): IngestConfig {
  return {
    natsUrl: env.NATS_URL || undefined,
    stream: env.INGEST_STREAM || 'INGEST',
    durable: env.INGEST_DURABLE || 'ingest-writer',
    partitions: validPartitionCount(Number(env.INGEST_PARTITIONS)) ? Number(env.INGEST_PARTITIONS) : DEFAULT_INGEST_PARTITIONS,
    rebalanceMs: int(env.INGEST_REBALANCE_MS, DEFAULT_REBALANCE_MS, 50),
    consumers: int(env.INGEST_CONSUMERS, 1, 0),
    fold: env.INGEST_FOLD !== '0' && env.INGEST_FOLD !== 'false',
    foldIntervalMs: int(env.INGEST_FOLD_INTERVAL_MS, 2000, 10),
    ackWaitMs: int(env.INGEST_ACK_WAIT_MS, DEFAULT_ACK_WAIT_MS, 500),
    startGraceMs: int(env.INGEST_START_GRACE_MS, PUBLISH_TIMEOUT_MS + 2 * int(env.INGEST_ACK_WAIT_MS, DEFAULT_ACK_WAIT_MS, 500), 0),
    maxMessagesPerWrite: int(env.INGEST_MESSAGES_PER_WRITE, 1000, 1),
    maxEventsPerWrite: int(env.INGEST_EVENTS_PER_WRITE, 10_000, 1),
    flushMs: int(env.INGEST_FLUSH_MS, 100, 0),
    sessionFlushMs: int(env.INGEST_SESSION_FLUSH_MS, DEFAULT_SESSION_FLUSH_MS, 0),
    retentionDays: Math.max(MIN_RETENTION_DAYS, int(env.INGEST_RETENTION_DAYS, DEFAULT_RETENTION_DAYS, 1)),
    duplicateWindowMs: int(env.INGEST_DUPLICATE_WINDOW_MS, DUPLICATE_WINDOW_MS, 1000),
    maintenanceIntervalMs: int(env.INGEST_MAINTENANCE_INTERVAL_MS, 60_000, 1000),
    pauseBeforeAck: env.INGEST_PAUSE_BEFORE_ACK === '1',
  };
}

export interface IngestLog {
  info?(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface IngestPipeline {
  readonly kind: IngestQueue['kind'];
  /** Queues a checked batch; resolves once the queue holds it. Throws IngestQueueUnavailable. */
  publish(siteId: string, events: QueuedBatch['events']): Promise<void>;
  /** Waits until every batch published so far (by any producer on this queue) is written and its slices folded. */
  drain(timeoutMs?: number): Promise<void>;
  /**
   * Counters of this process (bench, tests): `handled` counts the events of the batches it wrote, by
   * partition, once written (acknowledged then, or with counters in memory once their sessions' rows are).
   */
  stats(): { written: number; duplicates: number; folded: number; deadLettered: number; handled: Record<number, number> };
  /** The partitions this process consumes now. */
  owned(): number[];
  close(): Promise<void>;
}

/** How long a publish waits for the stream's acknowledgement (a start may be stored this late). */
const PUBLISH_TIMEOUT_MS = 5000;
/** A batch waiting for its sessions' starts comes back after this, doubling up to WAIT_FOR_START_MAX_MS. */
const WAIT_FOR_START_MS = 500;
const WAIT_FOR_START_MAX_MS = 2000;
const RETRY_AFTER_FAILURE_MS = 1000;
/** A write slower than this is logged with its size (the consumer's recovery after a death depends on it). */
const SLOW_WRITE_MS = 2000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Messages a consumer loop asks the stream for at a time (JetStream's pull size per loop; a flush pulls several times). */
const PREFETCH_PER_LOOP = 20;
/** Slices one fold transaction takes. */
const FOLD_SLICES = 20;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens the leases of a consumer process on a stream's partitions; `onLost` is told when it loses them all at once. */
export type OpenLeases = (stream: string, onLost: (why: string) => void) => Promise<PartitionLeases>;

export async function startIngestPipeline(input: { store: IngestStore; log: IngestLog; config: IngestConfig; queue?: IngestQueue; leases?: OpenLeases }): Promise<IngestPipeline> {
  const { store, log, config } = input;
  let queue: IngestQueue;
  if (input.queue) queue = input.queue;
  else if (config.natsUrl) {
    const js = await createJetStreamQueue({ servers: config.natsUrl, stream: config.stream, durable: config.durable, ackWaitMs: config.ackWaitMs, publishTimeoutMs: PUBLISH_TIMEOUT_MS, prefetch: Math.max(2, Math.min(PREFETCH_PER_LOOP, config.maxMessagesPerWrite) * Math.max(1, config.consumers)), duplicateWindowMs: config.duplicateWindowMs, partitions: config.partitions });
    if (js.partitionsNote) log.warn({ stream: config.stream, partitions: js.partitions }, js.partitionsNote);
    queue = js;
  } else queue = createMemoryQueue(config.duplicateWindowMs);
  let stopped = false;
  let busy = 0;
  const totals: ReturnType<IngestPipeline['stats']> = { written: 0, duplicates: 0, folded: 0, deadLettered: 0, handled: {} };

  // Sessions this process has seen written: their heartbeats need no look-up before a write.
  const known = store.newWrittenSessions();
  // Its sessions' state in memory (issue 42): their heartbeats' counters are written to their rows
  // every sessionFlushMs (applyOwed), and the messages written since are acknowledged then.
  const counters = config.sessionFlushMs > 0 ? store.newSessionCounters() : undefined;
  /** Messages written (their events in the raw tables) and not acknowledged yet, with the events written of each: their sessions' rows are owed counters. */
  let owed: { m: QueuedMessage; events: number }[] = [];
  // Writes share the database with each other; writing what rows are owed excludes them: a write that
  // counts a session again from its stored heartbeats while the owed counters of the same heartbeats
  // are being added would count them twice.
  let writers = 0;
  let exclusive: Promise<void> | null = null;
  const writersIdle: (() => void)[] = [];
  async function shared<T>(work: () => Promise<T>): Promise<T> {
    while (exclusive) await exclusive;
    writers += 1;
    try {
      return await work();
    } finally {
      writers -= 1;
      if (writers === 0) for (const resolve of writersIdle.splice(0)) resolve();
    }
  }
  async function alone(work: () => Promise<void>): Promise<void> {
    while (exclusive) await exclusive;
    let release = () => undefined as void;
    exclusive = new Promise<void>((resolve) => { release = resolve; });
    try {
      while (writers > 0) await new Promise<void>((resolve) => writersIdle.push(resolve));
      await work();
    } finally {
      exclusive = null;
      release();
    }
  }
  const acknowledge = async (messages: { m: QueuedMessage; events: number }[]) => {
    await Promise.all(messages.map(({ m }) => m.ack().catch((error: unknown) => {
      log.warn({ err: errorText(error) }, 'acknowledgement lost; the batch will be delivered again and count once');
    })));
  };
  /**
   * Writes what the sessions' rows are owed, then acknowledges every message written before: a
   * crash before the acknowledgement delivers them again, and their heartbeats, refused as repeats,
   * have their sessions counted again from the stored ones (writeBatches). Failed: everything stays
   * owed, tried again at the next tick.
   */
  let applying: Promise<void> = Promise.resolve();
  const applyOwed = () => {
    applying = applying.then(() => alone(async () => {
      if (!counters) return;
      const messages = owed;
      owed = [];
      try {
        await store.applySessionCounters(counters);
      } catch (error) {
        owed = [...messages, ...owed];
        log.error({ err: errorText(error), sessions: counters.pendingSessions }, 'session counters not written; tried again at the next tick');
        return;
      }
      await acknowledge(messages);
    }));
    return applying;
  };
  const count = (result: WriteResult) => {
    totals.written += result.written;
    totals.duplicates += result.duplicates;
  };

  /** Records dead letters (idempotent by event id) and logs them with the running count; throws if not recorded (the messages come back). */
  async function deadLetter(letters: DeadLetter[]): Promise<void> {
    if (letters.length === 0) return;
    const added = await store.recordDeadLetters(letters);
    totals.deadLettered += added;
    const byReason: Record<string, number> = {};
    for (const l of letters) byReason[l.reason] = (byReason[l.reason] ?? 0) + 1;
    log.error({ events: letters.length, added, byReason, deadLetteredByThisProcess: totals.deadLettered, sites: [...new Set(letters.map((l) => l.siteId))] },
      'accepted events could not be placed: kept in ingest_dead_letters');
  }

  /**
   * Whether the start a waiting batch needs can no longer arrive: every message stored before it is
   * acknowledged (by any consumer: one that died gives its messages back after the ack wait, so
   * until they are written the floor stays below) and the grace for a start stored after it is over.
   */
  async function startCannotArrive(m: QueuedMessage): Promise<boolean> {
    if (Date.now() < m.storedAt + config.startGraceMs) return false;
    return queue.earlierSettled(m.seq, m.partition);
  }

  async function handle(all: QueuedMessage[]): Promise<void> {
    // A message that is not a batch (not published by a producer of ours): kept as a dead letter.
    const unreadable = all.filter((m) => m.batch === null);
    for (const m of unreadable) {
      if (m.raw && UUID.test(m.raw.siteId)) {
        await deadLetter([{ siteId: m.raw.siteId, eventId: `message:${m.seq}`, reason: 'unreadable-message', detail: `Message ${m.seq} of the stream is not a batch of player events.`, payload: { text: m.raw.text.slice(0, 64_000) } }]);
        await m.ack().catch(() => undefined);
      } else {
        log.error({ seq: m.seq, subject: m.raw?.siteId }, 'message on the ingestion stream names no site and is not a batch: terminated');
        m.term();
      }
    }
    const messages = all.filter((m) => m.batch !== null);
    if (messages.length === 0) return;
    // The batches as this group writes them: a batch given up on below loses only its events of sessions whose start is nowhere.
    const batches = messages.map((m) => m.batch!);
    await store.lookUpWrittenSessions(batches, known);
    let waiting = store.waitingBatches(batches, known);
    const letters: DeadLetter[] = [];
    if (waiting.size > 0) {
      let reduced = false;
      for (const i of waiting) {
        if (!(await startCannotArrive(messages[i]!))) continue;
        const missing = store.sessionsWithoutStart(batches[i]!, batches, known);
        if (missing.size === 0) continue;
        const { siteId, events } = batches[i]!;
        const kept = events.filter((e) => !missing.has(`${siteId}:${e.sessionId.toLowerCase()}`));
        for (const e of events) {
          if (kept.includes(e)) continue;
          letters.push({ siteId, eventId: e.eventId, reason: 'session-start-missing', payload: e,
            detail: `No session.start of session ${e.sessionId} was written, and every message stored before this one (stream message ${messages[i]!.seq}) is.` });
        }
        batches[i] = { siteId, events: kept };
        reduced = true;
      }
      if (reduced) waiting = store.waitingBatches(batches, known);
    }
    await deadLetter(letters);
    for (const i of waiting) {
      const m = messages[i]!;
      // No count of tries: it waits as long as its start can still arrive (startCannotArrive).
      m.nak(Math.min(WAIT_FOR_START_MAX_MS, WAIT_FOR_START_MS * 2 ** Math.min(4, m.deliveries - 1)));
    }
    const ready = messages.flatMap((m, i) => (waiting.has(i) ? [] : [{ m, batch: batches[i]! }]));
    if (ready.length === 0) return;
    // A batch left empty (all its events dead-lettered) is simply acknowledged.
    const write = async (items: typeof ready) => {
      const nonEmpty = items.map((r) => r.batch).filter((b) => b.events.length > 0);
      if (nonEmpty.length === 0) return;
      const begun = Date.now();
      count(await shared(() => store.writeBatches(nonEmpty, known, counters)));
      const ms = Date.now() - begun;
      if (ms > SLOW_WRITE_MS) log.warn({ ms, batches: nonEmpty.length, events: nonEmpty.reduce((n, b) => n + b.events.length, 0) }, 'slow event batch write');
    };
    let written = ready;
    try {
      await write(ready);
    } catch (error) {
      // Nothing was committed. One batch the database refuses must not hold back the others of its
      // group: each is written on its own, and only those that fail come back later.
      written = [];
      if (ready.length === 1) log.error({ err: errorText(error), siteId: ready[0]!.batch.siteId, deliveries: ready[0]!.m.deliveries }, 'event batch not written; delivered again');
      for (const r of ready) {
        if (ready.length === 1) { r.m.nak(RETRY_AFTER_FAILURE_MS); break; }
        try {
          await write([r]);
          written.push(r);
        } catch (single) {
          log.error({ err: errorText(single), siteId: r.batch.siteId, deliveries: r.m.deliveries }, 'event batch not written; delivered again');
          r.m.nak(RETRY_AFTER_FAILURE_MS);
        }
      }
      if (written.length === 0) return;
    }
    if (config.pauseBeforeAck) {
      process.stdout.write(`INGEST_WRITTEN ${written.reduce((n, r) => n + r.batch.events.length, 0)}\n`);
      await new Promise(() => undefined);
    }
    // Acknowledged after the commit (with counters in memory: once their sessions' rows are written,
    // applyOwed): a crash before redelivers the batches, and the raw tables' keys (a session's one
    // row, a heartbeat's (site, event id, at), an end already the session's end) make that
    // redelivery write and mark nothing beyond what the first write left owed (writeBatches).
    const done = written.map((r) => ({ m: r.m, events: r.batch.events.length }));
    for (const { m, events } of done) totals.handled[m.partition] = (totals.handled[m.partition] ?? 0) + events;
    if (counters) owed.push(...done);
    else await acknowledge(done);
  }

  /**
   * One flush (issue 42): waits up to 250 ms for a first message, then keeps pulling until the
   * flush holds maxMessagesPerWrite messages or maxEventsPerWrite events, or flushMs have passed
   * since the first came: few big transactions also when players send small batches. A pull that
   * fails after the first keeps what the flush holds (it is written; the rest comes next time).
   */
  async function pullFlush(): Promise<QueuedMessage[]> {
    const flush = await queue.fetch(Math.min(PREFETCH_PER_LOOP, config.maxMessagesPerWrite), 250);
    if (flush.length === 0) return flush;
    const until = Date.now() + config.flushMs;
    const eventsOf = (ms: QueuedMessage[]) => ms.reduce((n, m) => n + (m.batch?.events.length ?? 1), 0);
    let events = eventsOf(flush);
    while (!stopped && flush.length < config.maxMessagesPerWrite && events < config.maxEventsPerWrite && Date.now() < until) {
      const more = await queue.fetch(Math.min(PREFETCH_PER_LOOP, config.maxMessagesPerWrite - flush.length), Math.max(1, until - Date.now())).catch(() => []);
      if (more.length === 0) break;
      flush.push(...more);
      events += eventsOf(more);
    }
    return flush;
  }

  /** Messages of each partition a consumer loop has in hand (pulled, not yet written or put back). */
  const inHand = new Map<number, number>();

  async function consumerLoop(): Promise<void> {
    while (!stopped) {
      let messages: QueuedMessage[];
      try {
        messages = await pullFlush();
      } catch (error) {
        if (stopped) return;
        log.warn({ err: errorText(error) }, 'ingestion queue fetch failed; retrying');
        await sleep(RETRY_AFTER_FAILURE_MS);
        continue;
      }
      if (messages.length === 0) {
        // Nothing more waiting: what the sessions' rows are owed is written now, not at the next tick.
        if (owed.length > 0) await applyOwed();
        continue;
      }
      busy += 1;
      for (const m of messages) inHand.set(m.partition, (inHand.get(m.partition) ?? 0) + 1);
      try {
        await handle(messages);
      } catch (error) {
        log.error({ err: errorText(error) }, 'event batches not handled; delivered again');
        for (const m of messages) m.nak(RETRY_AFTER_FAILURE_MS);
      } finally {
        busy -= 1;
        for (const m of messages) inHand.set(m.partition, inHand.get(m.partition)! - 1);
      }
    }
  }

  /**
   * One pass over the dirty slices (pages of FOLD_SLICES until a page comes back short). A slice a
   * consumer marks again while it is folded waits for the next tick: under steady load, folding
   * until no mark is left re-aggregated the same busy slice back to back, all the time.
   */
  async function foldAll(): Promise<void> {
    for (;;) {
      const n = await store.foldDirtySlices(FOLD_SLICES);
      totals.folded += n;
      if (n < FOLD_SLICES) return;
    }
  }

  let folding: Promise<void> = Promise.resolve();
  const foldOnce = () => {
    folding = folding.then(foldAll).catch((error: unknown) => log.error({ err: errorText(error) }, 'rollup fold failed; retried at the next tick'));
    return folding;
  };

  let maintaining: Promise<void> = Promise.resolve();
  const maintain = () => {
    maintaining = maintaining.then(async () => {
      const done = await store.runIngestMaintenance({ retentionDays: config.retentionDays, sessionStartDays: INGEST_WINDOW_DAYS });
      if (done.dropped.length > 0) log.warn({ dropped: done.dropped, keptFrom: done.keptFrom }, 'raw history older than INGEST_RETENTION_DAYS dropped');
    }).catch((error: unknown) => log.warn({ err: errorText(error) }, 'ingestion maintenance failed; retried at the next tick'));
    return maintaining;
  };

  // Partitions (issue 42): a consumer process of the JetStream queue consumes the partitions it
  // leases; the memory queue's one process consumes its one partition. A producer only leases nothing.
  const leasing = queue.kind === 'jetstream' && config.consumers > 0;
  const leases: PartitionLeases = leasing && input.leases
    ? await input.leases(config.stream, (why) => log.warn({ stream: config.stream, partitions: queue.owned() }, `ingest partitions lost: ${why}; the other consumers take them`))
    : soloLeases();
  let rebalancing: Promise<void> = Promise.resolve();
  /**
   * One turn: gives back what the leases no longer cover (a lost lease connection) and what is
   * beyond this process's share, then takes free partitions up to it. A partition is given away
   * only after this process stopped consuming it, and consumed only once its lease is held.
   */
  // The consumer of unpartitioned batches (number `queue.partitions`) goes with partition 0's lease:
  // it holds only what producers of before the partitions left, and counting it as a share would
  // leave one of two consumers a partition short.
  const consumersOf = (k: number) => (k === 0 ? [0, queue.partitions] : [k]);
  const rebalance = () => {
    rebalancing = rebalancing.then(async () => {
      if (stopped) return;
      const before = queue.owned().join(',');
      const held = new Set(leases.held().flatMap(consumersOf));
      const plan = planRebalance({ owned: leases.held(), total: queue.partitions, members: await leases.members() });
      // A partition let go: no longer consumed, the messages of it in hand written, and what its
      // sessions' rows are owed written (its messages acknowledged) before its lease goes: the next
      // owner starts from the rows (a session it ends is counted again from the stored heartbeats,
      // which counters still owed here would then count twice).
      const lost = queue.owned().filter((k) => !held.has(k));
      const letGo = [...lost, ...plan.release.flatMap(consumersOf)];
      for (const k of letGo) await queue.disown(k);
      if (letGo.length > 0 && counters) {
        while (letGo.some((k) => (inHand.get(k) ?? 0) > 0)) await sleep(10);
        await applyOwed();
      }
      for (const k of plan.release) await leases.release(k);
      let count = leases.held().length;
      for (const k of plan.candidates) {
        if (count >= plan.share || stopped) break;
        if (!(await leases.tryTake(k))) continue;
        // Another process wrote this partition's sessions meanwhile: what this one knew of them is stale.
        counters?.forgetKnown();
        for (const c of consumersOf(k)) await queue.own(c);
        count += 1;
      }
      const after = queue.owned();
      if (after.join(',') !== before) log.info?.({ stream: config.stream, partitions: leases.held(), consumers: after, share: plan.share }, 'ingest partitions owned');
    }).catch((error: unknown) => log.warn({ err: errorText(error) }, 'ingest partition rebalance failed; tried again at the next turn'));
    return rebalancing;
  };
  const timers: NodeJS.Timeout[] = [];
  if (leasing) {
    await rebalance();
    const rebalanceTimer = setInterval(() => { void rebalance(); }, config.rebalanceMs);
    rebalanceTimer.unref();
    timers.push(rebalanceTimer);
  }
  const loops = Array.from({ length: config.consumers }, () => consumerLoop());
  if (counters && config.consumers > 0) {
    const applyTimer = setInterval(() => { if (owed.length > 0) void applyOwed(); }, config.sessionFlushMs);
    applyTimer.unref();
    timers.push(applyTimer);
  }
  if (config.fold) {
    // A tick while the timed fold still runs, or sooner after it than it took, is skipped: under load a
    // fold (a whole (site, day) re-aggregation, seconds at 10,000 sessions a day) queued back to back
    // behind the last one took the database from the consumers (issue 37: recovery after a death).
    let timed = { busy: false, endedAt: 0, tookMs: 0 };
    const foldTick = () => {
      if (timed.busy || Date.now() - timed.endedAt < timed.tookMs) return;
      timed = { ...timed, busy: true };
      const began = Date.now();
      void foldOnce().finally(() => { timed = { busy: false, endedAt: Date.now(), tookMs: Date.now() - began }; });
    };
    const foldTimer = setInterval(foldTick, config.foldIntervalMs);
    foldTimer.unref();
    timers.push(foldTimer);
    // Raw history's day partitions and retention, and the window of the recorded session starts
    // (server/db/raw-history.ts). Idempotent: every fold worker of every
    // process runs it. Not at start: a first pass at the first tick.
    const maintenanceTimer = setInterval(() => { void maintain(); }, config.maintenanceIntervalMs);
    maintenanceTimer.unref();
    timers.push(maintenanceTimer);
  }

  return {
    kind: queue.kind,
    async publish(siteId, events) {
      // A part per partition, each its own message id: the same batch sent again is split the same
      // way, so each part is stored once within the duplicate window. 202 once every part is stored.
      await publishPartitioned(queue, siteId, events);
    },
    async drain(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while ((await queue.outstanding()) > 0 || busy > 0) {
        if (Date.now() > deadline) throw new Error(`ingestion did not drain within ${timeoutMs} ms (${await queue.outstanding()} outstanding)`);
        // What this process owes its sessions' rows is written now rather than at the next tick.
        if (owed.length > 0) await applyOwed();
        await sleep(20);
      }
      // A slice another worker is folding is skipped by this pass; its mark stays if a write came
      // after that fold read it: fold again until no mark is left.
      for (;;) {
        await foldOnce();
        if ((await store.dirtySliceCount()) === 0) return;
        if (Date.now() > deadline) throw new Error(`ingestion did not drain within ${timeoutMs} ms (rollup slices still dirty)`);
        await sleep(20);
      }
    },
    stats: () => ({ ...totals, handled: { ...totals.handled } }),
    owned: () => queue.owned(),
    async close() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await rebalancing;
      // The loops end after the flush in hand; what its sessions' rows are owed is written and its
      // messages acknowledged before the queue closes.
      await Promise.all(loops);
      await applyOwed();
      await queue.close();
      // The leases go with their connection, once what this process held is acknowledged.
      await leases.close();
      await folding;
      await maintaining;
    },
  };
}
