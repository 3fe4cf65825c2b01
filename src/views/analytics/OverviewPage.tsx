/**
 * /analytics: the headline numbers of the range with their change against the previous period of
 * the same length, a small trend chart each, and links to the detail pages. One report machine reads
 * the four reports the headlines come from (compare=previous).
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectNetworks } from '../../../machines/network.machine';
import { selectAnswers, selectPressedPreset, selectRangeNote, selectView, type ReportActorRef, type ReportRequest } from '../../../machines/report.machine';
import { AREAS } from '../../../common/constants';
import { figureHelp } from '../../../common/figures';
import { isoDay, type ReportName } from '../../../common/reports';
import { useAppActor } from '../../app-actor';
import { ANALYTICS_GROUPS } from '../../config';
import { LineChart } from './charts/Chart';
import { FilterBar } from './FilterBar';
import { OpenIncidentsPanel } from './alerts/OpenIncidents';
import { changeOf, formatCell, formatPeriod } from './format';
import { useReachesArea } from '../shared/use-reaches-area';
import { ReportStates } from './ReportView';
import { rangeOf, requestFor, sharedFilters, without, type AnalyticsSearch } from './search';
import { requestKey, useReport, useSiteToday } from './useReport';
import * as css from './analytics.css';

interface Headline { report: ReportName; key: string; label: string; link: string }

/** The overview's tiles: which report total each shows and where it leads. */
export const HEADLINES: readonly Headline[] = [
  { report: 'user_base', key: 'subscribers', label: 'Paying subscribers', link: '/analytics/audience-overview' },
  { report: 'user_base', key: 'signups', label: 'Sign-ups', link: '/analytics/audience-acquisition' },
  { report: 'user_behavior', key: 'sessions', label: 'Sessions', link: '/analytics/behaviour-video-engagement' },
  { report: 'user_behavior', key: 'watchHours', label: 'Watch time (hours)', link: '/analytics/content-overview' },
  { report: 'payment_summary_report', key: 'netRevenue', label: 'Net revenue', link: '/analytics/payments' },
  { report: 'qos', key: 'startupP95Ms', label: 'Startup time p95 (ms)', link: '/analytics/qos-overall' },
  { report: 'qos', key: 'rebufferP95Pct', label: 'Rebuffer ratio p95 (%)', link: '/analytics/qos-overall' },
];
const REPORTS: ReportName[] = ['user_base', 'user_behavior', 'payment_summary_report', 'qos'];

export function overviewRequests(search: AnalyticsSearch, today?: string): ReportRequest[] {
  return REPORTS.map((report) => {
    // The overview's figures are the whole site's: a QoS filter set in the address (issue 41) is not theirs.
    const request = requestFor({ report, filters: [], params: report === 'qos' || report === 'payment_summary_report' ? { by: 'period' } : {} }, without(search, 'f', 'by'), today);
    return { report, params: { ...request.params, compare: 'previous' } };
  });
}

/**
 * Where "Paying subscribers" leads (issue 27): Users listing the subscribers the tile counts (state
 * paying, the chosen network), when the range ends today (both are "now") and the role reaches Users.
 */
export function payingListSearch(search: AnalyticsSearch, today: string = isoDay(new Date())): { state: 'paying'; network?: string } | null {
  if (rangeOf(search, today).to !== today) return null;
  return search.network ? { state: 'paying', network: search.network } : { state: 'paying' };
}

function Tiles({ actor, search }: { actor: ReportActorRef; search: AnalyticsSearch }) {
  const answers = useSelector(actor, selectAnswers) ?? [];
  const reachesUsers = useReachesArea(AREAS.customerSupport);
  const today = useSiteToday();
  const usersSearch = reachesUsers ? payingListSearch(search, today) : null;
  return (
    <div className={css.cards}>
      {HEADLINES.map((h) => {
        const answer = answers[REPORTS.indexOf(h.report)];
        if (!answer) return null;
        const column = answer.columns.find((c) => c.key === h.key) ?? { key: h.key, label: h.label, kind: 'money' as const };
        const value = answer.totals[h.key] ?? null;
        const change = changeOf(value, answer.previousTotals?.[h.key]);
        const unit = column.kind === 'money' ? 100 : 1;
        return (
          <section key={h.key} className={css.chartCard} aria-label={h.label} aria-describedby={`headline-${h.key}-help`}>
            <div className={css.tileLabel}>{h.label}</div>
            <div className={css.tileValue} data-testid={`headline-${h.key}`}>
              {h.key === 'subscribers' && usersSearch
                ? <Link to="/users" search={usersSearch} title="List these subscribers in Users">{formatCell(value, column.kind, answer.currency)}</Link>
                : formatCell(value, column.kind, answer.currency)}
            </div>
            <p id={`headline-${h.key}-help`} className={css.tileChange} style={{ margin: 0 }}>{figureHelp(h.key)}</p>
            {column.kind === 'money' && answer.currencyTotals && Object.keys(answer.currencyTotals).length > 1 && (
              <ul aria-label={`${h.label} per currency`} data-testid={`headline-${h.key}-currencies`} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                {Object.entries(answer.currencyTotals).map(([code, totals]) => (
                  <li key={code}>{code}: {formatCell(totals[h.key] ?? null, 'money', code)}</li>
                ))}
              </ul>
            )}
            <div className={css.tileChange}>
              {change === null ? 'No previous period to compare' : `${change >= 0 ? '+' : '−'}${Math.abs(change).toFixed(1)} % vs previous period`}
            </div>
            {answer.rows.length > 1 && (
              <LineChart height={90} labels={answer.rows.map((r) => formatPeriod(String(r.period)))}
                series={[{ label: h.label, values: answer.rows.map((r) => { const v = r[h.key]; return typeof v === 'number' ? v / unit : null; }) }]} />
            )}
            <Link to={h.link} search={sharedFilters(search)}>Details</Link>
          </section>
        );
      })}
    </div>
  );
}

export function OverviewPage({ search }: { search: AnalyticsSearch }) {
  const today = useSiteToday();
  return <OverviewBody key={requestKey(overviewRequests(search, today))} search={search} today={today} />;
}

function OverviewBody({ search, today }: { search: AnalyticsSearch; today: string }) {
  const actor = useReport(overviewRequests(search, today), false);
  const networks = useSelector(useAppActor('network'), selectNetworks);
  const { from, to } = rangeOf(search, today);
  const reversed = useSelector(actor, selectView) === 'reversed';
  const rangeNote = useSelector(actor, selectRangeNote);
  const pressedPreset = useSelector(actor, (snapshot) => selectPressedPreset(snapshot, today));
  return (
    <main data-testid="analytics-page">
      <h1 className={css.title}>Dashboard</h1>
      <p className={css.summary}>Headline numbers from {from} to {to}, each against the {`previous period of the same length`}.</p>
      {/* Issue 41: the open incidents (./alerts/OpenIncidents.tsx). */}
      <OpenIncidentsPanel />
      <FilterBar path="/analytics" search={search} filters={[]} networks={networks} realtime={false} reversed={reversed} rangeNote={rangeNote} pressedPreset={pressedPreset} />
      <ReportStates actor={actor} emptyReason={`No viewers, subscriptions or payments between ${from} and ${to}.`} charts={4}>
        <Tiles actor={actor} search={search} />
      </ReportStates>
      <nav aria-label="Detail pages" style={{ marginTop: '1.5rem' }}>
        <h2 className={css.chartTitle}>Detail pages</h2>
        <div className={css.cards}>
          {ANALYTICS_GROUPS.slice(1).map((g) => (
            <div key={g.group}>
              <strong>{g.group}</strong>
              <ul>{g.pages.map((p) => <li key={p.path}><Link to={p.path}>{p.title}</Link></li>)}</ul>
            </div>
          ))}
        </div>
      </nav>
    </main>
  );
}
