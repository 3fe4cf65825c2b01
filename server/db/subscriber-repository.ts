/**
 * SQL of Customer Support (issue 16): the subscriber search, the rows of one subscriber's page, and
 * the writes of the support actions. Every statement is scoped to one site. The rules (roles,
 * reasons, versions, what each action changes) are in server/domain/support.ts; writes run through
 * `transaction`, whose repository commits or rolls back as one, audit record included.
 */
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { SUBSCRIPTION_STATE_RULES, type SubscriptionState } from '../../common/figures';
import { insertAuditEvent, type AuditEventValues } from './audit-repository';
import type { Db } from './client';
import { insertRevision, type RevisionRow, type RevisionValues } from './revision-repository';
import { rebuildRollups } from './rollups';
import {
  contentItems, networks, payments, plans, playbackSessions, staffUsers, subscriberDevices, subscribers, subscriptions,
  supportNotes,
} from './schema';

export type SubscriberRecord = typeof subscribers.$inferSelect;
export type SubscriptionRecord = typeof subscriptions.$inferSelect;
export type DeviceRecord = typeof subscriberDevices.$inferSelect;

export interface SubscriberSearchFilter {
  query: string;
  status: string | null;
  /** Subscription filters (issue 27): a subscriber matches when one of their subscriptions has all of them. */
  state?: SubscriptionState | null;
  planId?: string | null;
  networkId?: string | null;
  page: number;
  pageSize: number;
}

/** Hex digits and dashes, long enough to mean an id. */
const ID_PREFIX = /^[0-9a-f-]{4,36}$/;
/** A query made of phone characters with at least this many digits is also compared with phone numbers. */
const MIN_PHONE_DIGITS = 3;
const PHONE_CHARACTERS = /^[\d\s()+.-]+$/;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * What a search matches (issue 25; SECURITY.md). The list shows e-mails and phones masked, so no
 * query may match a part of them that the mask hides, or a prefix walk (`ava.t`, `ava.ta`, …) would
 * rebuild them one character at a time without the audited reveal:
 * - e-mail: a query containing '@' matches only the whole e-mail; a query without '@' matches only
 *   the whole local part (everything before the '@'). Case-insensitive; never a prefix.
 * - phone: a query of phone characters matches only when its digits are all the number's digits.
 * - name: a case-insensitive prefix (names are shown in full).
 * - id: a prefix of at least four hex digits or dashes (ids are shown in full).
 * Each arm is served by one index of migration 0003 (btree, text_pattern_ops, which covers `=` and
 * a `LIKE 'x%'` prefix), so PostgreSQL answers with a BitmapOr of index scans.
 */
function searchPredicate(query: string): SQL | undefined {
  const text = query.trim().toLowerCase();
  if (text === '') return undefined;
  const prefix = `${escapeLike(text)}%`;
  const arms: SQL[] = [
    text.includes('@')
      ? sql`lower(${subscribers.email}) = ${text}`
      // The whole local part: the e-mail starts with exactly it and then its '@'.
      : sql`lower(${subscribers.email}) LIKE ${`${escapeLike(text)}@%`}`,
    sql`lower(${subscribers.name}) LIKE ${prefix}`,
  ];
  const digits = text.replace(/\D/g, '');
  if (digits.length >= MIN_PHONE_DIGITS && PHONE_CHARACTERS.test(text)) {
    arms.push(sql`regexp_replace(${subscribers.phone}, '[^0-9]', '', 'g') = ${digits}`);
  }
  if (ID_PREFIX.test(text)) arms.push(sql`(${subscribers.id}::text) LIKE ${prefix}`);
  return sql`(${sql.join(arms, sql` OR `)})`;
}

/**
 * The subscription filters as one semi-join: subscribers with a subscription of the site in the state
 * (common/figures.ts SUBSCRIPTION_STATE_RULES: its statuses, and cancel_at_period_end where the state
 * says so), on the plan, on the network. Served by subscriptions_site_status_idx (site, status) for a
 * state, subscriptions_plan_idx for a plan, and subscriptions_subscriber_idx for the correlation.
 */
function subscriptionPredicate(siteId: string, filter: SubscriberSearchFilter): SQL | undefined {
  const rule = filter.state ? SUBSCRIPTION_STATE_RULES[filter.state] : null;
  if (!rule && !filter.planId && !filter.networkId) return undefined;
  const where = and(
    eq(subscriptions.siteId, siteId),
    sql`${subscriptions.subscriberId} = ${subscribers.id}`,
    rule ? inArray(subscriptions.status, [...rule.statuses]) : undefined,
    rule?.cancelAtPeriodEnd ? eq(subscriptions.cancelAtPeriodEnd, true) : undefined,
    filter.planId ? eq(subscriptions.planId, filter.planId) : undefined,
    filter.networkId ? eq(subscriptions.networkId, filter.networkId) : undefined,
  );
  return sql`EXISTS (SELECT 1 FROM ${subscriptions} WHERE ${where})`;
}

type Executor = Pick<Db, 'select' | 'insert' | 'update'>;

function repositoryOver(db: Executor) {
  const ofSubscriber = <T extends typeof subscriptions | typeof payments | typeof subscriberDevices | typeof playbackSessions | typeof supportNotes>(
    table: T, siteId: string, subscriberId: string,
  ) => and(eq(table.siteId, siteId), eq(table.subscriberId, subscriberId));

  return {
    /** One page of the site's subscribers matching the filter, newest first, with the total. */
    async search(siteId: string, filter: SubscriberSearchFilter): Promise<{ rows: SubscriberRecord[]; total: number }> {
      const where = and(
        eq(subscribers.siteId, siteId),
        filter.status ? eq(subscribers.status, filter.status) : undefined,
        searchPredicate(filter.query),
        subscriptionPredicate(siteId, filter),
      );
      const [rows, [counted]] = await Promise.all([
        db.select().from(subscribers).where(where)
          .orderBy(desc(subscribers.createdAt), desc(subscribers.id))
          .limit(filter.pageSize).offset((filter.page - 1) * filter.pageSize),
        db.select({ total: sql<number>`count(*)::int` }).from(subscribers).where(where),
      ]);
      return { rows, total: counted?.total ?? 0 };
    },

    /** The site's plans (by name) and networks (by name), for the search's filters. */
    async filterOptions(siteId: string): Promise<{ plans: { id: string; name: string }[]; networks: { id: string; identifier: string; name: string }[] }> {
      const [planRows, networkRows] = await Promise.all([
        db.select({ id: plans.id, name: plans.name }).from(plans).where(eq(plans.siteId, siteId)).orderBy(asc(plans.name), asc(plans.id)),
        db.select({ id: networks.id, identifier: networks.identifier, name: networks.name }).from(networks)
          .where(eq(networks.siteId, siteId)).orderBy(asc(networks.name), asc(networks.id)),
      ]);
      return { plans: planRows, networks: networkRows };
    },

    async subscriber(siteId: string, id: string): Promise<(SubscriberRecord & { networkName: string }) | undefined> {
      const [row] = await db.select({ subscriber: subscribers, networkName: networks.name })
        .from(subscribers)
        .innerJoin(networks, eq(networks.id, subscribers.networkId))
        .where(and(eq(subscribers.siteId, siteId), eq(subscribers.id, id)));
      return row && { ...row.subscriber, networkName: row.networkName };
    },

    /** Subscriptions with their plan, newest first. */
    subscriptionsOf(siteId: string, subscriberId: string) {
      return db.select({ subscription: subscriptions, planName: plans.name, billingPeriod: plans.billingPeriod })
        .from(subscriptions).innerJoin(plans, eq(plans.id, subscriptions.planId))
        .where(ofSubscriber(subscriptions, siteId, subscriberId)).orderBy(desc(subscriptions.startedAt));
    },

    paymentsOf(siteId: string, subscriberId: string, limit: number) {
      return db.select({ payment: payments, planName: plans.name })
        .from(payments).leftJoin(plans, eq(plans.id, payments.planId))
        .where(ofSubscriber(payments, siteId, subscriberId)).orderBy(desc(payments.at)).limit(limit);
    },

    devicesOf(siteId: string, subscriberId: string): Promise<DeviceRecord[]> {
      return db.select().from(subscriberDevices)
        .where(ofSubscriber(subscriberDevices, siteId, subscriberId)).orderBy(desc(subscriberDevices.lastSeenAt));
    },

    /** The newest playback sessions with the title watched (index playback_subscriber_started_idx). */
    playbackOf(siteId: string, subscriberId: string, limit: number) {
      return db.select({ session: playbackSessions, contentTitle: contentItems.title })
        .from(playbackSessions).innerJoin(contentItems, eq(contentItems.id, playbackSessions.contentId))
        .where(ofSubscriber(playbackSessions, siteId, subscriberId)).orderBy(desc(playbackSessions.startedAt)).limit(limit);
    },

    notesOf(siteId: string, subscriberId: string, limit: number) {
      return db.select({ note: supportNotes, authorName: staffUsers.displayName })
        .from(supportNotes).leftJoin(staffUsers, eq(staffUsers.id, supportNotes.authorUserId))
        .where(ofSubscriber(supportNotes, siteId, subscriberId)).orderBy(desc(supportNotes.createdAt)).limit(limit);
    },

    async subscription(siteId: string, id: string): Promise<SubscriptionRecord | undefined> {
      const [row] = await db.select().from(subscriptions).where(and(eq(subscriptions.siteId, siteId), eq(subscriptions.id, id)));
      return row;
    },

    /** Writes `changes` and the next version if the row still has `version`; undefined when it did not. */
    async updateSubscription(id: string, version: number, changes: Partial<SubscriptionRecord>, now: Date): Promise<SubscriptionRecord | undefined> {
      const [row] = await db.update(subscriptions)
        .set({ ...changes, version: version + 1, updatedAt: now })
        .where(and(eq(subscriptions.id, id), eq(subscriptions.version, version)))
        .returning();
      return row;
    },

    /** Moves the subscriber to the next version if it still has `version`; false when it did not. */
    async bumpSubscriberVersion(id: string, version: number, now: Date): Promise<boolean> {
      const rows = await db.update(subscribers)
        .set({ version: version + 1, updatedAt: now })
        .where(and(eq(subscribers.id, id), eq(subscribers.version, version)))
        .returning({ id: subscribers.id });
      return rows.length === 1;
    },

    /** Marks the given devices of the subscriber signed out (those not signed out already). */
    signOutDevices(siteId: string, subscriberId: string, deviceIds: string[], now: Date): Promise<{ id: string }[]> {
      return db.update(subscriberDevices).set({ signedOutAt: now })
        .where(and(
          ofSubscriber(subscriberDevices, siteId, subscriberId),
          inArray(subscriberDevices.id, deviceIds),
          isNull(subscriberDevices.signedOutAt),
        ))
        .returning({ id: subscriberDevices.id });
    },

    async insertNote(values: { siteId: string; subscriberId: string; authorUserId: string; body: string; createdAt: Date }): Promise<string> {
      const [row] = await db.insert(supportNotes).values(values).returning({ id: supportNotes.id });
      if (!row) throw new Error('support note insert returned no row');
      return row.id;
    },

    /** One revision (issue 28), in this repository's transaction (server/domain/revisions.ts decides what it holds). */
    insertRevision(values: RevisionValues): Promise<RevisionRow> {
      return insertRevision(db, values);
    },
    audit(values: Omit<AuditEventValues, 'at'>): Promise<void> {
      return insertAuditEvent(db, { ...values, at: new Date() });
    },
  };
}

export type SubscriberStore = ReturnType<typeof repositoryOver>;

export function createSubscriberRepository(db: Db) {
  return {
    ...repositoryOver(db),
    /** Runs `work` in one transaction over a repository bound to it. */
    transaction<T>(work: (tx: SubscriberStore) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(repositoryOver(tx)));
    },
    /**
     * Recomputes the site's rollups of one UTC day, so a subscription that ended today stops
     * counting as active in what Analytics reads at once (not at the next nightly rebuild).
     */
    refreshRollups(siteId: string, day: string): Promise<void> {
      return rebuildRollups(db, { siteId, from: day, to: day });
    },
  };
}

export type SubscriberRepository = ReturnType<typeof createSubscriberRepository>;
