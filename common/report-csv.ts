/**
 * The CSV download of a report table (issue 27): the same rows and columns as the table, but plain
 * values a spreadsheet can sum: money as decimals of the currency unit with a Currency column,
 * percentages and counts as plain numbers (no separators, no "%"), periods as ISO 8601 dates (the site's days, issue 38; a real-time minute keeps its Z),
 * and a header row naming each column's unit.
 */
import type { ColumnKind, ReportAnswer, ReportCell, ReportColumn, ReportRow } from './reports';

/** The unit a CSV header names for a column kind (money names its currency). */
const UNITS: Partial<Record<ColumnKind, string>> = { percent: '%', hours: 'hours', minutes: 'minutes', ms: 'ms', kbps: 'kbps', period: 'ISO 8601' };

export const CSV_CURRENCY_HEADER = 'Currency';

/** A column's CSV header: its label and its unit, unless the label already names it. */
export function csvHeader(column: ReportColumn, currency: string | undefined): string {
  const unit = column.kind === 'money' ? currency : UNITS[column.kind];
  if (!unit || column.label.includes(`(${unit}`) || column.label.includes(`${unit})`)) return column.label;
  return `${column.label} (${unit})`;
}

/** A cell as a plain CSV value: empty when missing, money in currency units with two decimals. */
export function csvValue(value: ReportCell | undefined, kind: ColumnKind): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (kind === 'money') return (value / 100).toFixed(2);
  return String(value);
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV text of a report's rows (in the order given: the table's order). */
export function reportCsv(answer: Pick<ReportAnswer, 'columns' | 'currency'>, rows: ReportRow[]): string {
  const money = answer.columns.some((c) => c.kind === 'money');
  const currency = money ? answer.currency ?? 'USD' : undefined;
  const headers = answer.columns.map((c) => csvHeader(c, currency));
  const lines = rows.map((row) => answer.columns.map((c) => csvValue(row[c.key], c.kind)));
  if (currency) {
    headers.push(CSV_CURRENCY_HEADER);
    for (const line of lines) line.push(currency);
  }
  return [headers, ...lines].map((line) => line.map(csvField).join(',')).join('\r\n') + '\r\n';
}
