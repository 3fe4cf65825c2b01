/** How report numbers read on screen (CSV downloads carry plain values: common/report-csv.ts). */
import { formatCalendarDay, formatCalendarMonth, formatClockMinute } from '../../../common/display-format';
import type { ReportCell, ReportColumn } from '../../../common/reports';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
/** Hours, minutes and percentages always with one decimal, so a column's numbers line up ('23.0' under '24.2'). */
const fixedOneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function formatCell(value: ReportCell, kind: ReportColumn['kind'], currency = 'USD', timeZone: unknown = 'UTC'): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'string') return kind === 'period' ? formatPeriod(value, timeZone) : value;
  switch (kind) {
    case 'money': return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value / 100);
    case 'percent': return `${fixedOneDecimal.format(value)} %`;
    case 'hours': case 'minutes': return fixedOneDecimal.format(value);
    case 'count': return Number.isInteger(value) ? integer.format(value) : oneDecimal.format(value);
    default: return integer.format(value);
  }
}

/**
 * A report period in the console's date format (common/display-format.ts): a day or a month is never
 * shifted again: the server counts report days and months in the site's zone already (issue 38), so
 * they are the site's days as they stand: '2024-05-06' reads '6 May 2024', '2024-05'
 * 'May 2024'; a minute (the Real-time report's) is an instant and reads in the site's zone, like the
 * page's "Last updated" above it (issue 38): '2026-12-05T22:35:00Z' in America/New_York reads
 * '17:35 (America/New_York)'. CSV downloads keep ISO dates (common/report-csv.ts).
 */
export function formatPeriod(period: string, timeZone: unknown = 'UTC'): string {
  if (/^\d{4}-\d{2}$/.test(period)) return formatCalendarMonth(period);
  if (/^\d{4}-\d{2}-\d{2}$/.test(period)) return formatCalendarDay(period);
  if (period.includes('T')) return formatClockMinute(period, timeZone);
  return period;
}

/** A change against the previous period, e.g. '+12.5 %' (null when there is nothing to compare). */
export function changeOf(current: number | null | undefined, previous: number | null | undefined): number | null {
  if (current === null || current === undefined || previous === null || previous === undefined || previous === 0) return null;
  return ((current - previous) / Math.abs(previous)) * 100;
}
