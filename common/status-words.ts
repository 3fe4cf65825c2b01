/**
 * The one display word of every status code the console shows (issue 30, "Consistency across areas"):
 * subscriber, subscription and payment statuses (Users), the subscription states Users filters by and
 * the Dashboard counts, content statuses (Content), plan, offer and coupon statuses (Monetization),
 * staff accounts (Admin), networks (the switcher) and signed-in devices. Views write these words and
 * never a code or their own capitalisation.
 *
 * One casing rule: sentence case, a capital first letter and the rest lower case except proper nouns
 * ("Past due", "Cancelling at period end", "Not launched"). The same code reads the same word in
 * every area ('active' is "Active" for a subscriber, a subscription, a plan, an offer, a coupon and a
 * staff account). The type imports below keep each map complete: a new code without a word is a type
 * error, and common/status-words.test.ts checks every list of codes against its map.
 */
import type { ContentStatus } from './content';
import type { CouponStatus, OfferStatus, PlanStatus } from './monetization-rules';
import type { SubscriptionState } from './subscription-states';
import { subscriptionStateOf } from './subscription-states';
import type { SubscriberStatus, SubscriptionStatus } from './support';

/** A payment's status as stored (server/db/schema.ts `payments.status`; a support refund sets the last two). */
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'refunded', 'partially_refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A staff account is enabled or disabled (Admin › Staff). */
export const STAFF_ACCOUNT_STATES = ['active', 'disabled'] as const;
export type StaffAccountState = (typeof STAFF_ACCOUNT_STATES)[number];

/** A network is launched or not (the network switcher's mark): codes and words in their own module (issue 39). */
export { NETWORK_STATE_WORDS, NETWORK_STATES, type NetworkState } from './messages/network-states';

/** A subscriber's device: still signed in, or signed out (Users › subscriber › Devices). */
export const DEVICE_SESSION_STATES = ['signed_in', 'signed_out'] as const;
export type DeviceSessionState = (typeof DEVICE_SESSION_STATES)[number];

/** Words shared by codes of the same name in several vocabularies, so they cannot drift apart. */
const SHARED = {
  active: 'Active', archived: 'Archived', cancelled: 'Cancelled', disabled: 'Disabled', draft: 'Draft', expired: 'Expired',
  failed: 'Failed', pastDue: 'Past due', pending: 'Pending', trialing: 'In trial',
} as const;

export const CONTENT_STATUS_WORDS: Readonly<Record<ContentStatus, string>> = {
  draft: SHARED.draft, published: 'Published', unpublished: 'Unpublished', scheduled: 'Scheduled',
};

export const SUBSCRIBER_STATUS_WORDS: Readonly<Record<SubscriberStatus, string>> = {
  active: SHARED.active, suspended: 'Suspended', closed: 'Closed',
};

export const SUBSCRIPTION_STATUS_WORDS: Readonly<Record<SubscriptionStatus, string>> = {
  trialing: SHARED.trialing, active: SHARED.active, past_due: SHARED.pastDue, cancelled: SHARED.cancelled, expired: SHARED.expired,
};

/** The states Users filters subscribers by and the Dashboard counts (common/figures.ts SUBSCRIPTION_STATE_RULES). */
export const SUBSCRIPTION_STATE_WORDS: Readonly<Record<SubscriptionState, string>> = {
  trialing: SHARED.trialing, paying: 'Paying', past_due: SHARED.pastDue, cancelling: 'Cancelling at period end',
  cancelled: SHARED.cancelled, expired: SHARED.expired,
};

export const PAYMENT_STATUS_WORDS: Readonly<Record<PaymentStatus, string>> = {
  pending: SHARED.pending, succeeded: 'Succeeded', failed: SHARED.failed, refunded: 'Refunded', partially_refunded: 'Partly refunded',
};

export const PLAN_STATUS_WORDS: Readonly<Record<PlanStatus, string>> = {
  draft: SHARED.draft, active: SHARED.active, archived: SHARED.archived,
};

export const OFFER_STATUS_WORDS: Readonly<Record<OfferStatus, string>> = {
  draft: SHARED.draft, active: SHARED.active, archived: SHARED.archived,
};

export const COUPON_STATUS_WORDS: Readonly<Record<CouponStatus, string>> = {
  active: SHARED.active, disabled: SHARED.disabled,
};

export const STAFF_ACCOUNT_WORDS: Readonly<Record<StaffAccountState, string>> = {
  active: SHARED.active, disabled: SHARED.disabled,
};

export const DEVICE_SESSION_WORDS: Readonly<Record<DeviceSessionState, string>> = {
  signed_in: 'Signed in', signed_out: 'Signed out',
};

/**
 * Every status code of the vocabularies above with its word, for text that knows a value is a status
 * but not of what (a History entry's "Status: Draft → Published"). A code shared by several
 * vocabularies has one word in all of them (common/status-words.test.ts), so the merge loses nothing.
 */
export const STATUS_WORDS_BY_CODE: Readonly<Record<string, string>> = Object.freeze({
  ...CONTENT_STATUS_WORDS, ...SUBSCRIBER_STATUS_WORDS, ...SUBSCRIPTION_STATUS_WORDS, ...PAYMENT_STATUS_WORDS,
  ...PLAN_STATUS_WORDS, ...OFFER_STATUS_WORDS, ...COUPON_STATUS_WORDS, ...STAFF_ACCOUNT_WORDS,
});

/**
 * The word of a code read from the wire, where the type does not promise it is known (a payment
 * status a newer server adds): the map's word, else the code in sentence case ("chargeback_lost" →
 * "Chargeback lost"), never the raw code.
 */
export function statusWord(words: Readonly<Record<string, string>>, code: string): string {
  const known = Object.prototype.hasOwnProperty.call(words, code) ? words[code] : undefined;
  if (known) return known;
  const spaced = code.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return spaced ? spaced.charAt(0).toUpperCase() + spaced.slice(1) : '—';
}

/**
 * A subscription's state in the words of the Users list (issue 38: the list and the subscriber page agree), with
 * the trial named when a trial is set to end at its period end ('Cancelling at period end (in trial)').
 */
export function subscriptionStateWords(status: string, cancelAtPeriodEnd: boolean): string {
  const state = subscriptionStateOf(status, cancelAtPeriodEnd);
  return state === 'cancelling' && status === 'trialing' ? `${SUBSCRIPTION_STATE_WORDS.cancelling} (in trial)` : SUBSCRIPTION_STATE_WORDS[state];
}
