/**
 * Issue 41: a breakdown's share of the total. Each row of a report answer gets `sharePct`, its count
 * (`key`, e.g. sessions) ÷ the answer's total of that count × 100, as a column after the row's name,
 * so the table sorts by it, the CSV exports it and the chart can draw it like any other column.
 */
import { QOE_PAGE_MESSAGES } from '../common/messages/qoe';
import type { ReportAnswer } from '../common/reports';

export const SHARE_COLUMN = 'sharePct';

/** Where the share goes: before the first figure column (after the row's name). */
function shareAt(columns: ReportAnswer['columns']): number {
  return Math.max(0, columns.findIndex((c) => c.kind !== 'text' && c.kind !== 'period'));
}

/** A share the answer brings (the QoS report's own, issue 41) is moved after the row's name; else it is computed from `key`. */
export function withShareColumn(answer: ReportAnswer, key: string): ReportAnswer {
  const own = answer.columns.find((c) => c.key === SHARE_COLUMN);
  if (own) {
    const rest = answer.columns.filter((c) => c !== own);
    const at = shareAt(rest);
    return { ...answer, columns: [...rest.slice(0, at), own, ...rest.slice(at)] };
  }
  if (!answer.columns.some((c) => c.key === key)) return answer;
  const listed = answer.totals[key];
  const total = typeof listed === 'number' ? listed : answer.rows.reduce((sum, row) => sum + (typeof row[key] === 'number' ? row[key] : 0), 0);
  const at = shareAt(answer.columns);
  const columns = [...answer.columns.slice(0, at), { key: SHARE_COLUMN, label: QOE_PAGE_MESSAGES.share, kind: 'percent' as const }, ...answer.columns.slice(at)];
  const rows = answer.rows.map((row) => {
    const value = row[key];
    return { ...row, [SHARE_COLUMN]: typeof value === 'number' && total > 0 ? Math.round((value / total) * 1000) / 10 : null };
  });
  return { ...answer, columns, rows };
}
