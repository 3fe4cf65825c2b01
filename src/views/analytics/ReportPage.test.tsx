import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView, settle } from '../../test-harness/render-view';
import { pageDefFor } from './pages';
import { ReportPage, emptyReasonFor } from './ReportPage';
import { fakeReports, seriesAnswer } from '../../test-harness/analytics-fixtures';
import { signedInAs } from '../../test-harness/view-fixtures';
import { reportCsv } from '../../../common/report-csv';
import type { ReportAnswer } from '../../../common/reports';
import { FIGURES } from '../../../common/figures';

const PAGE = pageDefFor('/analytics/behaviour-video-engagement');
/**
 * The page with the reports' one-value filters (a report without `sessionFilters`: the business
 * reports keep theirs), and the same page on a report that takes a filter set (chips, issue 41).
 */
const ENGAGEMENT = { ...PAGE, report: 'user_base' as const };
const WITH_CHIPS = { ...PAGE, report: 'qos' as const };

describe('ReportPage', { timeout: 20_000 }, () => {
  it('asks for the page report with the URL filters and shows totals, charts and the table', async () => {
    const reports = fakeReports(() => [seriesAnswer()]);
    await renderView(reports.wrap(<ReportPage def={ENGAGEMENT} search={{ from: '2024-05-01', to: '2024-05-03', device: 'web' }} />), { url: ENGAGEMENT.path });
    await settle();
    expect(reports.calls[0]!.requests).toEqual([{ report: 'user_base', params: { from: '2024-05-01', to: '2024-05-03', granularity: 'day', device: 'web', include: 'options' } }]);
    expect(screen.queryByTestId('qoe-filters')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Video Engagement' })).toBeTruthy();
    expect(screen.getByTestId('total-sessions').textContent).toBe('1,700');
    expect(screen.getAllByTestId('line-chart')).toHaveLength(2);
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(within(table).getByText('1,500')).toBeTruthy();
  });

  it('a page whose report takes a filter set shows chips, sends f and offers no one-value filter; an old device= link becomes a chip', async () => {
    const reports = fakeReports(() => [seriesAnswer()]);
    const view = await renderView(reports.wrap(<ReportPage def={WITH_CHIPS} search={{ from: '2024-05-01', to: '2024-05-03', device: 'web', country: 'GB', f: 'cdn:akamai' }} />), { url: WITH_CHIPS.path });
    await settle();
    expect(reports.calls[0]!.requests).toEqual([{ report: 'qos', params: { from: '2024-05-01', to: '2024-05-03', granularity: 'day', f: 'cdn:akamai;device:web;country:GB' } }]);
    expect(screen.getAllByTestId('qoe-chip').map((c) => c.firstChild!.textContent)).toEqual(['CDN is akamai', 'Device type is web', 'Country is GB']);
    expect(screen.queryByLabelText('Device')).toBeNull();
    expect(screen.queryByLabelText('Country')).toBeNull();
    expect(screen.queryByLabelText('Plan')).toBeNull();
    expect(screen.getByTestId('views-of-totals')).toBeTruthy();
    // Removing a chip leaves an address with the set only: the old one-value filters do not come back.
    await view.user.click(screen.getByRole('link', { name: 'Remove the filter "Device type is web"' }));
    expect(view.location()).not.toContain('device=');
    expect(view.location()).not.toContain('country=');
    expect(decodeURIComponent(view.location())).toContain('cdn:akamai;country:GB');
  });

  it('compares with a chosen period on any series page: a second request for it, drawn one for one, and each tile\'s change (issue 41)', async () => {
    const compared = seriesAnswer({
      params: { from: '2024-04-01', to: '2024-04-03', granularity: 'day' },
      rows: [{ period: '2024-04-01', sessions: 100, watchHours: 30 }, { period: '2024-04-02', sessions: 90, watchHours: 20 }, { period: '2024-04-03', sessions: 810, watchHours: 300 }],
      totals: { sessions: 1000, watchHours: 350, avgMinutes: 23.7, viewers: 0 },
    });
    const reports = fakeReports((input) => input.requests.map((r) => (r.params.from === '2024-04-01' ? compared : seriesAnswer())));
    const search = { from: '2024-05-01', to: '2024-05-03', compare: 'custom' as const, cfrom: '2024-04-01', cto: '2024-04-03' };
    await renderView(reports.wrap(<ReportPage def={ENGAGEMENT} search={search} />), { url: ENGAGEMENT.path });
    await settle();
    expect(reports.calls[0]!.requests.map((r) => [r.params.from, r.params.to])).toEqual([['2024-05-01', '2024-05-03'], ['2024-04-01', '2024-04-03']]);
    expect(screen.getByTestId('total-sessions-change').textContent).toBe('+70.0 % vs 2024-04-01 to 2024-04-03');
    expect(screen.getByTestId('total-avgMinutes-change').textContent).toBe('No change vs 2024-04-01 to 2024-04-03');
    expect(screen.getByTestId('total-viewers-change').textContent).toBe('Nothing to compare with in 2024-04-01 to 2024-04-03');
    const legend = screen.getAllByTestId('line-chart')[0]!.closest('figure')!;
    expect(within(legend).getAllByRole('listitem').map((li) => li.textContent!.trim()))
      .toEqual(['Watch time (hours) (this period)', 'Watch time (hours) (2024-04-01 to 2024-04-03)']);
    expect(screen.getByRole('button', { name: 'A chosen period', pressed: true })).toBeTruthy();
  });

  it('sorting a column changes the URL, not the data', async () => {
    const reports = fakeReports(() => [seriesAnswer()]);
    const view = await renderView(reports.wrap(<ReportPage def={ENGAGEMENT} search={{}} />), { url: ENGAGEMENT.path });
    await settle();
    await view.user.click(screen.getByRole('button', { name: 'Sessions' }));
    expect(view.location()).toContain('sort=sessions');
    expect(view.location()).toContain('dir=desc');
  });

  it('says why there is nothing to show', async () => {
    const reports = fakeReports(() => [seriesAnswer({ rows: [] })]);
    await renderView(reports.wrap(<ReportPage def={ENGAGEMENT} search={{ from: '2024-01-01', to: '2024-01-31', country: 'GB' }} />), { url: ENGAGEMENT.path });
    await settle();
    expect(screen.getByTestId('report-empty').textContent).toBe('No data for Video Engagement between 2024-01-01 and 2024-01-31 on any network for viewers in GB. Try a longer range or fewer filters.');
  });

  it('filters by a plan picked from the answer and names it when there is nothing to show', async () => {
    const MONTHLY = '6f1c1b8e-5a4d-4c3b-9a2e-1d0f9e8d7c6b';
    const cohorts = pageDefFor('/analytics/behaviour-cohort-analysis');
    const reports = fakeReports(() => [seriesAnswer({ rows: [], options: { plan: [{ value: MONTHLY, label: 'Monthly' }] } })]);
    await renderView(reports.wrap(<ReportPage def={cohorts} search={{ from: '2024-01-01', to: '2024-01-31', plan: MONTHLY }} />), { url: cohorts.path });
    await settle();
    expect(reports.calls[0]!.requests[0]!.params).toMatchObject({ plan: MONTHLY, include: 'options' });
    expect((screen.getByLabelText('Plan') as HTMLSelectElement).value).toBe(MONTHLY);
    expect(screen.queryByLabelText('Device')).toBeNull();
    expect(screen.queryByLabelText('Granularity')).toBeNull();
    expect(screen.getByTestId('report-empty').textContent).toBe('No data for Cohort Analysis between 2024-01-01 and 2024-01-31 on any network for the plan Monthly. Try a longer range or fewer filters.');
  });

  it('shows the error with Retry, which asks again', async () => {
    let fail = true;
    const reports = fakeReports(() => {
      if (fail) throw new Error('The server could not be reached.');
      return [seriesAnswer()];
    });
    const view = await renderView(reports.wrap(<ReportPage def={ENGAGEMENT} search={{}} />), { url: ENGAGEMENT.path });
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('The server could not be reached.');
    fail = false;
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    await settle();
    expect(reports.calls).toHaveLength(2);
    expect(screen.getByTestId('total-sessions')).toBeTruthy();
  });

  it('a refused request (400) has no Retry, and the plan list says it failed instead of "Loading…"', async () => {
    const cohorts = pageDefFor('/analytics/behaviour-cohort-analysis');
    const reports = fakeReports(() => { throw Object.assign(new Error('plan: no such plan'), { status: 400 }); });
    await renderView(reports.wrap(<ReportPage def={cohorts} search={{}} />), { url: cohorts.path });
    await settle();
    expect(screen.getByRole('alert').textContent).toBe('The report could not be loaded: plan: no such planChange the filters above: asking again with the same ones gives the same answer.');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(within(screen.getByLabelText('Plan')).getByRole('option').textContent).toBe('Could not be loaded');
  });

  it('Payments offers the currencies of the answer; picking one puts it in the URL and asks for it', async () => {
    const def = pageDefFor('/analytics/payments');
    const reports = fakeReports(() => [seriesAnswer({ report: 'payment_summary_report', currency: 'USD', currencies: ['USD', 'GBP', 'EUR', 'CAD'] })]);
    const view = await renderView(reports.wrap(<ReportPage def={def} search={{ from: '2024-05-01', to: '2024-05-03' }} />), { url: def.path });
    await settle();
    const picker = screen.getByLabelText('Currency') as HTMLSelectElement;
    expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual(['USD', 'GBP', 'EUR', 'CAD']);
    expect(picker.value).toBe('USD');
    expect(screen.getByTestId('currency-note').textContent).toBe('Amounts in USD, never added to other currencies; pick GBP, EUR, CAD under Currency.');
    await view.user.selectOptions(picker, 'GBP');
    expect(view.location()).toContain('currency=GBP');
    await renderView(reports.wrap(<ReportPage def={def} search={{ from: '2024-05-01', to: '2024-05-03', currency: 'GBP' }} />), { url: def.path });
    await settle();
    expect(reports.calls.at(-1)!.requests[0]!.params.currency).toBe('GBP');
  });

  it('real-time pages have no date controls and say when they were updated', async () => {
    const def = pageDefFor('/analytics/real-streaming-users');
    const reports = fakeReports(() => [seriesAnswer({ totals: { streams: 4, viewers: 3, peakStreams: 9 } })]);
    await renderView(reports.wrap(<ReportPage def={def} search={{}} />), { url: def.path });
    await settle();
    expect(screen.queryByLabelText('From')).toBeNull();
    expect(screen.getByTestId('live-status').textContent).toBe('Last updated 12:00:00 · Refreshes every 15 seconds');
    expect(emptyReasonFor(def, {}, 'Kids')).toBe('Nobody has watched anything on Kids in the last 30 minutes.');
    // A tile that is not a table column says what it counts on the tile itself.
    expect(screen.getByTestId('total-peakStreams-help').textContent).toBe(FIGURES.peakStreams.help);
    expect(screen.getByTestId('total-peakStreams').closest('div')!.getAttribute('title')).toBe(FIGURES.peakStreams.help);
  });

  describe('long tables and title links (issue 27)', () => {
    const TOP = pageDefFor('/analytics/top-content');
    const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    // 60 titles: watch time grows with i, sessions shrink with it, so the two orders are opposite.
    const titles = (): ReportAnswer => seriesAnswer({
      report: 'dtl_video_engagement',
      columns: [{ key: 'title', label: 'Title', kind: 'text' }, { key: 'sessions', label: 'Sessions', kind: 'count' }, { key: 'watchHours', label: 'Watch time (hours)', kind: 'hours' }],
      rows: Array.from({ length: 60 }, (_, i) => ({ title: `Title ${i + 1}`, contentId: idOf(i + 1), contentType: 'video', sessions: 100 - i, watchHours: i + 1 })),
      totals: { titles: 60, sessions: 4230, watchHours: 1830 },
    });
    const firstTitles = () => within(screen.getByRole('table')).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[0]!.textContent);

    it('shows 25 rows a page with Previous and Next and the range; a new sort goes back to page 1; the CSV holds every row', async () => {
      const reports = fakeReports(() => [titles()]);
      const view = await renderView(reports.wrap(<ReportPage def={TOP} search={{}} />), { url: TOP.path });
      await settle();
      expect(screen.getByTestId('table-range').textContent).toBe('Rows 1–25 of 60');
      expect(firstTitles()).toHaveLength(25);
      expect(firstTitles()[0]).toBe('Title 60');
      const pages = screen.getByRole('navigation', { name: 'Table pages' });
      const previous = within(pages).getByRole('button', { name: 'Previous' });
      const next = within(pages).getByRole('button', { name: 'Next' });
      expect((previous as HTMLButtonElement).disabled).toBe(true);
      await view.user.click(next);
      expect(screen.getByTestId('table-range').textContent).toBe('Rows 26–50 of 60');
      expect(firstTitles()[0]).toBe('Title 35');
      await view.user.click(next);
      expect(screen.getByTestId('table-range').textContent).toBe('Rows 51–60 of 60');
      expect(firstTitles()).toHaveLength(10);
      expect((next as HTMLButtonElement).disabled).toBe(true);
      await view.user.click(previous);
      expect(screen.getByTestId('table-range').textContent).toBe('Rows 26–50 of 60');

      await view.user.click(screen.getByRole('button', { name: 'Sessions' }));
      expect(screen.getByTestId('table-range').textContent).toBe('Rows 1–25 of 60');
      expect(firstTitles()[0]).toBe('Title 1');
      expect(view.location()).toContain('sort=sessions');

      const created: Blob[] = [];
      URL.createObjectURL = (blob: Blob) => { created.push(blob); return 'blob:x'; };
      URL.revokeObjectURL = () => undefined;
      await view.user.click(screen.getByRole('button', { name: 'Download CSV' }));
      const answer = titles();
      const sorted = [...answer.rows].sort((a, b) => (b.sessions as number) - (a.sessions as number));
      expect(await created[0]!.text()).toBe(reportCsv(answer, sorted));
    });

    it('a short table has no pager and says how many rows it has', async () => {
      const reports = fakeReports(() => [seriesAnswer()]);
      await renderView(reports.wrap(<ReportPage def={ENGAGEMENT} search={{}} />), { url: ENGAGEMENT.path });
      await settle();
      expect(screen.getByTestId('table-range').textContent).toBe('3 rows');
      expect(screen.queryByRole('navigation', { name: 'Table pages' })).toBeNull();
    });

    it('each title links to its content item for a role that reaches Content', async () => {
      const reports = fakeReports(() => [titles()]);
      await renderView(reports.wrap(<ReportPage def={TOP} search={{}} />), { url: TOP.path, actors: signedInAs({ 'Dashboard 360': 'read', Content: 'read' }) });
      await settle();
      const link = within(screen.getByRole('table')).getByRole('link', { name: 'Title 60' });
      expect(link.getAttribute('href')).toBe(`/content/video/${idOf(60)}`);
      expect(within(screen.getByRole('table')).getAllByRole('link')).toHaveLength(25);
    });

    it('titles are plain text for a role without Content, and for a row that names no item', async () => {
      const reports = fakeReports(() => [titles()]);
      const first = await renderView(reports.wrap(<ReportPage def={TOP} search={{}} />), { url: TOP.path, actors: signedInAs({ 'Dashboard 360': 'read' }) });
      await settle();
      expect(within(screen.getByRole('table')).queryAllByRole('link')).toEqual([]);
      expect(firstTitles()[0]).toBe('Title 60');
      first.unmount();

      const removed = fakeReports(() => [{ ...titles(), rows: [{ title: 'Removed title', sessions: 3, watchHours: 1 }] }]);
      await renderView(removed.wrap(<ReportPage def={TOP} search={{}} />), { url: TOP.path, actors: signedInAs({ 'Dashboard 360': 'read', Content: 'read' }) });
      await settle();
      expect(within(screen.getByRole('table')).queryAllByRole('link')).toEqual([]);
    });
  });
});
