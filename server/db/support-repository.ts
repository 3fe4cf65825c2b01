/**
 * SQL of Customer Support (issue 16): the subscriber search, the rows of one subscriber's page, and
 * the writes of the support actions. Every statement is scoped to one site. The rules (roles,
 * reasons, versions, what each action changes) are in server/domain/support.ts; writes run through
 * `transaction`, whose repository commits or rolls back as one, audit record included.
 */
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { SUBSCRIPTION_STATE_RULES, type SubscriptionState } from '../../common/figures';
import { SEARCH_TOTAL_CAP } from '../../common/support';
import { insertAuditEvent, type AuditEventValues } from './audit-repository';
import type { Db } from './client';
import { insertRevision, type RevisionRow, type RevisionValues } from './revision-repository';
import { refreshRollupsIn, siteTimeZone } from './rollups';
import {
  contentItems, networks, paymentRefunds, payments, planPriceVersions, plans, playbackSessions, staffUsers, subscriberDevices, subscribers, subscriptions,
  subscriberEmailWords, subscriberNameWords, supportNotes,
} from './schema';
import { RETRYABLE_SQLSTATES, sqlState } from './sql-state';

export type SubscriberRecord = typeof subscribers.$inferSelect;
export type SubscriptionRecord = typeof subscriptions.$inferSelect;
export type PaymentRecord = typeof payments.$inferSelect;
export type PlanRecord = typeof plans.$inferSelect;
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
  /** Matches are counted up to this many (common/support.ts SEARCH_TOTAL_CAP unless given). */
  totalCap?: number;
}

/** Hex digits and dashes, long enough to mean an id. */
const ID_PREFIX = /^[0-9a-f-]{4,36}$/;
const FULL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A query made of phone characters with at least this many digits is also compared with phone numbers. */
const MIN_PHONE_DIGITS = 3;
/** The digits the phone mask shows (`•••• 4321`): a query of exactly these many digits matches the number's tail. */
export const PHONE_TAIL_DIGITS = 4;
/** A local part shorter than this is not looked up alone (too many people share `jo@`). */
export const MIN_LOCAL_PART = 3;
const PHONE_CHARACTERS = /^[\d\s()+.-]+$/;
/** A whole word of an e-mail is looked up when the query is one word of at least this many letters or digits (issue 38). */
export const MIN_EMAIL_WORD = 4;
const ONE_WORD = /^[\p{L}\p{N}]+$/u;
/**
 * Matches of a query up to this many are sorted, more are met by walking the site newest first
 * (search): at 200,000 subscribers a walk reads about 200,000 × 20 ÷ matches rows for a first page,
 * fewer than the matches themselves from about 2,000 on.
 */
const SORT_MATCHES_UP_TO = 2_000;
/** A domain: labels of letters, digits and dashes joined by dots. */
const DOMAIN = /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)*$/u;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The words of a query as a prefix tsquery (`ava:* & tay:*`), only letters and digits, or null when none. */
export function nameWordsQuery(text: string): string | null {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0).slice(0, 8);
  return words.length === 0 ? null : words.map((w) => `${w}:*`).join(' & ');
}

/**
 * What a search matches (issues 25 and 29; SECURITY.md C-SUP-1). The list shows e-mails and phones
 * masked, so no query may match a part of them that the mask hides, or a prefix walk (`ava.t`,
 * `ava.ta`, …) would rebuild them one character at a time without the audited reveal:
 * - e-mail: a query containing '@' matches only the whole e-mail; a query without '@' of at least
 *   MIN_LOCAL_PART characters matches only the whole local part (everything before the '@').
 *   Case-insensitive; never a prefix.
 * - e-mail domain (issue 38; the mask shows it): '@example.org', or 'example.org' (no '@', at least
 *   one dot), matches every address at example.org or at one of its subdomains (mail.example.org).
 * - e-mail word (issue 38): a query of one word of at least MIN_EMAIL_WORD letters or digits matches
 *   an e-mail holding it as a whole word, parts split at `- + . / @ : _` ('lopez40', 'example' in
 *   'maria.lopez40@example.org'). Whole words only, and none shorter than four, so a prefix walk
 *   from the two characters the mask shows never lands on one.
 * - phone: a query of phone characters matches when its digits are all the number's digits, or when
 *   it is exactly the PHONE_TAIL_DIGITS last digits (the ones the mask shows).
 * - name: every word of the query is the start of a word of the name, in any order ("taylor",
 *   "ava tay", "taylor ava"); names are shown in full.
 * - id: a prefix of at least four hex digits or dashes of the subscriber id (shown in full); a whole
 *   id of one of the subscriber's subscriptions or payments.
 * Each arm is served by an index: migration 0003's btrees (text_pattern_ops, `=` and `LIKE 'x%'`),
 * 0023's GIN over the name's words (0027: `subscriberNameWords`, punctuation the parser would read as
 * part of a number, host or path made blanks first) and btree over the phone's last
 * four digits, 0032's btree over the reversed e-mail (the domain is its start) and GIN over the
 * e-mail's words, and the primary keys of subscriptions and payments; each arm is looked up on its
 * own index (searchPredicate).
 */
function searchArms(siteId: string, query: string): SQL[] | undefined {
  const text = query.trim().toLowerCase();
  if (text === '') return undefined;
  const prefix = `${escapeLike(text)}%`;
  const arms: SQL[] = [];
  const domain = text.startsWith('@') ? text.slice(1) : text.includes('.') && !text.includes('@') ? text : null;
  if (domain !== null && DOMAIN.test(domain)) {
    // The address reversed starts with the domain reversed, then its '@' (the domain) or a '.' (a subdomain):
    // a range of the index in byte order (`~>=~`, `~<~`: text_pattern_ops), the character after '@' and '.'
    // ending it, so no row is tested again and the count reads the index alone (migration 0034).
    const reversed = [...domain].reverse().join('');
    const end = sql`reverse(lower(${subscribers.email}))`;
    arms.push(
      sql`(${end} ~>=~ ${`${reversed}@`} AND ${end} ~<~ ${`${reversed}A`})`,
      sql`(${end} ~>=~ ${`${reversed}.`} AND ${end} ~<~ ${`${reversed}/`})`,
    );
  }
  if (text.includes('@')) arms.push(sql`lower(${subscribers.email}) = ${text}`);
  // The whole local part: the e-mail starts with exactly it and then its '@'.
  else if (text.length >= MIN_LOCAL_PART) arms.push(sql`lower(${subscribers.email}) LIKE ${`${escapeLike(text)}@%`}`);
  if (text.length >= MIN_EMAIL_WORD && ONE_WORD.test(text)) {
    arms.push(sql`${subscriberEmailWords(subscribers.email)} @@ to_tsquery('simple'::regconfig, ${text})`);
  }
  const words = text.includes('@') ? null : nameWordsQuery(text);
  if (words) arms.push(sql`${subscriberNameWords(subscribers.name)} @@ to_tsquery('simple'::regconfig, ${words})`);
  const digits = text.replace(/\D/g, '');
  if (digits.length >= MIN_PHONE_DIGITS && PHONE_CHARACTERS.test(text)) {
    arms.push(sql`regexp_replace(${subscribers.phone}, '[^0-9]', '', 'g') = ${digits}`);
    if (digits.length === PHONE_TAIL_DIGITS) arms.push(sql`right(regexp_replace(${subscribers.phone}, '[^0-9]', '', 'g'), 4) = ${digits}`);
  }
  if (ID_PREFIX.test(text)) arms.push(sql`(${subscribers.id}::text) LIKE ${prefix}`);
  if (FULL_UUID.test(text)) {
    arms.push(sql`${subscribers.id} IN (SELECT ${subscriptions.subscriberId} FROM ${subscriptions} WHERE ${subscriptions.id} = ${text}::uuid AND ${subscriptions.siteId} = ${siteId}::uuid)`);
    arms.push(sql`${subscribers.id} IN (SELECT ${payments.subscriberId} FROM ${payments} WHERE ${payments.id} = ${text}::uuid AND ${payments.siteId} = ${siteId}::uuid)`);
  }
  return arms;
}

/**
 * A query's matches two ways (issue 38), or undefined without a query: `any`, the arms OR-ed, for a
 * walk that tests row by row; `united(where)`, each arm with the other filters on its own index, the
 * ids and creation times united (`matched.id`, `matched.created_at`), for the total and a sorted
 * page. On the OR PostgreSQL runs a BitmapOr but then tests every match again against all the arms
 * (a name's and an e-mail's words recomputed per row: 486 ms for 40,000 matches at 100× the demo
 * data), and joining the united ids back to the table it chose a scan of the whole site; each arm
 * alone is exact and costs only its own matches (100 ms).
 * A query nothing can match (a one-letter query that is no word start is still a name word): no rows.
 */
function searchPredicate(siteId: string, query: string): {
  any: SQL; united: (where: (arm: SQL) => SQL | undefined) => SQL; total: (where: (arm: SQL) => SQL | undefined, cap: number) => SQL;
} | undefined {
  const found = searchArms(siteId, query);
  if (!found) return undefined;
  const arms = found.length === 0 ? [sql`false`] : found;
  return {
    any: sql`(${sql.join(arms, sql` OR `)})`,
    united: (where) => sql`(${sql.join(arms.map((arm) => sql`SELECT ${subscribers.id} AS id, ${subscribers.createdAt} AS created_at FROM ${subscribers} WHERE ${where(arm)}`), sql` UNION `)}) AS matched`,
    // Each arm counts the matches none of the arms before it has: the sum is the union's size, without
    // collecting and de-duplicating its ids. `IS NOT TRUE`: an arm that is NULL for a row did not match it.
    // Each arm stops counting one past the cap (`LIMIT`): the arms are disjoint, so the sum passes the cap
    // exactly when the union does, and below it the sum is exact.
    total: (where, cap) => sql`(${sql.join(arms.map((arm, i) => {
      const earlier = i === 0 ? undefined : sql`(${sql.join(arms.slice(0, i), sql` OR `)}) IS NOT TRUE`;
      return sql`(SELECT count(*) FROM (SELECT 1 FROM ${subscribers} WHERE ${where(earlier ? sql`${arm} AND ${earlier}` : arm)} LIMIT ${cap + 1}) AS arm)`;
    }), sql` + `)})::int`,
  };
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
    /**
     * One page of the site's subscribers matching the filter, newest first, with the total.
     * With a query the total comes first, from each arm's own index (issue 38): none past the page, no
     * page query; up to SORT_MATCHES_UP_TO matches, the page's ids are sorted out of the same united
     * matches, so the planner never walks subscribers_site_created_idx newest first hoping to meet a
     * page of matches early (a name word that matched nobody walked all 200,000 rows of a site at 100×
     * the demo data: 859 ms p95). More matches than that are dense enough for that walk to fill a page
     * soon, and sorting them all would cost more. Without a query (listing, filters only) the walk is
     * the plan, as before.
     * The total is the sum over the arms of what each matches and no earlier arm did (searchPredicate
     * `total`), the domain arm first: an index-only count of migration 0034's index, no ids collected
     * and de-duplicated. Bench at 100× (scripts/bench-support-search.ts, PostgreSQL 15, 2 cores at
     * load average 20–25 shared with other work), median / p95 of 30 runs, before → after:
     * "example.org" (40,000 matches) 383 / 570 → 27 / 146 ms, "@example.org" 288 / 402 → 26 / 37 ms,
     * e-mail word "inbox" (40,000, a GIN arm: no index-only count) 285 / 333 → 150 / 212 ms, status
     * suspended without a query 189 / 297 → 20 / 55 ms (0034's site/status/created index). The other
     * kinds were within 150 ms p95 in the same run except as the load moved them (name start "MA",
     * 19,625 matches, 101 / 144 ms); "inbox" is the one kind left over the goal.
     * Then the capped total (common/support.ts SEARCH_TOTAL_CAP, 10,000; each arm counts one past it, a
     * broader search answers the cap with totalIsCapped): the GIN word arm reads 10,001 rows, not 40,000.
     * Same bench, uncapped (BENCH_TOTAL_CAP=100000000) then capped, back to back, median / p95:
     * load average 14: "inbox" 117 / 162 → 77 / 105 ms, "MA" 88 / 115 → 34 / 60 ms, slowest kind 185
     * (a load spike on "wei ch", 125 matches) → 106 ms p95; load average 6: "inbox" 98 / 119 → 52 / 68 ms,
     * "MA" 30 / 41 → 17 / 26 ms, "example.org" 9 / 13 → 8 / 18 ms, the other kinds unchanged within noise
     * (slowest p95 119 → 68 ms). Every kind ≤ 150 ms p95 in both capped runs.
     */
    async search(siteId: string, filter: SubscriberSearchFilter): Promise<{ rows: SubscriberRecord[]; total: number; totalIsCapped: boolean }> {
      const matching = searchPredicate(siteId, filter.query);
      const where = (match: SQL | undefined) => and(
        eq(subscribers.siteId, siteId),
        filter.status ? eq(subscribers.status, filter.status) : undefined,
        match,
        subscriptionPredicate(siteId, filter),
      );
      const offset = (filter.page - 1) * filter.pageSize;
      const page = (match: SQL | undefined, newestFirst: SQL) => db.select().from(subscribers).where(where(match))
        .orderBy(newestFirst, desc(subscribers.id)).limit(filter.pageSize).offset(offset);
      const count = async (match: SQL | undefined) => (await db.select({ total: sql<number>`count(*)::int` })
        .from(subscribers).where(where(match)))[0]?.total ?? 0;
      if (!matching) {
        const [rows, total] = await Promise.all([page(undefined, desc(subscribers.createdAt)), count(undefined)]);
        return { rows, total, totalIsCapped: false };
      }
      const cap = filter.totalCap ?? SEARCH_TOTAL_CAP;
      const [counted] = await db.select({ total: sql<number>`${matching.total(where, cap)}` }).from(sql`(SELECT 1) AS one`);
      const totalIsCapped = (counted?.total ?? 0) > cap;
      const total = totalIsCapped ? cap : counted?.total ?? 0;
      const matched = matching.united(where);
      // Past a capped total the walk still serves pages: the matches go on past the cap.
      if (!totalIsCapped && total <= offset) return { rows: [], total, totalIsCapped };
      if (totalIsCapped || total > SORT_MATCHES_UP_TO) return { rows: await page(matching.any, desc(subscribers.createdAt)), total, totalIsCapped };
      const ids = (await db.select({ id: sql<string>`matched.id` }).from(matched)
        .orderBy(sql`matched.created_at DESC, matched.id DESC`).limit(filter.pageSize).offset(offset)).map((r) => r.id);
      const rows = ids.length === 0 ? [] : await db.select().from(subscribers).where(and(eq(subscribers.siteId, siteId), inArray(subscribers.id, ids)))
        .orderBy(desc(subscribers.createdAt), desc(subscribers.id));
      return { rows, total, totalIsCapped };
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

    /**
     * Subscriptions with their plan, newest first, and the prices of the price version each moves to at
     * its next renewal (issue 38: null when it is not moving).
     */
    subscriptionsOf(siteId: string, subscriberId: string) {
      return db.select({ subscription: subscriptions, planName: plans.name, billingPeriod: plans.billingPeriod, renewalPrices: planPriceVersions.prices })
        .from(subscriptions).innerJoin(plans, eq(plans.id, subscriptions.planId))
        .leftJoin(planPriceVersions, and(eq(planPriceVersions.planId, subscriptions.planId), eq(planPriceVersions.version, subscriptions.renewalPriceVersion)))
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

    /** Every subscription of the given subscribers with its plan's name (the search results' plan and state). */
    subscriptionsOfMany(siteId: string, subscriberIds: string[]) {
      if (subscriberIds.length === 0) return Promise.resolve([]);
      return db.select({
        subscriberId: subscriptions.subscriberId, planName: plans.name, status: subscriptions.status,
        cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd, endedAt: subscriptions.endedAt, startedAt: subscriptions.startedAt,
      }).from(subscriptions).innerJoin(plans, eq(plans.id, subscriptions.planId))
        .where(and(eq(subscriptions.siteId, siteId), inArray(subscriptions.subscriberId, subscriberIds)));
    },

    /** The site's plans that are not archived or drafts, for a plan change. */
    activePlans(siteId: string): Promise<PlanRecord[]> {
      return db.select().from(plans).where(and(eq(plans.siteId, siteId), eq(plans.status, 'active'))).orderBy(asc(plans.name), asc(plans.id));
    },

    async plan(siteId: string, id: string): Promise<PlanRecord | undefined> {
      const [row] = await db.select().from(plans).where(and(eq(plans.siteId, siteId), eq(plans.id, id)));
      return row;
    },

    async payment(siteId: string, id: string): Promise<PaymentRecord | undefined> {
      const [row] = await db.select().from(payments).where(and(eq(payments.siteId, siteId), eq(payments.id, id)));
      return row;
    },

    /** Writes `changes` and the next version if the payment still has `version`; undefined when it did not. */
    async updatePayment(id: string, version: number, changes: Partial<PaymentRecord>): Promise<PaymentRecord | undefined> {
      const [row] = await db.update(payments)
        .set({ ...changes, version: version + 1 })
        .where(and(eq(payments.id, id), eq(payments.version, version)))
        .returning();
      return row;
    },

    async insertRefund(values: typeof paymentRefunds.$inferInsert): Promise<string> {
      const [row] = await db.insert(paymentRefunds).values(values).returning({ id: paymentRefunds.id });
      if (!row) throw new Error('refund insert returned no row');
      return row.id;
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

/**
 * The repository bound to one transaction. Its `refreshRollups` recomputes the site's rollups of
 * the site's days it is given (the domain decides which: server/domain/support.ts, issue 38) inside
 * that transaction, under the same per-day locks as the fold and every rebuild (server/db/rollups.ts):
 * the write and the figures it moves commit together or not at all, so a write that committed has
 * nothing left that could fail (issue 37).
 */
function transactionStore(tx: Db) {
  return {
    ...repositoryOver(tx),
    siteTimeZone(siteId: string): Promise<string> {
      return siteTimeZone(tx, siteId);
    },
    refreshRollups(siteId: string, day: string, lastDay: string = day): Promise<void> {
      return refreshRollupsIn(tx, { siteId, from: day, to: lastDay });
    },
  };
}

export type SubscriberStore = ReturnType<typeof transactionStore>;

/** Tries of a support write whose transaction met a deadlock or serialisation failure (rolled back whole, run again). */
const TRANSACTION_ATTEMPTS = 5;

export function createSubscriberRepository(db: Db) {
  return {
    ...repositoryOver(db),
    /**
     * Runs `work` in one transaction over a repository bound to it. A deadlock or serialisation
     * failure rolled everything back, so the whole transaction is run again (a few times).
     */
    async transaction<T>(work: (tx: SubscriberStore) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await db.transaction((tx) => work(transactionStore(tx as unknown as Db)));
        } catch (error) {
          if (attempt >= TRANSACTION_ATTEMPTS || !RETRYABLE_SQLSTATES.has(sqlState(error) ?? '')) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));
        }
      }
    },
  };
}

export type SubscriberRepository = ReturnType<typeof createSubscriberRepository>;
