/**
 * SQL of the revisions table (issue 28): insert one revision (inside the write's transaction: `db`
 * is the transaction), read one object's history newest first, read one revision. What a revision
 * holds and when one is written is server/domain/revisions.ts.
 */
import { and, count, desc, eq, gte, inArray, max } from 'drizzle-orm';
import type { Db } from './client';
import { revisions, staffUsers } from './schema';

export type RevisionRow = typeof revisions.$inferSelect;
export type RevisionValues = Omit<typeof revisions.$inferInsert, 'seq'>;
export type RevisionWithActor = RevisionRow & { actorUsername: string | null };

/** Inserts one revision; `db` may be (and for every write is) a transaction. */
export async function insertRevision(db: Pick<Db, 'insert'>, values: RevisionValues): Promise<RevisionRow> {
  const [row] = await db.insert(revisions).values(values).returning();
  if (!row) throw new Error('revision insert returned nothing');
  return row;
}

/**
 * Inserts many revisions in a few statements (issue 38: a move of 400+ subscriptions writes one per
 * subscription), in `db`'s transaction; answers the rows in the order given.
 */
export async function insertRevisions(db: Pick<Db, 'insert'>, values: readonly RevisionValues[]): Promise<RevisionRow[]> {
  const rows: RevisionRow[] = [];
  for (let i = 0; i < values.length; i += 1000) {
    rows.push(...await db.insert(revisions).values(values.slice(i, i + 1000)).returning());
  }
  return rows;
}

/** One object's revisions, newest first (revisions_object_idx). */
export async function listRevisions(
  db: Pick<Db, 'select'>, siteId: string, kind: string, objectId: string, page: { offset: number; limit: number },
): Promise<{ rows: RevisionWithActor[]; total: number }> {
  const where = and(eq(revisions.siteId, siteId), eq(revisions.objectKind, kind), eq(revisions.objectId, objectId));
  const [rows, [total]] = await Promise.all([
    db.select({ revision: revisions, actorUsername: staffUsers.username }).from(revisions)
      .leftJoin(staffUsers, eq(staffUsers.id, revisions.actorUserId))
      .where(where).orderBy(desc(revisions.seq)).offset(page.offset).limit(page.limit),
    db.select({ n: count() }).from(revisions).where(where),
  ]);
  return { rows: rows.map((r) => ({ ...r.revision, actorUsername: r.actorUsername })), total: Number(total?.n ?? 0) };
}

/** One revision of the site, with its actor's username. */
export async function findRevision(db: Pick<Db, 'select'>, siteId: string, seq: number): Promise<RevisionWithActor | undefined> {
  const [row] = await db.select({ revision: revisions, actorUsername: staffUsers.username }).from(revisions)
    .leftJoin(staffUsers, eq(staffUsers.id, revisions.actorUserId))
    .where(and(eq(revisions.siteId, siteId), eq(revisions.seq, seq)));
  return row ? { ...row.revision, actorUsername: row.actorUsername } : undefined;
}

/** The site's revisions of the given numbers, with their actors' usernames, in the order of `seqs`. */
export async function findRevisions(db: Pick<Db, 'select'>, siteId: string, seqs: readonly number[]): Promise<RevisionWithActor[]> {
  const found = new Map<number, RevisionWithActor>();
  for (let i = 0; i < seqs.length; i += 1000) {
    const rows = await db.select({ revision: revisions, actorUsername: staffUsers.username }).from(revisions)
      .leftJoin(staffUsers, eq(staffUsers.id, revisions.actorUserId))
      .where(and(eq(revisions.siteId, siteId), inArray(revisions.seq, seqs.slice(i, i + 1000))));
    for (const r of rows) found.set(r.revision.seq, { ...r.revision, actorUsername: r.actorUsername });
  }
  return seqs.map((seq) => found.get(seq)).filter((r): r is RevisionWithActor => r !== undefined);
}

/** Every revision of one object, oldest first (the AppCMS settings' versions are read from them). */
export async function objectRevisions(db: Pick<Db, 'select'>, siteId: string, kind: string, objectId: string): Promise<RevisionWithActor[]> {
  const rows = await db.select({ revision: revisions, actorUsername: staffUsers.username }).from(revisions)
    .leftJoin(staffUsers, eq(staffUsers.id, revisions.actorUserId))
    .where(and(eq(revisions.siteId, siteId), eq(revisions.objectKind, kind), eq(revisions.objectId, objectId)))
    .orderBy(revisions.seq);
  return rows.map((r) => ({ ...r.revision, actorUsername: r.actorUsername }));
}

/**
 * Every revision one request of one actor wrote in the site since `since`, newest first (an Undo
 * reverses them all, so there is no row limit: issue 37; revisions_site_request_idx).
 */
export async function requestRevisions(
  db: Pick<Db, 'select'>, siteId: string, actorUserId: string, requestId: string, since: Date,
): Promise<RevisionWithActor[]> {
  const rows = await db.select({ revision: revisions, actorUsername: staffUsers.username }).from(revisions)
    .leftJoin(staffUsers, eq(staffUsers.id, revisions.actorUserId))
    .where(and(eq(revisions.siteId, siteId), eq(revisions.actorUserId, actorUserId), gte(revisions.at, since), eq(revisions.requestId, requestId)))
    .orderBy(desc(revisions.seq));
  return rows.map((r) => ({ ...r.revision, actorUsername: r.actorUsername }));
}

/** The key `latestRevisionSeqs` answers by. */
export const objectKey = (kind: string, objectId: string) => `${kind}\u0000${objectId}`;

/**
 * The newest revision's number of each object (issue 37: an Undo checks all of its objects in one
 * read, in its transaction), keyed by `objectKey(kind, id)`; an object without revisions is absent.
 */
export async function latestRevisionSeqs(
  db: Pick<Db, 'select'>, siteId: string, objects: readonly { kind: string; objectId: string }[],
): Promise<Map<string, number>> {
  const latest = new Map<string, number>();
  const byKind = new Map<string, Set<string>>();
  for (const o of objects) byKind.set(o.kind, (byKind.get(o.kind) ?? new Set()).add(o.objectId));
  for (const [kind, set] of byKind) {
    const ids = [...set];
    for (let i = 0; i < ids.length; i += 1000) {
      // revisions_object_idx: (site, kind, object, seq).
      const rows = await db.select({ objectId: revisions.objectId, seq: max(revisions.seq) }).from(revisions)
        .where(and(eq(revisions.siteId, siteId), eq(revisions.objectKind, kind), inArray(revisions.objectId, ids.slice(i, i + 1000))))
        .groupBy(revisions.objectId);
      for (const row of rows) if (row.seq !== null) latest.set(objectKey(kind, row.objectId), Number(row.seq));
    }
  }
  return latest;
}

/** The newest revision's number of one object (0 when it has none). */
export async function latestRevisionSeq(db: Pick<Db, 'select'>, siteId: string, kind: string, objectId: string): Promise<number> {
  const [row] = await db.select({ seq: revisions.seq }).from(revisions)
    .where(and(eq(revisions.siteId, siteId), eq(revisions.objectKind, kind), eq(revisions.objectId, objectId)))
    .orderBy(desc(revisions.seq)).limit(1);
  return row?.seq ?? 0;
}
