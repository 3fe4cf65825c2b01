/**
 * The partitions of the player event stream (issue 42; server/domain/ingest-partitions.ts): which
 * partition a session is on, how a batch is split, and how consumer processes share the partitions
 * out. No database and no NATS: the processes are simulated turn by turn over one shared lock table.
 */
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PlayerEvent } from '../common/ingest-contract';
import { SESSION_LOCK_SLOTS, sessionLockKey } from './db/ingest-repository';
import { batchMessageIdOf, DEFAULT_INGEST_PARTITIONS, MAX_INGEST_PARTITIONS, partitionOf, planRebalance, publishPartitioned, soloLeases, splitByPartition, validPartitionCount } from './domain/ingest-partitions';
import { loadIngestConfig, workerNice } from './domain/ingest-pipeline';
import type { QueuedBatch } from './domain/ingest-queue';

const SITE = '6f1c2d9e-3a4b-4c5d-8e7f-0a1b2c3d4e5f';

describe('partitionOf', () => {
  it('puts a session on its session lock slot modulo the partitions, for every allowed count, so consumers of different partitions never share a slot', () => {
    expect(MAX_INGEST_PARTITIONS).toBe(SESSION_LOCK_SLOTS);
    for (let n = 1; n <= MAX_INGEST_PARTITIONS; n *= 2) {
      for (let i = 0; i < 50; i += 1) {
        const session = randomUUID();
        expect(partitionOf(SITE, session, n)).toBe(sessionLockKey(SITE, session)[1] % n);
      }
    }
  });

  it('ignores the case of the session id (players send either) and spreads sessions over every partition', () => {
    const session = randomUUID();
    expect(partitionOf(SITE, session.toUpperCase(), 8)).toBe(partitionOf(SITE, session, 8));
    const counts = new Array<number>(8).fill(0);
    for (let i = 0; i < 8000; i += 1) counts[partitionOf(SITE, randomUUID(), 8)]! += 1;
    // 1,000 expected each; a uniform hash stays well within +-15 %.
    for (const n of counts) expect(n).toBeGreaterThan(850);
    for (const n of counts) expect(n).toBeLessThan(1150);
  });

  it('stays the SHA-256 of the session once hashed: the same partition from its cache, also past the cache bound (200,000 sessions) and for another site', () => {
    const sha = (site: string, session: string) => createHash('sha256').update(`${site}:${session.toLowerCase()}`).digest().readUInt32BE(0);
    const other = randomUUID();
    const first = Array.from({ length: 20 }, () => randomUUID());
    for (const session of first) expect(partitionOf(SITE, session, 512)).toBe(sha(SITE, session) % 512);
    // Enough other sessions to clear the cache at least once on the way.
    for (let i = 0; i < 210_000; i += 1) partitionOf(i % 2 ? SITE : other, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, 8);
    for (const session of first) {
      expect(partitionOf(SITE, session, 512)).toBe(sha(SITE, session) % 512);
      expect(partitionOf(SITE, session.toUpperCase(), 64)).toBe(sha(SITE, session) % 64);
      expect(partitionOf(other, session, 512)).toBe(sha(other, session) % 512);
    }
  });
});

/**
 * The message id as first defined (issue 42, before the one-pass batchMessageIdOf): SHA-256 of the
 * site, then of each sorted event id after a NUL, as base64url. Streams keep ids of this form in their
 * duplicate window, so a batch resent across an upgrade must get the same one.
 */
function batchMessageId(siteId: string, events: readonly PlayerEvent[]): string {
  const hash = createHash('sha256').update(siteId);
  for (const id of events.map((e) => e.eventId).sort()) hash.update('\u0000').update(id);
  return hash.digest('base64url');
}

describe('batchMessageIdOf', () => {
  it('is batchMessageId: the same base64url SHA-256 of the site and the sorted event ids, whatever the order, ids or count', () => {
    const ids = ['e1', 'é-ü', '\u{1F600}x', 'a\u0000b', '', 'Z', randomUUID(), randomUUID().toUpperCase()];
    const event = (eventId: string): PlayerEvent => ({ type: 'heartbeat', eventId, sessionId: randomUUID(), at: '2026-12-01T10:00:00.000Z', playheadSeconds: 1, watchedSeconds: 1, bitrateKbps: 1, rebufferCount: 0, rebufferMs: 0 });
    const batches = [[], [event('only')], ids.map(event), Array.from({ length: 500 }, () => event(randomUUID())), [event('same'), event('same')]];
    for (const batch of batches) {
      expect(batchMessageIdOf(SITE, batch)).toBe(batchMessageId(SITE, batch));
      expect(batchMessageIdOf(SITE, [...batch].reverse())).toBe(batchMessageId(SITE, batch));
      expect(batchMessageIdOf(randomUUID(), batch)).not.toBe(batchMessageId(SITE, batch));
    }
  });
});

describe('publishPartitioned', () => {
  const events: PlayerEvent[] = Array.from({ length: 60 }, (_, i) => ({
    type: 'heartbeat', eventId: `e${i}`, sessionId: `10000000-0000-4000-8000-${String(i % 9).padStart(12, '0')}`, at: '2026-12-01T10:00:00.000Z',
    playheadSeconds: i, watchedSeconds: i, bitrateKbps: 3000, rebufferCount: 0, rebufferMs: 0,
  }));
  const queueOf = (kind: 'memory' | 'jetstream', partitions: number) => {
    const published: { batch: QueuedBatch; msgId: string; partition: number | undefined }[] = [];
    return { published, queue: { kind, partitions, publish: async (batch: QueuedBatch, msgId: string, partition?: number) => { published.push({ batch, msgId, partition }); } } };
  };

  it('publishes a part per partition with its own message id, every event once, each on its session\'s partition in the batch order', async () => {
    const { published, queue } = queueOf('jetstream', 8);
    await publishPartitioned(queue, SITE, events);
    expect(published.map((p) => p.partition)).toEqual([...splitByPartition(SITE, events, 8).keys()]);
    for (const { batch, msgId, partition } of published) {
      expect(batch.siteId).toBe(SITE);
      expect(batch.events).toEqual(splitByPartition(SITE, events, 8).get(partition!));
      expect(msgId).toBe(batchMessageId(SITE, batch.events));
    }
    expect(published.flatMap((p) => p.batch.events).map((e) => e.eventId).sort()).toEqual(events.map((e) => e.eventId).sort());
  });

  it('publishes the batch whole with one partition: on partition 0 for JetStream, with no partition for the memory queue', async () => {
    for (const [kind, partition] of [['jetstream', 0], ['memory', undefined]] as const) {
      const { published, queue } = queueOf(kind, 1);
      await publishPartitioned(queue, SITE, events);
      expect(published).toEqual([{ batch: { siteId: SITE, events }, msgId: batchMessageId(SITE, events), partition }]);
    }
  });

  it('fails when a part is not stored (the route answers 503 then)', async () => {
    const queue = { kind: 'jetstream' as const, partitions: 8, publish: async (_b: QueuedBatch, _id: string, k?: number) => { if (k === [...splitByPartition(SITE, events, 8).keys()][1]) throw new Error('no ack'); } };
    await expect(publishPartitioned(queue, SITE, events)).rejects.toThrow('no ack');
  });
});

describe('INGEST_PARTITIONS', () => {
  it('takes a power of two from 1 to 512 and falls back to 4 for anything else', () => {
    expect([1, 2, 8, 64, 512].every(validPartitionCount)).toBe(true);
    expect([0, 3, 6, 1024, -8, 2.5, Number.NaN].some(validPartitionCount)).toBe(false);
    expect(loadIngestConfig({ INGEST_PARTITIONS: '16' }).partitions).toBe(16);
    expect(loadIngestConfig({ INGEST_PARTITIONS: '12' }).partitions).toBe(DEFAULT_INGEST_PARTITIONS);
    expect(loadIngestConfig({}).partitions).toBe(4);
    expect(DEFAULT_INGEST_PARTITIONS).toBe(4);
    expect(loadIngestConfig({}).rebalanceMs).toBe(2000);
    expect(loadIngestConfig({ INGEST_REBALANCE_MS: '200' }).rebalanceMs).toBe(200);
  });
});

describe('splitByPartition', () => {
  it('keeps every event once, each part in the batch order, each event on its session\'s partition', () => {
    const sessions = Array.from({ length: 12 }, () => randomUUID());
    const events: PlayerEvent[] = Array.from({ length: 120 }, (_, i) => ({
      type: 'heartbeat', eventId: `e${i}`, sessionId: sessions[i % sessions.length]!, at: new Date(1_800_000_000_000 + i * 1000).toISOString(),
      playheadSeconds: i, watchedSeconds: i, bitrateKbps: 3000, rebufferCount: 0, rebufferMs: 0,
    }));
    const parts = splitByPartition(SITE, events, 4);
    expect([...parts.values()].flat().map((e) => e.eventId).sort()).toEqual(events.map((e) => e.eventId).sort());
    for (const [k, part] of parts) {
      expect(part.every((e) => partitionOf(SITE, e.sessionId, 4) === k)).toBe(true);
      const order = part.map((e) => Number(e.eventId.slice(1)));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    expect(splitByPartition(SITE, events, 1)).toEqual(new Map([[0, events]]));
  });
});

describe('planRebalance', () => {
  it('gives back the highest partitions beyond the fair share and asks for free ones up to it', () => {
    expect(planRebalance({ owned: [0, 1, 2, 3, 4, 5, 6, 7], total: 8, members: 2 })).toEqual({ release: [7, 6, 5, 4], candidates: [], share: 4 });
    expect(planRebalance({ owned: [], total: 8, members: 2 })).toEqual({ release: [], candidates: [0, 1, 2, 3, 4, 5, 6, 7], share: 4 });
    expect(planRebalance({ owned: [2, 5], total: 8, members: 3 })).toEqual({ release: [], candidates: [0, 1, 3, 4, 6, 7], share: 3 });
    expect(planRebalance({ owned: [1, 4, 6], total: 8, members: 3 })).toEqual({ release: [], candidates: [], share: 3 });
    // Alone (or the count not read yet: at least itself), a member takes everything.
    expect(planRebalance({ owned: [3], total: 8, members: 0 }).share).toBe(8);
    // The leases come in any order: the highest are given back all the same.
    expect(planRebalance({ owned: [7, 0, 5, 1, 6, 2, 4, 3], total: 8, members: 2 })).toEqual({ release: [7, 6, 5, 4], candidates: [], share: 4 });
    expect(planRebalance({ owned: [6, 1, 4], total: 8, members: 4 })).toEqual({ release: [6], candidates: [], share: 2 });
  });

  it('soloLeases: the one process of the embedded database holds whatever it takes, alone', async () => {
    const leases = soloLeases();
    expect(await leases.members()).toBe(1);
    expect(await leases.tryTake(3)).toBe(true);
    expect(await leases.tryTake(0)).toBe(true);
    expect(leases.held()).toEqual([0, 3]);
    await leases.release(3);
    expect(leases.held()).toEqual([0]);
    await leases.close();
    expect(leases.held()).toEqual([]);
  });

  /** Members taking turns in a random order over one table of locks (what the advisory locks are), until nothing changes. */
  function settle(members: number[], total: number, locks: Map<number, number>, turns: number): void {
    for (let turn = 0; turn < turns; turn += 1) {
      for (const m of [...members].sort(() => Math.random() - 0.5)) {
        const owned = [...locks].filter(([, owner]) => owner === m).map(([k]) => k);
        const plan = planRebalance({ owned, total, members: members.length });
        for (const k of plan.release) locks.delete(k);
        let count = owned.length - plan.release.length;
        for (const k of plan.candidates) {
          if (count >= plan.share) break;
          if (locks.has(k)) continue;
          locks.set(k, m);
          count += 1;
        }
      }
    }
  }

  it('settles any number of members joining and dying on every partition owned once, none holding more than its fair share', () => {
    for (let trial = 0; trial < 200; trial += 1) {
      const total = 2 ** (1 + Math.floor(Math.random() * 5));
      const locks = new Map<number, number>();
      let members = [1];
      settle(members, total, locks, 2);
      expect(locks.size).toBe(total);
      // Some join, some die (a death frees its locks at once, as a closed connection does).
      const joined = 1 + Math.floor(Math.random() * 4);
      members = [...members, ...Array.from({ length: joined }, (_, i) => 2 + i)];
      settle(members, total, locks, 4);
      const dead = members.filter(() => Math.random() < 0.4).slice(0, members.length - 1);
      for (const [k, owner] of [...locks]) if (dead.includes(owner)) locks.delete(k);
      members = members.filter((m) => !dead.includes(m));
      settle(members, total, locks, 4);
      expect(locks.size).toBe(total);
      const shares = members.map((m) => [...locks.values()].filter((owner) => owner === m).length);
      expect(shares.every((n) => n <= Math.ceil(total / members.length))).toBe(true);
      expect(new Set(locks.values()).size).toBeLessThanOrEqual(members.length);
    }
  });
});

describe('INGEST_WORKER_NICE', () => {
  it('defaults to 10, takes a whole number from 0 to 19 and refuses anything else', () => {
    expect(workerNice(undefined)).toBe(10);
    expect(workerNice('')).toBe(10);
    expect(workerNice(' ')).toBe(10);
    expect(workerNice('0')).toBe(0);
    expect(workerNice('19')).toBe(19);
    expect(workerNice('5')).toBe(5);
    expect(['-1', '20', '2.5', 'high', '-5'].map(workerNice)).toEqual([null, null, null, null, null]);
  });
});
