import { describe, expect, it } from 'vitest';
import type { ReportAnswer } from '../common/reports';
import { withShareColumn } from './qoe-share';

const answer: ReportAnswer = {
  success: true, report: 'qos', params: { from: '2026-01-01', to: '2026-01-30', granularity: 'day', by: 'cdn' }, generatedAt: '2026-01-30T00:00:00Z',
  columns: [{ key: 'key', label: 'CDN', kind: 'text' }, { key: 'sessions', label: 'Sessions', kind: 'count' }],
  rows: [{ key: 'akamai', sessions: 300 }, { key: 'fastly', sessions: 100 }, { key: 'none', sessions: null }],
  totals: { sessions: 400 },
};

describe('withShareColumn', () => {
  it("adds each row's share of the total after the row's name", () => {
    const shared = withShareColumn(answer, 'sessions');
    expect(shared.columns.map((c) => c.key)).toEqual(['key', 'sharePct', 'sessions']);
    expect(shared.rows.map((r) => r.sharePct)).toEqual([75, 25, null]);
  });

  it('sums the rows when the answer has no total, and leaves an answer without the count alone', () => {
    expect(withShareColumn({ ...answer, totals: {} }, 'sessions').rows[1]!.sharePct).toBe(25);
    expect(withShareColumn(answer, 'viewers')).toBe(answer);
    const once = withShareColumn(answer, 'sessions');
    expect(withShareColumn(once, 'sessions')).toEqual(once);
  });

  it("moves the answer's own share (the server's) after the row's name and keeps its values", () => {
    const own = { ...answer, columns: [...answer.columns, { key: 'sharePct', label: 'Share of sessions (%)', kind: 'percent' as const, figure: 'sessionSharePct' }], rows: [{ key: 'akamai', sessions: 300, sharePct: 74.99 }] };
    const moved = withShareColumn(own, 'sessions');
    expect(moved.columns.map((c) => c.key)).toEqual(['key', 'sharePct', 'sessions']);
    expect(moved.columns[1]!.figure).toBe('sessionSharePct');
    expect(moved.rows).toEqual(own.rows);
  });
});
