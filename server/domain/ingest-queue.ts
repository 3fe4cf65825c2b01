/**
 * The queue between the producer (POST /v1/events) and the consumers (issue 31): a NATS JetStream
 * stream when NATS_URL is set, else a queue in this process's memory with the same contract.
 *
 * - publish(batch, msgId) resolves once the queue holds the batch (JetStream: the stream's PubAck,
 *   stored on disk); a msgId seen within the duplicate window is stored once.
 * - fetch(max, waitMs) hands out up to `max` messages, waiting up to `waitMs` for the first; each is
 *   acknowledged (ack, after the consumer's commit), put back after a delay (nak), or dropped (term).
 *   A message neither acked nor nakked (its consumer died) comes back after the ack wait.
 * - outstanding() counts what is published and not yet acknowledged, by every consumer (drain()).
 * - earlierSettled(seq) tells whether every message stored before `seq` has been acknowledged or
 *   terminated, by any consumer (JetStream: the durable consumer's ack floor): until then, a session
 *   start a batch waits for may still be in the queue, also in the hands of a consumer that died
 *   (it comes back after the ack wait).
 *
 * JetStream layout: one stream (work-queue retention: a message is deleted once acknowledged) with
 * subjects `<subject prefix>.<site id>`, one durable pull consumer shared by every consumer process.
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
  publish(batch: QueuedBatch, msgId: string): Promise<void>;
  fetch(max: number, waitMs: number): Promise<QueuedMessage[]>;
  outstanding(): Promise<number>;
  /** Whether every message stored before `seq` is acknowledged or terminated (by any consumer). */
  earlierSettled(seq: number): Promise<boolean>;
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
}

const ns = (ms: number) => ms * 1_000_000;
/** How long a process reuses the consumer's ack floor it read (earlierSettled). */
const FLOOR_CACHE_MS = 250;

/** Creates (or reuses) the stream and the durable consumer, and connects. Fails clearly when NATS is absent. */
export async function createJetStreamQueue(options: JetStreamOptions): Promise<IngestQueue & { nc: NatsConnection; jsm: JetStreamManager }> {
  let nc: NatsConnection;
  try {
    // Reconnect for ever: a NATS restart must not leave the server without its queue.
    nc = await connect({ servers: options.servers.split(','), maxReconnectAttempts: -1, reconnectTimeWait: 250, name: `cms-tools ${process.pid}` });
  } catch (error) {
    throw new Error(`NATS is not reachable at ${options.servers} (NATS_URL): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
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
  await jsm.consumers.add(options.stream, {
    durable_name: options.durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All,
    ack_wait: ns(options.ackWaitMs), max_deliver: -1, max_ack_pending: 10_000,
  }).catch(async (error: unknown) => {
    const info = await jsm.consumers.info(options.stream, options.durable).catch(() => { throw error; });
    // A durable created with another ack wait (an earlier default) takes this one: it bounds how long
    // a dead consumer's messages stay out of reach.
    if (info.config.ack_wait !== ns(options.ackWaitMs)) await jsm.consumers.update(options.stream, options.durable, { ack_wait: ns(options.ackWaitMs) });
  });
  const js: JetStreamClient = jetstream(nc);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const prefix = `${options.stream.toLowerCase()}.`;

  // Messages arrive through consume() (the client keeps pulls open and renews them after a
  // reconnect) into a small local buffer that fetch() empties.
  const buffer: QueuedMessage[] = [];
  let wake: (() => void) | null = null;
  let consuming: ConsumerMessages | null = null;
  let closed = false;
  // Messages this process holds (buffered or handed out, not yet settled): told "still working" every
  // third of the ack wait, so a slow write is never delivered a second time while its consumer
  // lives, and the ack wait (how long a DEAD consumer's messages stay out of reach) can be short.
  const held = new Set<JsMsg>();
  const keepAlive = setInterval(() => { for (const m of held) m.working(); }, Math.max(100, Math.floor(options.ackWaitMs / 3)));
  keepAlive.unref();
  const toMessage = (m: JsMsg): QueuedMessage => {
    held.add(m);
    const siteId = m.subject.slice(prefix.length);
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
  // The consumer's ack floor, read at most every FLOOR_CACHE_MS by this process (every waiting batch asks).
  let floor = { seq: 0, at: 0 };
  let floorRead: Promise<number> | null = null;
  const ackFloor = async (): Promise<number> => {
    if (Date.now() - floor.at < FLOOR_CACHE_MS) return floor.seq;
    floorRead ??= jsm.consumers.info(options.stream, options.durable)
      .then((info) => { floor = { seq: info.ack_floor.stream_seq, at: Date.now() }; return floor.seq; })
      .finally(() => { floorRead = null; });
    return floorRead;
  };
  const startConsuming = async () => {
    const consumer: Consumer = await js.consumers.get(options.stream, options.durable);
    consuming = await consumer.consume({ max_messages: options.prefetch });
    void (async () => {
      try {
        for await (const m of consuming!) {
          buffer.push(toMessage(m));
          const w = wake;
          wake = null;
          w?.();
        }
      } catch { /* the loop below starts it again */ }
      consuming = null;
    })();
  };

  return {
    kind: 'jetstream',
    nc,
    jsm,
    async publish(batch, msgId) {
      try {
        await js.publish(`${prefix}${batch.siteId}`, encoder.encode(JSON.stringify(batch.events)), { msgID: msgId, timeout: options.publishTimeoutMs });
      } catch (error) {
        throw new IngestQueueUnavailable(error);
      }
    },
    async fetch(max, waitMs) {
      if (!consuming && !closed) await startConsuming();
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
      const info = await jsm.consumers.info(options.stream, options.durable);
      return info.num_pending + info.num_ack_pending;
    },
    async earlierSettled(seq) {
      // The ack floor: every message up to it is acknowledged or terminated (the stream keeps none of them).
      return (await ackFloor()) >= seq - 1;
    },
    async close() {
      closed = true;
      clearInterval(keepAlive);
      const w = wake;
      wake = null;
      w?.();
      // Messages buffered but not handed out come back after the ack wait.
      await consuming?.close();
      await nc.drain().catch(() => nc.close());
    },
  };
}
