/**
 * Customer Support's wire contract (issue 16, Users at /users): the subscriber search, the subscriber
 * page and the support actions, spoken by the GraphQL module (server/graphql/support.ts), the two
 * machines and the views. The spec names no REST path for these, so they go over the management
 * GraphQL endpoint. Personal data arrives masked; the full e-mail and phone only through the logged
 * reveal action.
 */

import { SUBSCRIPTION_STATES, type SubscriptionState } from './subscription-states';
import type { FilterOption } from './reports';

export const SUBSCRIBER_STATUSES = ['active', 'suspended', 'closed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** Statuses a subscription can still be cancelled or extended in. */
export const LIVE_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

export const CANCEL_MODES = ['AT_PERIOD_END', 'NOW'] as const;
export type CancelMode = (typeof CANCEL_MODES)[number];

/** When a plan change takes effect (issue 29). */
export const PLAN_CHANGE_WHEN = ['NOW', 'AT_PERIOD_END'] as const;
export type PlanChangeWhen = (typeof PLAN_CHANGE_WHEN)[number];

/** A payment's status; a support refund makes it 'partially_refunded' or 'refunded' (issue 29). */
export const REFUNDABLE_PAYMENT_STATUSES = ['succeeded', 'partially_refunded'] as const;

/**
 * The proration of a plan change now (issue 29), stated on the dialog and applied to the next payment:
 * the unused part of the current period at the old price is credited and the same part at the new
 * price charged, i.e. (new − old) × time left ÷ period length, rounded to the minor unit. Positive is
 * added to the next payment, negative taken off it.
 */
export const PRORATION_RULE =
  'Proration: the time left in this period is charged at the new price and credited at the old one; the difference is added to (or taken off) the next payment.';

export function prorationOf(oldAmount: number, newAmount: number, periodStart: number, periodEnd: number, now: number): number {
  const length = periodEnd - periodStart;
  if (length <= 0) return 0;
  const left = Math.min(Math.max(periodEnd - now, 0), length);
  return Math.round(((newAmount - oldAmount) * left) / length);
}

/** Why a plan change in a free trial has no proration (issue 38): shown on the dialog instead of the amount. */
export const TRIAL_PLAN_CHANGE_RULE =
  'In a free trial nothing has been paid for this period: no proration; the new plan\'s price is charged when the trial ends.';

/** Whether a subscription is still in its free trial at `now` (nothing paid for the current period). */
export function isInTrialAt(subscription: { status: string; trialEndsAt: number | null }, now: number): boolean {
  return subscription.status === 'trialing' || (subscription.trialEndsAt !== null && subscription.trialEndsAt > now);
}

/**
 * The proration of changing a subscription's plan now: none while it is in a free trial (no money was
 * paid for the period, so none is credited; the new price is charged when the trial ends), else prorationOf.
 */
export function planChangeProration(
  subscription: { status: string; trialEndsAt: number | null; amount: number; periodStart: number; periodEnd: number },
  newAmount: number,
  now: number,
): number {
  if (isInTrialAt(subscription, now)) return 0;
  return prorationOf(subscription.amount, newAmount, subscription.periodStart, subscription.periodEnd, now);
}

/**
 * A live subscription's next payment (issue 38), in minor units of its currency: the price it renews
 * at — the plan's newer price when "Move existing subscribers at their next renewal" moved it
 * (`renewalAmount`), else its own — plus the proration of a plan change now.
 */
export function nextPaymentOf(subscription: { amount: number; renewalAmount: number | null; nextPaymentAdjustment: number }): number {
  return (subscription.renewalAmount ?? subscription.amount) + subscription.nextPaymentAdjustment;
}

/** What the subscriber page says under a next payment at the plan's newer price (issue 38). */
export const RENEWAL_MOVE_WORDS = (now: string) => `Moves to the plan's new price at renewal (pays ${now} until then)`;

/** The Users state of a subscription: common/subscription-states.ts (re-exported here). */
export { subscriptionStateOf } from './subscription-states';

export const SUPPORT_LIMITS = {
  pageSize: 20,
  maxPageSize: 100,
  /** Pages past this are refused: nobody pages 500 deep, a client that does has a bug. */
  maxPage: 500,
  maxQueryLength: 200,
  /** The search is debounced this long after the last keystroke. */
  searchDebounceMs: 300,
  /** The subscriber page lists this many playback sessions, newest first. */
  playbackSessions: 50,
  payments: 50,
  notes: 100,
  minReasonLength: 3,
  maxReasonLength: 500,
  maxNoteLength: 2000,
  minComplimentaryDays: 1,
  maxComplimentaryDays: 365,
} as const;

/**
 * What the Users search matches, in the operator's words (issue 38): the search box's placeholder and
 * the help under it. The SQL is server/db/support-repository.ts searchPredicate (SECURITY.md C-SUP-1:
 * what the list hides is never matched by its start, so typing a few more letters reveals nothing).
 */
export const SUBSCRIBER_SEARCH_HELP = {
  placeholder: 'E-mail, domain, name, phone or id',
  help: 'Finds a whole e-mail or the whole part before @; everyone at a domain ("example.org" or "@example.org", its subdomains too); '
    + 'a whole word of an e-mail, four letters or digits or more ("lopez" in maria.lopez@example.org); the start of any word of the name '
    + '("ava tay"); a whole phone number or its last four digits; the start of a subscriber id or a whole subscription or payment id.',
} as const;

/**
 * A search counts its matches up to this many (issue 38): a broader one answers the cap with
 * totalIsCapped, as consoles do for broad searches, so an e-mail word held by 40,000 addresses costs
 * 10,000 rows read, not 40,000. The page of the newest matches stays exact, and pages past the cap are
 * still served (server/db/support-repository.ts search); the list offers pages up to the cap.
 */
export const SEARCH_TOTAL_CAP = 10_000;

/** The Users list's count of a search that reached SEARCH_TOTAL_CAP. */
export const SEARCH_TOTAL_CAPPED_TEXT = `More than ${SEARCH_TOTAL_CAP.toLocaleString('en-US')} matches`;

export interface SubscriberListItem {
  id: string;
  name: string;
  /** Partly hidden: `ma•••@example.com`. */
  email: string;
  /** Partly hidden: `•••• 4321`; '' when none. */
  phone: string;
  country: string;
  status: SubscriberStatus;
  createdAt: string;
  /** Issue 29: the plan and state of the subscriber's current subscription (a live one first, else the newest); null when none. */
  planName: string | null;
  subscriptionState: SubscriptionState | null;
}

/** Filters by the subscriber's subscriptions (issue 27): a subscriber matches when one subscription has them all. */
export interface SubscriptionFilters {
  /** A state of common/figures.ts (SUBSCRIPTION_STATE_RULES). */
  state: SubscriptionState | null;
  /** A plan id of the site. */
  plan: string | null;
  /** A network identifier of the site (the subscription's network). */
  network: string | null;
}

export interface SubscriberSearchRequest extends SubscriptionFilters {
  query: string;
  status: SubscriberStatus | null;
  page: number;
  pageSize: number;
}

export interface SubscriberSearchPage {
  items: SubscriberListItem[];
  /** Every match, or SEARCH_TOTAL_CAP when there are more (totalIsCapped). */
  total: number;
  /** True when the matches are more than SEARCH_TOTAL_CAP and total is the cap. */
  totalIsCapped: boolean;
  page: number;
  pageSize: number;
  /** The site's plans and networks, for the filters (value = plan id / network identifier). */
  plans: FilterOption[];
  networks: FilterOption[];
}

export interface SubscriberProfile extends SubscriberListItem {
  networkName: string;
  updatedAt: string;
  version: number;
}

export interface SubscriptionRow {
  id: string;
  planName: string;
  billingPeriod: string;
  status: SubscriptionStatus;
  startedAt: string;
  trialEndsAt: string | null;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  cancelledAt: string | null;
  endedAt: string | null;
  amount: number;
  currency: string;
  version: number;
  planId: string;
  currentPeriodStart: string;
  /** Issue 29: the plan it moves to at its period end, or null. */
  pendingPlanName: string | null;
  /** Minor units added to (negative: taken off) the next payment, from a plan change now. */
  nextPaymentAdjustment: number;
  /**
   * Issue 38: the price (minor units, in `currency`) it pays from its next renewal when "Move existing
   * subscribers at their next renewal" moved it to the plan's newer price; null when it is not moving.
   */
  renewalAmount: number | null;
}

export interface PaymentRow {
  id: string;
  at: string;
  planName: string | null;
  amount: number;
  currency: string;
  status: string;
  method: string;
  /** Issue 29: minor units given back so far. */
  refundedAmount: number;
  version: number;
}

/** A plan a subscription can move to, with its prices (issue 29). */
export interface PlanOption {
  id: string;
  name: string;
  billingPeriod: string;
  prices: { currency: string; amount: number }[];
}

export interface DeviceRow {
  id: string;
  name: string;
  deviceType: string;
  os: string;
  appVersion: string;
  lastSeenAt: string;
  signedOutAt: string | null;
}

export interface PlaybackRow {
  id: string;
  startedAt: string;
  contentTitle: string;
  deviceType: string;
  watchedSeconds: number;
  startupMs: number;
  rebufferCount: number;
  rebufferSeconds: number;
  avgBitrateKbps: number;
  errorCode: string | null;
}

export interface SupportNoteRow {
  id: string;
  body: string;
  authorName: string;
  createdAt: string;
}

export interface SubscriberDetail {
  profile: SubscriberProfile;
  subscriptions: SubscriptionRow[];
  payments: PaymentRow[];
  devices: DeviceRow[];
  playback: PlaybackRow[];
  notes: SupportNoteRow[];
  /** The site's active plans, for a plan change. */
  planOptions: PlanOption[];
}

export interface RevealedContact {
  email: string;
  phone: string;
}

/** The support actions, each confirmed with a reason in the browser and audit-logged at the server. */
export type SupportAction =
  | { kind: 'cancelSubscription'; subscriptionId: string; mode: CancelMode; version: number }
  | { kind: 'grantDays'; subscriptionId: string; days: number; version: number }
  | { kind: 'signOutDevices'; deviceId: string | null; version: number }
  | { kind: 'addNote' }
  | { kind: 'revealContact' }
  | { kind: 'resumeSubscription'; subscriptionId: string; version: number }
  | { kind: 'changePlan'; subscriptionId: string; planId: string; when: PlanChangeWhen; version: number }
  | { kind: 'refundPayment'; paymentId: string; amount: number; version: number };

export type SupportActionKind = SupportAction['kind'];

/** Audit actions of Customer Support (audit_events.action). */
export const SUPPORT_AUDIT_ACTIONS = {
  cancelSubscription: 'support.subscription.cancel',
  grantDays: 'support.subscription.grantDays',
  signOutDevices: 'support.devices.signOut',
  addNote: 'support.note.add',
  revealContact: 'support.contact.reveal',
  resumeSubscription: 'support.subscription.resume',
  changePlan: 'support.subscription.changePlan',
  refundPayment: 'support.payment.refund',
  /** Every subscriber search, with its query (issue 25). */
  search: 'support.subscriber.search',
} as const;

/** A reason the server accepts: trimmed, between the bounds. */
export function isValidReason(reason: string): boolean {
  const length = reason.trim().length;
  return length >= SUPPORT_LIMITS.minReasonLength && length <= SUPPORT_LIMITS.maxReasonLength;
}

export function isValidComplimentaryDays(days: number): boolean {
  return Number.isInteger(days) && days >= SUPPORT_LIMITS.minComplimentaryDays && days <= SUPPORT_LIMITS.maxComplimentaryDays;
}

export function isLiveSubscription(status: SubscriptionStatus): boolean {
  return LIVE_SUBSCRIPTION_STATUSES.includes(status);
}

/** Our own words for the Users area (not in the spec). */
export const SUPPORT_MESSAGES = {
  reasonRequired: `Give a reason (${SUPPORT_LIMITS.minReasonLength} to ${SUPPORT_LIMITS.maxReasonLength} characters).`,
  daysRange: `Complimentary days must be a whole number from ${SUPPORT_LIMITS.minComplimentaryDays} to ${SUPPORT_LIMITS.maxComplimentaryDays}.`,
  noteRequired: `Write the note (1 to ${SUPPORT_LIMITS.maxNoteLength} characters).`,
  queryTooLong: `The search may be at most ${SUPPORT_LIMITS.maxQueryLength} characters.`,
  badStatus: `status must be one of ${SUBSCRIBER_STATUSES.join(', ')}.`,
  badState: `state must be one of ${SUBSCRIPTION_STATES.join(', ')}.`,
  badPlan: 'plan is not a plan of this site.',
  badNetwork: 'network is not a network of this site.',
  badPage: `page must be a whole number from 1 to ${SUPPORT_LIMITS.maxPage}.`,
  badPageSize: `pageSize must be a whole number from 1 to ${SUPPORT_LIMITS.maxPageSize}.`,
  badCancelMode: `mode must be one of ${CANCEL_MODES.join(', ')}.`,
  badId: (what: string) => `${what} is not a valid id.`,
  badVersion: 'version must be a whole number of at least 1.',
  subscriberNotFound: 'Subscriber not found',
  subscriberNotFoundHelp: 'No subscriber of this site has this id. It may be mistyped, or the subscriber belongs to another site.',
  subscriptionNotFound: 'Subscription not found',
  deviceNotFound: 'Device not found',
  subscriptionEnded: 'This subscription has already ended.',
  alreadyCancelling: 'This subscription is already set to cancel at the end of its period.',
  noDevicesSignedIn: 'No device is signed in.',
  conflict: 'Someone else changed this subscriber in the meantime. The page now shows the latest data; check it and try again.',
  loadFailed: 'The subscriber could not be loaded.',
  searchFailed: 'The search failed.',
  noResults: 'No subscribers match this search.',
  cancelledNow: 'Subscription cancelled; it has ended.',
  cancelledAtPeriodEnd: 'Subscription set to cancel at the end of its period.',
  daysGranted: (days: number) => `${days} complimentary ${days === 1 ? 'day' : 'days'} granted.`,
  signedOutAll: 'Signed out of all devices.',
  signedOutOne: 'Device signed out.',
  noteAdded: 'Note added.',
  contactRevealed: 'Full e-mail and phone shown; the reveal is in the audit log.',
  notCancelling: 'This subscription is not set to cancel at the end of its period, so there is nothing to resume.',
  badWhen: `when must be one of ${PLAN_CHANGE_WHEN.join(', ')}.`,
  planNotFound: 'Plan not found',
  planNotActive: 'Only an active plan can be chosen.',
  samePlan: 'The subscription is already on this plan.',
  noPriceInCurrency: (plan: string, currency: string) => `${plan} has no price in ${currency}, the currency of this subscription.`,
  paymentNotFound: 'Payment not found',
  notRefundable: 'Only a succeeded or partly refunded payment can be refunded.',
  badRefundAmount: (max: number) => `The refund must be a whole number of minor units from 1 to ${max} (what is left of the payment).`,
  resumed: 'Subscription resumed; it renews at the end of its period.',
  planChangedNow: (plan: string) => `Plan changed to ${plan}; the proration is applied to the next payment.`,
  planChangeScheduled: (plan: string) => `The subscription moves to ${plan} at the end of its period.`,
  refunded: 'Payment refunded.',
  partlyRefunded: 'Part of the payment refunded.',
  searchBudgetExceeded: 'You have searched a lot in the last few minutes. Please wait a moment before searching again.',
} as const;
