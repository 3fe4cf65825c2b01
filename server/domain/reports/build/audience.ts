/**
 * Audience: user_base (sign-ups, viewers, paying and trialing subscribers), change_in_user_base
 * (subscriptions gained and lost, churn) and cohort_analysis (retention by month of first subscription).
 */
import { addDays, daysBetween, type ReportRow } from '../../../../common/reports';
import { periodOf, periodsOf, ratio, round } from '../stats';
import { PERIOD, col, fig, percent, scopeOf, type ReportBody, type ReportContext } from './shared';

export async function userBase(ctx: ReportContext): Promise<ReportBody> {
  const scope = scopeOf(ctx);
  // Country: sign-ups and viewers of that country (subscriptions have none). Plan: viewers on that
  // plan and its subscriptions; sign-ups have no plan. (Issue 27: the plan id was read as a country.)
  const country = ctx.params.filter?.name === 'country' ? ctx.params.filter.value : null;
  const plan = ctx.params.filter?.name === 'plan' ? ctx.params.filter.value : null;
  const [signups, playback, subs] = await Promise.all([
    plan ? Promise.resolve([]) : ctx.reads.signupsByDay(scope, country),
    ctx.reads.playbackByDay(scope, country ? 'country' : plan ? 'plan' : 'all', country ?? plan ?? ''),
    country ? Promise.resolve([]) : ctx.reads.subscriptionsByDay(scope, plan),
  ]);
  const periods = periodsOf(ctx.params.from, ctx.params.to, ctx.params.granularity);
  const g = ctx.params.granularity;
  const signupBy = new Map<string, number>();
  for (const r of signups) signupBy.set(periodOf(r.day, g), (signupBy.get(periodOf(r.day, g)) ?? 0) + r.signups);
  const viewerBy = new Map<string, number>();
  for (const r of playback) viewerBy.set(periodOf(r.day, g), (viewerBy.get(periodOf(r.day, g)) ?? 0) + r.viewers);
  const subsByDay = new Map(subs.map((r) => [r.day, r]));
  const lastDayOf = (period: string) => {
    let last = ctx.params.from;
    for (let day = ctx.params.from; day <= ctx.params.to; day = addDays(day, 1)) if (periodOf(day, g) === period) last = day;
    return last;
  };
  const columns = [PERIOD, ...(plan ? [] : [fig('signups', 'Sign-ups', 'count')]), fig('viewers', 'Viewers (daily average)', 'count')];
  if (!country) columns.push(fig('subscribers', 'Paying subscribers (end)', 'count', 'subscribers'), fig('trialing', 'In trial (end)', 'count'));
  const rows: ReportRow[] = periods.map(({ period, days }) => {
    const end = subsByDay.get(lastDayOf(period));
    const row: ReportRow = { period, ...(!plan && { signups: signupBy.get(period) ?? 0 }), viewers: round((viewerBy.get(period) ?? 0) / days, 1) };
    if (!country) Object.assign(row, { subscribers: end?.activeAtEnd ?? 0, trialing: end?.trialingAtEnd ?? 0 });
    return row;
  });
  const last = subsByDay.get(ctx.params.to);
  const totals: Record<string, number | null> = {
    ...(!plan && { signups: signups.reduce((a, r) => a + r.signups, 0) }),
    viewers: round(playback.reduce((a, r) => a + r.viewers, 0) / daysBetween(ctx.params.from, ctx.params.to), 1),
  };
  if (!country) Object.assign(totals, { subscribers: last?.activeAtEnd ?? 0, trialing: last?.trialingAtEnd ?? 0 });
  const anything = signups.length + playback.length + subs.length > 0;
  return { columns, rows: anything ? rows : [], totals };
}

export async function changeInUserBase(ctx: ReportContext): Promise<ReportBody> {
  const scope = { ...scopeOf(ctx), from: addDays(ctx.params.from, -1) };
  const days = await ctx.reads.subscriptionsByDay(scope, ctx.params.filter?.value ?? null);
  const byDay = new Map(days.map((d) => [d.day, d]));
  const g = ctx.params.granularity;
  const startActive = (day: string) => byDay.get(addDays(day, -1))?.activeAtEnd ?? 0;
  const sums = new Map<string, { trials: number; paid: number; conv: number; canc: number; expi: number; start: number; end: number }>();
  for (let day = ctx.params.from; day <= ctx.params.to; day = addDays(day, 1)) {
    const period = periodOf(day, g);
    const d = byDay.get(day);
    const s = sums.get(period) ?? { trials: 0, paid: 0, conv: 0, canc: 0, expi: 0, start: startActive(day), end: 0 };
    s.trials += d?.trialsStarted ?? 0;
    s.paid += d?.paidStarted ?? 0;
    s.conv += d?.conversions ?? 0;
    s.canc += d?.cancellations ?? 0;
    s.expi += d?.expirations ?? 0;
    s.end = d?.activeAtEnd ?? 0;
    sums.set(period, s);
  }
  const measure = (s: { trials: number; paid: number; conv: number; canc: number; expi: number; start: number; end: number }) => ({
    trialsStarted: s.trials, paidStarted: s.paid, conversions: s.conv, cancellations: s.canc, expirations: s.expi,
    gained: s.paid + s.conv, lost: s.expi, net: s.end - s.start, activeAtEnd: s.end,
    // Churn: paying subscriptions lost (paying at the start + gained - paying at the end) over everyone
    // who paid in the period (paying at the start + gained), so it stays within 0-100 % (over paying at
    // the start alone, a subscriber gained and lost in the period made it 200 %: found by the
    // reconciliation suite). Endings also count trials that never paid, which are not churn.
    churnPct: round(percent(ratio(s.start + s.paid + s.conv - s.end, s.start + s.paid + s.conv)), 2),
  });
  const all = [...sums.values()];
  const total = all.reduce((a, s) => ({
    trials: a.trials + s.trials, paid: a.paid + s.paid, conv: a.conv + s.conv, canc: a.canc + s.canc, expi: a.expi + s.expi, start: a.start, end: s.end,
  }), { trials: 0, paid: 0, conv: 0, canc: 0, expi: 0, start: startActive(ctx.params.from), end: 0 });
  const anything = days.some((d) => d.day >= ctx.params.from);
  return {
    columns: [PERIOD, fig('trialsStarted', 'Trials started', 'count'), fig('paidStarted', 'Paid starts', 'count'),
      fig('conversions', 'Trial conversions', 'count'), fig('gained', 'Paying gained', 'count'),
      fig('cancellations', 'Cancellations', 'count'), fig('lost', 'Subscriptions ended', 'count'),
      fig('net', 'Net change (paying)', 'count'), fig('activeAtEnd', 'Paying at end', 'count'), fig('churnPct', 'Churn (%)', 'percent')],
    rows: anything ? [...sums.entries()].map(([period, s]) => ({ period, ...measure(s) })) : [],
    totals: measure(total),
  };
}

const COHORT_MONTHS = 12;

export async function cohortAnalysis(ctx: ReportContext): Promise<ReportBody> {
  const cells = await ctx.reads.cohortRetention(scopeOf(ctx), ctx.params.filter?.value ?? null);
  const byCohort = new Map<string, number[]>();
  for (const c of cells) {
    const list = byCohort.get(c.cohort) ?? [];
    list[c.offset] = (list[c.offset] ?? 0) + c.value;
    byCohort.set(c.cohort, list);
  }
  const width = Math.min(COHORT_MONTHS, Math.max(0, ...[...byCohort.values()].map((l) => l.length)));
  const columns = [col('cohort', 'Cohort (first subscription)', 'text'), fig('subscribers', 'Subscribers', 'count', 'cohortSubscribers'),
    ...Array.from({ length: width }, (_, i) => fig(`m${i}`, `Month ${i} (%)`, 'percent', 'retentionPct'))];
  const rows = [...byCohort.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([cohort, list]) => {
    const size = list[0] ?? 0;
    const row: ReportRow = { cohort, subscribers: size };
    for (let i = 0; i < width; i++) row[`m${i}`] = i < list.length ? round(percent(ratio(list[i] ?? 0, size)), 1) : null;
    return row;
  });
  const withMonth1 = rows.filter((r) => typeof r.m1 === 'number');
  return {
    columns, rows,
    totals: {
      cohorts: rows.length, subscribers: rows.reduce((a, r) => a + (r.subscribers as number), 0),
      m1: withMonth1.length ? round(withMonth1.reduce((a, r) => a + (r.m1 as number), 0) / withMonth1.length, 1) : null,
    },
  };
}
