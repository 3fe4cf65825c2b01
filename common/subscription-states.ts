import { isOneOf } from './one-of';

/** The states a subscriber can be filtered by in Users (a subscriber matches when one of their subscriptions does). */
export const SUBSCRIPTION_STATES = ['trialing', 'paying', 'past_due', 'cancelling', 'cancelled', 'expired'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export function isSubscriptionState(value: unknown): value is SubscriptionState {
  return isOneOf(SUBSCRIPTION_STATES, value);
}

/** The Users state of a subscription (common/figures.ts SUBSCRIPTION_STATE_RULES), from its status and cancel flag. */
export function subscriptionStateOf(status: string, cancelAtPeriodEnd: boolean): SubscriptionState {
  if (cancelAtPeriodEnd && (status === 'trialing' || status === 'active' || status === 'past_due')) return 'cancelling';
  if (status === 'trialing' || status === 'past_due' || status === 'cancelled' || status === 'expired') return status;
  return 'paying';
}
