import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QOE_PAGE_MESSAGES as M } from '../../../common/messages/qoe';
import type { ReportAnswer, ReportRow } from '../../../common/reports';
import { fakeReports } from '../../test-harness/analytics-fixtures';
import { renderView, settle } from '../../test-harness/render-view';
import { pageDefFor } from './pages';
import { breakdownSeries, rowLabelOf, rowValueOf, viewsSearchOf } from './QoeBreakdown';
import { ReportPage } from './ReportPage';
import type { FetchReportsInput } from '../../../machines/report.machine';

const OVERALL = pageDefFor('/analytics/qos-overall');
const ISP = pageDefFor('/analytics/qos-isp');
const QOS_COLUMNS = [
  { key: 'sessions', label: 'Sessions', kind: 'count' as const }, { key: 'startupP50Ms', label: 'Startup p50 (ms)', kind: 'ms' as const },
  { key: 'startupP95Ms', label: 'Startup p95 (ms)', kind: 'ms' as const }, { key: 'rebufferP95Pct', label: 'Rebuffer p95 (%)', kind: 'percent' as const },
];

function qos(params: FetchReportsInput['requests'][number]['params'], previous: boolean): ReportAnswer {
  const by = params.by ?? 'period';
  const base = { success: true as const, report: 'qos' as const, params: { from: params.from!, to: params.to!, granularity: 'day' as const, by }, generatedAt: '2026-11-30T12:00:00Z' };
  if (by === 'period') {
    return { ...base, columns: [{ key: 'period', label: 'Period', kind: 'period' }, ...QOS_COLUMNS],
      rows: [{ period: params.from!, sessions: 10, startupP50Ms: 900, startupP95Ms: 2000, rebufferP95Pct: 1 }], totals: { sessions: 10, startupP95Ms: 2000 } };
  }
  const rows: ReportRow[] = previous
    ? [{ key: 'akamai', sessions: 50, startupP50Ms: 800, startupP95Ms: 1500, rebufferP95Pct: 1 }]
    : [{ key: 'akamai', sessions: 300, startupP50Ms: 850, startupP95Ms: 1600, rebufferP95Pct: 1.5 }, { key: '', sessions: 100, startupP50Ms: 2000, startupP95Ms: 6000, rebufferP95Pct: 9 }];
  return { ...base, columns: [{ key: 'key', label: 'CDN', kind: 'text' }, ...QOS_COLUMNS], rows, totals: { sessions: previous ? 50 : 400 } };
}

const answering = (input: FetchReportsInput) => input.requests.map((r) => qos(r.params, r.params.from! < '2026-11-01'));

describe('QoS breakdown by any dimension', { timeout: 30_000 }, () => {
  it('QoS Overall: filters and compare ride on its requests; Break down by CDN adds the breakdown with share of sessions, the previous period and Views per row', async () => {
    const reports = fakeReports(answering);
    const search = { from: '2026-11-01', to: '2026-11-30', f: 'device:android,ios;!isp:Slow%20Net', by: 'cdn' as const, compare: 'previous' as const };
    await renderView(reports.wrap(<ReportPage def={OVERALL} search={search} />), { url: OVERALL.path });
    await settle();
    // The periods' machine and the breakdown's each ask once (in either order).
    expect(reports.calls).toHaveLength(2);
    expect(reports.calls.map((c) => c.requests.map((r) => r.params))).toEqual(expect.arrayContaining([
      [{ by: 'period', from: '2026-11-01', to: '2026-11-30', granularity: 'day', f: search.f }, { by: 'period', from: '2026-10-02', to: '2026-10-31', granularity: 'day', f: search.f }],
      [{ by: 'cdn', from: '2026-11-01', to: '2026-11-30', granularity: 'day', f: search.f }, { by: 'cdn', from: '2026-10-02', to: '2026-10-31', granularity: 'day', f: search.f }],
    ]));
    const breakdown = screen.getByTestId('qoe-breakdown');
    expect(within(breakdown).getByRole('heading', { name: 'By CDN' })).toBeTruthy();
    const table = within(breakdown).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['CDN', M.views, `${M.share}`, 'Sessions ▼', 'Startup p50 (ms)', 'Startup p95 (ms)', 'Rebuffer p95 (%)']);
    const rows = within(table).getAllByRole('row').slice(1).map((tr) => within(tr).getAllByRole('cell').map((td) => td.textContent));
    expect(rows.map((r) => r.slice(0, 4))).toEqual([['akamai', M.views, '75.0 %', '300'], ['', M.views, '25.0 %', '100']]);
    const views = within(table).getByRole('link', { name: M.viewsOf('akamai') });
    expect(decodeURIComponent(views.getAttribute('href')!)).toBe('/analytics/views?from=2026-11-01&to=2026-11-30&f=device:android,ios;!isp:Slow%20Net;cdn:akamai');
    expect(screen.getByTestId('views-of-totals').getAttribute('href')).toContain('/analytics/views?');
    expect(within(breakdown).getAllByText(M.previous('Startup p95 (ms)')).length).toBeGreaterThan(0);
    expect(screen.getAllByText(M.previous('Startup p95 (ms)')).length).toBeGreaterThan(1);
  });

  it('sorts the breakdown by a column in the machine, worst first', async () => {
    const reports = fakeReports(answering);
    const view = await renderView(reports.wrap(<ReportPage def={OVERALL} search={{ from: '2026-11-01', to: '2026-11-30', by: 'cdn' }} />), { url: OVERALL.path });
    await settle();
    const table = within(screen.getByTestId('qoe-breakdown')).getByRole('table');
    await view.user.click(within(table).getByRole('button', { name: 'Rebuffer p95 (%)' }));
    expect(within(table).getAllByRole('row')[1]!.textContent).toContain('9.0 %');
  });

  it('a breakdown page is broken down by its own dimension, or by the one chosen, written into the address', async () => {
    const reports = fakeReports((input) => input.requests.map((r) => qos(r.params, false)));
    const view = await renderView(reports.wrap(<ReportPage def={ISP} search={{ days: 7 }} />), { url: `${ISP.path}?days=7` });
    await settle();
    expect(reports.calls[0]!.requests[0]!.params.by).toBe('isp');
    expect((screen.getByTestId('break-down-by') as HTMLSelectElement).value).toBe('isp');
    expect(screen.getByRole('link', { name: M.viewsOf('Not reported') }).getAttribute('href')).toBe('/analytics/views?days=7&f=isp%3A');
    await view.user.selectOptions(screen.getByTestId('break-down-by'), 'Player version');
    expect(view.location()).toBe(`${ISP.path}?days=7&by=playerVersion`);
    // The comparison is the filter bar's "Compare with" (toggle buttons, issue 41).
    await view.user.click(screen.getByRole('button', { name: 'Previous period', pressed: false }));
    expect(view.location()).toContain('compare=previous');
  });

  it('names rows, matches the previous period by value and builds the Views address', () => {
    expect(rowValueOf({ key: 'ios' })).toBe('ios');
    expect(rowValueOf({ key: 'Night Drive', value: 'c-1' })).toBe('c-1');
    expect(rowLabelOf({ key: '' })).toBe('Not reported');
    expect(rowLabelOf({ key: 'c-1', label: 'Night Drive' })).toBe('Night Drive');
    const current = qos({ from: '2026-11-01', to: '2026-11-30', by: 'cdn' }, false);
    const previous = qos({ from: '2026-10-01', to: '2026-10-30', by: 'cdn' }, true);
    expect(breakdownSeries({ title: 't', type: 'bar', y: ['startupP95Ms'] }, current, current.rows, previous)).toEqual([
      { label: M.current('Startup p95 (ms)'), values: [1600, 6000] }, { label: M.previous('Startup p95 (ms)'), values: [1500, null] },
    ]);
    expect(viewsSearchOf({ days: 7, sort: 'x', f: 'cdn:fastly' }, { dimension: 'cdn', value: 'akamai' })).toEqual({ days: 7, f: 'cdn:akamai' });
    expect(viewsSearchOf({ days: 7 })).toEqual({ days: 7 });
  });
});
