/**
 * The counts a plan shows (issue 38), one definition each, in an operator's words: Monetization › Plans
 * shows them beside its columns and the plan editor's price note, Users beside its plan filter's count.
 * Two pages that show the same count read the same definition here and are computed from the same rows:
 * "Paying subscribers" of a plan is Users under Plan: that plan and Subscription: Paying
 * (SUBSCRIPTION_STATE_RULES.paying of common/figures.ts); "Subscribers" of a plan is Users under Plan:
 * that plan. Held by server/monetization-plan-counts.test.ts, which recomputes each from raw rows.
 */
import type { FigureDefinition } from './figures';

export const PLAN_FIGURES = {
  /** Plans' "Subscriptions (all time)": `subscriptionCount`. */
  subscriptionsAllTime: {
    label: 'Subscriptions (all time)',
    help: 'Every subscription ever taken on this plan, whatever its state now: in trial, paying, cancelling, cancelled and expired ones. It never goes down.',
  },
  /** Plans' "Live subscriptions": `payingSubscriptionCount` (the wire name predates this definition). */
  liveSubscriptions: {
    label: 'Live subscriptions',
    help: 'Subscriptions of this plan that have not ended: in trial, active or past due, those set to end at period end included. They keep their price when the plan\'s price changes.',
  },
  /** Plans' "Paying subscribers": `payingSubscriberCount`. */
  payingSubscribers: {
    label: 'Paying subscribers',
    help: 'Subscribers (people, each once) with a subscription of this plan that is active or past due: trial over, not ended. The number Users lists under Plan: this plan and Subscription: Paying.',
  },
  /** Plans' "On an earlier price" and the editor's price note: `oldPriceSubscriptionCount`. */
  earlierPrice: {
    label: 'On an earlier price',
    help: 'Live subscriptions of this plan (in trial, active or past due) still on a price from before its last price change and not yet moved to the current price.',
  },
  /** The editor's price note: `movingAtRenewalCount`. */
  movingAtRenewal: {
    label: 'Moving at next renewal',
    help: 'Live subscriptions of this plan that "Move existing subscribers at their next renewal" moved: they pay the current price from their next renewal.',
  },
  /** Users' count under a plan filter. */
  subscribersOnPlan: {
    label: 'Subscribers on this plan',
    help: 'Users under a plan counts subscribers (people, each once), not subscriptions: everyone with at least one subscription of the plan in the state chosen (any state: ended ones included).',
  },
} as const satisfies Record<string, FigureDefinition>;

export type PlanFigureKey = keyof typeof PLAN_FIGURES;
