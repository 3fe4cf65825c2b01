/**
 * Breakdown of the QoS figures by any dimension (issue 41): the "Break down by" choice and "Compare
 * with the previous period" (both in the URL: `by`, `compare`), the breakdown's chart (this period
 * and, with compare, the previous one beside it) and its sortable table with each row's share of the
 * sessions and a link to the Views behind the row (its value added to the filter set). The report
 * machine reads, sorts and pages; these only render and send.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { QOE_PAGE_MESSAGES as M } from '../../../common/messages/qoe';
import { QOE_DIMENSIONS, QOE_NOT_REPORTED, formatQoeFilters, isQoeDimension, qoeDimensionLabel, type QoeDimension } from '../../../common/qoe';
import type { ReportAnswer, ReportRow } from '../../../common/reports';
import { selectAnswers, selectTable, type ReportActorRef } from '../../../machines/report.machine';
import { SHARE_COLUMN } from '../../../machines/qoe-share';
import { BarChart } from './charts/Chart';
import type { AnalyticsPageDef, ChartDef } from './pages';
import { ReportStates } from './ReportView';
import { ReportTable } from './ReportTable';
import { VIEWS_PAGE, addedQoeValue, breakdownChoicesOf, qoeFiltersOf, requestsFor, sharedFilters, without, type AnalyticsSearch } from './search';
import { requestKey, useReport } from './useReport';
import { comparedLabel } from './compare';
import { COMPARE_MESSAGES as C } from '../../../common/messages/analytics-compare';
import * as css from './analytics.css';
import * as q from './qoe.css';

/** The value a breakdown row stands for (what a filter on it matches): its `value`, else its `key`. */
export function rowValueOf(row: ReportRow): string {
  const value = typeof row.value === 'string' ? row.value : row.key;
  return value === null || value === undefined ? '' : String(value);
}

/** How a breakdown row is named: its `label`, else its value ('' is "not reported"). */
export function rowLabelOf(row: ReportRow): string {
  const label = typeof row.label === 'string' && row.label !== '' ? row.label : rowValueOf(row);
  return label === '' ? QOE_NOT_REPORTED : label;
}

/** The Views address for a search: its range and network, its filters plus `dimension` = `value` when given. */
export function viewsSearchOf(search: AnalyticsSearch, row?: { dimension: QoeDimension; value: string }): AnalyticsSearch {
  const filters = qoeFiltersOf(search);
  const f = formatQoeFilters(row ? addedQoeValue(filters, row.dimension, row.value) : filters);
  return f ? { ...sharedFilters(search), f } : sharedFilters(search);
}

/** The dimension a QoS page's figures are broken down by: the URL's, else the page's own (none on QoS Overall). */
export function breakdownOf(def: Pick<AnalyticsPageDef, 'params'>, search: AnalyticsSearch): QoeDimension | undefined {
  if (search.by) return search.by;
  const own = def.params?.by;
  return isQoeDimension(own) ? own : undefined;
}

/** "Break down by" (the comparison is the filter bar's "Compare with"): it only changes the URL. */
export function QoeControls({ def, search }: { def: AnalyticsPageDef; search: AnalyticsSearch }) {
  const navigate = useNavigate();
  const go = (next: AnalyticsSearch) => void navigate({ to: def.path, search: next });
  const series = def.kind === 'series';
  const by = breakdownOf(def, search);
  const choices = breakdownChoicesOf(def);
  return (
    <form className={q.qoeBar} aria-label={M.breakDownBy} onSubmit={(e) => e.preventDefault()}>
      <label className={css.filterField}>{M.breakDownBy}
        <select className={css.control} value={by ?? ''} data-testid="break-down-by"
          onChange={(e) => go(isQoeDimension(e.target.value) ? { ...without(search, 'sort', 'dir'), by: e.target.value } : without(search, 'by', 'sort', 'dir'))}>
          {series && <option value="">{M.noBreakdown}</option>}
          {QOE_DIMENSIONS.filter((d) => choices.includes(d.key)).map((d) => <option key={d.key} value={d.key}>{d.label}</option>)}
        </select>
      </label>
    </form>
  );
}

/** The link to the sessions behind the page's figures (its totals). */
export function ViewsOfTotals({ search }: { search: AnalyticsSearch }) {
  return <p style={{ margin: '0 0 0.5rem' }}><Link to={VIEWS_PAGE} search={viewsSearchOf(search)} data-testid="views-of-totals">{M.allViews}</Link></p>;
}

/** The breakdown charts: the page's own (bars per row), else startup and rebuffer percentiles. */
const BREAKDOWN_CHARTS: ChartDef[] = [
  { title: 'Startup time p50 and p95 (ms)', type: 'bar', y: ['startupP50Ms', 'startupP95Ms'] },
  { title: 'Rebuffer ratio p50 and p95 (%)', type: 'bar', y: ['rebufferP50Pct', 'rebufferP95Pct'] },
];

/** Chart series of `rows`: each charted column, and with `previous` the same column of the compared period (`compared`) by row value. */
export function breakdownSeries(
  chart: ChartDef, answer: ReportAnswer, rows: ReportRow[], previous?: ReportAnswer, compared: Pick<AnalyticsSearch, 'compare' | 'cfrom' | 'cto'> = { compare: 'previous' },
): { label: string; values: (number | null)[] }[] {
  const label = (key: string) => answer.columns.find((c) => c.key === key)?.label ?? key;
  const keys = chart.y.filter((k) => answer.columns.some((c) => c.key === k));
  const value = (row: ReportRow | undefined, key: string) => { const v = row?.[key]; return typeof v === 'number' ? v : null; };
  const current = keys.map((k) => ({ label: previous ? C.current(label(k)) : label(k), values: rows.map((r) => value(r, k)) }));
  if (!previous) return current;
  const before = new Map(previous.rows.map((r) => [rowValueOf(r), r]));
  return [...current, ...keys.map((k) => ({ label: comparedLabel(label(k), compared), values: rows.map((r) => value(before.get(rowValueOf(r)), k)) }))];
}

/** The breakdown's charts and table (share of sessions, Views per row) from a report machine by `dimension`. */
export function BreakdownBody({ actor, search, dimension, charts = BREAKDOWN_CHARTS, caption }: {
  actor: ReportActorRef; search: AnalyticsSearch; dimension: QoeDimension; charts?: ChartDef[]; caption: string;
}) {
  const answers = useSelector(actor, selectAnswers);
  const table = useSelector(actor, selectTable);
  const answer = answers?.[0];
  if (!answer) return null;
  const previous = answers?.[1];
  const chartRows = table.all;
  return (
    <>
      <div className={css.charts}>
        {charts.map((chart) => {
          const series = breakdownSeries(chart, answer, chartRows, previous, search);
          if (series.length === 0) return null;
          return (
            <figure key={chart.title} className={css.chartCard} style={{ margin: 0 }}>
              <figcaption className={css.chartTitle}>{chart.title}</figcaption>
              <BarChart labels={chartRows.map(rowLabelOf)} series={series} />
            </figure>
          );
        })}
      </div>
      <ReportTable
        caption={caption} answer={answer} rows={table.all} sort={table.sort}
        onSort={(key, dir) => actor.send({ type: 'table.sort', key, dir })}
        onDownload={() => actor.send({ type: 'table.download', filename: `qos-by-${dimension}-${answer.params.from}-${answer.params.to}.csv` })}
        paging={{ ...table, shown: table.rows, onPage: (page) => actor.send({ type: 'table.page', page }) }}
        rowAction={{
          header: M.views,
          render: (row) => (
            <Link to={VIEWS_PAGE} search={viewsSearchOf(search, { dimension, value: rowValueOf(row) })} aria-label={M.viewsOf(rowLabelOf(row))}>{M.views}</Link>
          ),
        }}
      />
      {/* The server's share column names its figure (defined in the legend); one added here is defined here. */}
      {answer.columns.some((c) => c.key === SHARE_COLUMN && !c.figure) && <p className={css.status}>{M.share}: {M.shareHelp}</p>}
    </>
  );
}

/** QoS Overall's breakdown under its periods: its own report machine for the QoS report by `by`. */
export function BreakdownSection({ def, search, today }: { def: AnalyticsPageDef; search: AnalyticsSearch; today: string }) {
  const by = search.by;
  if (!by) return null;
  const requests = requestsFor({ ...def, params: { by } }, search, today);
  return <BreakdownSectionBody key={requestKey(requests)} def={def} search={search} dimension={by} today={today} />;
}

function BreakdownSectionBody({ def, search, dimension, today }: { def: AnalyticsPageDef; search: AnalyticsSearch; dimension: QoeDimension; today: string }) {
  const requests = requestsFor({ ...def, params: { by: dimension } }, search, today);
  const actor = useReport(requests, false, { key: 'sessions', dir: 'desc' }, 'sessions');
  const title = M.breakdownTitle(qoeDimensionLabel(dimension));
  return (
    <section className={q.section} aria-labelledby="qoe-breakdown-title" data-testid="qoe-breakdown">
      <h2 id="qoe-breakdown-title" className={q.sectionTitle}>{title}</h2>
      <ReportStates actor={actor} emptyReason={M.viewsEmpty} charts={2}>
        <BreakdownBody actor={actor} search={search} dimension={dimension} caption={`${def.title} ${title.toLowerCase()}`} />
      </ReportStates>
    </section>
  );
}
