/** The states a subscriber can be filtered by in Users (a subscriber matches when one of their subscriptions does). */
export const SUBSCRIPTION_STATES = ['trialing', 'paying', 'past_due', 'cancelling', 'cancelled', 'expired'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export function isSubscriptionState(value: unknown): value is SubscriptionState {
  return (SUBSCRIPTION_STATES as readonly unknown[]).includes(value);
}
