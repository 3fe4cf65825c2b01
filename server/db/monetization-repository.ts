/**
 * The SQL of the monetization editors (issue 15): plans, plan groups, offers, coupons and the site's
 * monetization settings. Every statement filters by the caller's site; every update is conditional on
 * the version the editor loaded (zero rows = someone else saved first, or the row is gone). The
 * rules (roles, validation, what to audit) live in server/domain/monetization.ts.
 */
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { asRestore, scrubDetail } from './audit-repository';
import { currentRequestId } from '../request-scope';
import type { Db } from './client';
import { containsPattern } from './like-pattern';
import {
  auditEvents, couponRedemptions, coupons, offers, payments, planGroupPlans, planGroups, planPriceVersions, plans, sites, subscribers, subscriptions,
  type PlanPrice,
} from './schema';
import { SUBSCRIPTION_STATE_RULES } from '../../common/figures';
import { LIVE_SUBSCRIPTION_STATES } from '../../common/monetization-rules';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export type PlanRow = typeof plans.$inferSelect;
export type PlanGroupRow = typeof planGroups.$inferSelect;
export type OfferRow = typeof offers.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;

export interface Page<T> {
  items: T[];
  total: number;
}

export interface ListQuery {
  search: string;
  status: string;
  offset: number;
  limit: number;
}

function where(...conditions: (SQL | undefined)[]): SQL | undefined {
  return and(...conditions.filter((c): c is SQL => c !== undefined));
}

export async function writeAudit(
  db: Executor,
  event: { action: string; actorUserId: string; siteId: string; detail: Record<string, unknown>; objectKind?: string; objectId?: string; objectName?: string | null },
): Promise<void> {
  await db.insert(auditEvents).values({
    at: new Date(), actorUserId: event.actorUserId, siteId: event.siteId, ...asRestore(event.action, scrubDetail(event.detail)),
    objectKind: event.objectKind ?? null, objectId: event.objectId ?? null, objectName: event.objectName ?? null,
    requestId: currentRequestId(),
  });
}

/* ------------------------------- Settings ------------------------------- */

const SETTINGS_COLUMNS = {
  isMonetizationModelEnabled: sites.isMonetizationModelEnabled,
  // The models are the service types (issue 27): one stored fact with AppCMS › Service.
  models: sites.serviceTypes,
  serviceType: sites.serviceType,
  version: sites.monetizationVersion,
};

export async function siteSettings(db: Executor, siteId: string) {
  const [row] = await db.select(SETTINGS_COLUMNS).from(sites).where(eq(sites.id, siteId));
  return row;
}

/**
 * The Models save, conditional on the Models version. The fields are shared with AppCMS › Service, so
 * the same statement bumps `serviceVersion` too: that editor's stale form then gets its 409.
 */
export async function updateSiteSettings(
  db: Executor, siteId: string, version: number, values: { isMonetizationModelEnabled: boolean; models: string[]; serviceType: string },
) {
  const [row] = await db.update(sites)
    .set({
      isMonetizationModelEnabled: values.isMonetizationModelEnabled, serviceTypes: values.models, serviceType: values.serviceType,
      monetizationVersion: sql`${sites.monetizationVersion} + 1`, serviceVersion: sql`${sites.serviceVersion} + 1`,
    })
    .where(and(eq(sites.id, siteId), eq(sites.monetizationVersion, version)))
    .returning(SETTINGS_COLUMNS);
  return row;
}

/* ------------------------------- Plans ------------------------------- */

export async function listPlans(db: Executor, siteId: string, query: ListQuery): Promise<Page<PlanRow>> {
  const condition = where(
    eq(plans.siteId, siteId),
    query.search ? ilike(plans.name, containsPattern(query.search)) : undefined,
    query.status ? eq(plans.status, query.status) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db.select().from(plans).where(condition).orderBy(asc(plans.name), asc(plans.id)).offset(query.offset).limit(query.limit),
    db.select({ n: count() }).from(plans).where(condition),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function findPlan(db: Executor, siteId: string, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(plans).where(and(eq(plans.siteId, siteId), eq(plans.id, id)));
  return row;
}

/** Plans of the site among `ids` (ids of another site or unknown ids are simply absent). */
export async function sitePlanIds(db: Executor, siteId: string, ids: string[], status?: string): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.select({ id: plans.id }).from(plans)
    .where(and(eq(plans.siteId, siteId), inArray(plans.id, ids), status === undefined ? undefined : eq(plans.status, status)));
  return new Set(rows.map((r) => r.id));
}

export type PlanValues = Pick<PlanRow, 'name' | 'description' | 'prices' | 'billingPeriod' | 'trialDays' | 'deviceLimit' | 'status'>;

export async function insertPlan(db: Executor, siteId: string, values: PlanValues): Promise<PlanRow> {
  const [row] = await db.insert(plans).values({ siteId, ...values }).returning();
  return row!;
}

export async function updatePlan(
  db: Executor, siteId: string, id: string, version: number, values: Partial<PlanValues> & { priceVersion?: number },
): Promise<PlanRow | undefined> {
  const [row] = await db.update(plans)
    .set({ ...values, version: sql`${plans.version} + 1`, updatedAt: new Date() })
    .where(and(eq(plans.siteId, siteId), eq(plans.id, id), eq(plans.version, version)))
    .returning();
  return row;
}

export async function deletePlan(db: Executor, siteId: string, id: string, version: number): Promise<boolean> {
  const rows = await db.delete(plans).where(and(eq(plans.siteId, siteId), eq(plans.id, id), eq(plans.version, version))).returning({ id: plans.id });
  return rows.length > 0;
}

/** Subscriptions (any status) per plan: what holds a plan against deletion and what the list shows (PLAN_FIGURES.subscriptionsAllTime). */
export async function subscriptionCounts(db: Executor, siteId: string, planIds: string[]): Promise<Map<string, number>> {
  if (planIds.length === 0) return new Map();
  const rows = await db.select({ planId: subscriptions.planId, n: count() }).from(subscriptions)
    .where(and(eq(subscriptions.siteId, siteId), inArray(subscriptions.planId, planIds)))
    .groupBy(subscriptions.planId);
  return new Map(rows.map((r) => [r.planId, r.n]));
}

/**
 * Per plan, its live subscriptions (LIVE_SUBSCRIPTION_STATES): all of them, those on an earlier price
 * version than the plan's current one that are not moving, and those moving to the current price at
 * their next renewal (issue 30); and its paying subscribers, each once (issue 38: the rows of Users'
 * Paying, SUBSCRIPTION_STATE_RULES.paying). Definitions: common/plan-figures.ts.
 */
export async function priceVersionCounts(
  db: Executor, siteId: string, planIds: string[],
): Promise<Map<string, { live: number; payingSubscribers: number; oldPrice: number; moving: number }>> {
  if (planIds.length === 0) return new Map();
  const live = inArray(subscriptions.status, [...LIVE_SUBSCRIPTION_STATES]);
  const paying = inArray(subscriptions.status, [...SUBSCRIPTION_STATE_RULES.paying.statuses]);
  const rows = await db.select({
    planId: subscriptions.planId,
    live: sql<number>`count(*) filter (where ${live})`.mapWith(Number),
    payingSubscribers: sql<number>`count(distinct ${subscriptions.subscriberId}) filter (where ${paying})`.mapWith(Number),
    oldPrice: sql<number>`count(*) filter (where ${live} and ${subscriptions.priceVersion} < ${plans.priceVersion}
      and coalesce(${subscriptions.renewalPriceVersion}, 0) < ${plans.priceVersion})`.mapWith(Number),
    moving: sql<number>`count(*) filter (where ${live} and ${subscriptions.renewalPriceVersion} = ${plans.priceVersion})`.mapWith(Number),
  }).from(subscriptions).innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(eq(subscriptions.siteId, siteId), inArray(subscriptions.planId, planIds)))
    .groupBy(subscriptions.planId);
  return new Map(rows.map((r) => [r.planId, { live: r.live, payingSubscribers: r.payingSubscribers, oldPrice: r.oldPrice, moving: r.moving }]));
}

/** Keeps the amounts of one price version of a plan (a version's amounts never change: a second write is ignored). */
export async function keepPriceVersion(db: Executor, siteId: string, planId: string, version: number, prices: PlanPrice[]): Promise<void> {
  await db.insert(planPriceVersions).values({ siteId, planId, version, prices }).onConflictDoNothing();
}

/** A subscription "Move existing subscribers at their next renewal" scheduled (issue 38: each gets a revision). */
export interface ScheduledRenewalMove {
  id: string;
  /** The subscription's version after the move. */
  version: number;
  currency: string;
  /** What it pays now (minor units). */
  amount: number;
  /** The price version it was to renew at before the move (null: its own) and the one it renews at now. */
  renewalPriceVersionBefore: number | null;
  /** What it was to pay at its next renewal before the move (minor units): its earlier scheduled version's price, else its own. */
  renewalAmountBefore: number;
}

/**
 * Schedules the plan's paying subscriptions on an earlier price version to move to `priceVersion`
 * at their next renewal. Answers the subscriptions scheduled (none: nobody was on an earlier price),
 * each with what it was to pay at its next renewal before (read under a row lock in the same
 * transaction, so the answer is the rows the update changed).
 */
export async function scheduleRenewalMoves(db: Executor, siteId: string, planId: string, priceVersion: number): Promise<ScheduledRenewalMove[]> {
  const movable = and(
    eq(subscriptions.siteId, siteId), eq(subscriptions.planId, planId), inArray(subscriptions.status, [...LIVE_SUBSCRIPTION_STATES]),
    sql`${subscriptions.priceVersion} < ${priceVersion}`, sql`coalesce(${subscriptions.renewalPriceVersion}, 0) < ${priceVersion}`,
  );
  const before = await db.select({
    id: subscriptions.id, currency: subscriptions.currency, amount: subscriptions.amount,
    renewalPriceVersion: subscriptions.renewalPriceVersion, renewalPrices: planPriceVersions.prices,
  }).from(subscriptions)
    .leftJoin(planPriceVersions, and(eq(planPriceVersions.planId, subscriptions.planId), eq(planPriceVersions.version, subscriptions.renewalPriceVersion)))
    .where(movable)
    .for('update', { of: subscriptions });
  if (before.length === 0) return [];
  const earlier = new Map(before.map((r) => [r.id, r]));
  const rows = await db.update(subscriptions)
    .set({ renewalPriceVersion: priceVersion, version: sql`${subscriptions.version} + 1`, updatedAt: new Date() })
    .where(movable)
    .returning({ id: subscriptions.id, version: subscriptions.version, currency: subscriptions.currency, amount: subscriptions.amount });
  // The locked rows are the ones updated; a row inserted since the read renews at its own price before the move.
  return rows.map((r) => {
    const was = earlier.get(r.id);
    return {
      id: r.id, version: r.version, currency: r.currency, amount: r.amount, renewalPriceVersionBefore: was?.renewalPriceVersion ?? null,
      renewalAmountBefore: was?.renewalPrices?.find((p) => p.currency === r.currency)?.amount ?? r.amount,
    };
  });
}

/**
 * The renewal side of a move (issue 30): every paying subscription whose period has ended by `now`
 * and that is scheduled to move takes its new price version; its amount becomes that version's price
 * in its currency (the amount of the period it renews into). Returns the subscriptions moved, each
 * with what it paid before (issue 38: its revision says so).
 */
export async function applyRenewalMoves(db: Executor, now: Date, siteId?: string): Promise<AppliedRenewalMove[]> {
  const due = await db.select({
    id: subscriptions.id, siteId: subscriptions.siteId, planId: subscriptions.planId, currency: subscriptions.currency, amount: subscriptions.amount,
    priceVersion: subscriptions.priceVersion, to: subscriptions.renewalPriceVersion, prices: planPriceVersions.prices,
  }).from(subscriptions)
    .innerJoin(planPriceVersions, and(eq(planPriceVersions.planId, subscriptions.planId), eq(planPriceVersions.version, subscriptions.renewalPriceVersion)))
    .where(and(
      siteId ? eq(subscriptions.siteId, siteId) : undefined, inArray(subscriptions.status, [...LIVE_SUBSCRIPTION_STATES]),
      sql`${subscriptions.renewalPriceVersion} is not null`, sql`${subscriptions.currentPeriodEnd} <= ${now.toISOString()}::timestamptz`,
    ));
  const moved: AppliedRenewalMove[] = [];
  for (const row of due) {
    const price = row.prices.find((p) => p.currency === row.currency);
    const amount = price?.amount ?? row.amount;
    const [updated] = await db.update(subscriptions)
      .set({ priceVersion: row.to!, renewalPriceVersion: null, amount, version: sql`${subscriptions.version} + 1`, updatedAt: now })
      .where(eq(subscriptions.id, row.id))
      .returning({ version: subscriptions.version });
    moved.push({
      id: row.id, planId: row.planId, amount, priceVersion: row.to!,
      before: { siteId: row.siteId, currency: row.currency, amount: row.amount, priceVersion: row.priceVersion, version: updated!.version },
    });
  }
  return moved;
}

/** A subscription that took its new price at its renewal: its new amount and price version, and what it had before. */
export interface AppliedRenewalMove {
  id: string;
  planId: string;
  amount: number;
  priceVersion: number;
  /** Issue 38: its site, currency, amount and price version before, and its version after (for its revision). */
  before: { siteId: string; currency: string; amount: number; priceVersion: number; version: number };
}

/** Whether anything besides plan groups still refers to the plan (subscriptions, payments, offers). */
export async function planInUse(db: Executor, siteId: string, planId: string): Promise<boolean> {
  const [subs] = await db.select({ n: count() }).from(subscriptions).where(and(eq(subscriptions.siteId, siteId), eq(subscriptions.planId, planId)));
  const [pays] = await db.select({ n: count() }).from(payments).where(and(eq(payments.siteId, siteId), eq(payments.planId, planId)));
  const [offered] = await db.select({ n: count() }).from(offers)
    .where(and(eq(offers.siteId, siteId), sql`${offers.planIds} @> ${JSON.stringify([planId])}::jsonb`));
  return (subs?.n ?? 0) + (pays?.n ?? 0) + (offered?.n ?? 0) > 0;
}

/* ----------------------------- Plan groups ----------------------------- */

export interface PlanGroupWithPlans extends PlanGroupRow {
  planIds: string[];
}

async function withPlanIds(db: Executor, groups: PlanGroupRow[]): Promise<PlanGroupWithPlans[]> {
  if (groups.length === 0) return [];
  const links = await db.select().from(planGroupPlans)
    .where(inArray(planGroupPlans.groupId, groups.map((g) => g.id)))
    .orderBy(asc(planGroupPlans.position));
  return groups.map((g) => ({ ...g, planIds: links.filter((l) => l.groupId === g.id).map((l) => l.planId) }));
}

export async function listPlanGroups(db: Executor, siteId: string): Promise<PlanGroupWithPlans[]> {
  const groups = await db.select().from(planGroups).where(eq(planGroups.siteId, siteId)).orderBy(asc(planGroups.position), asc(planGroups.name));
  return withPlanIds(db, groups);
}

export async function findPlanGroup(db: Executor, siteId: string, id: string): Promise<PlanGroupWithPlans | undefined> {
  const groups = await db.select().from(planGroups).where(and(eq(planGroups.siteId, siteId), eq(planGroups.id, id)));
  return (await withPlanIds(db, groups))[0];
}

async function replaceGroupPlans(db: Executor, groupId: string, planIds: string[]): Promise<void> {
  await db.delete(planGroupPlans).where(eq(planGroupPlans.groupId, groupId));
  if (planIds.length > 0) await db.insert(planGroupPlans).values(planIds.map((planId, position) => ({ groupId, planId, position })));
}

export async function insertPlanGroup(db: Executor, siteId: string, values: { name: string; description: string; planIds: string[] }): Promise<PlanGroupWithPlans> {
  const [last] = await db.select({ max: sql<number>`coalesce(max(${planGroups.position}), -1)` }).from(planGroups).where(eq(planGroups.siteId, siteId));
  const [row] = await db.insert(planGroups).values({ siteId, name: values.name, description: values.description, position: Number(last?.max ?? -1) + 1 }).returning();
  await replaceGroupPlans(db, row!.id, values.planIds);
  return { ...row!, planIds: values.planIds };
}

export async function updatePlanGroup(
  db: Executor, siteId: string, id: string, version: number, values: { name: string; description: string; planIds: string[] },
): Promise<PlanGroupWithPlans | undefined> {
  const [row] = await db.update(planGroups)
    .set({ name: values.name, description: values.description, version: sql`${planGroups.version} + 1`, updatedAt: new Date() })
    .where(and(eq(planGroups.siteId, siteId), eq(planGroups.id, id), eq(planGroups.version, version)))
    .returning();
  if (!row) return undefined;
  await replaceGroupPlans(db, id, values.planIds);
  return { ...row, planIds: values.planIds };
}

export async function setPlanGroupPosition(db: Executor, siteId: string, id: string, version: number, position: number): Promise<boolean> {
  const rows = await db.update(planGroups)
    .set({ position, version: sql`${planGroups.version} + 1`, updatedAt: new Date() })
    .where(and(eq(planGroups.siteId, siteId), eq(planGroups.id, id), eq(planGroups.version, version)))
    .returning({ id: planGroups.id });
  return rows.length > 0;
}

/* ------------------------------- Offers ------------------------------- */

export async function listOffers(db: Executor, siteId: string, query: ListQuery): Promise<Page<OfferRow>> {
  const condition = where(
    eq(offers.siteId, siteId),
    query.search ? ilike(offers.name, containsPattern(query.search)) : undefined,
    query.status ? eq(offers.status, query.status) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db.select().from(offers).where(condition).orderBy(desc(offers.startsAt), asc(offers.id)).offset(query.offset).limit(query.limit),
    db.select({ n: count() }).from(offers).where(condition),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function findOffer(db: Executor, siteId: string, id: string): Promise<OfferRow | undefined> {
  const [row] = await db.select().from(offers).where(and(eq(offers.siteId, siteId), eq(offers.id, id)));
  return row;
}

export type OfferValues = Pick<OfferRow, 'name' | 'discountType' | 'discountValue' | 'currency' | 'planIds' | 'startsAt' | 'endsAt' | 'eligibility' | 'status' | 'duration' | 'durationMonths'>;

export async function insertOffer(db: Executor, siteId: string, values: OfferValues): Promise<OfferRow> {
  const [row] = await db.insert(offers).values({ siteId, ...values }).returning();
  return row!;
}

export async function updateOffer(db: Executor, siteId: string, id: string, version: number, values: OfferValues): Promise<OfferRow | undefined> {
  const [row] = await db.update(offers)
    .set({ ...values, version: sql`${offers.version} + 1`, updatedAt: new Date() })
    .where(and(eq(offers.siteId, siteId), eq(offers.id, id), eq(offers.version, version)))
    .returning();
  return row;
}

/* ------------------------------- Coupons ------------------------------- */

export interface CouponWithCount extends CouponRow {
  offerName: string;
  /** The offer's end: a coupon never outlives its offer (common/monetization-rules.ts couponExpiry). */
  offerEndsAt: Date | null;
  redemptionCount: number;
  lastRedeemedAt: Date | null;
}

export interface CouponQuery extends ListQuery {
  offerId: string;
}

const redemptionCount = sql<number>`(select count(*) from ${couponRedemptions} where ${couponRedemptions.couponId} = ${coupons.id})`.mapWith(Number);
const lastRedeemedAt = sql<string | null>`(select max(${couponRedemptions.redeemedAt}) from ${couponRedemptions} where ${couponRedemptions.couponId} = ${coupons.id})`;
const toDate = (value: string | Date | null): Date | null => (value === null ? null : value instanceof Date ? value : new Date(value));

function couponCondition(siteId: string, query: Omit<CouponQuery, 'offset' | 'limit'>): SQL | undefined {
  return where(
    eq(coupons.siteId, siteId),
    query.search ? or(ilike(coupons.code, containsPattern(query.search))) : undefined,
    query.status ? eq(coupons.status, query.status) : undefined,
    query.offerId ? eq(coupons.offerId, query.offerId) : undefined,
  );
}

function selectCoupons(db: Executor) {
  return db.select({ coupon: coupons, offerName: offers.name, offerEndsAt: offers.endsAt, redemptionCount, lastRedeemedAt })
    .from(coupons).innerJoin(offers, eq(offers.id, coupons.offerId));
}

function flatten(rows: { coupon: CouponRow; offerName: string; offerEndsAt: Date | null; redemptionCount: number; lastRedeemedAt: string | Date | null }[]): CouponWithCount[] {
  return rows.map((r) => ({
    ...r.coupon, offerName: r.offerName, offerEndsAt: r.offerEndsAt, redemptionCount: r.redemptionCount, lastRedeemedAt: toDate(r.lastRedeemedAt),
  }));
}

export async function listCoupons(db: Executor, siteId: string, query: CouponQuery): Promise<Page<CouponWithCount>> {
  const condition = couponCondition(siteId, query);
  const [rows, [total]] = await Promise.all([
    selectCoupons(db).where(condition).orderBy(desc(coupons.createdAt), asc(coupons.code)).offset(query.offset).limit(query.limit),
    db.select({ n: count() }).from(coupons).where(condition),
  ]);
  return { items: flatten(rows), total: total?.n ?? 0 };
}

/** Every coupon matching the filters, for the CSV export (no paging). */
export async function allCoupons(db: Executor, siteId: string, query: Omit<CouponQuery, 'offset' | 'limit'>): Promise<CouponWithCount[]> {
  return flatten(await selectCoupons(db).where(couponCondition(siteId, query)).orderBy(asc(coupons.code)));
}

export async function findCoupon(db: Executor, siteId: string, id: string): Promise<CouponWithCount | undefined> {
  return flatten(await selectCoupons(db).where(and(eq(coupons.siteId, siteId), eq(coupons.id, id))))[0];
}

export type CouponValues = Pick<CouponRow, 'offerId' | 'code' | 'maxRedemptions' | 'maxPerSubscriber' | 'expiresAt' | 'status'>;

/** Inserts one coupon; undefined when the code is already taken on the site (any case). */
export async function insertCoupon(db: Executor, siteId: string, values: CouponValues): Promise<CouponRow | undefined> {
  const [row] = await db.insert(coupons).values({ siteId, ...values }).onConflictDoNothing().returning();
  return row;
}

export async function codeTaken(db: Executor, siteId: string, code: string, exceptId?: string): Promise<boolean> {
  const rows = await db.select({ id: coupons.id }).from(coupons)
    .where(and(eq(coupons.siteId, siteId), sql`lower(${coupons.code}) = lower(${code})`));
  return rows.some((r) => r.id !== exceptId);
}

export async function updateCoupon(db: Executor, siteId: string, id: string, version: number, values: CouponValues): Promise<CouponRow | undefined> {
  const [row] = await db.update(coupons)
    .set({ ...values, version: sql`${coupons.version} + 1` })
    .where(and(eq(coupons.siteId, siteId), eq(coupons.id, id), eq(coupons.version, version)))
    .returning();
  return row;
}

/** One coupon's status (disable or enable), conditional on the version read. */
export async function setCouponStatus(db: Executor, siteId: string, id: string, version: number, status: string): Promise<CouponRow | undefined> {
  const [row] = await db.update(coupons)
    .set({ status, version: sql`${coupons.version} + 1` })
    .where(and(eq(coupons.siteId, siteId), eq(coupons.id, id), eq(coupons.version, version)))
    .returning();
  return row;
}

/* ----------------------------- Redemptions ----------------------------- */

/** The code's coupon and its offer, locked for the redemption (FOR UPDATE: concurrent redemptions of one code queue). */
export async function lockCouponByCode(db: Executor, siteId: string, code: string) {
  const [row] = await db.select({ coupon: coupons, offer: offers }).from(coupons).innerJoin(offers, eq(offers.id, coupons.offerId))
    .where(and(eq(coupons.siteId, siteId), sql`lower(${coupons.code}) = lower(${code})`))
    .for('update', { of: coupons });
  return row;
}

export async function redemptionCounts(db: Executor, couponId: string, subscriberId: string): Promise<{ total: number; bySubscriber: number }> {
  const [row] = await db.select({
    total: count(),
    bySubscriber: sql<number>`count(*) filter (where ${couponRedemptions.subscriberId} = ${subscriberId})`.mapWith(Number),
  }).from(couponRedemptions).where(eq(couponRedemptions.couponId, couponId));
  return { total: row?.total ?? 0, bySubscriber: row?.bySubscriber ?? 0 };
}

export async function siteSubscriberExists(db: Executor, siteId: string, subscriberId: string): Promise<boolean> {
  const rows = await db.select({ id: subscribers.id }).from(subscribers).where(and(eq(subscribers.siteId, siteId), eq(subscribers.id, subscriberId)));
  return rows.length > 0;
}

export async function insertRedemption(db: Executor, values: { siteId: string; couponId: string; subscriberId: string; redeemedAt: Date }) {
  const [row] = await db.insert(couponRedemptions).values(values).returning();
  return row!;
}

/**
 * Inserts the candidate codes of a batch; a code that collides with an existing one (the unique index
 * on site and lower(code), concurrent batches included) is skipped. Returns the codes inserted.
 */
export async function insertBatchCodes(
  db: Executor, siteId: string, batchId: string, codes: string[], values: Omit<CouponValues, 'code' | 'status'>,
): Promise<string[]> {
  if (codes.length === 0) return [];
  const rows = await db.insert(coupons)
    .values(codes.map((code) => ({ siteId, batchId, code, status: 'active', ...values })))
    .onConflictDoNothing()
    .returning({ code: coupons.code });
  return rows.map((r) => r.code);
}
