/**
 * Every Dashboard 360 detail page, driven by its definition (pages.ts): title, filter bar, headline
 * totals, charts and the sortable table of the same numbers. Kinds: `series` (line charts over
 * periods), `breakdown` (bars per key) and `matrix` (the cohort retention triangle as a heat map).
 */
import { useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { CSSProperties } from 'react';
import { selectNetworks } from '../../../machines/network.machine';
import {
  selectAnswers, selectCurrencies, selectFilterOptions, selectOptionsStatus, selectPressedPreset, selectRangeNote, selectTable, selectView,
  type ReportActorRef, type SortState,
} from '../../../machines/report.machine';
import { AREAS } from '../../../common/constants';
import type { ReportAnswer, ReportColumn, ReportRow } from '../../../common/reports';
import { useAppActor } from '../../app-actor';
import { heatColours } from './heat';
import { BarChart, LineChart } from './charts/Chart';
import { FilterBar } from './FilterBar';
import { formatCell, formatPeriod } from './format';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import type { AnalyticsPageDef } from './pages';
import { ReportStates, LiveStatus } from './ReportView';
import { ReportTable } from './ReportTable';
import { useReachesArea } from '../shared/use-reaches-area';
import {
  activeFilter, breakdownChoicesOf, canCompare, hasSessionFilters, isQoePage, qoeFiltersOf, qoeQueryOf, rangeOf, requestsFor, withLegacyFiltersFolded, type AnalyticsSearch,
} from './search';
import { QoeFilters } from './QoeFilters';
import { BreakdownBody, BreakdownSection, QoeControls, ViewsOfTotals, breakdownOf } from './QoeBreakdown';
import { COMPARE_MESSAGES as C } from '../../../common/messages/analytics-compare';
import { comparedLabel, comparedWhat, tileChange } from './compare';
import { requestKey, useReport, useSiteToday } from './useReport';
import * as css from './analytics.css';
import { figureHelp } from '../../../common/figures';
import { SaveViewControl } from './saved/SaveViewControl';

/** Why a page has nothing to show; `options` names the picked plan or title; `today` is the site's. */
export function emptyReasonFor(def: AnalyticsPageDef, search: AnalyticsSearch, networkName: string | undefined, options?: ReportAnswer['options'], today?: string): string {
  const where = networkName ? `on ${networkName}` : 'on any network';
  const picked = (f: 'plan' | 'content') => options?.[f]?.find((o) => o.value === search[f])?.label;
  const active = activeFilter(def.filters, search);
  const filter = active ? {
    device: ` for ${search.device} devices`,
    country: ` for viewers in ${search.country}`,
    plan: ` for the plan ${picked('plan') ?? 'chosen'}`,
    content: ` for ${picked('content') ?? 'the chosen title'}`,
  }[active] : '';
  if (def.realtime) return `Nobody has watched anything ${where}${filter} in the last 30 minutes.`;
  const { from, to } = rangeOf(search, today);
  return `No data for ${def.title} between ${from} and ${to} ${where}${filter}. Try a longer range or fewer filters.`;
}

/** `compared`: the compared period's answer and its name (issue 41): each tile says its change against it. */
export function HeadlineTiles({ answer, keys, compared }: { answer: ReportAnswer; keys: string[]; compared?: { answer: ReportAnswer; what: string } }) {
  const columns = new Map(answer.columns.map((c) => [c.key, c]));
  return (
    <dl className={css.tiles}>
      {keys.filter((k) => k in answer.totals).map((key) => {
        const column = columns.get(key) ?? TOTAL_COLUMNS[key] ?? { key, label: key, kind: 'count' as const };
        // A tile that is a table column is defined in the legend under the table; the others say it here.
        const help = figureHelp(column.figure);
        return (
          <div key={key} className={css.tile} title={help}>
            <dt className={css.tileLabel}>{column.label}</dt>
            <dd className={css.tileValue} style={{ margin: 0 }} data-testid={`total-${key}`}>{formatCell(answer.totals[key] ?? null, column.kind, answer.currency)}</dd>
            {compared && (
              <dd className={css.tileChange} style={{ margin: 0 }} data-testid={`total-${key}-change`}>
                {tileChange(answer.totals[key], compared.answer.totals[key], column.kind, compared.what)}
              </dd>
            )}
            {!columns.has(key) && help && <dd className={css.tileChange} style={{ margin: 0 }} data-testid={`total-${key}-help`}>{help}</dd>}
          </div>
        );
      })}
    </dl>
  );
}

/** Totals that are not table columns: their label and their figure (common/figures.ts). */
const TOTAL_COLUMNS: Record<string, ReportColumn> = {
  peakStreams: { key: 'peakStreams', label: 'Peak streams (30 min)', kind: 'count', figure: 'peakStreams' },
  titles: { key: 'titles', label: 'Titles', kind: 'count', figure: 'titles' },
  cohorts: { key: 'cohorts', label: 'Cohorts', kind: 'count', figure: 'cohorts' },
  m1: { key: 'm1', label: 'Month-1 retention (%)', kind: 'percent', figure: 'month1RetentionAvg' },
  netRevenue: { key: 'netRevenue', label: 'Net revenue', kind: 'money', figure: 'netRevenue' },
};

/** A row's label; a minute reads in `zone`, the site's (issue 38). */
function labelOf(row: ReportRow, def: AnalyticsPageDef, zone: string): string {
  if (row.period !== undefined) return formatPeriod(String(row.period), zone);
  return (def.labelKeys ?? ['key']).map((k) => String(row[k] ?? '')).join(' · ');
}

function heatStyle(column: ReportColumn, value: ReportRow[string]): CSSProperties | undefined {
  if (!/^m\d+$/.test(column.key) || typeof value !== 'number') return undefined;
  return heatColours(value);
}

function Charts({ def, answer, rows, previous, search }: { def: AnalyticsPageDef; answer: ReportAnswer; rows: ReportRow[]; previous?: ReportAnswer; search: AnalyticsSearch }) {
  const columns = new Map(answer.columns.map((c) => [c.key, c]));
  const zone = useSiteTimeZone();
  const labels = rows.map((r) => labelOf(r, def, zone));
  return (
    <div className={css.charts}>
      {def.charts.map((chart) => {
        // Money is kept in cents; charts draw whole currency units.
        const unit = (k: string) => (columns.get(k)?.kind === 'money' ? 100 : 1);
        const valuesOf = (list: ReportRow[], k: string) => list.map((r) => { const v = r[k]; return typeof v === 'number' ? v / unit(k) : null; });
        const keys = chart.y.filter((k) => columns.has(k));
        // Issue 41: with compare, the compared period's periods drawn beside this one's, one for one (its first beside this first).
        const series = previous
          ? [...keys.map((k) => ({ label: C.current(columns.get(k)!.label), values: valuesOf(rows, k) })),
            ...keys.map((k) => ({ label: comparedLabel(columns.get(k)!.label, search), values: valuesOf(previous.rows, k).slice(0, rows.length) }))]
          : keys.map((k) => ({ label: columns.get(k)!.label, values: valuesOf(rows, k) }));
        if (series.length === 0) return null;
        const money = chart.y.some((k) => unit(k) === 100);
        return (
          <figure key={chart.title} className={css.chartCard} style={{ margin: 0 }}>
            <figcaption className={css.chartTitle}>{chart.title}{money && answer.currency ? ` (${answer.currency})` : ''}</figcaption>
            {chart.type === 'line'
              ? <LineChart labels={labels} series={series} />
              : <BarChart labels={labels} series={series} stacked={chart.type === 'stacked'} />}
          </figure>
        );
      })}
    </div>
  );
}

function ReadyBody({ def, actor, search, today }: { def: AnalyticsPageDef; actor: ReportActorRef; search: AnalyticsSearch; today: string }) {
  const navigate = useNavigate();
  const answers = useSelector(actor, selectAnswers);
  const answer = answers?.[0];
  const table = useSelector(actor, selectTable);
  const linkTitles = useReachesArea(AREAS.content);
  if (!answer) return null;
  const what = comparedWhat(search);
  const compared = answers?.[1] && what ? { answer: answers[1], what } : undefined;
  const qoeBy = isQoePage(def) && def.kind === 'breakdown' ? breakdownOf(def, search) : undefined;
  if (qoeBy) {
    return (
      <>
        <HeadlineTiles answer={answer} keys={def.headline} compared={compared} />
        <ViewsOfTotals search={search} />
        <BreakdownBody actor={actor} search={search} dimension={qoeBy} charts={def.charts} caption={def.title} />
      </>
    );
  }
  const { sort, all: rows } = table;
  // Periods read left to right in time whatever the table's order.
  const chartRows = def.kind === 'series' ? answer.rows : rows;
  return (
    <>
      <HeadlineTiles answer={answer} keys={def.headline} compared={compared} />
      {hasSessionFilters(def) && !def.realtime && <ViewsOfTotals search={search} />}
      {def.kind !== 'matrix' && <Charts def={def} answer={answer} rows={chartRows} previous={def.kind === 'series' ? compared?.answer : undefined} search={search} />}
      {/* QoS Overall's breakdown (issue 41) under its charts, before the table of periods. */}
      {isQoePage(def) && def.kind === 'series' && <BreakdownSection def={def} search={search} today={today} />}
      {answer.currencies && answer.currencies.length > 1 && (
        <p className={css.status} data-testid="currency-note">Amounts in {answer.currency}, never added to other currencies; pick {answer.currencies.filter((c) => c !== answer.currency).join(', ')} under Currency.</p>
      )}
      <ReportTable
        caption={def.title} answer={answer} rows={rows} sort={sort}
        onDownload={() => actor.send({ type: 'table.download', filename: `${def.path.split('/').pop()}-${answer.params.from}-${answer.params.to}.csv` })}
        paging={{ ...table, shown: table.rows, onPage: (page) => actor.send({ type: 'table.page', page }) }}
        linkTitles={linkTitles}
        onSort={(key, dir) => {
          actor.send({ type: 'table.sort', key, dir });
          // The URL keeps the order too, so a shared link opens sorted the same way.
          void navigate({ to: def.path, search: { ...search, sort: key, dir } });
        }}
        cellStyle={def.kind === 'matrix' ? heatStyle : undefined}
      />
    </>
  );
}

/** The table's first order: the URL's, else the page's default column (descending), else the answer's order. */
export function sortOf(def: AnalyticsPageDef, search: AnalyticsSearch): SortState {
  return { key: search.sort ?? def.sort, dir: search.dir ?? (search.sort ? 'asc' : 'desc') };
}

export function ReportPage({ def, search: address }: { def: AnalyticsPageDef; search: AnalyticsSearch }) {
  const today = useSiteToday();
  // Issue 41: on a page with chips an old address's device=/country=/content=/plan= are filters of the set.
  const search = withLegacyFiltersFolded(def, address);
  return <ReportPageBody key={`${def.path} ${requestKey(requestsFor(def, search, today))}`} def={def} search={search} today={today} />;
}

function ReportPageBody({ def, search, today }: { def: AnalyticsPageDef; search: AnalyticsSearch; today: string }) {
  // QoS breakdowns (issue 41) add each row's share of the sessions.
  const actor = useReport(requestsFor(def, search, today), Boolean(def.realtime), sortOf(def, search), isQoePage(def) && def.kind === 'breakdown' ? 'sessions' : undefined);
  const networks = useSelector(useAppActor('network'), selectNetworks);
  const networkName = networks.find((n) => n.identifier === search.network)?.name;
  const options = useSelector(actor, selectFilterOptions);
  const optionsStatus = useSelector(actor, selectOptionsStatus);
  const reversed = useSelector(actor, selectView) === 'reversed';
  const rangeNote = useSelector(actor, selectRangeNote);
  const currencies = useSelector(actor, selectCurrencies);
  const pressedPreset = useSelector(actor, (snapshot) => selectPressedPreset(snapshot, today));
  const chips = hasSessionFilters(def);
  return (
    <main data-testid="analytics-page">
      <div className={css.header}>
        <h1 className={css.title}>{def.title}</h1>
        {def.realtime && <LiveStatus actor={actor} />}
        {/* Issue 41: Save view (./saved/SaveViewControl.tsx). */}
        <SaveViewControl title={def.title} />
      </div>
      <p className={css.summary}>{def.summary}</p>
      {/* With chips, the one-value filters are not offered again: the chips' picker filters by the same things and more. */}
      <FilterBar path={def.path} search={search} filters={chips ? [] : def.filters} networks={networks} realtime={Boolean(def.realtime)} options={options} granularity={def.kind === 'series'}
        optionsStatus={optionsStatus} reversed={reversed} rangeNote={rangeNote} currencies={currencies} pressedPreset={pressedPreset} compare={canCompare(def)} />
      {chips && <QoeFilters path={def.path} search={search} filters={qoeFiltersOf(search)} query={qoeQueryOf(search, today)} />}
      {breakdownChoicesOf(def).length > 0 && <QoeControls def={def} search={search} />}
      <ReportStates actor={actor} emptyReason={emptyReasonFor(def, search, networkName, options, today)} charts={def.charts.length}>
        <ReadyBody def={def} actor={actor} search={search} today={today} />
      </ReportStates>
    </main>
  );
}
