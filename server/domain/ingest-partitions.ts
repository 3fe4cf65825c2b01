/**
 * Player events partitioned by session (issue 42; docs/data-model.md "Ingestion"):
 *
 * - the producer splits a batch by `partitionOf(site, session)` and publishes each part on its
 *   partition's subject, so every event of a session is on one partition, in the order stored;
 * - each consumer process owns some partitions (a lease: a PostgreSQL advisory lock held on a
 *   connection of its own, server/db/ingest-leases.ts) and consumes only theirs; a session is thus
 *   written by one consumer at a time, and two consumers never wait for each other's session locks
 *   (the lock slot of a session is on its partition: `sessionLockKey`'s slot modulo the partitions);
 * - every INGEST_REBALANCE_MS each process counts the live members, keeps its fair share of the
 *   partitions (giving the rest back) and takes free ones up to it. A process that dies loses its
 *   leases with its connection, at once; the others take its partitions at their next turn and
 *   recover its sessions from the database (what a session needs is on its rows). A message the
 *   dead one held comes back after the ack wait, and the raw tables' keys make it count once.
 *
 * The stream has one consumer more than INGEST_PARTITIONS: the last takes the subject producers of
 * before the partitions published to (`<prefix>.<site id>`); it goes with partition 0's lease.
 */
import { createHash } from 'node:crypto';
import type { PlayerEvent } from '../../common/ingest-contract';
import type { IngestQueue } from './ingest-queue';

/**
 * INGEST_PARTITIONS' default (8 before this round). A batch becomes one message per partition it
 * touches, and its 202 waits for each one's PubAck: at 10,000 events/s offered with two consumers
 * (`npm run bench:ingest`), 4 partitions answered with a p99 of 44-50 ms after the first 3 s against
 * 58-114 ms with 8, and wrote at least as fast under overload. Two consumer processes own two each;
 * more processes than partitions wait as standbys, so a deployment with more sets it higher.
 */
export const DEFAULT_INGEST_PARTITIONS = 4;
/**
 * The most partitions: the session lock slots per site (SESSION_LOCK_SLOTS in
 * server/db/ingest-repository.ts). A power of two up to it divides the slots, so a session's slot
 * modulo the partitions is its partition and consumers of different partitions never share a slot.
 */
export const MAX_INGEST_PARTITIONS = 512;
/** INGEST_REBALANCE_MS' default: how often a consumer process counts the members and takes or gives partitions. */
export const DEFAULT_REBALANCE_MS = 2000;

/** Whether `n` can be the number of partitions: a power of two from 1 to MAX_INGEST_PARTITIONS. */
export function validPartitionCount(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= MAX_INGEST_PARTITIONS && (n & (n - 1)) === 0;
}

/**
 * The 32-bit hash a session's partition is taken from (SHA-256 of `<site id>:<session id lowercased>`,
 * its first four bytes), by site and session id as sent: a session sends an event every heartbeat, so
 * the producer hashes each once instead of once per event (issue 42: SHA-256 per event was a fifth of
 * the request path's CPU at 21,000 events/s; a cached look-up is a few % of it). Bounded: every
 * session is forgotten at once past MAX_CACHED_SESSIONS (and hashed again as it comes).
 */
const sessionHashes = new Map<string, Map<string, number>>();
let cachedSessions = 0;
/** About 20 MB at most: a few minutes of 20,000 players' sessions. */
const MAX_CACHED_SESSIONS = 200_000;
/** The last site's sessions: a batch is one site's, so its events need not look their site up each. */
let lastSite: { siteId: string; sessions: Map<string, number> } | undefined;

function sessionsOf(siteId: string): Map<string, number> {
  if (lastSite?.siteId === siteId) return lastSite.sessions;
  let sessions = sessionHashes.get(siteId);
  if (sessions === undefined) {
    sessions = new Map();
    sessionHashes.set(siteId, sessions);
  }
  lastSite = { siteId, sessions };
  return sessions;
}

function sessionHash(siteId: string, sessionId: string): number {
  const cached = sessionsOf(siteId).get(sessionId);
  if (cached !== undefined) return cached;
  const hash = createHash('sha256').update(`${siteId}:${sessionId.toLowerCase()}`).digest().readUInt32BE(0);
  if (cachedSessions >= MAX_CACHED_SESSIONS) {
    sessionHashes.clear();
    lastSite = undefined;
    cachedSessions = 0;
  }
  sessionsOf(siteId).set(sessionId, hash);
  cachedSessions += 1;
  return hash;
}

/** The partition of a session of a site: the same hash as its session lock slot (sessionLockKey), modulo the partitions. */
export function partitionOf(siteId: string, sessionId: string, partitions: number): number {
  return sessionHash(siteId, sessionId) % partitions;
}

/** A batch's events by partition, each part in the batch's order. */
export function splitByPartition(siteId: string, events: PlayerEvent[], partitions: number): Map<number, PlayerEvent[]> {
  const parts = new Map<number, PlayerEvent[]>();
  for (const e of events) {
    const k = partitionOf(siteId, e.sessionId, partitions);
    const part = parts.get(k);
    if (part) part.push(e);
    else parts.set(k, [e]);
  }
  return parts;
}

/**
 * The message id of a batch for the queue's duplicate window: the same events of the same site, in
 * any order, are one message. SHA-256 of the site id and the sorted event ids, each after a U+0000,
 * as base64url: the same bytes as the first definition (SHA-256 of the site, then NUL and each sorted event id) fed it, in one
 * update (that one updated the hash twice per event: a thousand calls into the hash per batch of 500).
 */
export function batchMessageIdOf(siteId: string, events: readonly PlayerEvent[]): string {
  if (events.length === 0) return createHash('sha256').update(siteId).digest('base64url');
  const ids = new Array<string>(events.length);
  for (let i = 0; i < events.length; i += 1) ids[i] = events[i]!.eventId;
  ids.sort();
  return createHash('sha256').update(`${siteId}\u0000${ids.join('\u0000')}`).digest('base64url');
}

/**
 * Publishes a checked batch (the pipeline's publish): a part per partition, each its own message id,
 * so the same batch sent again is split the same way and each part is stored once within the
 * duplicate window. Resolves once every part is stored. With one partition the batch goes whole
 * (JetStream: on partition 0's subject; the memory queue has no subjects).
 */
export async function publishPartitioned(queue: Pick<IngestQueue, 'kind' | 'partitions' | 'publish'>, siteId: string, events: PlayerEvent[]): Promise<void> {
  if (queue.partitions === 1) {
    await queue.publish({ siteId, events }, batchMessageIdOf(siteId, events), queue.kind === 'jetstream' ? 0 : undefined);
    return;
  }
  const published: Promise<void>[] = [];
  for (const [k, part] of splitByPartition(siteId, events, queue.partitions)) published.push(queue.publish({ siteId, events: part }, batchMessageIdOf(siteId, part), k));
  await Promise.all(published);
}

/**
 * One turn of a member: with `members` live members (itself included) and `total` partitions, it
 * keeps ceil(total / members), giving back its highest beyond that, and tries the free ones in order
 * up to it. Members that each do this settle within a few turns on every partition owned, none
 * holding more than ceil(total / members) (with 8 partitions: 4 + 4 for two members, 3 + 3 + 2 for three).
 */
export function planRebalance(input: { owned: number[]; total: number; members: number }): { release: number[]; candidates: number[]; share: number } {
  const share = Math.ceil(input.total / Math.max(1, input.members));
  const owned = [...input.owned].sort((a, b) => a - b);
  const held = new Set(owned);
  const candidates = owned.length < share ? Array.from({ length: input.total }, (_, k) => k).filter((k) => !held.has(k)) : [];
  return { release: owned.slice(share).reverse(), candidates, share };
}

/** The leases of one consumer process on the partitions of one stream. */
export interface PartitionLeases {
  /** Live members of the stream's consumer group, this process included (it registers on first call). */
  members(): Promise<number>;
  /** Takes the partition if no member holds it. */
  tryTake(partition: number): Promise<boolean>;
  release(partition: number): Promise<void>;
  /** The partitions this process holds now (empty after its lease connection was lost). */
  held(): number[];
  close(): Promise<void>;
}

/** Leases of a process that is the only possible consumer (the embedded database has one owner): it holds every partition. */
export function soloLeases(): PartitionLeases {
  const held = new Set<number>();
  return {
    members: async () => 1,
    async tryTake(partition) { held.add(partition); return true; },
    async release(partition) { held.delete(partition); },
    held: () => [...held].sort((a, b) => a - b),
    async close() { held.clear(); },
  };
}
