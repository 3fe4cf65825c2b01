import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { ReportTable, tableText } from './ReportTable';
import { sortRows } from '../../../machines/report.machine';
import { FIGURES } from '../../../common/figures';
import { seriesAnswer } from '../../test-harness/analytics-fixtures';

describe('ReportTable', { timeout: 20_000 }, () => {
  it('shows the rows in the given order, marks the sorted column and asks to flip it', async () => {
    const answer = seriesAnswer();
    const rows = sortRows(answer.rows, { key: 'sessions', dir: 'desc' });
    const onSort = vi.fn();
    const view = await renderView(<ReportTable caption="Engagement" answer={answer} rows={rows} sort={{ key: 'sessions', dir: 'desc' }} onSort={onSort} onDownload={vi.fn()} />);
    const body = screen.getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[1]!.textContent);
    expect(body).toEqual(['1,500', '120', '80']);
    expect(screen.getByRole('columnheader', { name: 'Sessions ▼' }).getAttribute('aria-sort')).toBe('descending');
    await view.user.click(screen.getByRole('button', { name: 'Sessions ▼' }));
    expect(onSort).toHaveBeenCalledWith('sessions', 'asc');
  });

  it('writes the Real-time report\'s minutes in the site\'s zone, like its "Last updated"; days are the site\'s days as the server counted them, never shifted again (issue 38)', () => {
    const answer = { ...seriesAnswer(), columns: [{ key: 'period', label: 'Minute', kind: 'period' as const }], rows: [{ period: '2026-12-05T22:35:00.000Z' }, { period: '2024-05-01' }] };
    expect(tableText(answer, answer.rows, 'America/New_York').cells).toEqual([['17:35'], ['1 May 2024']]);
    expect(tableText(answer, answer.rows).cells).toEqual([['22:35'], ['1 May 2024']]);
  });

  it('asks for the CSV with Download CSV and shows money, hours and percentages for reading', async () => {
    const answer = { ...seriesAnswer(), currency: 'GBP', columns: [...seriesAnswer().columns, { key: 'revenue', label: 'Revenue', kind: 'money' as const }, { key: 'successPct', label: 'Success rate (%)', kind: 'percent' as const }],
      rows: seriesAnswer().rows.map((r, i) => ({ ...r, revenue: [123456, 99, null][i]!, successPct: [97.8, 100, 0][i]! })) };
    const onDownload = vi.fn();
    const view = await renderView(<ReportTable caption="Engagement" answer={answer} rows={answer.rows} sort={{ key: undefined, dir: 'desc' }} onSort={() => undefined} onDownload={onDownload} />);
    await view.user.click(screen.getByRole('button', { name: 'Download CSV' }));
    // The report machine makes and downloads the file (machines/report.machine.test.ts: table.download).
    expect(onDownload).toHaveBeenCalledTimes(1);
    const { cells } = tableText(answer, answer.rows);
    // Days read in the console's one date format on screen (the site's days as the server counted them, not shifted); the CSV keeps ISO dates.
    expect(cells[0]).toEqual(['1 May 2024', '120', '40.5', '£1,234.56', '97.8 %']);
    // Hours and percentages keep one decimal on screen so a column lines up; the CSV keeps the plain value.
    expect(cells[1]).toEqual(['2 May 2024', '80', '22.0', '£0.99', '100.0 %']);
  });

  it('says what each figure column counts: a tooltip on its header and a visible legend (issue 27)', async () => {
    const answer = {
      ...seriesAnswer(),
      columns: [{ key: 'period', label: 'Period', kind: 'period' as const }, { key: 'subscribers', label: 'Paying subscribers (end)', kind: 'count' as const, figure: 'subscribers' },
        { key: 'trialing', label: 'In trial (end)', kind: 'count' as const, figure: 'trialing' }],
      rows: [{ period: '2024-05-01', subscribers: 10, trialing: 2 }],
    };
    await renderView(<ReportTable caption="Audience" answer={answer} rows={answer.rows} sort={{ key: 'period', dir: 'asc' }} onSort={vi.fn()} onDownload={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Paying subscribers (end)' }).getAttribute('title')).toBe(FIGURES.subscribers.help);
    expect(screen.getByRole('button', { name: /^Period/ }).getAttribute('title')).toBeNull();
    const legend = document.querySelector<HTMLElement>('dl[aria-label="What the columns count"]')!;
    expect(within(legend).getAllByRole('term').map((t) => t.textContent)).toEqual(['Paying subscribers (end): ', 'In trial (end): ']);
    expect(within(legend).getAllByRole('definition').map((d) => d.textContent)).toEqual([FIGURES.subscribers.help, FIGURES.trialing.help]);
  });

  it('reads help by the column\'s figure, not its key, and gives columns of one figure one legend line', async () => {
    // A cohort's "Subscribers" column has the key of the Dashboard's paying subscribers but not its meaning.
    const answer = {
      ...seriesAnswer(),
      columns: [{ key: 'cohort', label: 'Cohort (first subscription)', kind: 'text' as const },
        { key: 'subscribers', label: 'Subscribers', kind: 'count' as const, figure: 'cohortSubscribers' },
        { key: 'm0', label: 'Month 0 (%)', kind: 'percent' as const, figure: 'retentionPct' },
        { key: 'm1', label: 'Month 1 (%)', kind: 'percent' as const, figure: 'retentionPct' }],
      rows: [{ cohort: '2024-05', subscribers: 10, m0: 100, m1: 40 }],
    };
    await renderView(<ReportTable caption="Cohorts" answer={answer} rows={answer.rows} sort={{ key: undefined, dir: 'desc' }} onSort={vi.fn()} onDownload={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Subscribers' }).getAttribute('title')).toBe(FIGURES.cohortSubscribers.help);
    expect(screen.getByRole('button', { name: 'Month 1 (%)' }).getAttribute('title')).toBe(FIGURES.retentionPct.help);
    const legend = document.querySelector<HTMLElement>('dl[aria-label="What the columns count"]')!;
    expect(within(legend).getAllByRole('term').map((t) => t.textContent)).toEqual(['Subscribers: ', 'Month n (%): ']);
    expect(within(legend).getAllByRole('definition').map((d) => d.textContent)).toEqual([FIGURES.cohortSubscribers.help, FIGURES.retentionPct.help]);
  });
});
