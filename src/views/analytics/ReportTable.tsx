/**
 * The numbers of a page as a sortable table (also the text alternative of its charts) with a CSV
 * export of exactly the rows, columns and order shown, as plain values a spreadsheet can sum
 * (common/report-csv.ts: decimals with a Currency column, plain numbers, ISO dates, units in the header).
 */
import type { ReportAnswer, ReportColumn, ReportRow } from '../../../common/reports';
import { button } from '../../theme/ui.css';
import { reportCsv } from '../../../common/report-csv';
import { formatCell } from './format';
import * as css from './analytics.css';
import { figureHelp } from '../../../common/figures';

export interface SortState {
  key: string | undefined;
  dir: 'asc' | 'desc';
}

export function sortRows(rows: ReportRow[], sort: SortState): ReportRow[] {
  if (!sort.key) return rows;
  const key = sort.key;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === y) return 0;
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * sign;
  });
}

export function tableText(answer: ReportAnswer, rows: ReportRow[]): { headers: string[]; cells: string[][] } {
  return {
    headers: answer.columns.map((c) => c.label),
    cells: rows.map((row) => answer.columns.map((c) => formatCell(row[c.key] ?? null, c.kind, answer.currency))),
  };
}

function download(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}

export interface ReportTableProps {
  caption: string;
  answer: ReportAnswer;
  rows: ReportRow[];
  sort: SortState;
  onSort: (key: string, dir: 'asc' | 'desc') => void;
  filename: string;
  /** Optional per-cell background (the cohort heat map). */
  cellStyle?: (column: ReportColumn, value: ReportRow[string]) => React.CSSProperties | undefined;
}

/** What each figure column counts (common/figures.ts, issue 27), under the table: visible, not only a tooltip. */
function FigureLegend({ columns }: { columns: readonly ReportColumn[] }) {
  const defined = columns.flatMap((c) => { const help = figureHelp(c.key); return help ? [{ key: c.key, label: c.label, help }] : []; });
  if (defined.length === 0) return null;
  return (
    <dl aria-label="What the columns count" className={css.status}>
      {defined.map((d) => <div key={d.key}><dt style={{ display: 'inline', fontWeight: 600 }}>{d.label}: </dt><dd style={{ display: 'inline', margin: 0 }}>{d.help}</dd></div>)}
    </dl>
  );
}

export function ReportTable({ caption, answer, rows, sort, onSort, filename, cellStyle }: ReportTableProps) {
  const { cells } = tableText(answer, rows);
  return (
    <section aria-label={`${caption} table`}>
      <div className={css.tableActions}>
        <span className={css.status}>{rows.length} {rows.length === 1 ? 'row' : 'rows'}</span>
        <button type="button" className={button.secondary} onClick={() => download(filename, reportCsv(answer, rows))}>Download CSV</button>
      </div>
      <div className={css.tableWrap}>
        <table className={css.table}>
          <caption className={css.srOnly}>{caption}</caption>
          <thead>
            <tr>
              {answer.columns.map((c) => {
                const active = sort.key === c.key;
                const next = active && sort.dir === 'desc' ? 'asc' : 'desc';
                return (
                  <th key={c.key} className={css.th} scope="col" aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
                    <button type="button" className={css.sortButton} onClick={() => onSort(c.key, next)} title={figureHelp(c.key)}>
                      {c.label}{active ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {cells.map((line, r) => (
              <tr key={r}>
                {line.map((text, i) => {
                  const column = answer.columns[i]!;
                  return <td key={column.key} className={cellStyle ? css.heat : css.td} style={cellStyle?.(column, rows[r]![column.key] ?? null)}>{text}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FigureLegend columns={answer.columns} />
    </section>
  );
}
