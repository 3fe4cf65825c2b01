import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView, settle } from '../../test-harness/render-view';
import { AnalyticsDetailRoute } from './AnalyticsRoutes';
import { fakeReports, seriesAnswer } from '../../test-harness/analytics-fixtures';
import { validateAnalyticsSearch } from './search';

describe('AnalyticsRoutes', { timeout: 20_000 }, () => {
  it('renders the page its path defines with the search it was given', async () => {
    const reports = fakeReports(() => [seriesAnswer()]);
    await renderView(reports.wrap(<AnalyticsDetailRoute />), { url: '/analytics/qos-isp?days=7', routePath: '/analytics/qos-isp' });
    await settle();
    expect(screen.getByRole('heading', { name: 'QoS ISP' })).toBeTruthy();
    expect(reports.calls[0]!.requests[0]!.params.by).toBe('isp');
  });

  it('renders nothing, and throws nothing, once the address has left Dashboard 360\'s pages (issue 30)', async () => {
    const reports = fakeReports(() => [seriesAnswer()]);
    const view = await renderView(reports.wrap(<AnalyticsDetailRoute />), { url: '/content', routePath: '/content' });
    await settle();
    expect(view.container.textContent).toBe('');
    expect(reports.calls).toHaveLength(0);
  });

  it('validates search params: bad values are dropped, a custom range wins over a preset', () => {
    expect(validateAnalyticsSearch({ days: '7', granularity: 'year', country: 'gb', device: 'ios' })).toEqual({ days: 7, device: 'ios' });
    expect(validateAnalyticsSearch({ days: '7', from: '2024-05-01', to: '2024-05-09' })).toEqual({ from: '2024-05-01', to: '2024-05-09' });
    // Reversed and over-long ranges stay in the URL: the page explains (and offers a swap) or clamps them.
    expect(validateAnalyticsSearch({ from: '2024-05-09', to: '2024-05-01' })).toEqual({ from: '2024-05-09', to: '2024-05-01' });
    expect(validateAnalyticsSearch({ from: '2022-01-01', to: '2024-05-01', currency: 'GBP' })).toEqual({ from: '2022-01-01', to: '2024-05-01', currency: 'GBP' });
    expect(validateAnalyticsSearch({ from: '2024-05-09', currency: 'pounds' })).toEqual({});
  });
});
