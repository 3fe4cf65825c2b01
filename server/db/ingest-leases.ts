/**
 * Partition leases of the ingestion consumers on PostgreSQL (issue 42; server/domain/ingest-partitions.ts):
 * session-level advisory locks held on a connection of the lease's own, so a process that dies (or
 * loses that connection) loses its leases at once, with nothing to expire or clean up.
 *
 * - membership: each process holds one lock (members' key space, a random member number); the live
 *   members are those locks in pg_locks (this database's);
 * - a partition: one lock (partitions' key space, the partition's number), taken with
 *   pg_try_advisory_lock.
 * Both key spaces are derived from the stream's name (two int4 halves, apart from the one-bigint
 * locks of the rollup fold and from the session locks' site hashes by the hash).
 *
 * The embedded database (PGlite) has one owner: the composition gives it no leases, and its one
 * process holds every partition (soloLeases in server/domain/ingest-partitions.ts).
 * The object returned is the domain's PartitionLeases port.
 */
import { createHash, randomInt } from 'node:crypto';

/** PartitionLeases (server/domain/ingest-partitions.ts), as this module implements it. */
export interface PgPartitionLeases {
  members(): Promise<number>;
  tryTake(partition: number): Promise<boolean>;
  release(partition: number): Promise<void>;
  held(): number[];
  close(): Promise<void>;
}

/** A key space of the stream's leases: a positive int4 (pg_locks shows it as the lock's classid). */
export function leaseKeySpace(stream: string, what: 'members' | 'partitions'): number {
  return createHash('sha256').update(`ingest-${what}:${stream}`).digest().readUInt32BE(0) & 0x7fffffff;
}

/** The leases of this process on the stream's partitions, on the PostgreSQL at `connectionString`. */
export async function openPartitionLeases(connectionString: string, stream: string, onLost: (why: string) => void): Promise<PgPartitionLeases> {
  const pg = (await import('pg')).default;
  const members = leaseKeySpace(stream, 'members');
  const partitions = leaseKeySpace(stream, 'partitions');
  let client: InstanceType<typeof pg.Client> | null = null;
  let opening: Promise<InstanceType<typeof pg.Client>> | null = null;
  const held = new Set<number>();
  let closed = false;

  const lose = (why: string) => {
    client = null;
    if (held.size > 0) onLost(why);
    held.clear();
  };
  /** The lease connection, opened (and this process registered as a member) on first use or after a loss. */
  const connection = (): Promise<InstanceType<typeof pg.Client>> => {
    if (client) return Promise.resolve(client);
    opening ??= (async () => {
      const c = new pg.Client({ connectionString, application_name: `cms-tools ingest leases ${process.pid}` });
      c.on('error', (error: Error) => { if (client === c) lose(`lease connection lost: ${error.message}`); });
      c.on('end', () => { if (client === c) lose('lease connection ended'); });
      await c.connect();
      try {
        for (;;) {
          const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [members, randomInt(2 ** 31 - 1)]);
          if (rows[0]!.ok) break;
        }
      } catch (error) {
        await c.end().catch(() => undefined);
        throw error;
      }
      client = c;
      return c;
    })().finally(() => { opening = null; });
    return opening;
  };

  return {
    async members() {
      const c = await connection();
      const { rows } = await c.query<{ n: number }>(`
        SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = $1::int::oid
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, [members]);
      return Math.max(1, rows[0]!.n);
    },
    async tryTake(partition) {
      const c = await connection();
      const { rows } = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [partitions, partition]);
      if (rows[0]!.ok) held.add(partition);
      return rows[0]!.ok;
    },
    async release(partition) {
      if (!held.delete(partition) || !client) return;
      await client.query('SELECT pg_advisory_unlock($1::int, $2::int)', [partitions, partition]);
    },
    held: () => [...held].sort((a, b) => a - b),
    async close() {
      if (closed) return;
      closed = true;
      const c = client;
      client = null;
      held.clear();
      // Ending the connection releases every lock it holds.
      await c?.end().catch(() => undefined);
    },
  };
}
