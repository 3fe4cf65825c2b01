import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView, settle } from '../../test-harness/render-view';
import { FIGURES } from '../../../common/figures';
import { signedInAs } from '../../test-harness/view-fixtures';
import { OverviewPage, overviewRequests, payingListSearch } from './OverviewPage';
import { fakeReports, seriesAnswer } from '../../test-harness/analytics-fixtures';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { siteProfile } from '../../../machines/test-harness/fixtures';
import { systemActor } from '../../app-actor';
import { sessionWith } from '../../test-harness/view-fixtures';
import { isoDay } from '../../../common/reports';
import { siteDayOf } from '../../../common/site-day';

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

  it('Details links keep the range, granularity and network; Net revenue shows each currency apart', async () => {
    const money = { currency: 'USD', currencies: ['USD', 'GBP'], currencyTotals: { GBP: { netRevenue: 50000 }, USD: { netRevenue: 111764 } } };
    const reports = fakeReports((input) => input.requests.map((r) => seriesAnswer({
      ...(r.report === 'payment_summary_report' ? { ...money, totals: { netRevenue: 111764 } } : {}),
    })));
    await renderView(reports.wrap(<OverviewPage search={{ from: '2024-05-01', to: '2024-05-09', granularity: 'week', network: 'kids' }} />), { url: '/analytics' });
    await settle();
    const details = screen.getAllByRole('link', { name: 'Details' }).map((a) => a.getAttribute('href'));
    expect(details[0]).toBe('/analytics/audience-overview?from=2024-05-01&to=2024-05-09&granularity=week&network=kids');
    expect(details).toHaveLength(7);
    expect(details.every((href) => href!.endsWith('?from=2024-05-01&to=2024-05-09&granularity=week&network=kids'))).toBe(true);
    expect(screen.getByTestId('headline-netRevenue').textContent).toBe('$1,117.64');
    expect(screen.getByRole('list', { name: 'Net revenue per currency' }).textContent).toBe('GBP: £500.00USD: $1,117.64');
  });

  it('a reversed range is explained beside the fields with a swap, and nothing is asked', async () => {
    const reports = fakeReports((input) => input.requests.map(() => seriesAnswer()));
    await renderView(reports.wrap(<OverviewPage search={{ from: '2024-05-09', to: '2024-05-01' }} />), { url: '/analytics' });
    await settle();
    expect(reports.calls).toHaveLength(0);
    expect(screen.getByTestId('range-reversed').textContent).toBe('The start date (2024-05-09) is after the end date (2024-05-01): nothing was loaded. Swap them to see 2024-05-01 to 2024-05-09. Swap dates');
    expect(screen.getByRole('link', { name: 'Swap dates' }).getAttribute('href')).toBe('/analytics?from=2024-05-01&to=2024-05-09');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('a range over 366 days is clamped with a note', async () => {
    const reports = fakeReports((input) => input.requests.map(() => seriesAnswer()));
    await renderView(reports.wrap(<OverviewPage search={{ from: '2022-01-01', to: '2024-05-01' }} />), { url: '/analytics' });
    await settle();
    expect(reports.calls[0]!.requests[0]!.params).toMatchObject({ from: '2023-05-02', to: '2024-05-01' });
    expect(screen.getByTestId('range-note').textContent).toBe('Reports cover at most 366 days: showing 2023-05-02 to 2024-05-01 instead of from 2022-01-01.');
  });

  it("asks for the last days ending on the site's today, in its time zone (issue 38)", async () => {
    // A zone whose today is not UTC's today right now: 14 hours ahead from 10:00 UTC (its midnight), 11 hours behind before it (before 11:00 UTC).
    const zone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const today = siteDayOf(new Date(), zone);
    expect(today).not.toBe(isoDay(new Date()));
    const reports = fakeReports((input) => input.requests.map(() => seriesAnswer()));
    await renderView(reports.wrap(<OverviewPage search={{ days: 7 }} />), {
      url: '/analytics?days=7',
      actors: {
        auth: { readStoredSession: fakeActor(() => ({ ...sessionWith({ 'Dashboard 360': 'read' }), profile: siteProfile({ defaultTimezone: zone }) })) },
        session: { verifySession: fakeActor(() => ({ valid: true, status: 200 })), verifySite: fakeActor(() => ({ provider: 'aws' })) },
      },
      given: (root) => systemActor(root, 'session').send({ type: 'session.start', path: '/analytics', defaultTimezone: undefined }),
    });
    await settle();
    expect(reports.calls.at(-1)!.requests[0]!.params).toMatchObject({ to: today });
    expect(screen.getByRole('button', { name: /7 days/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('builds its requests from the range in the URL', () => {
    expect(overviewRequests({ from: '2024-05-01', to: '2024-05-07' }, '2024-06-01')[0]).toEqual({
      report: 'user_base', params: { from: '2024-05-01', to: '2024-05-07', granularity: 'day', compare: 'previous' },
    });
  });

  it('each tile shows its definition; "Paying subscribers" links to Users filtered to them when the range ends today (issue 27)', async () => {
    const reports = fakeReports((input) => input.requests.map(() => seriesAnswer()));
    await renderView(reports.wrap(<OverviewPage search={{ days: 7, network: 'kids' }} />), {
      url: '/analytics?days=7&network=kids', actors: signedInAs({ 'Dashboard 360': 'read', 'Customer Support': 'read' }),
    });
    await settle();
    const tile = screen.getByRole('region', { name: 'Paying subscribers' });
    expect(document.getElementById(tile.getAttribute('aria-describedby')!)?.textContent).toBe(FIGURES.subscribers.help);
    expect(screen.getByRole('region', { name: 'Sessions' }).getAttribute('aria-describedby')).toBe('headline-sessions-help');
    expect(document.getElementById('headline-sessions-help')?.textContent).toBe(FIGURES.sessions.help);
    const link = screen.getByTestId('headline-subscribers').querySelector('a');
    expect(link?.getAttribute('href')).toBe('/users?state=paying&network=kids');
    expect(link?.textContent).toBe(screen.getByTestId('headline-subscribers').textContent);
  });

  it('"Paying subscribers" is plain text for a role without Users, and Users is "now": no link for a range ending before today', async () => {
    const reports = fakeReports((input) => input.requests.map(() => seriesAnswer()));
    await renderView(reports.wrap(<OverviewPage search={{ days: 7 }} />), { url: '/analytics?days=7', actors: signedInAs({ 'Dashboard 360': 'read' }) });
    await settle();
    expect(screen.getByTestId('headline-subscribers').querySelector('a')).toBeNull();
    expect(payingListSearch({ days: 30 }, '2024-06-01')).toEqual({ state: 'paying' });
    expect(payingListSearch({ from: '2024-05-01', to: '2024-06-01', network: 'kids' }, '2024-06-01')).toEqual({ state: 'paying', network: 'kids' });
    expect(payingListSearch({ from: '2024-05-01', to: '2024-05-31' }, '2024-06-01')).toBeNull();
  });
});
