/**
 * Revenue: ltv_enhanced (lifetime value by cohort and plan) and payment_summary_report (payments by
 * period, plan or title), each in one currency at a time.
 */
import { addDays } from '../../../../common/reports';
import type { PaymentDayRow } from '../reads';
import { reportParamError } from '../params';
import { periodOf, periodsOf, ratio, round } from '../stats';
import { PERIOD, TOP_LIMIT, col, contentLinkFields, fig, percent, scopeOf, type ReportBody, type ReportContext } from './shared';

async function chosenCurrency(ctx: ReportContext): Promise<{ currency: string; currencies: string[] }> {
  const currencies = await ctx.reads.currenciesOf({ ...scopeOf(ctx), from: addDays(ctx.params.to, -365 * 3) });
  const asked = ctx.params.currency;
  // The previous-period comparison reuses the answer's currency even when the earlier range had none of it.
  if (asked && !currencies.includes(asked) && currencies.length > 0 && !ctx.previousPeriod) throw reportParamError(`currency: no payments in ${asked}; this site has ${currencies.join(', ')}`);
  return { currency: asked ?? currencies[0] ?? 'USD', currencies };
}

export async function ltvEnhanced(ctx: ReportContext): Promise<ReportBody> {
  const { currency, currencies } = await chosenCurrency(ctx);
  const [rows, names] = await Promise.all([
    ctx.reads.cohortRevenue(scopeOf(ctx), ctx.params.filter?.value ?? null, currency),
    ctx.reads.planNames(ctx.siteId),
  ]);
  const subscribers = rows.reduce((a, r) => a + r.subscribers, 0);
  const revenue = rows.reduce((a, r) => a + r.revenue, 0);
  return {
    currency, currencies,
    columns: [col('cohort', 'Cohort (first subscription)', 'text'), col('plan', 'Plan', 'text'), fig('subscribers', 'Subscribers billed in this currency', 'count', 'ltvSubscribers'),
      fig('revenue', 'Lifetime net revenue', 'money', 'cohortNetRevenue'), fig('ltv', 'Lifetime value per subscriber', 'money', 'ltv')],
    rows: rows.map((r) => ({ cohort: r.cohort, plan: names.get(r.key) ?? 'Removed plan', subscribers: r.subscribers, revenue: r.revenue, ltv: round(ratio(r.revenue, r.subscribers), 0) })),
    totals: { subscribers, revenue, ltv: round(ratio(revenue, subscribers), 0) },
  };
}

function paymentMeasures(list: PaymentDayRow[]) {
  const sum = (status: string, field: 'payments' | 'amount') => list.filter((r) => r.status === status).reduce((a, r) => a + r[field], 0);
  // A refunded payment is a charge that was taken and then given back. The generated worlds mark the
  // charge 'refunded' (no second row: taken and refunded on its day); a support refund (issue 29) is
  // its own row, status 'refund', on the day it was given, and its charge still counts as taken
  // ('succeeded') on its own day. So revenue (gross) counts every charge taken; refunds are both kinds;
  // net revenue is what was kept. Subtracting refunds from succeeded payments only took each refund
  // off twice (a refunded 193.18 charge showed -193.18 net).
  const taken = sum('succeeded', 'payments') + sum('refunded', 'payments');
  const failed = sum('failed', 'payments');
  const revenue = sum('succeeded', 'amount') + sum('refunded', 'amount');
  const refunds = sum('refunded', 'amount') + sum('refund', 'amount');
  return { payments: taken, revenue, refunds, netRevenue: revenue - refunds, failed, successPct: round(percent(ratio(taken, taken + failed)), 1) };
}

const PAYMENT_COLUMNS = [
  fig('payments', 'Successful payments', 'count'), fig('revenue', 'Revenue', 'money'), fig('refunds', 'Refunds', 'money'),
  fig('netRevenue', 'Net revenue', 'money'), fig('failed', 'Failed payments', 'count'), fig('successPct', 'Success rate (%)', 'percent'),
];

/** The payment totals of each currency apart (a figure is never summed across currencies). */
function totalsPerCurrency(rows: PaymentDayRow[]): Record<string, Record<string, number | null>> {
  const codes = [...new Set(rows.map((r) => r.currency))].sort();
  return Object.fromEntries(codes.map((code) => [code, paymentMeasures(rows.filter((r) => r.currency === code))]));
}

export async function paymentSummary(ctx: ReportContext): Promise<ReportBody> {
  const { currency, currencies } = await chosenCurrency(ctx);
  const plan = ctx.params.filter?.value ?? null;
  const by = ctx.params.by ?? 'period';
  if (by === 'plan') {
    const [rows, names] = await Promise.all([ctx.reads.paymentsBy(scopeOf(ctx), plan, 'plan'), ctx.reads.planNames(ctx.siteId)]);
    const mine = rows.filter((r) => r.currency === currency);
    const keys = [...new Set(mine.map((r) => r.key))];
    return {
      currency, currencies, currencyTotals: totalsPerCurrency(rows),
      columns: [col('key', 'Plan', 'text'), ...PAYMENT_COLUMNS],
      rows: keys.map((k) => ({ key: names.get(k) ?? 'No plan', ...paymentMeasures(mine.filter((r) => r.key === k)) })).sort((a, b) => b.netRevenue - a.netRevenue),
      totals: paymentMeasures(mine),
    };
  }
  const allDays = await ctx.reads.paymentsBy(scopeOf(ctx), plan, 'day');
  const days = allDays.filter((r) => r.currency === currency);
  if (by === 'content') return contentPayments(ctx, days, currency, currencies);
  const g = ctx.params.granularity;
  return {
    currency, currencies, currencyTotals: totalsPerCurrency(allDays),
    columns: [PERIOD, ...PAYMENT_COLUMNS],
    rows: days.length === 0 ? [] : periodsOf(ctx.params.from, ctx.params.to, g).map(({ period }) => ({ period, ...paymentMeasures(days.filter((r) => periodOf(r.day, g) === period)) })),
    totals: paymentMeasures(days),
  };
}

/** Each day's net revenue shared among the titles watched that day, by watch time (a payout model). */
async function contentPayments(ctx: ReportContext, days: PaymentDayRow[], currency: string, currencies: string[]): Promise<ReportBody> {
  const watch = await ctx.reads.watchByDayAndContent(scopeOf(ctx));
  const netByDay = new Map<string, number>();
  for (const r of days) {
    // Net revenue: what was kept (a refunded charge was taken and given back: it adds nothing).
    if (r.status === 'succeeded') netByDay.set(r.day, (netByDay.get(r.day) ?? 0) + r.amount);
    // A support refund (issue 29) takes its amount off the day it was given.
    if (r.status === 'refund') netByDay.set(r.day, (netByDay.get(r.day) ?? 0) - r.amount);
  }
  const watchedByDay = new Map<string, number>();
  for (const w of watch) watchedByDay.set(w.day, (watchedByDay.get(w.day) ?? 0) + w.watchedSeconds);
  const byContent = new Map<string, { revenue: number; watched: number; sessions: number }>();
  for (const w of watch) {
    const share = (netByDay.get(w.day) ?? 0) * (ratio(w.watchedSeconds, watchedByDay.get(w.day) ?? 0) ?? 0);
    const acc = byContent.get(w.key) ?? { revenue: 0, watched: 0, sessions: 0 };
    acc.revenue += share;
    acc.watched += w.watchedSeconds;
    acc.sessions += w.sessions;
    byContent.set(w.key, acc);
  }
  const top = [...byContent.entries()].sort(([, a], [, b]) => b.revenue - a.revenue).slice(0, TOP_LIMIT);
  const info = await ctx.reads.contentInfo(ctx.siteId, top.map(([k]) => k));
  const attributed = [...byContent.values()].reduce((a, r) => a + r.revenue, 0);
  return {
    currency, currencies,
    columns: [col('title', 'Title', 'text'), fig('sessions', 'Sessions', 'count'), fig('watchHours', 'Watch time (hours)', 'hours'),
      fig('revenue', 'Attributed net revenue', 'money', 'attributedRevenue'), fig('sharePct', 'Share of revenue (%)', 'percent')],
    rows: top.map(([k, r]) => ({
      title: info.get(k)?.title ?? 'Removed title', ...contentLinkFields(k, info), sessions: r.sessions, watchHours: round(r.watched / 3600, 1),
      revenue: Math.round(r.revenue), sharePct: round(percent(ratio(r.revenue, attributed)), 2),
    })),
    totals: { revenue: Math.round(attributed), netRevenue: [...netByDay.values()].reduce((a, b) => a + b, 0), titles: byContent.size },
  };
}
