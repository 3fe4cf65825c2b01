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

// The Users filter's states live in their own small module: the router's search validator needs them on
// the sign-in page's first load, the figure definitions below are not (issue 26).
import { SUBSCRIPTION_STATES, isSubscriptionState, type SubscriptionState } from './subscription-states';
import { SUBSCRIPTION_STATE_WORDS as WORDS } from './status-words';
import { valueOf } from './one-of';

export { SUBSCRIPTION_STATES, isSubscriptionState, type SubscriptionState };

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
  trialing: { label: WORDS.trialing, statuses: ['trialing'], help: 'A subscription in its free trial (also when it is set to end at the end of the trial).' },
  paying: {
    label: WORDS.paying, statuses: ['active', 'past_due'],
    help: 'A subscription active or past due: the trial (if any) is over and it has not ended. The same subscriptions as the Dashboard\'s "Paying subscribers".',
  },
  past_due: { label: WORDS.past_due, statuses: ['past_due'], help: 'A paying subscription whose last charge failed; it ends unless a retry succeeds.' },
  cancelling: {
    label: WORDS.cancelling, statuses: ['trialing', 'active', 'past_due'], cancelAtPeriodEnd: true,
    help: 'A live subscription (in trial, active or past due) set to end at the end of its period.',
  },
  cancelled: { label: WORDS.cancelled, statuses: ['cancelled'], help: 'A subscription that ended because it was cancelled.' },
  expired: { label: WORDS.expired, statuses: ['expired'], help: 'A subscription that ended because it was not paid.' },
};

export interface FigureDefinition {
  label: string;
  /** What is counted, from which rows, at which moment: shown as help text wherever the figure is. */
  help: string;
}

/**
 * The figures of the Dashboard's tiles and of the audience reports (user_base, change_in_user_base),
 * keyed by the report column key. Days and months are the site's, in its time zone (the zone every
 * page states); "the end of the day" is 23:59:59 there, and for today the moment of the last refresh (start, and every support change that ends a subscription).
 */
export const FIGURES = {
  subscribers: {
    label: 'Paying subscribers',
    help: 'Subscriptions active or past due (trial over, not ended) at the end of the range\'s last day (23:59:59 in the site\'s time zone); for a range ending today, now. The same subscriptions Users lists under Subscription: Paying (click the number).',
  },
  trialing: {
    label: 'In trial',
    help: 'Subscriptions in their free trial (started, trial not over, not ended) at the end of the day (23:59:59 in the site\'s time zone; today: now).',
  },
  signups: { label: 'Sign-ups', help: 'Viewer accounts created in the period (by the day they were created, in the site\'s time zone).' },
  viewers: { label: 'Viewers (daily average)', help: 'Distinct viewers with at least one playback session each day, averaged over the days of the period.' },
  sessions: { label: 'Sessions', help: 'Playback sessions started in the period (by the day they started, in the site\'s time zone).' },
  watchHours: { label: 'Watch time (hours)', help: 'Seconds watched in the playback sessions started in the period, in hours.' },
  netRevenue: { label: 'Net revenue', help: 'Revenue (every charge taken in the period, including those later refunded) minus refunds: the charges kept, in the currency shown (never summed across currencies).' },
  startupP95Ms: { label: 'Startup time p95 (ms)', help: '95th percentile of the time to first frame of the playback sessions started in the period.' },
  rebufferP95Pct: { label: 'Rebuffer ratio p95 (%)', help: '95th percentile of the share of each session spent rebuffering (rebuffer ÷ (watched + rebuffer) seconds).' },
  trialsStarted: { label: 'Trials started', help: 'Subscriptions started with a free trial in the period.' },
  paidStarted: { label: 'Paid starts', help: 'Subscriptions started without a trial (paying from the first day) in the period.' },
  conversions: { label: 'Trial conversions', help: 'Trials that ended in the period with the subscription still running (now paying).' },
  gained: { label: 'Paying gained', help: 'Paid starts plus trial conversions in the period.' },
  cancellations: { label: 'Cancellations', help: 'Subscriptions cancelled in the period (by the day of the cancellation), whether they end at once or at the period end.' },
  lost: { label: 'Subscriptions ended', help: 'Subscriptions that ended in the period (by the day they ended), trials included: cancelled or not paid.' },
  net: { label: 'Net change (paying)', help: 'Paying subscribers at the end of the period minus at the end of the day before it.' },
  activeAtEnd: { label: 'Paying at end', help: 'Paying subscribers (active or past due) at the end of the period\'s last day (23:59:59 in the site\'s time zone; today: now).' },
  churnPct: {
    label: 'Churn (%)',
    help: 'Paying subscriptions lost in the period (paying at its start + paying gained − paying at its end) ÷ everyone who paid in it (paying at its start + paying gained), in percent: 0 to 100.',
  },
  // Playback (daily playback rollups; sessions count on the site's day they started).
  avgMinutes: { label: 'Minutes per session', help: 'Seconds watched ÷ playback sessions started in the period, in minutes.' },
  titles: { label: 'Titles watched', help: 'Distinct titles with at least one playback session started in the period.' },
  watchThroughPct: { label: 'Watch-through (%)', help: 'Seconds watched ÷ (sessions × the title\'s duration) for the sessions started in the period, in percent.' },
  startupAvgMs: { label: 'Startup avg (ms)', help: 'Mean time to first frame of the playback sessions started in the period.' },
  startupP50Ms: { label: 'Startup p50 (ms)', help: 'Median time to first frame of the playback sessions started in the period (from fixed buckets, interpolated).' },
  rebufferPct: { label: 'Rebuffer ratio (%)', help: 'Seconds spent rebuffering ÷ (seconds watched + seconds rebuffering), over all sessions started in the period.' },
  rebufferP50Pct: { label: 'Rebuffer p50 (%)', help: 'Median of the share of each session spent rebuffering (rebuffer ÷ (watched + rebuffer) seconds).' },
  errorPct: { label: 'Error sessions (%)', help: 'Playback sessions that reported an error ÷ sessions started in the period, in percent.' },
  bitrateKbps: { label: 'Bitrate avg (kbps)', help: 'Mean of the sessions\' average bitrate, over the sessions started in the period that reported one.' },
  startupBucketPct: { label: 'Startup bucket (%)', help: 'Sessions whose time to first frame falls in this bucket ÷ sessions started in the period, in percent; the buckets of each period sum to 100.' },
  // Real time (open sessions, not rollups).
  streamsMinute: { label: 'Streams', help: 'Playback sessions active during that minute (started before its end, last event at or after its start).' },
  viewersMinute: { label: 'Viewers', help: 'Distinct viewers of the sessions active during that minute.' },
  streamsWindow: { label: 'Streams (30 min)', help: 'Playback sessions with an event in the last 30 minutes.' },
  viewersWindow: { label: 'Viewers (30 min)', help: 'Distinct viewers of the sessions with an event in the last 30 minutes.' },
  peakStreams: { label: 'Peak streams (30 min)', help: 'The most streams of any one minute in the last 30 minutes.' },
  // Cohorts (subscriptions; a viewer's cohort is the site's month of their first subscription).
  cohortSubscribers: { label: 'Subscribers (cohort)', help: 'Viewers whose first subscription started in the cohort\'s month (in the site\'s time zone).' },
  retentionPct: { label: 'Month n (%)', help: 'Viewers of the cohort with a subscription running in its n-th month after the cohort month ÷ the cohort\'s size, in percent.' },
  cohortNetRevenue: { label: 'Lifetime net revenue', help: 'Charges kept (succeeded; a refunded charge adds nothing) from the cohort\'s viewers since their first subscription, in the currency shown.' },
  cohorts: { label: 'Cohorts', help: 'Months (in the site\'s time zone) in the range in which at least one viewer started a first subscription.' },
  month1RetentionAvg: { label: 'Month-1 retention (%)', help: 'The mean over the cohorts that have reached their first month of: viewers with a subscription running in month 1 ÷ the cohort\'s size, in percent.' },
  ltvSubscribers: { label: 'Subscribers billed in this currency', help: 'Viewers of the cohort with a subscription or a charge in the currency shown by the end of the range; a viewer billed in two currencies counts in each.' },
  ltv: { label: 'Lifetime value per subscriber', help: 'The cohort\'s net revenue in the currency shown ÷ its subscribers billed in that currency.' },
  // Payments (daily payment rollups, the site's days, one currency at a time).
  payments: { label: 'Successful payments', help: 'Charges taken in the period (succeeded, including those later refunded).' },
  revenue: { label: 'Revenue', help: 'The amount of every charge taken in the period, including those later refunded, in the currency shown.' },
  refunds: { label: 'Refunds', help: 'The amounts given back in the period: a support refund (full or part) on the day it was given, a charge marked refunded without one on the charge\'s day; in the currency shown.' },
  failed: { label: 'Failed payments', help: 'Charges attempted in the period that failed.' },
  successPct: { label: 'Success rate (%)', help: 'Charges taken ÷ (charges taken + failed charges) in the period, in percent.' },
  attributedRevenue: { label: 'Attributed net revenue', help: 'Each day\'s net revenue split across titles by their share of that day\'s watch time, summed over the period, in the currency shown.' },
  // QoE over raw sessions (issue 41; common/qoe.ts QOE_METRICS).
  qoeViewers: { label: 'Viewers', help: 'Distinct viewers with at least one playback session started in the range (each viewer once, however many days).' },
  sessionSharePct: { label: 'Share of sessions (%)', help: 'Playback sessions with this value ÷ all playback sessions under the same filters and range, in percent.' },
  sharePct: { label: 'Share of revenue (%)', help: 'A title\'s attributed net revenue ÷ the net revenue attributed to every title, in percent.' },
} as const satisfies Record<string, FigureDefinition>;

export type FigureKey = keyof typeof FIGURES;

/** A figure's definition by an id that may name none. */
function figureOf(figure: string): FigureDefinition | undefined {
  return valueOf<FigureDefinition>(FIGURES, figure);
}

/** The help text of a figure by its id (a Dashboard tile's key, a report column's `figure`); undefined for what is not a figure. */
export function figureHelp(figure: string | undefined): string | undefined {
  return figure === undefined ? undefined : figureOf(figure)?.help;
}

/** The name of a figure by its id (the legend's line for several columns of one figure). */
export function figureLabel(figure: string): string | undefined {
  return figureOf(figure)?.label;
}

/** Whether a figure id names a definition (the reports test checks every figure column of every report). */
export function isFigureKey(value: unknown): value is FigureKey {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(FIGURES, value);
}
