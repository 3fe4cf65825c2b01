import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView, settle } from '../../test-support/render-view';
import { OverviewPage, overviewRequests } from './OverviewPage';
import { fakeReports, seriesAnswer } from '../../test-support/analytics-fixtures';

describe('OverviewPage', { timeout: 20_000 }, () => {
  it('asks for the four headline reports with the previous period, and shows each number with its change', async () => {
    const reports = fakeReports((input) => input.requests.map(() => seriesAnswer()));
    await renderView(reports.wrap(<OverviewPage search={{ days: 7 }} />), { url: '/analytics?days=7' });
    await settle();
    expect(reports.calls[0]!.requests.map((r) => [r.report, r.params.compare])).toEqual([
      ['user_base', 'previous'], ['user_behavior', 'previous'], ['payment_summary_report', 'previous'], ['qos', 'previous'],
    ]);
    expect(screen.getByTestId('headline-sessions').textContent).toBe('1,700');
    expect(screen.getAllByText('+70.0 % vs previous period').length).toBeGreaterThan(0);
    expect(screen.getAllByText('−3.9 % vs previous period').length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'QoS ISP' }).getAttribute('href')).toBe('/analytics/qos-isp');
  });

  it('builds its requests from the range in the URL', () => {
    expect(overviewRequests({ from: '2024-05-01', to: '2024-05-07' }, '2024-06-01')[0]).toEqual({
      report: 'user_base', params: { from: '2024-05-01', to: '2024-05-07', granularity: 'day', compare: 'previous' },
    });
  });
});
