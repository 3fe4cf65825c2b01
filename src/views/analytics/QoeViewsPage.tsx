/**
 * Views (issue 41, /analytics/views): the playback sessions behind a QoS figure, for the range,
 * network and filter set of the address (the same chips and Add filter as the QoS pages), one server
 * page at a time, sortable; each opens its view (/analytics/views/$sessionId). The qoeViews machine
 * reads the page; a new address starts a new page body (keyed by its query) and so a new machine.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { formatDateTime } from '../../../common/display-format';
import { QOE_PAGE_MESSAGES as M, QOE_VIEW_COLUMNS } from '../../../common/messages/qoe';
import { QOE_NOT_REPORTED, QOE_VIEW_SORTS, type QoeQuery, type QoeViewRow, type QoeViewSort } from '../../../common/qoe';
import { selectNetworks } from '../../../machines/network.machine';
import {
  selectViewsAnswer, selectViewsCanRetry, selectViewsError, selectViewsPaging, selectViewsView, type QoeViewsRef,
} from '../../../machines/qoe-views.machine';
import { useAppActor } from '../../app-actor';
import { usePageActor } from '../../page-actors';
import { button } from '../../theme/ui.css';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import { FilterBar } from './FilterBar';
import { QoeFilters } from './QoeFilters';
import { Skeleton } from './ReportView';
import { VIEWS_PAGE, presetOf, qoeFiltersOf, qoeQueryOf, viewsSortOf, without, type AnalyticsSearch } from './search';
import { useSiteToday } from './useReport';
import * as css from './analytics.css';

/** Where the views of QoS figures come from (typed as a page path: the report routes are made from a list). */
const QOS_OVERALL: string = '/analytics/qos-overall';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Watched time as m:ss (or h:mm:ss). */
export function watchedText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** Words read from the left; numbers and times line up on the right. */
const LEFT = { textAlign: 'left' } as const;
const or = (v: string) => (v === '' ? QOE_NOT_REPORTED : v);

/** A Views column: its heading, the sort it is (if the server sorts by it) and its cell. */
const COLUMNS: { key: keyof typeof QOE_VIEW_COLUMNS; sort?: QoeViewSort; text?: true; cell: (row: QoeViewRow, zone: string) => string }[] = [
  { key: 'startedAt', sort: 'startedAt', cell: (r, zone) => formatDateTime(r.startedAt, zone) },
  { key: 'viewer', text: true, cell: (r) => r.viewer },
  { key: 'title', text: true, cell: (r) => r.title },
  { key: 'device', text: true, cell: (r) => or(r.device) },
  { key: 'isp', text: true, cell: (r) => or(r.isp) },
  { key: 'cdn', text: true, cell: (r) => or(r.cdn) },
  { key: 'watchedSeconds', sort: 'watchedSeconds', cell: (r) => watchedText(r.watchedSeconds) },
  { key: 'startupMs', sort: 'startupMs', cell: (r) => integer.format(r.startupMs) },
  { key: 'rebufferPct', sort: 'rebufferPct', cell: (r) => `${oneDecimal.format(r.rebufferPct)} %` },
  { key: 'bitrateKbps', sort: 'bitrateKbps', cell: (r) => (r.bitrateKbps === null ? '–' : integer.format(r.bitrateKbps)) },
  { key: 'errorCode', text: true, cell: (r) => r.errorCode ?? '' },
];

export function QoeViewsPage({ search }: { search: AnalyticsSearch }) {
  const today = useSiteToday();
  const query = qoeQueryOf(search, today);
  const { sort, dir } = viewsSortOf(search);
  const page = search.page ?? 1;
  return <QoeViewsBody key={JSON.stringify([query, sort, dir, page])} search={search} query={query} sort={sort} dir={dir} page={page} today={today} />;
}

function QoeViewsBody({ search, query, sort, dir, page, today }: { search: AnalyticsSearch; query: QoeQuery; sort: QoeViewSort; dir: 'asc' | 'desc'; page: number; today: string }) {
  const actor = usePageActor('qoeViews', { input: { query, sort, dir, page } });
  const networks = useSelector(useAppActor('network'), selectNetworks);
  return (
    <main data-testid="qoe-views-page">
      <div className={css.header}>
        <h1 className={css.title}>{M.viewsTitle}</h1>
      </div>
      <p className={css.summary}>{M.viewsSummary}</p>
      <FilterBar path={VIEWS_PAGE} search={without(search, 'page')} filters={[]} networks={networks} realtime={false} granularity={false} pressedPreset={presetOf(query, today)} />
      <QoeFilters path={VIEWS_PAGE} search={search} filters={qoeFiltersOf(search)} query={query} />
      <p><Link to={QOS_OVERALL} search={without(search, 'page', 'sort', 'dir')}>{M.backToReport}</Link></p>
      <ViewsList actor={actor} search={search} sort={sort} dir={dir} />
    </main>
  );
}

function ViewsList({ actor, search, sort, dir }: { actor: QoeViewsRef; search: AnalyticsSearch; sort: QoeViewSort; dir: 'asc' | 'desc' }) {
  const navigate = useNavigate();
  const view = useSelector(actor, selectViewsView);
  const answer = useSelector(actor, selectViewsAnswer);
  const error = useSelector(actor, selectViewsError);
  const canRetry = useSelector(actor, selectViewsCanRetry);
  const paging = useSelector(actor, selectViewsPaging);
  const zone = useSiteTimeZone();
  if (view === 'loading') return <Skeleton charts={0} />;
  if (view === 'failed') {
    return (
      <div className={css.errorNote} role="alert">
        <p>{M.viewsFailed} {error}</p>
        {canRetry && <button type="button" className={button.primary} onClick={() => actor.send({ type: 'views.retry' })}>{M.retry}</button>}
      </div>
    );
  }
  if (view === 'empty' || !answer) return <p className={css.note} data-testid="views-empty">{M.viewsEmpty}</p>;
  const goPage = (next: number) => void navigate({ to: VIEWS_PAGE, search: { ...search, page: next } });
  return (
    <section aria-label={`${M.viewsTitle} table`}>
      <div className={css.tableActions}>
        <span className={css.status} data-testid="views-range">{M.viewsRange(paging.first, paging.last, paging.total)}</span>
      </div>
      <div className={css.tableWrap}>
        <table className={css.table}>
          <caption className={css.srOnly}>{M.viewsTitle}</caption>
          <thead>
            <tr>
              {COLUMNS.map((c) => {
                const active = c.sort !== undefined && c.sort === sort;
                const next = active && dir === 'desc' ? 'asc' : 'desc';
                return (
                  <th key={c.key} scope="col" className={css.th} style={c.text ? LEFT : undefined} aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : c.sort ? 'none' : undefined}>
                    {c.sort && QOE_VIEW_SORTS.includes(c.sort)
                      ? (
                        <button type="button" className={css.sortButton} onClick={() => void navigate({ to: VIEWS_PAGE, search: { ...without(search, 'page'), sort: c.sort, dir: next } })}>
                          {QOE_VIEW_COLUMNS[c.key]}{active ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
                        </button>
                      )
                      : QOE_VIEW_COLUMNS[c.key]}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {answer.rows.map((row) => (
              <tr key={row.sessionId} data-testid="view-row">
                {COLUMNS.map((c, i) => (
                  <td key={c.key} className={css.td} style={c.text ? LEFT : undefined}>
                    {i === 0
                      ? <Link to="/analytics/views/$sessionId" params={{ sessionId: row.sessionId }} search={search} title={M.openView(row.title, c.cell(row, zone))}>{c.cell(row, zone)}</Link>
                      : c.cell(row, zone)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {paging.pageCount > 1 && (
        <nav aria-label={M.viewsPages} className={css.tableActions}>
          <button type="button" className={button.secondary} disabled={paging.page <= 1} onClick={() => goPage(paging.page - 1)}>{M.previousPage}</button>
          <button type="button" className={button.secondary} disabled={paging.page >= paging.pageCount} onClick={() => goPage(paging.page + 1)}>{M.nextPage}</button>
        </nav>
      )}
    </section>
  );
}
