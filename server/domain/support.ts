/**
 * Customer Support over the viewers' world (issue 16): the subscriber search, the subscriber page
 * and the support actions. Rules only, like networks.ts: the SQL is server/db/support-repository.ts
 * and the GraphQL module (server/graphql/support.ts) only hands arguments over.
 *
 * Rules enforced here, so any transport gets them:
 * - reading needs a Customer Support role; every action needs write or contributor there (reveal of
 *   the full e-mail and phone is a read, logged like an action);
 * - every query is limited to the caller's own site; another site's subscriber answers exactly like
 *   one that does not exist;
 * - every action carries a reason and is audit-logged with who, why, before and after, in the same
 *   transaction as the change;
 * - subscription actions check the subscription's `version`, device sign-outs the subscriber's
 *   (optimistic concurrency; a stale version is a 'conflict' DomainError, 409).
 * Refusals are DomainErrors (server/domain/errors.ts); the transport maps their kinds.
 */
import { AREAS } from '../../common/constants';
import { isSubscriptionState } from '../../common/figures';
import { OWN_MESSAGES } from '../../common/messages';
import { canContinue, canEdit, parseRoles } from '../../common/roles';
import {
  CANCEL_MODES, PLAN_CHANGE_WHEN, REFUNDABLE_PAYMENT_STATUSES, SUBSCRIBER_STATUSES, SUPPORT_AUDIT_ACTIONS, SUPPORT_LIMITS, SUPPORT_MESSAGES,
  isLiveSubscription, isValidComplimentaryDays, isValidReason, planChangeProration, subscriptionStateOf,
  type CancelMode, type PlanChangeWhen, type RevealedContact, type SubscriberDetail, type SubscriberListItem, type SubscriberSearchPage,
  type SubscriberStatus, type SubscriptionStatus,
} from '../../common/support';
import { siteDayOf } from '../../common/site-day';
import type { SubscriberRepository, SubscriberTransactionStore } from './ports';
import type { PaymentRecord, SubscriberRecord, SubscriptionRecord } from './rows';
import { conflict, forbidden, invalid, notFound, rateLimited } from './errors';
import { auditObject, recordRevision } from './revisions';
import type { LimitRule, RateLimiter } from './rate-limit';

export interface SupportCaller {
  userId: string;
  siteId: string;
  roles: Record<string, string>;
}

export interface SupportDeps {
  store: SubscriberRepository;
  /** The shared rate-limit counters (server/domain/rate-limit.ts): the per-agent search budget. */
  limiter: RateLimiter;
  /** Default SUPPORT_SEARCH_BUDGET. */
  searchBudget?: LimitRule;
  now?: () => Date;
}

/**
 * Lookups (searches with a query) per staff account and window (issue 25): plenty for an agent
 * typing (the box is debounced, SUPPORT_LIMITS.searchDebounceMs), far too few to guess e-mails or
 * numbers. Listing (an empty query) is not counted: it shows nothing a lookup would not.
 */
export const SUPPORT_SEARCH_BUDGET: LimitRule = { limit: 60, windowSeconds: 600 };

const DAY_MS = 86_400_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requireRead(caller: SupportCaller): void {
  if (!canContinue(parseRoles(caller.roles), AREAS.customerSupport)) throw forbidden(OWN_MESSAGES.forbidden);
}

function requireEdit(caller: SupportCaller): void {
  if (!canEdit(parseRoles(caller.roles), AREAS.customerSupport)) throw forbidden(OWN_MESSAGES.forbidden);
}

function requireId(value: unknown, param: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw invalid(param, SUPPORT_MESSAGES.badId(param));
  return value.toLowerCase();
}

function requireReason(value: unknown): string {
  if (typeof value !== 'string' || !isValidReason(value)) throw invalid('reason', SUPPORT_MESSAGES.reasonRequired);
  return value.trim();
}

function requireVersion(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalid('version', SUPPORT_MESSAGES.badVersion);
  return value;
}

function wholeNumberIn(value: unknown, param: string, min: number, max: number, message: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw invalid(param, message);
  return value;
}

/** `maria.lopez@example.com` → `ma•••@example.com`: enough to tell two results apart, not to write to. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  const local = email.slice(0, at);
  const shown = local.length <= 2 ? local.slice(0, 1) : local.slice(0, 2);
  return `${shown}•••${email.slice(at)}`;
}

/** `+1 555 010 4321` → `•••• 4321`; shorter numbers show nothing. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length === 0) return '';
  return digits.length < 7 ? '••••' : `•••• ${digits.slice(-4)}`;
}

/** The instants a write moves figures between (its rollups are recomputed over the site's days they fall on). */
export interface MovedSpan { from: Date; to: Date }

/**
 * The site's days a write moves (issue 38): the rollups count the SITE's calendar days, in its zone, so
 * the days recomputed are the site's days of the first and last instant the write touches (in order),
 * not their UTC days. The repository recomputes exactly these (server/db/support-repository.ts).
 */
export function siteDaysMoved(zone: string, span: MovedSpan): { from: string; to: string } {
  const a = siteDayOf(span.from, zone);
  const b = siteDayOf(span.to, zone);
  return a <= b ? { from: a, to: b } : { from: b, to: a };
}

/** Recomputes, in the write's transaction, the rollups of the site's days the write moved. */
async function refreshSiteDays(tx: SubscriberTransactionStore, siteId: string, span: MovedSpan): Promise<void> {
  const days = siteDaysMoved(await tx.siteTimeZone(siteId), span);
  await tx.refreshRollups(siteId, days.from, days.to);
}

const iso = (value: Date) => value.toISOString();
const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);

interface SubscriptionSummary { planName: string; status: string; cancelAtPeriodEnd: boolean; endedAt: Date | null; startedAt: Date }

/** The subscription a search row shows: a live one first (not ended), then the newest started. */
function currentOf(rows: SubscriptionSummary[]): Pick<SubscriberListItem, 'planName' | 'subscriptionState'> {
  const live = (r: SubscriptionSummary) => r.endedAt === null && isLiveSubscription(r.status as SubscriptionStatus);
  const [current] = [...rows].sort((a, b) => Number(live(b)) - Number(live(a)) || b.startedAt.getTime() - a.startedAt.getTime());
  return current
    ? { planName: current.planName, subscriptionState: subscriptionStateOf(current.status, current.cancelAtPeriodEnd) }
    : { planName: null, subscriptionState: null };
}

function listItemOf(row: SubscriberRecord, subscriptionRows: SubscriptionSummary[] = []): SubscriberListItem {
  return {
    ...currentOf(subscriptionRows),
    id: row.id,
    name: row.name,
    email: maskEmail(row.email),
    phone: maskPhone(row.phone),
    country: row.country,
    status: row.status as SubscriberStatus,
    createdAt: iso(row.createdAt),
  };
}

export interface SearchInput {
  query?: unknown;
  status?: unknown;
  /** Subscription filters (issue 27): a state of common/figures.ts, a plan id, a network identifier. */
  state?: unknown;
  plan?: unknown;
  network?: unknown;
  page?: unknown;
  pageSize?: unknown;
}

/**
 * Query subscriberSearch: one page of the caller's site's subscribers, newest first, PII masked.
 * What a query matches is in server/db/support-repository.ts (never a part of an e-mail or phone
 * the mask hides). A lookup counts against the agent's budget (429 past it), and every search is
 * audit-logged with its query and result count before the results leave (an audit failure means
 * nothing is shown).
 */
export async function searchSubscribers(deps: SupportDeps, caller: SupportCaller, input: SearchInput): Promise<SubscriberSearchPage> {
  requireRead(caller);
  const query = input.query ?? '';
  if (typeof query !== 'string' || query.length > SUPPORT_LIMITS.maxQueryLength) throw invalid('query', SUPPORT_MESSAGES.queryTooLong);
  const status = input.status ?? null;
  if (status !== null && !(SUBSCRIBER_STATUSES as readonly unknown[]).includes(status)) throw invalid('status', SUPPORT_MESSAGES.badStatus);
  const page = wholeNumberIn(input.page ?? 1, 'page', 1, SUPPORT_LIMITS.maxPage, SUPPORT_MESSAGES.badPage);
  const pageSize = wholeNumberIn(input.pageSize ?? SUPPORT_LIMITS.pageSize, 'pageSize', 1, SUPPORT_LIMITS.maxPageSize, SUPPORT_MESSAGES.badPageSize);
  const state = input.state ?? null;
  if (state !== null && !isSubscriptionState(state)) throw invalid('state', SUPPORT_MESSAGES.badState);
  const options = await deps.store.filterOptions(caller.siteId);
  const plan = input.plan ?? null;
  const planId = plan === null ? null : options.plans.find((p) => typeof plan === 'string' && p.id === plan.toLowerCase())?.id;
  if (planId === undefined) throw invalid('plan', SUPPORT_MESSAGES.badPlan);
  const network = input.network ?? null;
  const networkId = network === null ? null : options.networks.find((n) => n.identifier === network)?.id;
  if (networkId === undefined) throw invalid('network', SUPPORT_MESSAGES.badNetwork);
  // A listing by filters only (empty query) is not a lookup: it is not counted in the budget.
  if (query.trim() !== '') {
    const budget = await deps.limiter.hit(`supportSearch:user:${caller.userId}`, deps.searchBudget ?? SUPPORT_SEARCH_BUDGET, deps.now?.());
    if (!budget.allowed) throw rateLimited(budget.retryAfterSeconds, SUPPORT_MESSAGES.searchBudgetExceeded);
  }
  const { rows, total, totalIsCapped } = await deps.store.search(caller.siteId, { query, status: status as string | null, state, planId, networkId, page, pageSize });
  await deps.store.audit({
    action: SUPPORT_AUDIT_ACTIONS.search,
    actorUserId: caller.userId,
    siteId: caller.siteId,
    // Issue 38: a count that reached SEARCH_TOTAL_CAP is not the real one: the row says "more than".
    detail: { query, status, state, plan: planId, network, page, pageSize, resultCount: total, ...(totalIsCapped ? { resultCountIsCapped: true } : {}) },
  });
  const summaries = await deps.store.subscriptionsOfMany(caller.siteId, rows.map((r) => r.id));
  return {
    items: rows.map((r) => listItemOf(r, summaries.filter((x) => x.subscriberId === r.id))), total, totalIsCapped, page, pageSize,
    plans: options.plans.map((p) => ({ value: p.id, label: p.name })),
    networks: options.networks.map((n) => ({ value: n.identifier, label: n.name })),
  };
}

async function requireSubscriber(store: SubscriberRepository, siteId: string, id: string) {
  const row = await store.subscriber(siteId, id);
  if (!row) throw notFound(SUPPORT_MESSAGES.subscriberNotFound);
  return row;
}

/**
 * The price a subscription moved at its next renewal pays from then (issue 38): the scheduled price
 * version's amount in its currency, as the renewal will set it (applyRenewalMoves keeps the amount
 * when that version has no price in the currency); null when it is not moving or the move's price
 * equals what it pays now.
 */
function renewalAmountOf(s: SubscriptionRecord, renewalPrices: { currency: string; amount: number }[] | null): number | null {
  if (s.renewalPriceVersion === null || !renewalPrices) return null;
  const amount = renewalPrices.find((p) => p.currency === s.currency)?.amount ?? s.amount;
  return amount === s.amount ? null : amount;
}

async function detailOf(store: SubscriberRepository, siteId: string, id: string): Promise<SubscriberDetail> {
  const subscriber = await requireSubscriber(store, siteId, id);
  const [subscriptionRows, paymentRows, deviceRows, playbackRows, noteRows, planRows, options] = await Promise.all([
    store.subscriptionsOf(siteId, id),
    store.paymentsOf(siteId, id, SUPPORT_LIMITS.payments),
    store.devicesOf(siteId, id),
    store.playbackOf(siteId, id, SUPPORT_LIMITS.playbackSessions),
    store.notesOf(siteId, id, SUPPORT_LIMITS.notes),
    store.activePlans(siteId),
    store.filterOptions(siteId),
  ]);
  const planNames = new Map(options.plans.map((p) => [p.id, p.name]));
  const summaries = subscriptionRows.map(({ subscription: s, planName }) => ({ ...s, planName }));
  return {
    profile: { ...listItemOf(subscriber, summaries), networkName: subscriber.networkName, updatedAt: iso(subscriber.updatedAt), version: subscriber.version },
    subscriptions: subscriptionRows.map(({ subscription: s, planName, billingPeriod, renewalPrices }) => ({
      id: s.id, planName, billingPeriod, status: s.status as SubscriptionStatus,
      startedAt: iso(s.startedAt), trialEndsAt: isoOrNull(s.trialEndsAt), currentPeriodEnd: iso(s.currentPeriodEnd),
      cancelAtPeriodEnd: s.cancelAtPeriodEnd, cancelledAt: isoOrNull(s.cancelledAt), endedAt: isoOrNull(s.endedAt),
      amount: s.amount, currency: s.currency, version: s.version,
      planId: s.planId, currentPeriodStart: iso(s.currentPeriodStart),
      pendingPlanName: s.pendingPlanId ? planNames.get(s.pendingPlanId) ?? null : null,
      nextPaymentAdjustment: s.nextPaymentAdjustment,
      renewalAmount: renewalAmountOf(s, renewalPrices),
    })),
    payments: paymentRows.map(({ payment: p, planName }) => ({
      id: p.id, at: iso(p.at), planName, amount: p.amount, currency: p.currency, status: p.status, method: p.method,
      refundedAmount: p.refundedAmount, version: p.version,
    })),
    devices: deviceRows.map((d) => ({
      id: d.id, name: d.name, deviceType: d.deviceType, os: d.os, appVersion: d.appVersion,
      lastSeenAt: iso(d.lastSeenAt), signedOutAt: isoOrNull(d.signedOutAt),
    })),
    playback: playbackRows.map(({ session: p, contentTitle }) => ({
      id: p.id, startedAt: iso(p.startedAt), contentTitle, deviceType: p.deviceType, watchedSeconds: p.watchedSeconds,
      startupMs: p.startupMs, rebufferCount: p.rebufferCount, rebufferSeconds: p.rebufferSeconds,
      avgBitrateKbps: p.avgBitrateKbps, errorCode: p.errorCode,
    })),
    notes: noteRows.map(({ note: n, authorName }) => ({ id: n.id, body: n.body, authorName: authorName ?? '', createdAt: iso(n.createdAt) })),
    planOptions: planRows.map((p) => ({ id: p.id, name: p.name, billingPeriod: p.billingPeriod, prices: p.prices.map((x) => ({ currency: x.currency, amount: x.amount })) })),
  };
}

/**
 * The subscriber page after a write that has committed: read again (a few times) if the read fails,
 * so a committed support action never answers a failure an agent would take for a refused one
 * (issue 37: "an agent who sees a failure refunds again").
 */
async function committedDetail(store: SubscriberRepository, siteId: string, id: string): Promise<SubscriberDetail> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await detailOf(store, siteId, id);
    } catch (error) {
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

/** Query subscriber: everything the subscriber page shows. */
export async function getSubscriber(deps: SupportDeps, caller: SupportCaller, id: unknown): Promise<SubscriberDetail> {
  requireRead(caller);
  return detailOf(deps.store, caller.siteId, requireId(id, 'id'));
}

/** The subscription of the caller's site, its version checked and still live. */
async function liveSubscription(store: SubscriberRepository, caller: SupportCaller, id: string, version: number): Promise<SubscriptionRecord> {
  const row = await store.subscription(caller.siteId, id);
  if (!row) throw notFound(SUPPORT_MESSAGES.subscriptionNotFound);
  if (row.version !== version) throw conflict(SUPPORT_MESSAGES.conflict);
  if (!isLiveSubscription(row.status as SubscriptionStatus) || row.endedAt) throw conflict(SUPPORT_MESSAGES.subscriptionEnded);
  return row;
}

function subscriptionAudit(row: SubscriptionRecord) {
  return {
    planId: row.planId,
    amount: row.amount,
    pendingPlanId: row.pendingPlanId,
    nextPaymentAdjustment: row.nextPaymentAdjustment,
    status: row.status,
    currentPeriodEnd: iso(row.currentPeriodEnd),
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    cancelledAt: isoOrNull(row.cancelledAt),
    endedAt: isoOrNull(row.endedAt),
    version: row.version,
  };
}

/**
 * Writes a subscription change and its audit record in one transaction; a writer that got in
 * between (the version moved) is a conflict and nothing is written. `refresh` names the instants
 * between which the change moves figures: the rollups of the site's days they fall on are recomputed in
 * the same transaction (issue 37; issue 38: the site's days, `siteDaysMoved`), so the change and its
 * figures commit together and nothing can fail once it has committed.
 */
async function changeSubscription(
  deps: SupportDeps, caller: SupportCaller, before: SubscriptionRecord, changes: Partial<SubscriptionRecord>, now: Date,
  audit: { action: string; detail: Record<string, unknown> },
  refresh?: MovedSpan,
): Promise<SubscriptionRecord> {
  return deps.store.transaction(async (tx) => {
    const after = await tx.updateSubscription(before.id, before.version, changes, now);
    if (!after) throw conflict(SUPPORT_MESSAGES.conflict);
    const object = { kind: 'subscription', objectId: after.id, objectName: null } as const;
    await recordRevision(tx, {
      ...object, siteId: caller.siteId, actorUserId: caller.userId, objectVersion: after.version,
      before: subscriptionAudit(before), after: subscriptionAudit(after),
      reason: typeof audit.detail.reason === 'string' ? audit.detail.reason : null,
    });
    await tx.audit({
      action: audit.action,
      actorUserId: caller.userId,
      siteId: caller.siteId,
      ...auditObject(object),
      detail: { subscriberId: after.subscriberId, subscriptionId: after.id, ...audit.detail, before: subscriptionAudit(before), after: subscriptionAudit(after) },
    });
    if (refresh) await refreshSiteDays(tx, caller.siteId, refresh);
    return after;
  });
}

export interface CancelInput {
  subscriptionId: unknown;
  mode: unknown;
  reason: unknown;
  version: unknown;
}

/**
 * Mutation subscriptionCancel. AT_PERIOD_END keeps the subscription running until its period end;
 * NOW ends it at once (status 'cancelled', ended_at set), so it stops counting as active today. Either
 * way today's rollups are recomputed for Analytics (the cancellation is counted today).
 */
export async function cancelSubscription(deps: SupportDeps, caller: SupportCaller, input: CancelInput): Promise<SubscriberDetail> {
  requireEdit(caller);
  const id = requireId(input.subscriptionId, 'subscriptionId');
  if (!(CANCEL_MODES as readonly unknown[]).includes(input.mode)) throw invalid('mode', SUPPORT_MESSAGES.badCancelMode);
  const mode = input.mode as CancelMode;
  const reason = requireReason(input.reason);
  const version = requireVersion(input.version);
  const now = deps.now?.() ?? new Date();

  const before = await liveSubscription(deps.store, caller, id, version);
  if (mode === 'AT_PERIOD_END' && before.cancelAtPeriodEnd) throw conflict(SUPPORT_MESSAGES.alreadyCancelling);
  const changes: Partial<SubscriptionRecord> = mode === 'NOW'
    ? { status: 'cancelled', cancelAtPeriodEnd: false, cancelledAt: before.cancelledAt ?? now, endedAt: now }
    : { cancelAtPeriodEnd: true, cancelledAt: now };
  // Both modes move a figure today: NOW ends it, AT_PERIOD_END is a cancellation (issue 27: that one
  // was left out of the rollups until the next rebuild).
  const after = await changeSubscription(deps, caller, before, changes, now, {
    action: SUPPORT_AUDIT_ACTIONS.cancelSubscription, detail: { mode, reason },
  }, { from: now, to: now });
  return committedDetail(deps.store, caller.siteId, after.subscriberId);
}

export interface GrantDaysInput {
  subscriptionId: unknown;
  days: unknown;
  reason: unknown;
  version: unknown;
}

/** Mutation subscriptionGrantDays: the period end moves by exactly `days` × 24 hours. */
export async function grantComplimentaryDays(deps: SupportDeps, caller: SupportCaller, input: GrantDaysInput): Promise<SubscriberDetail> {
  requireEdit(caller);
  const id = requireId(input.subscriptionId, 'subscriptionId');
  if (typeof input.days !== 'number' || !isValidComplimentaryDays(input.days)) throw invalid('days', SUPPORT_MESSAGES.daysRange);
  const days = input.days;
  const reason = requireReason(input.reason);
  const version = requireVersion(input.version);
  const now = deps.now?.() ?? new Date();

  const before = await liveSubscription(deps.store, caller, id, version);
  const after = await changeSubscription(deps, caller, before, {
    currentPeriodEnd: new Date(before.currentPeriodEnd.getTime() + days * DAY_MS),
  }, now, { action: SUPPORT_AUDIT_ACTIONS.grantDays, detail: { days, reason } });
  return committedDetail(deps.store, caller.siteId, after.subscriberId);
}

export interface SignOutInput {
  subscriberId: unknown;
  /** null or absent: every device. */
  deviceId?: unknown;
  reason: unknown;
  version: unknown;
}

/** Mutation subscriberSignOutDevices: one device or all of them must sign in again. */
export async function signOutDevices(deps: SupportDeps, caller: SupportCaller, input: SignOutInput): Promise<SubscriberDetail> {
  requireEdit(caller);
  const subscriberId = requireId(input.subscriberId, 'subscriberId');
  const deviceId = input.deviceId === null || input.deviceId === undefined ? null : requireId(input.deviceId, 'deviceId');
  const reason = requireReason(input.reason);
  const version = requireVersion(input.version);
  const now = deps.now?.() ?? new Date();

  const subscriber = await requireSubscriber(deps.store, caller.siteId, subscriberId);
  if (subscriber.version !== version) throw conflict(SUPPORT_MESSAGES.conflict);
  const devices = await deps.store.devicesOf(caller.siteId, subscriberId);
  const targets = deviceId ? devices.filter((d) => d.id === deviceId) : devices;
  if (deviceId && targets.length === 0) throw notFound(SUPPORT_MESSAGES.deviceNotFound);
  const signedIn = targets.filter((d) => d.signedOutAt === null).map((d) => d.id);
  if (signedIn.length === 0) throw conflict(SUPPORT_MESSAGES.noDevicesSignedIn);

  await deps.store.transaction(async (tx) => {
    if (!await tx.bumpSubscriberVersion(subscriberId, version, now)) throw conflict(SUPPORT_MESSAGES.conflict);
    const signedOut = await tx.signOutDevices(caller.siteId, subscriberId, signedIn, now);
    const object = { kind: 'subscriber', objectId: subscriberId, objectName: subscriber.name ?? null } as const;
    await recordRevision(tx, {
      ...object, siteId: caller.siteId, actorUserId: caller.userId, objectVersion: version + 1, reason,
      before: Object.fromEntries(signedOut.map((d) => [`device.${d.id}.signedOutAt`, null])),
      after: Object.fromEntries(signedOut.map((d) => [`device.${d.id}.signedOutAt`, iso(now)])),
    });
    await tx.audit({
      action: SUPPORT_AUDIT_ACTIONS.signOutDevices,
      actorUserId: caller.userId,
      siteId: caller.siteId,
      ...auditObject(object),
      detail: {
        subscriberId, scope: deviceId ? 'one' : 'all', reason,
        before: { signedIn, version },
        after: { signedOut: signedOut.map((d) => d.id), signedOutAt: iso(now), version: version + 1 },
      },
    });
  });
  return committedDetail(deps.store, caller.siteId, subscriberId);
}

export interface ResumeInput {
  subscriptionId: unknown;
  reason: unknown;
  version: unknown;
}

/**
 * Mutation subscriptionResume (issue 29): a subscription set to cancel at its period end renews
 * again (cancel_at_period_end false, cancelled_at cleared). The cancellation it undoes was counted on
 * its day, so the rollups from that day to today are recomputed.
 */
export async function resumeSubscription(deps: SupportDeps, caller: SupportCaller, input: ResumeInput): Promise<SubscriberDetail> {
  requireEdit(caller);
  const id = requireId(input.subscriptionId, 'subscriptionId');
  const reason = requireReason(input.reason);
  const version = requireVersion(input.version);
  const now = deps.now?.() ?? new Date();
  const before = await liveSubscription(deps.store, caller, id, version);
  if (!before.cancelAtPeriodEnd) throw conflict(SUPPORT_MESSAGES.notCancelling);
  const after = await changeSubscription(deps, caller, before, { cancelAtPeriodEnd: false, cancelledAt: null }, now, {
    action: SUPPORT_AUDIT_ACTIONS.resumeSubscription, detail: { reason },
  }, { from: before.cancelledAt ?? now, to: now });
  return committedDetail(deps.store, caller.siteId, after.subscriberId);
}

export interface ChangePlanInput {
  subscriptionId: unknown;
  planId: unknown;
  when: unknown;
  reason: unknown;
  version: unknown;
}

/**
 * Mutation subscriptionChangePlan (issue 29). NOW: the subscription is on the new plan and its current
 * price version at once (a renewal move pending from the old plan is dropped; issue 30), and the proration (common/support.ts prorationOf, PRORATION_RULE) is added to what the
 * next payment adjusts; the subscription's rollups are recomputed from its start (its rows now say
 * the new plan). AT_PERIOD_END: the new plan is kept as pending and taken at the renewal; no figure
 * moves today. The plan must be an active plan of the site with a price in the subscription's currency.
 */
export async function changeSubscriptionPlan(deps: SupportDeps, caller: SupportCaller, input: ChangePlanInput): Promise<SubscriberDetail> {
  requireEdit(caller);
  const id = requireId(input.subscriptionId, 'subscriptionId');
  const planId = requireId(input.planId, 'planId');
  if (!(PLAN_CHANGE_WHEN as readonly unknown[]).includes(input.when)) throw invalid('when', SUPPORT_MESSAGES.badWhen);
  const when = input.when as PlanChangeWhen;
  const reason = requireReason(input.reason);
  const version = requireVersion(input.version);
  const now = deps.now?.() ?? new Date();
  const before = await liveSubscription(deps.store, caller, id, version);
  const plan = await deps.store.plan(caller.siteId, planId);
  if (!plan) throw notFound(SUPPORT_MESSAGES.planNotFound);
  if (plan.status !== 'active') throw conflict(SUPPORT_MESSAGES.planNotActive);
  if (plan.id === before.planId && when === 'NOW') throw conflict(SUPPORT_MESSAGES.samePlan);
  if (plan.id === (before.pendingPlanId ?? before.planId) && when === 'AT_PERIOD_END') throw conflict(SUPPORT_MESSAGES.samePlan);
  const price = plan.prices.find((p) => p.currency === before.currency);
  if (!price) throw conflict(SUPPORT_MESSAGES.noPriceInCurrency(plan.name, before.currency));
  const proration = when === 'NOW'
    ? planChangeProration({ status: before.status, trialEndsAt: before.trialEndsAt?.getTime() ?? null, amount: before.amount,
      periodStart: before.currentPeriodStart.getTime(), periodEnd: before.currentPeriodEnd.getTime() }, price.amount, now.getTime())
    : 0;
  const changes: Partial<SubscriptionRecord> = when === 'NOW'
    ? { planId: plan.id, priceVersion: plan.priceVersion, renewalPriceVersion: null, amount: price.amount, pendingPlanId: null, nextPaymentAdjustment: before.nextPaymentAdjustment + proration }
    : { pendingPlanId: plan.id };
  const after = await changeSubscription(deps, caller, before, changes, now, {
    action: SUPPORT_AUDIT_ACTIONS.changePlan, detail: { when, planId: plan.id, planName: plan.name, proration, reason },
  }, when === 'NOW' ? { from: before.startedAt, to: now } : undefined);
  return committedDetail(deps.store, caller.siteId, after.subscriberId);
}

export interface RefundInput {
  paymentId: unknown;
  /** Minor units, at most what is left of the payment. */
  amount: unknown;
  reason: unknown;
  version: unknown;
}

function paymentAudit(row: PaymentRecord) {
  return { status: row.status, amount: row.amount, refundedAmount: row.refundedAmount, currency: row.currency, version: row.version };
}

/**
 * Mutation paymentRefund (issue 29): gives back all or part of what is left of a succeeded or partly
 * refunded payment. The refund is its own row (payment_refunds) on today, which the Payments report
 * and Net revenue count on today; the payment shows 'partially_refunded' or 'refunded'. The payment's
 * version is checked; the refund, the payment, its revision and the audit row commit together.
 */
export async function refundPayment(deps: SupportDeps, caller: SupportCaller, input: RefundInput): Promise<SubscriberDetail> {
  requireEdit(caller);
  const paymentId = requireId(input.paymentId, 'paymentId');
  const reason = requireReason(input.reason);
  const version = requireVersion(input.version);
  const now = deps.now?.() ?? new Date();
  const before = await deps.store.payment(caller.siteId, paymentId);
  if (!before) throw notFound(SUPPORT_MESSAGES.paymentNotFound);
  if (before.version !== version) throw conflict(SUPPORT_MESSAGES.conflict);
  if (!(REFUNDABLE_PAYMENT_STATUSES as readonly string[]).includes(before.status)) throw conflict(SUPPORT_MESSAGES.notRefundable);
  const left = before.amount - before.refundedAmount;
  if (typeof input.amount !== 'number' || !Number.isInteger(input.amount) || input.amount < 1 || input.amount > left) {
    throw invalid('amount', SUPPORT_MESSAGES.badRefundAmount(left));
  }
  const amount = input.amount;
  const refunded = before.refundedAmount + amount;
  await deps.store.transaction(async (tx) => {
    const after = await tx.updatePayment(before.id, version, {
      refundedAmount: refunded, status: refunded >= before.amount ? 'refunded' : 'partially_refunded',
    });
    if (!after) throw conflict(SUPPORT_MESSAGES.conflict);
    const refundId = await tx.insertRefund({
      siteId: caller.siteId, networkId: before.networkId, subscriberId: before.subscriberId, paymentId: before.id,
      planId: before.planId, amount, currency: before.currency, reason, actorUserId: caller.userId, at: now,
    });
    const object = { kind: 'payment', objectId: before.id, objectName: null } as const;
    await recordRevision(tx, {
      ...object, siteId: caller.siteId, actorUserId: caller.userId, objectVersion: after.version, reason,
      before: paymentAudit(before), after: paymentAudit(after),
    });
    await tx.audit({
      action: SUPPORT_AUDIT_ACTIONS.refundPayment,
      actorUserId: caller.userId,
      siteId: caller.siteId,
      ...auditObject(object),
      detail: { subscriberId: before.subscriberId, paymentId: before.id, refundId, amount, currency: before.currency, reason, before: paymentAudit(before), after: paymentAudit(after) },
    });
    // Today's figures (the refund counts today), in the same transaction (issue 37).
    await refreshSiteDays(tx, caller.siteId, { from: now, to: now });
  });
  return committedDetail(deps.store, caller.siteId, before.subscriberId);
}

export interface AddNoteInput {
  subscriberId: unknown;
  body: unknown;
}

/** Mutation subscriberAddNote: notes are appended, never edited, so they need no version. */
export async function addSupportNote(deps: SupportDeps, caller: SupportCaller, input: AddNoteInput): Promise<SubscriberDetail> {
  requireEdit(caller);
  const subscriberId = requireId(input.subscriberId, 'subscriberId');
  const body = typeof input.body === 'string' ? input.body.trim() : '';
  if (body === '' || body.length > SUPPORT_LIMITS.maxNoteLength) throw invalid('body', SUPPORT_MESSAGES.noteRequired);
  const now = deps.now?.() ?? new Date();
  const subscriber = await requireSubscriber(deps.store, caller.siteId, subscriberId);
  await deps.store.transaction(async (tx) => {
    const noteId = await tx.insertNote({ siteId: caller.siteId, subscriberId, authorUserId: caller.userId, body, createdAt: now });
    const object = { kind: 'subscriber', objectId: subscriberId, objectName: subscriber.name ?? null } as const;
    await recordRevision(tx, { ...object, siteId: caller.siteId, actorUserId: caller.userId, before: null, after: { [`note.${noteId}`]: body }, reason: body });
    await tx.audit({
      action: SUPPORT_AUDIT_ACTIONS.addNote,
      actorUserId: caller.userId,
      siteId: caller.siteId,
      ...auditObject(object),
      // The note is its own reason: it says why the agent wrote it.
      detail: { subscriberId, reason: body, before: null, after: { noteId, body } },
    });
  });
  return committedDetail(deps.store, caller.siteId, subscriberId);
}

export interface RevealInput {
  subscriberId: unknown;
  reason: unknown;
}

/** Mutation subscriberRevealContact: the full e-mail and phone, for any support role, always logged. */
export async function revealContact(deps: SupportDeps, caller: SupportCaller, input: RevealInput): Promise<RevealedContact> {
  requireRead(caller);
  const subscriberId = requireId(input.subscriberId, 'subscriberId');
  const reason = requireReason(input.reason);
  const subscriber = await requireSubscriber(deps.store, caller.siteId, subscriberId);
  // Logged before the data leaves: an audit failure means nothing is shown.
  await deps.store.audit({
    action: SUPPORT_AUDIT_ACTIONS.revealContact,
    actorUserId: caller.userId,
    siteId: caller.siteId,
    detail: { subscriberId, reason, fields: ['email', 'phone'] },
  });
  return { email: subscriber.email, phone: subscriber.phone };
}
