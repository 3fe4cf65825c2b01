/**
 * Monetization editors (issue 15): the site's models, plans, plan groups, offers and coupons.
 * Rules here, SQL in server/db/monetization-repository.ts; the GraphQL resolvers only translate.
 *
 * - Reading needs any level of 'Subscriptions & Offers'; writing needs write or contributor.
 * - The site is always the caller's own (from the access token and API key): another site's ids
 *   answer exactly like ids that do not exist.
 * - Input is checked with the validators of common/monetization-rules.ts, so the browser and the
 *   server give the same message for the same field.
 * - Every write is conditional on the version the editor loaded, and writes its audit record (who,
 *   what, before, after) in the same transaction.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mainServiceType } from '../../common/appcms';
import { AREAS } from '../../common/constants';
import {
  COUPON_CODE_ALPHABET, COUPON_RANDOM_LENGTH, MONETIZATION_MESSAGES, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX,
  offerDiscountValue, offerDurationMonths, parseInstant, parseMoney, parseWhole, validateCoupon, validateCouponBatch, validateOffer,
  validatePlan, validatePlanGroup, validateSettings,
  type CouponBatchInput, type CouponInput, type FieldErrors, type MonetizationSettingsInput, type OfferInput,
  type PlanGroupInput, type PlanInput,
} from '../../common/monetization-rules';
import { canContinue, canEdit, parseRoles } from '../../common/roles';
import type { MonetizationRepository, MonetizationStore } from './ports';
import type { CouponValues, OfferValues, PlanRow, PlanValues } from './rows';
import { conflict, forbidden, invalid, notFound } from './errors';
import { auditObject, recordRevision, recordRevisions, type RevisionInput } from './revisions';

export interface MonetizationCaller {
  userId: string;
  siteId: string;
  roles: Record<string, string>;
}

export const MONETIZATION_AUDIT = {
  settingsUpdate: 'monetization.settings.update',
  planCreate: 'monetization.plan.create',
  planUpdate: 'monetization.plan.update',
  planArchive: 'monetization.plan.archive',
  planDelete: 'monetization.plan.delete',
  planDuplicate: 'monetization.plan.duplicate',
  groupCreate: 'monetization.planGroup.create',
  groupUpdate: 'monetization.planGroup.update',
  groupsReorder: 'monetization.planGroup.reorder',
  offerCreate: 'monetization.offer.create',
  offerUpdate: 'monetization.offer.update',
  couponCreate: 'monetization.coupon.create',
  couponUpdate: 'monetization.coupon.update',
  couponBatch: 'monetization.coupon.batch',
  /** A plan's subscribers on earlier prices move to its current price at their next renewal (issue 30). */
  planMoveAtRenewal: 'monetization.plan.moveAtRenewal',
  couponDisable: 'monetization.coupon.disable',
  couponEnable: 'monetization.coupon.enable',
} as const;

function requireRead(caller: MonetizationCaller): void {
  if (!canContinue(parseRoles(caller.roles), AREAS.subscriptionsOffers)) throw forbidden();
}

function requireEdit(caller: MonetizationCaller): void {
  requireRead(caller);
  if (!canEdit(parseRoles(caller.roles), AREAS.subscriptionsOffers)) throw forbidden();
}

function throwIfInvalid(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw invalid('input', MONETIZATION_MESSAGES.invalid, errors);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id that is not a UUID cannot name a row: answer 'not found' rather than let the driver fail. */
function requireId(id: string): string {
  if (!UUID.test(id)) throw notFound(MONETIZATION_MESSAGES.notFound);
  return id;
}

function pageOf(query: { offset?: number | null; limit?: number | null }): { offset: number; limit: number } {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? PAGE_SIZE_DEFAULT;
  if (!Number.isInteger(offset) || offset < 0) throw invalid('offset', 'offset must be a whole number of 0 or more');
  if (!Number.isInteger(limit) || limit < 1 || limit > PAGE_SIZE_MAX) throw invalid('limit', `limit must be a whole number from 1 to ${PAGE_SIZE_MAX}`);
  return { offset, limit };
}

/** Zero rows updated: a conflict when the row still exists (newer version), else not found. */
async function conflictOrGone(exists: Promise<unknown>): Promise<never> {
  if (await exists) throw conflict(MONETIZATION_MESSAGES.conflict);
  throw notFound(MONETIZATION_MESSAGES.notFound);
}

type ObjectRef = Pick<RevisionInput, 'kind' | 'objectId' | 'objectName'>;

/** The audit entry of a write, naming its object (issue 28). */
function audit(tx: MonetizationStore, caller: MonetizationCaller, action: string, detail: Record<string, unknown>, object?: ObjectRef) {
  return tx.writeAudit({ action, actorUserId: caller.userId, siteId: caller.siteId, detail, ...(object ? auditObject(object) : {}) });
}

/** What an operator edits of each object: the fields a revision compares. */
const FIELDS = {
  models: ['isMonetizationModelEnabled', 'models', 'serviceType'],
  plan: ['name', 'description', 'prices', 'billingPeriod', 'trialDays', 'deviceLimit', 'status'],
  planGroup: ['name', 'description', 'planIds'],
  offer: ['name', 'discountType', 'discountValue', 'currency', 'planIds', 'startsAt', 'endsAt', 'eligibility', 'status', 'duration', 'durationMonths'],
  coupon: ['offerId', 'code', 'maxRedemptions', 'maxPerSubscriber', 'expiresAt', 'status'],
} as const;

function versionOf(row: object | null): number | null {
  const version = (row as { version?: unknown } | null)?.version;
  return typeof version === 'number' ? version : null;
}

/**
 * The write's revision and its audit entry, in the write's transaction: `before` null for a
 * creation, `after` null for a deletion.
 */
async function revise(
  tx: MonetizationStore, caller: MonetizationCaller, object: ObjectRef & { fields?: readonly string[] },
  before: object | null | undefined, after: object | null,
  action: string, detail: Record<string, unknown>,
): Promise<void> {
  await recordRevision(tx, {
    ...object, siteId: caller.siteId, actorUserId: caller.userId, objectVersion: versionOf(after),
    before: (before ?? null) as Record<string, unknown> | null, after: after as Record<string, unknown> | null,
  });
  await audit(tx, caller, action, detail, object);
}

const planObject = (row: { id: string; name: string }) => ({ kind: 'plan', objectId: row.id, objectName: row.name, fields: FIELDS.plan }) as const;
const groupObject = (row: { id: string; name: string }) => ({ kind: 'planGroup', objectId: row.id, objectName: row.name, fields: FIELDS.planGroup }) as const;
const offerObject = (row: { id: string; name: string }) => ({ kind: 'offer', objectId: row.id, objectName: row.name, fields: FIELDS.offer }) as const;
const couponObject = (row: { id: string; code: string }) => ({ kind: 'coupon', objectId: row.id, objectName: row.code, fields: FIELDS.coupon }) as const;

/* ------------------------------- Settings ------------------------------- */

export async function getSettings(db: MonetizationRepository, caller: MonetizationCaller) {
  requireRead(caller);
  const row = await db.siteSettings(caller.siteId);
  if (!row) throw notFound(MONETIZATION_MESSAGES.notFound);
  return row;
}

/**
 * The Models save writes the site's service types (issue 27: one stored fact with AppCMS › Service).
 * When the list no longer holds the main type, the first remaining type in SERVICE_TYPES order becomes
 * the main type, and the audit detail names the move (`mainTypeMoved`).
 */
export async function saveSettings(db: MonetizationRepository, caller: MonetizationCaller, version: number, input: MonetizationSettingsInput) {
  requireEdit(caller);
  throwIfInvalid(validateSettings(input));
  const models = [...new Set(input.models)];
  try {
    return await db.transaction(async (tx) => {
      const before = await tx.siteSettings(caller.siteId);
      if (!before) throw notFound(MONETIZATION_MESSAGES.notFound);
      const serviceType = mainServiceType(before.serviceType, models);
      const after = await tx.updateSiteSettings(caller.siteId, version, { isMonetizationModelEnabled: input.isMonetizationModelEnabled, models, serviceType });
      if (!after) return conflictOrGone(Promise.resolve(before));
      const moved = serviceType === before.serviceType ? {} : { mainTypeMoved: { from: before.serviceType, to: serviceType } };
      await revise(tx, caller, { kind: 'models', objectId: caller.siteId, objectName: null, fields: FIELDS.models }, before, after,
        MONETIZATION_AUDIT.settingsUpdate, { before, after, ...moved });
      return after;
    });
  } finally {
    // serviceGet answers isMonetizationModelEnabled and the service types from the per-site cache (server/db/service-cache.ts).
    db.cache.invalidateSite(caller.siteId);
  }
}

/* ------------------------------- Plans ------------------------------- */

/** A plan with its counts, each defined once in common/plan-figures.ts (PLAN_FIGURES, issue 38). */
export interface PlanView extends PlanRow {
  /** Subscriptions (all time): any state. */
  subscriptionCount: number;
  /** Live subscriptions (in trial, active, past due): they stay on their price when the price changes. */
  payingSubscriptionCount: number;
  /** Paying subscribers: subscribers with an active or past-due subscription of the plan (Users' Paying under the plan). */
  payingSubscriberCount: number;
  /** On an earlier price: live subscriptions on an earlier price version, not moving. */
  oldPriceSubscriptionCount: number;
  /** Live subscriptions moving to the current price at their next renewal. */
  movingAtRenewalCount: number;
}

async function withCounts(db: MonetizationStore, siteId: string, rows: PlanRow[]): Promise<PlanView[]> {
  const ids = rows.map((r) => r.id);
  const [counts, prices] = await Promise.all([db.subscriptionCounts(siteId, ids), db.priceVersionCounts(siteId, ids)]);
  return rows.map((r) => {
    const p = prices.get(r.id);
    return {
      ...r, subscriptionCount: counts.get(r.id) ?? 0,
      payingSubscriptionCount: p?.live ?? 0, payingSubscriberCount: p?.payingSubscribers ?? 0, oldPriceSubscriptionCount: p?.oldPrice ?? 0, movingAtRenewalCount: p?.moving ?? 0,
    };
  });
}

const NO_SUBSCRIPTIONS = { subscriptionCount: 0, payingSubscriptionCount: 0, payingSubscriberCount: 0, oldPriceSubscriptionCount: 0, movingAtRenewalCount: 0 };

/** The same amounts in any order: a save that only reorders the prices is not a new price. */
function samePrices(a: readonly { currency: string; amount: number }[], b: readonly { currency: string; amount: number }[]): boolean {
  const key = (list: readonly { currency: string; amount: number }[]) => JSON.stringify([...list].map((p) => [p.currency, p.amount]).sort());
  return key(a) === key(b);
}

export async function listPlans(db: MonetizationRepository, caller: MonetizationCaller, query: { search?: string | null; status?: string | null; offset?: number | null; limit?: number | null }) {
  requireRead(caller);
  const page = await db.listPlans(caller.siteId, { search: query.search?.trim() ?? '', status: query.status ?? '', ...pageOf(query) });
  return { items: await withCounts(db, caller.siteId, page.items), total: page.total };
}

export async function getPlan(db: MonetizationRepository, caller: MonetizationCaller, id: string): Promise<PlanView> {
  requireRead(caller);
  const row = await db.findPlan(caller.siteId, requireId(id));
  if (!row) throw notFound(MONETIZATION_MESSAGES.notFound);
  return (await withCounts(db, caller.siteId, [row]))[0]!;
}

function planValues(input: PlanInput): PlanValues {
  throwIfInvalid(validatePlan(input));
  return {
    name: input.name.trim(),
    description: input.description.trim(),
    prices: input.prices.map((p) => ({ currency: p.currency, amount: parseMoney(p.amount, p.currency)! })),
    billingPeriod: input.billingPeriod,
    trialDays: input.trialDays,
    deviceLimit: input.deviceLimit,
    status: input.status,
  };
}

export async function createPlan(db: MonetizationRepository, caller: MonetizationCaller, input: PlanInput): Promise<PlanView> {
  requireEdit(caller);
  const values = planValues(input);
  const row = await db.transaction(async (tx) => {
    const created = await tx.insertPlan(caller.siteId, values);
    await tx.keepPriceVersion(caller.siteId, created.id, created.priceVersion, created.prices);
    await revise(tx, caller, planObject(created), null, created, MONETIZATION_AUDIT.planCreate, { id: created.id, before: null, after: created });
    return created;
  });
  return { ...row, ...NO_SUBSCRIPTIONS };
}

export async function updatePlan(db: MonetizationRepository, caller: MonetizationCaller, id: string, version: number, input: PlanInput): Promise<PlanView> {
  requireEdit(caller);
  const values = planValues(input);
  const row = await db.transaction(async (tx) => {
    const before = await tx.findPlan(caller.siteId, requireId(id));
    // A new price is a new price version (issue 30): new subscriptions get it, existing ones keep theirs.
    const repriced = before !== undefined && !samePrices(before.prices, values.prices);
    const after = await tx.updatePlan(caller.siteId, id, version, repriced ? { ...values, priceVersion: before.priceVersion + 1 } : values);
    if (!after) return conflictOrGone(Promise.resolve(before));
    if (repriced) {
      await tx.keepPriceVersion(caller.siteId, id, before.priceVersion, before.prices);
      await tx.keepPriceVersion(caller.siteId, id, after.priceVersion, after.prices);
    }
    await revise(tx, caller, planObject(after), before, after, MONETIZATION_AUDIT.planUpdate,
      { id, before, after, ...(repriced ? { priceVersion: { from: before.priceVersion, to: after.priceVersion } } : {}) });
    return after;
  });
  return (await withCounts(db, caller.siteId, [row]))[0]!;
}

/**
 * Deletes a plan nothing refers to; a plan that subscriptions, payments or offers refer to is
 * archived instead (it keeps existing for them, and paywalls stop offering it).
 */
export async function deletePlan(db: MonetizationRepository, caller: MonetizationCaller, id: string, version: number): Promise<{ deleted: boolean; plan: PlanView | null }> {
  requireEdit(caller);
  const result = await db.transaction(async (tx) => {
    const before = await tx.findPlan(caller.siteId, requireId(id));
    if (!before) throw notFound(MONETIZATION_MESSAGES.notFound);
    if (before.version !== version) throw conflict(MONETIZATION_MESSAGES.conflict);
    if (await tx.planInUse(caller.siteId, id)) {
      const after = await tx.updatePlan(caller.siteId, id, version, { status: 'archived' });
      if (!after) return conflictOrGone(Promise.resolve(before));
      await revise(tx, caller, planObject(after), before, after, MONETIZATION_AUDIT.planArchive, { id, reason: 'in use', before, after });
      return { deleted: false, plan: after };
    }
    if (!(await tx.deletePlan(caller.siteId, id, version))) return conflictOrGone(tx.findPlan(caller.siteId, id));
    await revise(tx, caller, planObject(before), before, null, MONETIZATION_AUDIT.planDelete, { id, before, after: null });
    return { deleted: true, plan: null };
  });
  return { deleted: result.deleted, plan: result.plan ? (await withCounts(db, caller.siteId, [result.plan]))[0]! : null };
}

/** A copy of the plan as a new draft named "<name> (copy)". */
export async function duplicatePlan(db: MonetizationRepository, caller: MonetizationCaller, id: string): Promise<PlanView> {
  requireEdit(caller);
  const row = await db.transaction(async (tx) => {
    const source = await tx.findPlan(caller.siteId, requireId(id));
    if (!source) throw notFound(MONETIZATION_MESSAGES.notFound);
    const created = await tx.insertPlan(caller.siteId, {
      name: `${source.name} (copy)`.slice(0, 120),
      description: source.description,
      prices: source.prices,
      billingPeriod: source.billingPeriod,
      trialDays: source.trialDays,
      deviceLimit: source.deviceLimit,
      status: 'draft',
    });
    await tx.keepPriceVersion(caller.siteId, created.id, created.priceVersion, created.prices);
    await revise(tx, caller, planObject(created), null, created, MONETIZATION_AUDIT.planDuplicate, { id: created.id, sourceId: id, before: null, after: created });
    return created;
  });
  return { ...row, ...NO_SUBSCRIPTIONS };
}

/**
 * "Move existing subscribers at their next renewal" (issue 30): the plan's paying subscriptions on an
 * earlier price version keep it until their next renewal, then pay the current price
 * (the store's applyRenewalMoves). Conditional on the plan's version the operator saw (a price saved since
 * answers a conflict); a plan with no live subscription on an earlier price is refused and nothing is written.
 */
export async function moveSubscribersAtRenewal(db: MonetizationRepository, caller: MonetizationCaller, id: string, version: number): Promise<{ moved: number; plan: PlanView }> {
  requireEdit(caller);
  const moved = await db.transaction(async (tx) => {
    const plan = await tx.findPlan(caller.siteId, requireId(id));
    if (!plan) throw notFound(MONETIZATION_MESSAGES.notFound);
    if (plan.version !== version) throw conflict(MONETIZATION_MESSAGES.conflict);
    const before = (await withCounts(tx, caller.siteId, [plan]))[0]!;
    const scheduled = await tx.scheduleRenewalMoves(caller.siteId, id, plan.priceVersion);
    const count = scheduled.length;
    if (count === 0) throw conflict(MONETIZATION_MESSAGES.moveAtRenewalNone);
    // Issue 38: each moved subscription's History says what it pays from its next renewal (one insert per thousand).
    await recordRevisions(tx, scheduled.map((s) => ({
      kind: 'subscription', objectId: s.id, objectName: null, siteId: caller.siteId, actorUserId: caller.userId, objectVersion: s.version,
      before: { renewalAmount: s.renewalAmountBefore, renewalPriceVersion: s.renewalPriceVersionBefore },
      after: { renewalAmount: plan.prices.find((p) => p.currency === s.currency)?.amount ?? s.amount, renewalPriceVersion: plan.priceVersion },
      reason: MONETIZATION_MESSAGES.movedAtRenewalReason(plan.name),
    })));
    await revise(tx, caller, { kind: 'planPriceMove', objectId: id, objectName: plan.name },
      { priceVersion: plan.priceVersion, movingAtRenewal: before.movingAtRenewalCount },
      { priceVersion: plan.priceVersion, movingAtRenewal: before.movingAtRenewalCount + count },
      MONETIZATION_AUDIT.planMoveAtRenewal, { id, priceVersion: plan.priceVersion, subscriptions: count });
    return count;
  });
  return { moved, plan: await getPlan(db, caller, id) };
}

/* ----------------------------- Plan groups ----------------------------- */

export async function listPlanGroups(db: MonetizationRepository, caller: MonetizationCaller) {
  requireRead(caller);
  return db.listPlanGroups(caller.siteId);
}

export async function getPlanGroup(db: MonetizationRepository, caller: MonetizationCaller, id: string) {
  requireRead(caller);
  const row = await db.findPlanGroup(caller.siteId, requireId(id));
  if (!row) throw notFound(MONETIZATION_MESSAGES.notFound);
  return row;
}

async function checkedGroup(tx: MonetizationStore, caller: MonetizationCaller, input: PlanGroupInput) {
  const errors = validatePlanGroup(input);
  if (!errors.planIds) {
    const known = await tx.sitePlanIds(caller.siteId, input.planIds.filter((p) => UUID.test(p)));
    if (input.planIds.some((p) => !known.has(p))) errors.planIds = MONETIZATION_MESSAGES.groupPlanUnknown;
  }
  throwIfInvalid(errors);
  return { name: input.name.trim(), description: input.description.trim(), planIds: input.planIds };
}

export async function createPlanGroup(db: MonetizationRepository, caller: MonetizationCaller, input: PlanGroupInput) {
  requireEdit(caller);
  return db.transaction(async (tx) => {
    const created = await tx.insertPlanGroup(caller.siteId, await checkedGroup(tx, caller, input));
    await revise(tx, caller, groupObject(created), null, created, MONETIZATION_AUDIT.groupCreate, { id: created.id, before: null, after: created });
    return created;
  });
}

export async function updatePlanGroup(db: MonetizationRepository, caller: MonetizationCaller, id: string, version: number, input: PlanGroupInput) {
  requireEdit(caller);
  return db.transaction(async (tx) => {
    const values = await checkedGroup(tx, caller, input);
    const before = await tx.findPlanGroup(caller.siteId, requireId(id));
    const after = await tx.updatePlanGroup(caller.siteId, id, version, values);
    if (!after) return conflictOrGone(Promise.resolve(before));
    await revise(tx, caller, groupObject(after), before, after, MONETIZATION_AUDIT.groupUpdate, { id, before, after });
    return after;
  });
}

/** New paywall order of the site's groups: every group with the version the operator saw. */
export async function reorderPlanGroups(db: MonetizationRepository, caller: MonetizationCaller, order: { id: string; version: number }[]) {
  requireEdit(caller);
  return db.transaction(async (tx) => {
    const before = await tx.listPlanGroups(caller.siteId);
    const ids = order.map((o) => o.id);
    if (new Set(ids).size !== ids.length || ids.length !== before.length || before.some((g) => !ids.includes(g.id))) {
      throw conflict(MONETIZATION_MESSAGES.conflict);
    }
    for (const [position, entry] of order.entries()) {
      if (!(await tx.setPlanGroupPosition(caller.siteId, entry.id, entry.version, position))) {
        throw conflict(MONETIZATION_MESSAGES.conflict);
      }
    }
    const after = await tx.listPlanGroups(caller.siteId);
    // The paywall order is one object of the site; the audit names the groups, not only their ids.
    const names = (groups: typeof before) => groups.map((g) => ({ id: g.id, name: g.name }));
    await revise(tx, caller, { kind: 'planGroupOrder', objectId: caller.siteId, objectName: null }, { order: names(before) }, { order: names(after) },
      MONETIZATION_AUDIT.groupsReorder, { before: names(before), after: names(after) });
    return after;
  });
}

/* ------------------------------- Offers ------------------------------- */

export async function listOffers(db: MonetizationRepository, caller: MonetizationCaller, query: { search?: string | null; status?: string | null; offset?: number | null; limit?: number | null }) {
  requireRead(caller);
  return db.listOffers(caller.siteId, { search: query.search?.trim() ?? '', status: query.status ?? '', ...pageOf(query) });
}

export async function getOffer(db: MonetizationRepository, caller: MonetizationCaller, id: string) {
  requireRead(caller);
  const row = await db.findOffer(caller.siteId, requireId(id));
  if (!row) throw notFound(MONETIZATION_MESSAGES.notFound);
  return row;
}

async function offerValues(tx: MonetizationStore, caller: MonetizationCaller, input: OfferInput, kept: readonly string[] = []): Promise<OfferValues> {
  const errors = validateOffer(input);
  if (!errors.planIds) {
    const known = await tx.sitePlanIds(caller.siteId, input.planIds.filter((p) => UUID.test(p)));
    const archived = await tx.sitePlanIds(caller.siteId, input.planIds.filter((p) => UUID.test(p)), 'archived');
    if (input.planIds.some((p) => !known.has(p))) errors.planIds = MONETIZATION_MESSAGES.offerPlanUnknown;
    // An archived plan cannot be chosen (issue 30); one the offer already had when it was archived may stay.
    else if (input.planIds.some((p) => archived.has(p) && !kept.includes(p))) errors.planIds = MONETIZATION_MESSAGES.offerPlanArchived;
  }
  throwIfInvalid(errors);
  const endsAt = parseInstant(input.endsAt);
  const duration = input.duration ?? 'once';
  return {
    name: input.name.trim(),
    discountType: input.discountType,
    discountValue: offerDiscountValue(input)!,
    currency: input.discountType === 'fixed' ? input.currency : null,
    planIds: [...new Set(input.planIds)],
    startsAt: new Date(parseInstant(input.startsAt)!),
    endsAt: endsAt === null ? null : new Date(endsAt),
    eligibility: input.eligibility,
    status: input.status,
    duration,
    durationMonths: offerDurationMonths({ duration, durationMonths: input.durationMonths ?? '' }),
  };
}

export async function createOffer(db: MonetizationRepository, caller: MonetizationCaller, input: OfferInput) {
  requireEdit(caller);
  return db.transaction(async (tx) => {
    const created = await tx.insertOffer(caller.siteId, await offerValues(tx, caller, input));
    await revise(tx, caller, offerObject(created), null, created, MONETIZATION_AUDIT.offerCreate, { id: created.id, before: null, after: created });
    return created;
  });
}

export async function updateOffer(db: MonetizationRepository, caller: MonetizationCaller, id: string, version: number, input: OfferInput) {
  requireEdit(caller);
  return db.transaction(async (tx) => {
    const before = await tx.findOffer(caller.siteId, requireId(id));
    const values = await offerValues(tx, caller, input, before?.planIds ?? []);
    const after = await tx.updateOffer(caller.siteId, id, version, values);
    if (!after) return conflictOrGone(Promise.resolve(before));
    await revise(tx, caller, offerObject(after), before, after, MONETIZATION_AUDIT.offerUpdate, { id, before, after });
    return after;
  });
}

/* ------------------------------- Coupons ------------------------------- */

export interface CouponQueryInput {
  search?: string | null;
  status?: string | null;
  offerId?: string | null;
  offset?: number | null;
  limit?: number | null;
}

function couponFilters(query: CouponQueryInput) {
  const offerId = query.offerId ?? '';
  if (offerId !== '') requireId(offerId);
  return { search: query.search?.trim() ?? '', status: query.status ?? '', offerId };
}

export async function listCoupons(db: MonetizationRepository, caller: MonetizationCaller, query: CouponQueryInput) {
  requireRead(caller);
  return db.listCoupons(caller.siteId, { ...couponFilters(query), ...pageOf(query) });
}

export async function getCoupon(db: MonetizationRepository, caller: MonetizationCaller, id: string) {
  requireRead(caller);
  const row = await db.findCoupon(caller.siteId, requireId(id));
  if (!row) throw notFound(MONETIZATION_MESSAGES.notFound);
  return row;
}

const CSV_HEADER = ['code', 'offer', 'status', 'redemptions', 'max_redemptions', 'max_per_subscriber', 'expires_at', 'created_at'];

/** RFC 4180 field; a leading = + - @ is quoted with an apostrophe so spreadsheets do not run it as a formula. */
function csvField(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The codes matching the filters with their redemption counts, as CSV (header line first). */
export async function exportCouponsCsv(db: MonetizationRepository, caller: MonetizationCaller, query: CouponQueryInput): Promise<string> {
  requireRead(caller);
  const rows = await db.allCoupons(caller.siteId, couponFilters(query));
  const lines = [CSV_HEADER.join(',')];
  for (const r of rows) {
    lines.push([
      r.code, r.offerName, r.status, String(r.redemptionCount), r.maxRedemptions === null ? '' : String(r.maxRedemptions),
      String(r.maxPerSubscriber), r.expiresAt?.toISOString() ?? '', r.createdAt.toISOString(),
    ].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function couponLimits(
  tx: MonetizationStore, caller: MonetizationCaller, input: { offerId: string; maxRedemptions: string; maxPerSubscriber: string; expiresAt: string }, errors: FieldErrors,
  /** The offer an edited code already belongs to: it may stay there after the offer closed (null: a new code). */
  keptOfferId: string | null = null,
) {
  const offer = errors.offerId || !UUID.test(input.offerId) ? undefined : await tx.findOffer(caller.siteId, input.offerId);
  if (!errors.offerId && !offer) errors.offerId = MONETIZATION_MESSAGES.couponOffer;
  // Issue 38: no new code for an archived offer or one that has ended (it could never be redeemed).
  else if (offer && offer.id !== keptOfferId && (offer.status === 'archived' || (offer.endsAt !== null && offer.endsAt <= new Date()))) {
    errors.offerId = MONETIZATION_MESSAGES.couponOfferClosed(offer.name);
  }
  throwIfInvalid(errors);
  const expiresAt = parseInstant(input.expiresAt);
  return {
    offerId: input.offerId,
    maxRedemptions: input.maxRedemptions.trim() === '' ? null : parseWhole(input.maxRedemptions),
    maxPerSubscriber: parseWhole(input.maxPerSubscriber),
    expiresAt: expiresAt === null ? null : new Date(expiresAt),
  };
}

async function couponValues(tx: MonetizationStore, caller: MonetizationCaller, input: CouponInput, exceptId?: string, keptOfferId: string | null = null): Promise<CouponValues> {
  const errors = validateCoupon(input);
  if (!errors.code && await tx.codeTaken(caller.siteId, input.code, exceptId)) errors.code = MONETIZATION_MESSAGES.couponCodeTaken;
  return { ...await couponLimits(tx, caller, input, errors, keptOfferId), code: input.code, status: input.status };
}

export async function createCoupon(db: MonetizationRepository, caller: MonetizationCaller, input: CouponInput) {
  requireEdit(caller);
  const id = await db.transaction(async (tx) => {
    const created = await tx.insertCoupon(caller.siteId, await couponValues(tx, caller, input));
    // Taken between the check and the insert (a concurrent save or batch): the same answer as the check.
    if (!created) throw invalid('input', MONETIZATION_MESSAGES.invalid, { code: MONETIZATION_MESSAGES.couponCodeTaken });
    await revise(tx, caller, couponObject(created), null, created, MONETIZATION_AUDIT.couponCreate, { id: created.id, before: null, after: created });
    return created.id;
  });
  return getCoupon(db, caller, id);
}

export async function updateCoupon(db: MonetizationRepository, caller: MonetizationCaller, id: string, version: number, input: CouponInput) {
  requireEdit(caller);
  await db.transaction(async (tx) => {
    const before = await tx.findCoupon(caller.siteId, requireId(id));
    const values = await couponValues(tx, caller, input, id, before?.offerId ?? null);
    const after = await tx.updateCoupon(caller.siteId, id, version, values);
    if (!after) return conflictOrGone(Promise.resolve(before));
    await revise(tx, caller, couponObject(after), before, after, MONETIZATION_AUDIT.couponUpdate, { id, before, after });
    return after;
  });
  return getCoupon(db, caller, id);
}

/** Disables or enables one code (issue 30): a disabled code is refused at redemption. */
export async function setCouponStatus(db: MonetizationRepository, caller: MonetizationCaller, id: string, version: number, status: string) {
  requireEdit(caller);
  if (status !== 'active' && status !== 'disabled') throw invalid('status', MONETIZATION_MESSAGES.status, { status: MONETIZATION_MESSAGES.status });
  await db.transaction(async (tx) => {
    const before = await tx.findCoupon(caller.siteId, requireId(id));
    if (!before) throw notFound(MONETIZATION_MESSAGES.notFound);
    const after = await tx.setCouponStatus(caller.siteId, id, version, status);
    if (!after) return conflictOrGone(Promise.resolve(before));
    await revise(tx, caller, couponObject(after), before, after, status === 'disabled' ? MONETIZATION_AUDIT.couponDisable : MONETIZATION_AUDIT.couponEnable,
      { id, code: after.code, before: { status: before.status }, after: { status: after.status } });
    return after;
  });
  return getCoupon(db, caller, id);
}

const CODE_ALPHABET = COUPON_CODE_ALPHABET;

export function randomCode(prefix: string, length: number = COUPON_RANDOM_LENGTH): string {
  const bytes = randomBytes(length);
  let code = prefix;
  for (const byte of bytes) code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
  return code;
}

/** Attempts before a batch gives up: each round only retries the codes that collided. */
const BATCH_ROUNDS = 8;

/**
 * N random codes for an offer in one action. Codes are inserted with ON CONFLICT DO NOTHING against
 * the unique index on (site, lower(code)), so a code another batch took in the meantime is skipped and
 * replaced by a fresh one in the next round: concurrent batches never produce a duplicate.
 */
export async function generateCouponBatch(
  db: MonetizationRepository, caller: MonetizationCaller, input: CouponBatchInput, generate: (prefix: string) => string = randomCode,
): Promise<{ batchId: string; count: number }> {
  requireEdit(caller);
  const count = parseWhole(input.count);
  const prefix = input.prefix.trim().toUpperCase();
  return db.transaction(async (tx) => {
    const limits = await couponLimits(tx, caller, input, validateCouponBatch(input));
    const batchId = randomUUID();
    const inserted: string[] = [];
    for (let round = 0; round < BATCH_ROUNDS && inserted.length < count; round++) {
      const wanted = new Set<string>();
      while (wanted.size < count - inserted.length) wanted.add(generate(prefix));
      inserted.push(...await tx.insertBatchCodes(caller.siteId, batchId, [...wanted], limits));
    }
    if (inserted.length < count) throw conflict(MONETIZATION_MESSAGES.batchExhausted);
    await revise(tx, caller, { kind: 'couponBatch', objectId: batchId, objectName: `${prefix}… (${inserted.length})` }, null,
      { ...limits, prefix, generated: inserted.length }, MONETIZATION_AUDIT.couponBatch, {
        batchId, offerId: limits.offerId, count: inserted.length, prefix, before: null,
        after: { ...limits, generated: inserted.length },
      });
    return { batchId, count: inserted.length };
  });
}

/**
 * The renewal side of "Move existing subscribers at their next renewal" (issue 30): every paying
 * subscription scheduled to move whose period has ended takes the plan's current price version and
 * its amount. Run by the server's maintenance interval (server/app.ts); idempotent. Issue 38: each
 * gets a revision (no actor: the console did it) in the same transaction, so its History reads
 * "Price: 12.99 USD → 14.49 USD" with why.
 */
export async function applyRenewalMoves(db: MonetizationRepository, now: Date = new Date()) {
  return db.transaction(async (tx) => {
    const moved = await tx.applyRenewalMoves(now);
    await recordRevisions(tx, moved.map((m) => ({
      kind: 'subscription', objectId: m.id, objectName: null, siteId: m.before.siteId, actorUserId: null, objectVersion: m.before.version,
      before: { amount: m.before.amount, priceVersion: m.before.priceVersion }, after: { amount: m.amount, priceVersion: m.priceVersion },
      reason: MONETIZATION_MESSAGES.renewedAtNewPrice,
    })));
    return moved;
  });
}

/* ----------------------------- Redemption ----------------------------- */

/**
 * A customer's redemption of a code, called by the site's apps (POST /v1/coupons/redeem, issue 30).
 * The coupon row is locked for the check and the insert, so concurrent redemptions of one code cannot
 * pass its limits together. Refused, with nothing written: an unknown code or customer (not found), a
 * disabled or expired code, an offer not running, the code's redemptions used up, or the customer's
 * own allowance used (max per subscriber; 1 is one per customer).
 */
export async function redeemCoupon(db: MonetizationRepository, siteId: string, input: { code: string; subscriberId: string }, now: Date = new Date()) {
  return db.transaction(async (tx) => {
    const found = await tx.lockCouponByCode(siteId, input.code.trim());
    if (!found) throw notFound(MONETIZATION_MESSAGES.redeemUnknown);
    if (!UUID.test(input.subscriberId) || !(await tx.siteSubscriberExists(siteId, input.subscriberId))) {
      throw notFound(MONETIZATION_MESSAGES.redeemSubscriberUnknown);
    }
    const { coupon, offer } = found;
    if (coupon.status !== 'active') throw conflict(MONETIZATION_MESSAGES.redeemDisabled);
    if ((coupon.expiresAt && coupon.expiresAt <= now) || (offer.endsAt && offer.endsAt <= now)) throw conflict(MONETIZATION_MESSAGES.redeemExpired);
    if (offer.status !== 'active') throw conflict(MONETIZATION_MESSAGES.redeemOfferInactive);
    if (offer.startsAt > now) throw conflict(MONETIZATION_MESSAGES.redeemNotStarted);
    const used = await tx.redemptionCounts(coupon.id, input.subscriberId);
    if (coupon.maxRedemptions !== null && used.total >= coupon.maxRedemptions) throw conflict(MONETIZATION_MESSAGES.redeemExhausted);
    if (used.bySubscriber >= coupon.maxPerSubscriber) throw conflict(MONETIZATION_MESSAGES.redeemPerCustomer);
    const row = await tx.insertRedemption({ siteId, couponId: coupon.id, subscriberId: input.subscriberId, redeemedAt: now });
    return {
      id: row.id, code: coupon.code, offerId: offer.id, discountType: offer.discountType, discountValue: offer.discountValue, currency: offer.currency,
      duration: offer.duration, durationMonths: offer.durationMonths, planIds: offer.planIds, redeemedAt: row.redeemedAt.toISOString(),
    };
  });
}

/** The rules above that the management GraphQL schema serves, each taking the database first. */
const RULES = {
  getSettings, saveSettings, listPlans, getPlan, createPlan, updatePlan, deletePlan, duplicatePlan, moveSubscribersAtRenewal, setCouponStatus,
  listPlanGroups, getPlanGroup, createPlanGroup, updatePlanGroup, reorderPlanGroups,
  listOffers, getOffer, createOffer, updateOffer, listCoupons, getCoupon, exportCouponsCsv, createCoupon, updateCoupon, generateCouponBatch,
  redeemCoupon, applyRenewalMoves,
};

type BoundToDb<T> = { [K in keyof T]: T[K] extends (db: MonetizationRepository, ...args: infer A) => infer R ? (...args: A) => R : never };

/** The monetization rules over one database: built once by the composition root (server/composition.ts). */
export type Monetization = BoundToDb<typeof RULES>;

export function createMonetization(db: MonetizationRepository): Monetization {
  return Object.fromEntries(Object.entries(RULES).map(([name, rule]) =>
    [name, (...args: unknown[]) => (rule as (db: MonetizationRepository, ...rest: unknown[]) => unknown)(db, ...args)])) as Monetization;
}
