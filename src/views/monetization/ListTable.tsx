/**
 * A Monetization list: search, a status filter, the rows of the page as a table, paging. The rows
 * and every control come from the list machine; the page says which columns to show.
 */
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import {
  selectListError, selectListIsEmpty, selectListIsLoading, selectListPaging, selectListQuery, selectListRows, type ListRow,
} from '../../../machines/list.machine';
import * as ui from '../../theme/ui.css';
import * as css from './monetization.css';
import type { ListRef } from './page-refs';
import { ScrollBox } from '../shared/ScrollBox';

export interface Column<Row> {
  title: string;
  cell: (row: Row) => ReactNode;
}

export interface ListTableProps<Row extends ListRow> {
  list: ListRef;
  label: string;
  columns: readonly Column<Row>[];
  /** The status filter's choices: each code with its word (common/status-words.ts), in order. */
  statuses?: Readonly<Record<string, string>>;
  searchLabel?: string;
  /** More filters or buttons beside the search. */
  tools?: ReactNode;
}

export function ListTable<Row extends ListRow>({ list, label, columns, statuses, searchLabel = 'Search by name', tools }: ListTableProps<Row>) {
  const rows = useSelector(list, (s) => selectListRows<Row>(s));
  const query = useSelector(list, selectListQuery);
  const paging = useSelector(list, selectListPaging);
  const loading = useSelector(list, selectListIsLoading);
  const empty = useSelector(list, selectListIsEmpty);
  const error = useSelector(list, selectListError);
  const total = useSelector(list, (s) => s.context.total);
  return (
    <div>
      <div className={css.toolbar}>
        <input
          className={`${ui.input} ${css.grow}`} type="search" aria-label={searchLabel} placeholder={searchLabel} value={query.search}
          onChange={(e) => list.send({ type: 'list.search', search: e.target.value })}
        />
        {statuses && (
          <select className={ui.input} aria-label="Status" value={query.filters.status ?? ''}
            onChange={(e) => list.send({ type: 'list.filter', name: 'status', value: e.target.value })}>
            <option value="">All statuses</option>
            {Object.entries(statuses).map(([code, word]) => <option key={code} value={code}>{word}</option>)}
          </select>
        )}
        {tools}
      </div>
      {error && (
        <p className={css.bannerError} role="alert">
          {error} <button type="button" className={ui.button.ghost} onClick={() => list.send({ type: 'list.reload' })}>Try again</button>
        </p>
      )}
      <ScrollBox className={css.tableWrap} label={label}>
        <table className={css.table} aria-label={label} aria-busy={loading}>
          <thead><tr>{columns.map((c) => <th key={c.title} scope="col">{c.title}</th>)}</tr></thead>
          <tbody>
            {rows.map((row) => <tr key={row.id}>{columns.map((c) => <td key={c.title}>{c.cell(row)}</td>)}</tr>)}
          </tbody>
        </table>
      </ScrollBox>
      {empty && <p className={css.muted}>Nothing matches.</p>}
      <div className={css.paging}>
        <span>{paging.from}–{paging.to} of {total}</span>
        <button type="button" className={ui.button.secondary} disabled={paging.previousOffset === null}
          onClick={() => paging.previousOffset !== null && list.send({ type: 'list.page', offset: paging.previousOffset })}>Previous</button>
        <span>Page {paging.page} of {paging.pages}</span>
        <button type="button" className={ui.button.secondary} disabled={paging.nextOffset === null}
          onClick={() => paging.nextOffset !== null && list.send({ type: 'list.page', offset: paging.nextOffset })}>Next</button>
      </div>
    </div>
  );
}
