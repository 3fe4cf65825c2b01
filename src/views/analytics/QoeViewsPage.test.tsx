import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QOE_PAGE_MESSAGES as M } from '../../../common/messages/qoe';
import type { QoeViewsAnswer } from '../../../common/qoe';
import { PageLogicContext } from '../../page-actors';
import { renderView, settle } from '../../test-harness/render-view';
import { fakeQoeFilters, fakeQoeViews, viewRow } from '../../test-harness/qoe-fixtures';
import { QoeViewsPage, watchedText } from './QoeViewsPage';
import type { AnalyticsSearch } from './search';

const page = (total: number, n: number, p = 1): QoeViewsAnswer => ({
  success: true, total, page: p, pageSize: 50, rows: Array.from({ length: n }, (_, i) => viewRow({ sessionId: `0b6f3c2e-1111-4a4a-9b9b-${String(i).padStart(12, '0')}` })),
});

async function show(search: AnalyticsSearch, url: string, answer: () => QoeViewsAnswer) {
  const views = fakeQoeViews(answer);
  const view = await renderView(
    <PageLogicContext.Provider value={{ qoeViews: views.logic, qoeFilters: fakeQoeFilters().logic }}><QoeViewsPage search={search} /></PageLogicContext.Provider>,
    { url },
  );
  await settle();
  return { view, views };
}

describe('QoeViewsPage', { timeout: 20_000 }, () => {
  it('lists the sessions of the range and filters of the address, with the same chips, each opening its view', async () => {
    const search: AnalyticsSearch = { from: '2026-11-01', to: '2026-11-30', f: 'device:android;cdn:akamai', page: 2 };
    const { views } = await show(search, '/analytics/views?from=2026-11-01&to=2026-11-30&page=2', () => page(73, 23, 2));
    expect(views.calls).toEqual([{ query: { from: '2026-11-01', to: '2026-11-30', f: 'device:android;cdn:akamai' }, page: 2, sort: 'startedAt', dir: 'desc' }]);
    expect(screen.getByRole('heading', { name: M.viewsTitle })).toBeTruthy();
    expect(screen.getAllByTestId('qoe-chip').map((c) => c.textContent)).toEqual(['Device type is android×', 'CDN is akamai×']);
    expect(screen.getByTestId('views-range').textContent).toBe(M.viewsRange(51, 73, 73));
    const rows = screen.getAllByTestId('view-row');
    expect(rows).toHaveLength(23);
    const cells = within(rows[0]!).getAllByRole('cell').map((td) => td.textContent);
    expect(cells.slice(1)).toEqual(['ann@example.test', 'Night Drive', 'android', 'Slow Net', 'akamai', '19:50', '2,400', '4.2 %', '2,100', '']);
    const open = within(rows[0]!).getByRole('link');
    expect(open.getAttribute('href')).toMatch(/^\/analytics\/views\/0b6f3c2e-1111-4a4a-9b9b-000000000000\?/);
    expect(screen.getByRole('button', { name: M.nextPage }).hasAttribute('disabled')).toBe(true);
  });

  it('says which range preset the list covers (aria-pressed)', async () => {
    await show({ days: 7 }, '/analytics/views?days=7', () => page(1, 1));
    expect(screen.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('sorts on the server by a column, from the first page, through the address', async () => {
    const { view } = await show({ days: 7, page: 2 }, '/analytics/views?days=7&page=2', () => page(120, 50, 2));
    await view.user.click(screen.getByRole('button', { name: 'Rebuffering (%)' }));
    expect(view.location()).toBe('/analytics/views?days=7&sort=rebufferPct&dir=desc');
    await view.user.click(screen.getByRole('button', { name: M.previousPage }));
    expect(view.location()).toContain('page=1');
  });

  it('says when no session matches, and offers Retry after a failure it can fix', async () => {
    await show({ days: 7 }, '/analytics/views?days=7', () => page(0, 0));
    expect(screen.getByTestId('views-empty').textContent).toBe(M.viewsEmpty);
  });

  it('offers Retry when the server failed', async () => {
    let fail = true;
    const { view } = await show({ days: 7 }, '/analytics/views?days=7', () => { if (fail) throw Object.assign(new Error('The server failed.'), { status: 500 }); return page(1, 1); });
    expect(screen.getByRole('alert').textContent).toContain('The server failed.');
    fail = false;
    await view.user.click(screen.getByRole('button', { name: M.retry }));
    await settle();
    expect(screen.getAllByTestId('view-row')).toHaveLength(1);
  });

  it('reads watched time as minutes and seconds', () => {
    expect(watchedText(65)).toBe('1:05');
    expect(watchedText(3725)).toBe('1:02:05');
  });
});
