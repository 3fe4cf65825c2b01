/**
 * SQL of the audit log (issue 28): one site's audit rows filtered by action(s), actor, object and
 * dates, newest first (indexes: (site, at), (site, action, at), (site, actor, at), (site, kind,
 * object, at)); the revisions the same requests wrote (the rows' "field: before → after"); and the
 * names of the objects those changes refer to by id (a reorder reads as plan group names, not UUIDs).
 */
import { and, count, desc, eq, gte, ilike, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from './client';
import { auditEvents, contentItems, coupons, networks, offers, planGroups, plans, revisions, staffUsers } from './schema';
import { containsPattern } from './like-pattern';

export interface AuditLogFilter {
  /** Only these actions (an area's, or the one chosen); null: any. */
  actions: readonly string[] | null;
  /** Part of the actor's username or display name. */
  who: string;
  objectKind: string | null;
  /** Part of the object's name, or its exact id. */
  object: string;
  from: Date | null;
  toExclusive: Date | null;
}

export type AuditLogRow = typeof auditEvents.$inferSelect & { actorUsername: string | null };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function whereOf(siteId: string, filter: AuditLogFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(auditEvents.siteId, siteId)];
  if (filter.actions) conditions.push(filter.actions.length === 1 ? eq(auditEvents.action, filter.actions[0]!) : inArray(auditEvents.action, [...filter.actions]));
  if (filter.from) conditions.push(gte(auditEvents.at, filter.from));
  if (filter.toExclusive) conditions.push(lt(auditEvents.at, filter.toExclusive));
  if (filter.objectKind) conditions.push(eq(auditEvents.objectKind, filter.objectKind));
  const object = filter.object.trim();
  if (object) conditions.push(or(ilike(auditEvents.objectName, containsPattern(object)), eq(auditEvents.objectId, object)));
  const who = filter.who.trim();
  if (who) conditions.push(or(ilike(staffUsers.username, containsPattern(who)), ilike(staffUsers.displayName, containsPattern(who))));
  return and(...conditions);
}

export function createAuditLogRepository(db: Db) {
  return {
    async list(siteId: string, filter: AuditLogFilter, page: { offset: number; limit: number }): Promise<{ rows: AuditLogRow[]; total: number }> {
      const where = whereOf(siteId, filter);
      const [rows, [totalRow]] = await Promise.all([
        db.select({ event: auditEvents, actorUsername: staffUsers.username })
          .from(auditEvents)
          .leftJoin(staffUsers, eq(staffUsers.id, auditEvents.actorUserId))
          .where(where)
          .orderBy(desc(auditEvents.at), desc(auditEvents.seq))
          .limit(page.limit)
          .offset(page.offset),
        db.select({ total: count() }).from(auditEvents).leftJoin(staffUsers, eq(staffUsers.id, auditEvents.actorUserId)).where(where),
      ]);
      return { rows: rows.map((r) => ({ ...r.event, actorUsername: r.actorUsername })), total: Number(totalRow?.total ?? 0) };
    },

    /** The revisions the given requests wrote on this site, oldest first. */
    async revisionsOfRequests(siteId: string, requestIds: readonly string[]) {
      if (requestIds.length === 0) return [];
      return db.select({
        requestId: revisions.requestId, actorUserId: revisions.actorUserId, objectKind: revisions.objectKind, objectId: revisions.objectId, seq: revisions.seq,
        changes: revisions.changes,
      }).from(revisions)
        .where(and(eq(revisions.siteId, siteId), inArray(revisions.requestId, [...requestIds])))
        .orderBy(revisions.seq);
    },

    /**
     * The names of the site's objects among `ids` (plans, plan groups, offers, coupons, networks,
     * content items, staff accounts), and each content item's kind (its page's address needs it).
     */
    async namesOf(siteId: string, ids: readonly string[]): Promise<Map<string, { name: string; contentKind?: string }>> {
      const wanted = [...new Set(ids.filter((id) => UUID.test(id)))];
      const names = new Map<string, { name: string; contentKind?: string }>();
      if (wanted.length === 0) return names;
      const [planRows, groupRows, offerRows, couponRows, networkRows, contentRows, staffRows] = await Promise.all([
        db.select({ id: plans.id, name: plans.name }).from(plans).where(and(eq(plans.siteId, siteId), inArray(plans.id, wanted))),
        db.select({ id: planGroups.id, name: planGroups.name }).from(planGroups).where(and(eq(planGroups.siteId, siteId), inArray(planGroups.id, wanted))),
        db.select({ id: offers.id, name: offers.name }).from(offers).where(and(eq(offers.siteId, siteId), inArray(offers.id, wanted))),
        db.select({ id: coupons.id, name: coupons.code }).from(coupons).where(and(eq(coupons.siteId, siteId), inArray(coupons.id, wanted))),
        db.select({ id: networks.id, name: networks.name }).from(networks).where(and(eq(networks.siteId, siteId), inArray(networks.id, wanted))),
        db.select({ id: contentItems.id, name: contentItems.title, contentKind: contentItems.kind }).from(contentItems)
          .where(and(eq(contentItems.siteId, siteId), inArray(contentItems.id, wanted))),
        db.select({ id: staffUsers.id, name: staffUsers.username }).from(staffUsers).where(and(eq(staffUsers.siteId, siteId), inArray(staffUsers.id, wanted))),
      ]);
      for (const row of [...planRows, ...groupRows, ...offerRows, ...couponRows, ...networkRows, ...staffRows]) names.set(row.id, { name: row.name });
      for (const row of contentRows) names.set(row.id, { name: row.name, contentKind: row.contentKind });
      return names;
    },
  };
}

export type AuditLogRepository = ReturnType<typeof createAuditLogRepository>;
