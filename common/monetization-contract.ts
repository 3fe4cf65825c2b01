/**
 * The Monetization records as the management GraphQL endpoint answers them (server/graphql/monetization.ts),
 * and the names of the page actions on them: shared by the browser's GraphQL documents (src/api), the
 * wiring of the pages (src/adapters/monetization-actors.ts) and the views.
 */

/** `models` are the site's service types (SVOD, AVOD, TVOD, FAST), `serviceType` the main one among them. */
export interface MonetizationSettings { isMonetizationModelEnabled: boolean; models: string[]; serviceType: string; version: number }
export interface Price { currency: string; amount: number }
export interface Plan {
  id: string; name: string; description: string; prices: Price[]; billingPeriod: string; trialDays: number;
  deviceLimit: number; status: string; version: number;
  /** PLAN_FIGURES.subscriptionsAllTime (common/plan-figures.ts): every subscription of the plan, any state. */
  subscriptionCount: number;
  /** The price version new subscriptions get (issue 30). */
  priceVersion: number;
  /** PLAN_FIGURES.liveSubscriptions: in trial, active or past due (the name predates issue 38's definitions). */
  payingSubscriptionCount: number;
  /** PLAN_FIGURES.payingSubscribers: subscribers with an active or past-due subscription of the plan (Users' Paying). */
  payingSubscriberCount: number;
  /** PLAN_FIGURES.earlierPrice: live subscriptions on an earlier price version that are not moving. */
  oldPriceSubscriptionCount: number;
  /** PLAN_FIGURES.movingAtRenewal: live subscriptions moving to the current price at their next renewal. */
  movingAtRenewalCount: number;
}
export interface PlanGroup { id: string; name: string; description: string; position: number; version: number; planIds: string[] }
export interface Offer {
  id: string; name: string; discountType: string; discountValue: number; currency: string | null; planIds: string[];
  startsAt: string; endsAt: string | null; eligibility: string; status: string; version: number;
  /** How long the discount applies: once, repeating (durationMonths), forever (issue 30). */
  duration: string; durationMonths: number | null;
}
export interface Coupon {
  id: string; offerId: string; offerName: string; code: string; maxRedemptions: number | null; maxPerSubscriber: number;
  expiresAt: string | null; status: string; version: number; redemptionCount: number;
  /** The offer's end (the coupon's expiry that applies is the earlier of the two). */
  offerEndsAt?: string | null;
  /** When the code was last redeemed (null: never). */
  lastRedeemedAt: string | null;
}
export interface Page<T> { items: T[]; total: number }

/** The page actions (the pageAction machine's request names) of the Monetization list pages. */
export const PLAN_ACTIONS = { duplicate: 'duplicate', delete: 'delete', moveAtRenewal: 'moveAtRenewal' } as const;
/** `setStatus`: args `id`, `version`, `status` ('active' enables, 'disabled' disables one code). */
export const COUPON_ACTIONS = { exportCsv: 'exportCsv', setStatus: 'setStatus' } as const;

/**
 * Coupon redemption (issue 30): what a site's apps call when a customer enters a code, authenticated
 * by the site's app key (the ingestion key header, x-ingestion-key), never by a staff token.
 */
export const COUPON_REDEEM_PATH = '/v1/coupons/redeem';
export interface CouponRedeemRequest { code: string; subscriberId: string }
export interface CouponRedemption {
  id: string; code: string; offerId: string; discountType: string; discountValue: number; currency: string | null;
  duration: string; durationMonths: number | null; planIds: string[]; redeemedAt: string;
}
export interface CouponRedeemAnswer { success: true; redemption: CouponRedemption }
/**
 * Moves one plan group: args `id`, `to` (0-based place) and `order`, the groups as the person saw
 * them (`planGroupOrder`), so a reorder or edit by someone else since answers a conflict.
 */
export const PLAN_GROUP_ACTIONS = { move: 'move' } as const;

/** The `order` argument of a move: the shown groups' ids with the versions read. */
export function planGroupOrder(groups: readonly Pick<PlanGroup, 'id' | 'version'>[]): string {
  return JSON.stringify(groups.map(({ id, version }) => ({ id, version })));
}

export function readPlanGroupOrder(order: string): { id: string; version: number }[] {
  const parsed: unknown = JSON.parse(order || '[]');
  return Array.isArray(parsed) ? parsed as { id: string; version: number }[] : [];
}
