/**
 * One definition per figure (issue 27): what is counted, from which rows, at which moment. The
 * Dashboard's tiles, the audience report columns and the Users filter all read their words here, so
 * one word means one figure in every area.
 *
 * Subscription states come from the `subscriptions` table's `status` and `cancel_at_period_end`
 * columns, which the billing side keeps current (the seed sets them as of its clock, support actions
 * move them). The daily rollups count the same subscriptions from their timestamps (trial over, not
 * ended) when they are refreshed — at start and after each support change that ends a subscription —
 * so today's "Paying subscribers" tile and the Users list filtered to "Paying" give the same number.
 */

/** The states a subscriber can be filtered by in Users (a subscriber matches when one of their subscriptions does). */
export const SUBSCRIPTION_STATES = ['trialing', 'paying', 'past_due', 'cancelling', 'cancelled', 'expired'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export function isSubscriptionState(value: unknown): value is SubscriptionState {
  return (SUBSCRIPTION_STATES as readonly unknown[]).includes(value);
}

export interface SubscriptionStateRule {
  label: string;
  /** `subscriptions.status` values in the state. */
  statuses: readonly ('trialing' | 'active' | 'past_due' | 'cancelled' | 'expired')[];
  /** When set, `subscriptions.cancel_at_period_end` must be true too. */
  cancelAtPeriodEnd?: true;
  help: string;
}

/** Exactly which subscription rows each state is (the server builds its SQL from these). */
export const SUBSCRIPTION_STATE_RULES: Record<SubscriptionState, SubscriptionStateRule> = {
  trialing: { label: 'In trial', statuses: ['trialing'], help: 'A subscription in its free trial (status trialing).' },
  paying: {
    label: 'Paying', statuses: ['active', 'past_due'],
    help: 'A subscription active or past due: the trial (if any) is over and it has not ended. The same rows as the Dashboard\'s "Paying subscribers".',
  },
  past_due: { label: 'Past due', statuses: ['past_due'], help: 'A paying subscription whose last charge failed; it ends unless a retry succeeds.' },
  cancelling: {
    label: 'Cancelling at period end', statuses: ['trialing', 'active', 'past_due'], cancelAtPeriodEnd: true,
    help: 'A live subscription (in trial, active or past due) set to end at the end of its period.',
  },
  cancelled: { label: 'Cancelled', statuses: ['cancelled'], help: 'A subscription that ended because it was cancelled (status cancelled).' },
  expired: { label: 'Expired', statuses: ['expired'], help: 'A subscription that ended because it was not paid (status expired).' },
};

export interface FigureDefinition {
  label: string;
  /** What is counted, from which rows, at which moment: shown as help text wherever the figure is. */
  help: string;
}

/**
 * The figures of the Dashboard's tiles and of the audience reports (user_base, change_in_user_base),
 * keyed by the report column key. Times are UTC; "the end of the day" is 23:59:59 UTC, and for today
 * the moment of the last refresh (start, and every support change that ends a subscription).
 */
export const FIGURES = {
  subscribers: {
    label: 'Paying subscribers',
    help: 'Subscriptions active or past due (trial over, not ended) at the end of the range\'s last day, 23:59:59 UTC; for a range ending today, now. The same subscriptions Users lists under Subscription: Paying (click the number).',
  },
  trialing: {
    label: 'In trial',
    help: 'Subscriptions in their free trial (started, trial not over, not ended) at the end of the day (23:59:59 UTC; today: now).',
  },
  signups: { label: 'Sign-ups', help: 'Viewer accounts created in the period (subscribers.created_at, UTC days).' },
  viewers: { label: 'Viewers (daily average)', help: 'Distinct viewers with at least one playback session each day, averaged over the days of the period.' },
  sessions: { label: 'Sessions', help: 'Playback sessions started in the period (playback_sessions.started_at, UTC days).' },
  watchHours: { label: 'Watch time (hours)', help: 'Seconds watched in the playback sessions started in the period, in hours.' },
  netRevenue: { label: 'Net revenue', help: 'Revenue (every charge taken in the period, including those later refunded) minus refunds: the charges kept, in the currency shown (never summed across currencies).' },
  startupP95Ms: { label: 'Startup time p95 (ms)', help: '95th percentile of the time to first frame of the playback sessions started in the period.' },
  rebufferP95Pct: { label: 'Rebuffer ratio p95 (%)', help: '95th percentile of the share of each session spent rebuffering (rebuffer ÷ (watched + rebuffer) seconds).' },
  trialsStarted: { label: 'Trials started', help: 'Subscriptions started with a free trial in the period.' },
  paidStarted: { label: 'Paid starts', help: 'Subscriptions started without a trial (paying from the first day) in the period.' },
  conversions: { label: 'Trial conversions', help: 'Trials that ended in the period with the subscription still running (now paying).' },
  gained: { label: 'Paying gained', help: 'Paid starts plus trial conversions in the period.' },
  cancellations: { label: 'Cancellations', help: 'Subscriptions cancelled in the period (cancelled_at), whether they end at once or at the period end.' },
  lost: { label: 'Subscriptions ended', help: 'Subscriptions that ended in the period (ended_at), trials included: cancelled or not paid.' },
  net: { label: 'Net change (paying)', help: 'Paying subscribers at the end of the period minus at the end of the day before it.' },
  activeAtEnd: { label: 'Paying at end', help: 'Paying subscribers (active or past due) at the end of the period\'s last day (23:59:59 UTC; today: now).' },
  churnPct: {
    label: 'Churn (%)',
    help: 'Paying subscriptions lost in the period (paying at its start + paying gained − paying at its end) ÷ everyone who paid in it (paying at its start + paying gained), in percent: 0 to 100.',
  },
} as const satisfies Record<string, FigureDefinition>;

export type FigureKey = keyof typeof FIGURES;

/** The help text of a figure by its report column key; undefined for columns that are not figures (period, names). */
export function figureHelp(key: string): string | undefined {
  return (FIGURES as Record<string, FigureDefinition>)[key]?.help;
}
