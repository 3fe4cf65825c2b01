/**
 * SQL of the revisions table (issue 28): insert one revision (inside the write's transaction: `db`
 * is the transaction), read one object's history newest first, read one revision. What a revision
 * holds and when one is written is server/domain/revisions.ts.
 */
import { and, count, desc, eq, gte } from 'drizzle-orm';
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

/** Every revision of one object, oldest first (the AppCMS settings' versions are read from them). */
export async function objectRevisions(db: Pick<Db, 'select'>, siteId: string, kind: string, objectId: string): Promise<RevisionWithActor[]> {
  const rows = await db.select({ revision: revisions, actorUsername: staffUsers.username }).from(revisions)
    .leftJoin(staffUsers, eq(staffUsers.id, revisions.actorUserId))
    .where(and(eq(revisions.siteId, siteId), eq(revisions.objectKind, kind), eq(revisions.objectId, objectId)))
    .orderBy(revisions.seq);
  return rows.map((r) => ({ ...r.revision, actorUsername: r.actorUsername }));
}

/**
 * The revisions one request of one actor wrote in the site since `since`, newest first (an Undo
 * reverses them; revisions_site_actor_at_idx).
 */
export async function requestRevisions(
  db: Pick<Db, 'select'>, siteId: string, actorUserId: string, requestId: string, since: Date,
): Promise<RevisionWithActor[]> {
  const rows = await db.select({ revision: revisions, actorUsername: staffUsers.username }).from(revisions)
    .leftJoin(staffUsers, eq(staffUsers.id, revisions.actorUserId))
    .where(and(eq(revisions.siteId, siteId), eq(revisions.actorUserId, actorUserId), gte(revisions.at, since), eq(revisions.requestId, requestId)))
    .orderBy(desc(revisions.seq)).limit(500);
  return rows.map((r) => ({ ...r.revision, actorUsername: r.actorUsername }));
}

/** The newest revision's number of one object (0 when it has none). */
export async function latestRevisionSeq(db: Pick<Db, 'select'>, siteId: string, kind: string, objectId: string): Promise<number> {
  const [row] = await db.select({ seq: revisions.seq }).from(revisions)
    .where(and(eq(revisions.siteId, siteId), eq(revisions.objectKind, kind), eq(revisions.objectId, objectId)))
    .orderBy(desc(revisions.seq)).limit(1);
  return row?.seq ?? 0;
}
