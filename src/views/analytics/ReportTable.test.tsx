import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../../test-support/render-view';
import { ReportTable, sortRows, tableText } from './ReportTable';
import { toCsv } from './format';
import { seriesAnswer } from '../../test-support/analytics-fixtures';

describe('ReportTable', { timeout: 20_000 }, () => {
  it('shows the rows in the given order, marks the sorted column and asks to flip it', async () => {
    const answer = seriesAnswer();
    const rows = sortRows(answer.rows, { key: 'sessions', dir: 'desc' });
    const onSort = vi.fn();
    const view = await renderView(<ReportTable caption="Engagement" answer={answer} rows={rows} sort={{ key: 'sessions', dir: 'desc' }} onSort={onSort} filename="x.csv" />);
    const body = screen.getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell')[1]!.textContent);
    expect(body).toEqual(['1,500', '120', '80']);
    expect(screen.getByRole('columnheader', { name: 'Sessions ▼' }).getAttribute('aria-sort')).toBe('descending');
    await view.user.click(screen.getByRole('button', { name: 'Sessions ▼' }));
    expect(onSort).toHaveBeenCalledWith('sessions', 'asc');
  });

  it('exports exactly the text shown', async () => {
    const answer = seriesAnswer();
    const created: Blob[] = [];
    URL.createObjectURL = (blob: Blob) => { created.push(blob); return 'blob:x'; };
    URL.revokeObjectURL = () => undefined;
    const view = await renderView(<ReportTable caption="Engagement" answer={answer} rows={answer.rows} sort={{ key: undefined, dir: 'desc' }} onSort={() => undefined} filename="x.csv" />);
    await view.user.click(screen.getByRole('button', { name: 'Download CSV' }));
    const { headers, cells } = tableText(answer, answer.rows);
    expect(await created[0]!.text()).toBe(toCsv(headers, cells));
    expect(cells[2]).toEqual(['2024-05-03', '1,500', '610.2']);
  });
});
