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
  deviceLimit: number; status: string; version: number; subscriptionCount: number;
}
export interface PlanGroup { id: string; name: string; description: string; position: number; version: number; planIds: string[] }
export interface Offer {
  id: string; name: string; discountType: string; discountValue: number; currency: string | null; planIds: string[];
  startsAt: string; endsAt: string | null; eligibility: string; status: string; version: number;
}
export interface Coupon {
  id: string; offerId: string; offerName: string; code: string; maxRedemptions: number | null; maxPerSubscriber: number;
  expiresAt: string | null; status: string; version: number; redemptionCount: number;
  /** The offer's end (the coupon's expiry that applies is the earlier of the two). */
  offerEndsAt?: string | null;
}
export interface Page<T> { items: T[]; total: number }

/** The page actions (the pageAction machine's request names) of the Monetization list pages. */
export const PLAN_ACTIONS = { duplicate: 'duplicate', delete: 'delete' } as const;
export const COUPON_ACTIONS = { exportCsv: 'exportCsv' } as const;
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
