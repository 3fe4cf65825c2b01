/**
 * The queue between the producer (POST /v1/events) and the consumers (issue 31): a NATS JetStream
 * stream when NATS_URL is set, else a queue in this process's memory with the same contract.
 *
 * - publish(batch, msgId) resolves once the queue holds the batch (JetStream: the stream's PubAck,
 *   stored on disk); a msgId seen within the duplicate window is stored once.
 * - fetch(max, waitMs) hands out up to `max` messages, waiting up to `waitMs` for the first; each is
 *   acknowledged (ack, after the consumer's commit), put back after a delay (nak), or dropped (term).
 *   A message neither acked nor nakked (its consumer died) comes back after the ack wait.
 * - outstanding() counts what is published and not yet acknowledged, by every consumer (drain();
 *   JetStream: the consumers' pending and unacknowledged messages).
 * - earlierSettled(seq, partition) tells whether every message of the partition stored before `seq`
 *   has been acknowledged or terminated, by any consumer (JetStream: the partition's first message
 *   the stream still holds above its consumer's ack floor; a session's events are all on one partition): until then, a session
 *   start a batch waits for may still be in the queue, also in the hands of a consumer that died
 *   (it comes back after the ack wait).
 *
 * JetStream layout (issue 42: partitioned by session): one stream (work-queue retention: a message is
 * deleted once acknowledged); a batch's events go to subject `<prefix>.<site id>.<partition>`, the
 * partition a hash of the session (server/domain/ingest-partitions.ts), so a session's events are
 * all on one partition, in order. Each partition has a durable pull consumer of its own
 * (`<durable>-p<k>`, filter `<prefix>.*.<k>`), and one more, `<durable>` (filter `<prefix>.*`), takes
 * what producers from before the partitions published to `<prefix>.<site id>`. A process consumes
 * only the partitions it owns (own/disown; the pipeline leases them, server/db/ingest-leases.ts).
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType, type Consumer, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { PlayerEvent } from '../../common/ingest-contract';

/** One producer request's accepted events, queued for the consumers (server/db/ingest-repository.ts writes them). */
export interface QueuedBatch {
  siteId: string;
  events: PlayerEvent[];
}

export interface QueuedMessage {
  /** The stream partition it came from (the memory queue's one partition is 0). */
  partition: number;
  /** The batch, or null when the message is not a batch of player events (`raw` holds it; dead-lettered). */
  batch: QueuedBatch | null;
  /** The message as stored when it could not be read as a batch. */
  raw?: { siteId: string; text: string };
  /** 1 on the first delivery. */
  deliveries: number;
  /** The queue's sequence number: a message stored later has a larger one. */
  seq: number;
  /** When the queue stored it (ms since the epoch). */
  storedAt: number;
  /** Acknowledge: the batch is written (resolves once the queue confirmed it, where it can). */
  ack(): Promise<void>;
  /** Deliver again after delayMs. */
  nak(delayMs: number): void;
  /** Never deliver again. */
  term(): void;
}

export interface IngestQueue {
  readonly kind: 'memory' | 'jetstream';
  /**
   * Partitions by session (JetStream: the stream's, read from its consumers when they exist; the
   * memory queue: 1). Consumers number one more: the last takes the subject of unpartitioned batches.
   */
  readonly partitions: number;
  /** Queues a batch whose events are all of `partition` (partitionOf each session). */
  publish(batch: QueuedBatch, msgId: string, partition?: number): Promise<void>;
  fetch(max: number, waitMs: number): Promise<QueuedMessage[]>;
  outstanding(): Promise<number>;
  /** Whether every message of `partition` stored before `seq` is acknowledged or terminated (by any consumer). */
  earlierSettled(seq: number, partition?: number): Promise<boolean>;
  /** Starts consuming a partition's consumer (0..partitions; the memory queue always consumes its one). */
  own(partition: number): Promise<void>;
  /** Stops consuming it: what this process pulled and has not handed out goes back at once; what it handed out is acknowledged as usual. */
  disown(partition: number): Promise<void>;
  /** The partitions this process consumes. */
  owned(): number[];
  close(): Promise<void>;
}

/** The queue could not take the batch (NATS down, no PubAck in time): the producer answers 503. */
export class IngestQueueUnavailable extends Error {
  constructor(cause: unknown) {
    super('ingestion queue unavailable', { cause });
  }
}

/** JetStream's default duplicate window; the memory queue keeps the same (INGEST_DUPLICATE_WINDOW_MS sets both). */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;

/** The in-process queue of the embedded default: lost with the process (README says so). */
export function createMemoryQueue(duplicateWindowMs = DUPLICATE_WINDOW_MS): IngestQueue {
  type Item = { batch: QueuedBatch; deliveries: number; seq: number; storedAt: number };
  const ready: Item[] = [];
  let inFlight = 0;
  let delayed = 0;
  let lastSeq = 0;
  /** Sequence numbers published and not yet acknowledged or terminated. */
  const unsettled = new Set<number>();
  const seen = new Map<string, number>();
  let wake: (() => void) | null = null;
  let closed = false;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  const message = (item: Item): QueuedMessage => {
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      inFlight -= 1;
      return true;
    };
    return {
      partition: 0,
      batch: item.batch,
      deliveries: item.deliveries,
      seq: item.seq,
      storedAt: item.storedAt,
      ack: async () => { if (settle()) unsettled.delete(item.seq); },
      nak(delayMs) {
        if (!settle()) return;
        delayed += 1;
        setTimeout(() => {
          delayed -= 1;
          ready.push({ ...item, deliveries: item.deliveries + 1 });
          signal();
        }, delayMs);
      },
      term: () => { if (settle()) unsettled.delete(item.seq); },
    };
  };

  return {
    kind: 'memory',
    partitions: 1,
    async own() { /* one process: it consumes its one partition */ },
    async disown() { /* idem */ },
    owned: () => [0],
    async publish(batch, msgId) {
      const now = Date.now();
      for (const [id, at] of seen) {
        if (now - at <= duplicateWindowMs) break;
        seen.delete(id);
      }
      if (seen.has(msgId)) return;
      seen.set(msgId, now);
      lastSeq += 1;
      unsettled.add(lastSeq);
      ready.push({ batch, deliveries: 1, seq: lastSeq, storedAt: now });
      signal();
    },
    async fetch(max, waitMs) {
      if (ready.length === 0 && !closed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => { if (wake === done) wake = null; resolve(); }, waitMs);
          const done = () => { clearTimeout(timer); resolve(); };
          wake = done;
        });
      }
      const taken = ready.splice(0, max);
      inFlight += taken.length;
      return taken.map(message);
    },
    async outstanding() {
      return ready.length + inFlight + delayed;
    },
    async earlierSettled(seq) {
      for (const n of unsettled) if (n < seq) return false;
      return true;
    },
    async close() {
      closed = true;
      signal();
    },
  };
}

export interface JetStreamOptions {
  /** nats://host:port (comma-separated for several servers). */
  servers: string;
  /** Stream name (INGEST_STREAM, default INGEST); subjects are `<stream lowercased>.<site id>`. */
  stream: string;
  /** Durable consumer shared by all consumer processes. */
  durable: string;
  /** How long a delivered message may stay unacknowledged before it is delivered again (ms). */
  ackWaitMs: number;
  /** How long a publish waits for the stream's acknowledgement (ms). */
  publishTimeoutMs: number;
  /** Messages this process pulls ahead of its consumers (kept small: what one process holds, another cannot take). */
  prefetch: number;
  /** The stream's duplicate window when this process creates it (default DUPLICATE_WINDOW_MS; an existing stream keeps its own). */
  duplicateWindowMs?: number;
  /**
   * INGEST_PARTITIONS: partitions when this process creates them. The stream's consumers decide: a
   * stream that already has partition consumers keeps their number (a producer publishing on more
   * partitions than are consumed would strand events), and `partitionsNote` says so.
   */
  partitions: number;
}

const ns = (ms: number) => ms * 1_000_000;
/** How long a consumer's pull waits on the server (its idle heartbeat is half of it; see startConsuming). */
const PULL_EXPIRES_MS = 5000;
/** How long a process reuses a partition's first held message it read (earlierSettled). */
const FLOOR_CACHE_MS = 250;

/** The durable consumers of a partitioned stream: `<durable>-p<k>` for k < partitions, `<durable>` for the unpartitioned subject. */
export function partitionConsumers(durable: string, prefix: string, partitions: number): { durable: string; filter: string }[] {
  return Array.from({ length: partitions + 1 }, (_, k) => (k < partitions
    ? { durable: `${durable}-p${k}`, filter: `${prefix}*.${k}` }
    : { durable, filter: `${prefix}*` }));
}

/** Creates (or reuses) the stream and its consumers, and connects. Fails clearly when NATS is absent. */
export async function createJetStreamQueue(options: JetStreamOptions): Promise<IngestQueue & { nc: NatsConnection; jsm: JetStreamManager; partitionsNote: string | null }> {
  let nc: NatsConnection;
  try {
    // Reconnect for ever: a NATS restart must not leave the server without its queue. No async
    // traces: the client otherwise builds two Errors (stack traces captured) for every request, a
    // publish's wait for its PubAck included, in case it fails; ~5 % of the producer's CPU at 21,000
    // events/s (issue 42). A failed publish still says why (IngestQueueUnavailable's cause).
    nc = await connect({ servers: options.servers.split(','), maxReconnectAttempts: -1, reconnectTimeWait: 250, name: `cms-tools ${process.pid}`, noAsyncTraces: true });
  } catch (error) {
    throw new Error(`NATS is not reachable at ${options.servers} (NATS_URL): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  // Whether the connection is up now: a publish while NATS is away answers 503 at once instead of
  // waiting out its timeout (the client would buffer it and the player would wait 5 s for nothing).
  let connected = true;
  void (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnecting' || status.type === 'close') connected = false;
      else if (status.type === 'reconnect') connected = true;
    }
  })().catch(() => undefined);
  const jsm = await jetstreamManager(nc);
  const subjects = [`${options.stream.toLowerCase()}.>`];
  try {
    await jsm.streams.info(options.stream);
  } catch {
    await jsm.streams.add({
      name: options.stream, subjects, retention: RetentionPolicy.Workqueue, storage: StorageType.File,
      duplicate_window: ns(options.duplicateWindowMs ?? DUPLICATE_WINDOW_MS), max_age: ns(8 * 86_400_000),
    }).catch(async (error: unknown) => {
      // Another instance created it in between.
      await jsm.streams.info(options.stream).catch(() => { throw error; });
    });
  }
  const prefix = `${options.stream.toLowerCase()}.`;
  // The stream's partitions are those its consumers were made with (the first process made them).
  let partitions = options.partitions;
  let partitionsNote: string | null = null;
  const existing: number[] = [];
  for await (const info of await jsm.consumers.list(options.stream)) {
    const match = new RegExp(`^${options.durable.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-p(\\d+)$`).exec(info.name);
    if (match) existing.push(Number(match[1]));
  }
  if (existing.length > 0 && Math.max(...existing) + 1 !== partitions) {
    partitionsNote = `INGEST_PARTITIONS=${options.partitions}, but stream ${options.stream} has ${Math.max(...existing) + 1} partitions: this process uses the stream's.`;
    partitions = Math.max(...existing) + 1;
  }
  const consumers = partitionConsumers(options.durable, prefix, partitions);
  for (const { durable, filter } of consumers) {
    const config = {
      durable_name: durable, filter_subject: filter, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All,
      ack_wait: ns(options.ackWaitMs), max_deliver: -1, max_ack_pending: 10_000,
    };
    await jsm.consumers.add(options.stream, config).catch(async (error: unknown) => {
      const info = await jsm.consumers.info(options.stream, durable).catch(() => { throw error; });
      // A durable made with another ack wait (an earlier default) takes this one: it bounds how long
      // a dead consumer's messages stay out of reach. The shared durable of before the partitions had
      // no filter: it keeps its messages and takes the unpartitioned subject only.
      if (info.config.ack_wait !== ns(options.ackWaitMs) || (info.config.filter_subject ?? '') !== filter) {
        await jsm.consumers.update(options.stream, durable, { ack_wait: ns(options.ackWaitMs), filter_subject: filter });
      }
    });
  }
  const js: JetStreamClient = jetstream(nc);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  // Messages arrive through consume() (the client keeps pulls open and renews them after a
  // reconnect), one per owned partition, into a small local buffer that fetch() empties.
  const buffer: QueuedMessage[] = [];
  let wake: (() => void) | null = null;
  const owned = new Set<number>();
  const consuming = new Map<number, ConsumerMessages>();
  let closed = false;
  // Messages this process holds (buffered or handed out, not yet settled): told "still working" every
  // third of the ack wait, so a slow write is never delivered a second time while its consumer
  // lives, and the ack wait (how long a DEAD consumer's messages stay out of reach) can be short.
  const held = new Set<JsMsg>();
  const keepAlive = setInterval(() => { for (const m of held) m.working(); }, Math.max(100, Math.floor(options.ackWaitMs / 3)));
  keepAlive.unref();
  const toMessage = (m: JsMsg, partition: number): QueuedMessage => {
    held.add(m);
    // `<prefix><site id>.<partition>`, or `<prefix><site id>` from a producer of before the partitions.
    const siteId = m.subject.slice(prefix.length).split('.')[0]!;
    const text = decoder.decode(m.data);
    let events: unknown;
    try {
      events = JSON.parse(text);
    } catch {
      events = null;
    }
    // Not a batch (published by something else on the subject): handed out for the dead letters, never dropped.
    const readable = Array.isArray(events) && events.every((e) => e && typeof e === 'object' && typeof (e as { eventId?: unknown }).eventId === 'string' && typeof (e as { sessionId?: unknown }).sessionId === 'string');
    return {
      partition,
      batch: readable ? { siteId, events: events as QueuedBatch['events'] } : null,
      raw: readable ? undefined : { siteId, text },
      deliveries: m.info.deliveryCount,
      seq: m.seq,
      storedAt: m.time.getTime(),
      async ack() { held.delete(m); await m.ackAck(); },
      nak: (delayMs) => { held.delete(m); m.nak(delayMs); },
      term: () => { held.delete(m); m.term(); },
    };
  };
  // The first message each partition still holds (its stream sequence), read at most every
  // FLOOR_CACHE_MS by this process (every waiting batch asks). Work-queue retention deletes a message
  // once acknowledged or terminated, so everything of the partition before it is settled. (A
  // filtered consumer's ack floor does not tell: it stays at its own last message, below the
  // stream sequences of the other partitions' messages stored in between.)
  const floors = new Map<number, { seq: number; at: number; read: Promise<number> | null }>();
  const firstHeld = async (partition: number): Promise<number> => {
    const floor = floors.get(partition) ?? { seq: 0, at: 0, read: null };
    floors.set(partition, floor);
    if (Date.now() - floor.at < FLOOR_CACHE_MS) return floor.seq;
    // STREAM.MSG.GET takes `next_by_subj` with wildcards (the first message from `seq` on whose subject
    // matches; none: null); the client's type lists it for direct gets only, so it rides along. It
    // looks from just above the consumer's ack floor (every message of the partition up to it is
    // acknowledged): a message left below it after a nats-server kill (see outstanding()) is settled.
    floor.read ??= jsm.consumers.info(options.stream, consumers[partition]!.durable)
      .then((info) => {
        const first = { seq: info.ack_floor.stream_seq + 1, next_by_subj: consumers[partition]!.filter };
        return jsm.streams.getMessage(options.stream, first);
      })
      .then((m) => { Object.assign(floor, { seq: m?.seq ?? Number.MAX_SAFE_INTEGER, at: Date.now() }); return floor.seq; })
      .finally(() => { floor.read = null; });
    return floor.read;
  };
  const startConsuming = async (partition: number) => {
    const consumer: Consumer = await js.consumers.get(options.stream, consumers[partition]!.durable);
    // Pulls expire after PULL_EXPIRES_MS (the client's default is 30 s): after NATS restarts, the client
    // checks the consumer again before pulling, and when JetStream is not back yet it retries after the
    // pull's expiry; at 30 s one of the nine consumers of a partitioned stream often stayed idle for
    // half a minute after a restart (a fresh-clone run's restart test timed out at 60 s, load 9).
    const messages = await consumer.consume({ max_messages: options.prefetch, expires: PULL_EXPIRES_MS });
    consuming.set(partition, messages);
    void (async () => {
      try {
        for await (const m of messages) {
          // Pulled just as the partition was given away: back at once, for its new owner.
          if (!owned.has(partition)) { m.nak(); continue; }
          buffer.push(toMessage(m, partition));
          const w = wake;
          wake = null;
          w?.();
        }
      } catch { /* fetch() starts it again while the partition is owned */ }
      if (consuming.get(partition) === messages) consuming.delete(partition);
    })();
  };

  return {
    kind: 'jetstream',
    partitions,
    partitionsNote,
    nc,
    jsm,
    async publish(batch, msgId, partition) {
      if (!connected) throw new IngestQueueUnavailable(new Error(`NATS at ${options.servers} is not connected`));
      const subject = partition === undefined ? `${prefix}${batch.siteId}` : `${prefix}${batch.siteId}.${partition}`;
      try {
        await js.publish(subject, encoder.encode(JSON.stringify(batch.events)), { msgID: msgId, timeout: options.publishTimeoutMs });
      } catch (error) {
        throw new IngestQueueUnavailable(error);
      }
    },
    async own(partition) {
      if (closed || partition < 0 || partition > partitions) return;
      owned.add(partition);
      if (!consuming.has(partition)) await startConsuming(partition);
    },
    async disown(partition) {
      if (!owned.delete(partition)) return;
      const messages = consuming.get(partition);
      consuming.delete(partition);
      await messages?.close().catch(() => undefined);
      // Pulled and not handed out: back to the stream now, not after the ack wait.
      for (let i = buffer.length - 1; i >= 0; i -= 1) {
        if (buffer[i]!.partition !== partition) continue;
        const [m] = buffer.splice(i, 1);
        m!.nak(0);
      }
    },
    owned: () => [...owned].sort((a, b) => a - b),
    async fetch(max, waitMs) {
      if (!closed) {
        for (const partition of owned) if (!consuming.has(partition)) await startConsuming(partition);
      }
      if (buffer.length === 0 && !closed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => { if (wake === done) wake = null; resolve(); }, waitMs);
          const done = () => { clearTimeout(timer); resolve(); };
          wake = done;
        });
      }
      return buffer.splice(0, max);
    },
    async outstanding() {
      // What the stream's consumers have yet to deliver or to see acknowledged (the partitions' and the
      // unpartitioned one; their filters do not overlap, so each message counts once). Not the stream's
      // message count: after nats-server is killed (SIGKILL) 2.9 can keep messages every consumer
      // acknowledged (below their ack floors, never delivered again: "orphan messages in work queues",
      // fixed in nats-server 2.10), and drain() waited for them for ever (the restart test, 1 run in 2
      // on a loaded machine: 15 messages left with every consumer's pending and ack pending at 0).
      let n = 0;
      for await (const info of jsm.consumers.list(options.stream)) {
        if (consumers.some((c) => c.durable === info.name)) n += info.num_pending + info.num_ack_pending;
      }
      return n;
    },
    async earlierSettled(seq, partition = partitions) {
      return (await firstHeld(partition)) >= seq;
    },
    async close() {
      closed = true;
      clearInterval(keepAlive);
      const w = wake;
      wake = null;
      w?.();
      // Messages buffered but not handed out come back after the ack wait.
      await Promise.all([...consuming.values()].map((messages) => messages.close().catch(() => undefined)));
      consuming.clear();
      await nc.drain().catch(() => nc.close());
    },
  };
}
