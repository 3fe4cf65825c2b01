/**
 * The numbers of a page as a sortable table (also the text alternative of its charts) with a CSV
 * export of every row, in the order shown, as plain values a spreadsheet can sum
 * (common/report-csv.ts: decimals with a Currency column, plain numbers, ISO dates, units in the header;
 * Download CSV asks the report machine, which hands the file to src/adapters/download.ts).
 * Long tables show one page of rows at a time (the report machine sorts, then pages, issue 27), and a
 * title links to its content item when the row names one and the role reaches Content.
 */
import { Link } from '@tanstack/react-router';
import { Fragment } from 'react';
import { REPORT_TABLE_MESSAGES, contentLinkOf, type ReportAnswer, type ReportColumn, type ReportRow } from '../../../common/reports';
import type { ReportTableState, SortState } from '../../../machines/report.machine';
import { button } from '../../theme/ui.css';
import { formatCell } from './format';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import * as css from './analytics.css';
import { figureHelp, figureLabel } from '../../../common/figures';

/** The table's words; minutes read in `timeZone` (the site's, as the page's "Last updated"). */
export function tableText(answer: ReportAnswer, rows: ReportRow[], timeZone: unknown = 'UTC'): { headers: string[]; cells: string[][] } {
  return {
    headers: answer.columns.map((c) => c.label),
    cells: rows.map((row) => answer.columns.map((c) => formatCell(row[c.key] ?? null, c.kind, answer.currency, timeZone))),
  };
}

/** The page shown (the report machine's selectTable) and how to ask for another. */
export type TablePaging = Pick<ReportTableState, 'page' | 'pageCount' | 'first' | 'last'> & {
  shown: ReportRow[];
  onPage: (page: number) => void;
};

export interface ReportTableProps {
  caption: string;
  answer: ReportAnswer;
  /** Every row, in the order shown: the CSV exports them all. */
  rows: ReportRow[];
  sort: SortState;
  onSort: (key: string, dir: 'asc' | 'desc') => void;
  /** Download CSV was pressed: the report machine downloads every row (`table.download`). */
  onDownload: () => void;
  /** One page of `rows` at a time; none shows every row. */
  paging?: TablePaging;
  /** Titles link to their content item (the role reaches Content). */
  linkTitles?: boolean;
  /** Optional per-cell background (the cohort heat map). */
  cellStyle?: (column: ReportColumn, value: ReportRow[string]) => React.CSSProperties | undefined;
  /** Issue 41: a last column per row (the QoS breakdowns' link to the Views behind the row); never in the CSV. */
  rowAction?: { header: string; render: (row: ReportRow) => React.ReactNode };
}

/** What each figure column counts (common/figures.ts, issue 27), under the table: visible, not only a tooltip. */
function FigureLegend({ columns }: { columns: readonly ReportColumn[] }) {
  // One line per figure: several columns of one figure (the cohort months, the startup buckets) share it.
  const byFigure = new Map<string, ReportColumn[]>();
  for (const c of columns) if (c.figure !== undefined && figureHelp(c.figure)) byFigure.set(c.figure, [...(byFigure.get(c.figure) ?? []), c]);
  const defined = [...byFigure].map(([figure, cols]) => ({
    key: figure, label: cols.length === 1 ? cols[0]!.label : figureLabel(figure), help: figureHelp(figure)!,
  }));
  if (defined.length === 0) return null;
  return (
    <dl aria-label="What the columns count" className={css.status}>
      {defined.map((d) => <div key={d.key}><dt style={{ display: 'inline', fontWeight: 600 }}>{d.label}: </dt><dd style={{ display: 'inline', margin: 0 }}>{d.help}</dd></div>)}
    </dl>
  );
}

function Pager({ paging }: { paging: TablePaging }) {
  return (
    <nav aria-label={REPORT_TABLE_MESSAGES.pages} className={css.tableActions}>
      <button type="button" className={button.secondary} disabled={paging.page <= 1} onClick={() => paging.onPage(paging.page - 1)}>
        {REPORT_TABLE_MESSAGES.previous}
      </button>
      <button type="button" className={button.secondary} disabled={paging.page >= paging.pageCount} onClick={() => paging.onPage(paging.page + 1)}>
        {REPORT_TABLE_MESSAGES.next}
      </button>
    </nav>
  );
}

function CellText({ column, row, text, linkTitles }: { column: ReportColumn; row: ReportRow; text: string; linkTitles: boolean }) {
  const item = linkTitles && column.key === 'title' ? contentLinkOf(row) : null;
  if (!item) return <>{text}</>;
  return <Link to="/content/$contentType/$id" params={item} title={REPORT_TABLE_MESSAGES.openTitle(text)}>{text}</Link>;
}

export function ReportTable({ caption, answer, rows, sort, onSort, onDownload, paging, linkTitles = false, cellStyle, rowAction }: ReportTableProps) {
  const shown = paging?.shown ?? rows;
  const zone = useSiteTimeZone();
  const { cells } = tableText(answer, shown, zone);
  const paged = paging !== undefined && paging.pageCount > 1;
  return (
    <section aria-label={`${caption} table`}>
      <div className={css.tableActions}>
        <span className={css.status} data-testid="table-range">
          {paged ? REPORT_TABLE_MESSAGES.range(paging.first, paging.last, rows.length) : REPORT_TABLE_MESSAGES.rows(rows.length)}
        </span>
        <button type="button" className={button.secondary} onClick={onDownload}>Download CSV</button>
      </div>
      <div className={css.tableWrap}>
        <table className={css.table}>
          <caption className={css.srOnly}>{caption}</caption>
          <thead>
            <tr>
              {answer.columns.map((c, i) => {
                const active = sort.key === c.key;
                const next = active && sort.dir === 'desc' ? 'asc' : 'desc';
                return (
                  <Fragment key={c.key}>
                    <th className={css.th} scope="col" aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
                      <button type="button" className={css.sortButton} onClick={() => onSort(c.key, next)} title={figureHelp(c.figure)}>
                        {c.label}{active ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                      </button>
                    </th>
                    {/* The row's action right after its name, where a phone still shows it. */}
                    {rowAction && i === 0 && <th className={css.th} scope="col">{rowAction.header}</th>}
                  </Fragment>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {cells.map((line, r) => (
              <tr key={r}>
                {line.map((text, i) => {
                  const column = answer.columns[i]!;
                  return (
                    <Fragment key={column.key}>
                      <td className={cellStyle ? css.heat : css.td} style={cellStyle?.(column, shown[r]![column.key] ?? null)}>
                        <CellText column={column} row={shown[r]!} text={text} linkTitles={linkTitles} />
                      </td>
                      {rowAction && i === 0 && <td className={css.td}>{rowAction.render(shown[r]!)}</td>}
                    </Fragment>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {paged && <Pager paging={paging} />}
      <FigureLegend columns={answer.columns} />
    </section>
  );
}
