import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QOE_PAGE_MESSAGES as M } from '../../../common/messages/qoe';
import { PageLogicContext } from '../../page-actors';
import { renderView, settle } from '../../test-harness/render-view';
import { fakeQoeFilters } from '../../test-harness/qoe-fixtures';
import { QoeFilters, chipText } from './QoeFilters';
import { qoeFiltersOf, validateAnalyticsSearch } from './search';

const PATH = '/analytics/qos-overall';
const VALUES = [
  { value: 'android', label: 'Android', sessions: 1200 }, { value: 'ios', label: 'iOS', sessions: 800 }, { value: 'web', label: 'Web', sessions: 1 },
];

async function show(url: string, values: (input: { dimension: string }) => typeof VALUES = () => VALUES) {
  const search = validateAnalyticsSearch(Object.fromEntries(new URL(`http://x${url}`).searchParams));
  const fake = fakeQoeFilters(values);
  const view = await renderView(
    <PageLogicContext.Provider value={{ qoeFilters: fake.logic }}>
      <QoeFilters path={PATH} search={search} filters={qoeFiltersOf(search)} query={{ from: '2026-11-01', to: '2026-11-30', ...(search.f && { f: search.f }) }} />
    </PageLogicContext.Provider>,
    { url },
  );
  return { view, fake };
}

describe('QoeFilters', { timeout: 20_000 }, () => {
  it('says what is applied in chips, each removable by a link to the page without it', async () => {
    const { view } = await show(`${PATH}?days=7&f=device:android,ios;!isp:Slow%2520Net`);
    const chips = screen.getAllByTestId('qoe-chip');
    expect(chips.map((c) => c.textContent)).toEqual(['Device type is android, ios×', 'ISP is not Slow Net×']);
    const remove = screen.getByRole('link', { name: M.removeFilter('ISP is not Slow Net') });
    await view.user.click(remove);
    expect(decodeURIComponent(view.location())).toBe(`${PATH}?days=7&f=device:android,ios`);
  });

  it('names the titles, plans, series and networks filtered on (the values answer labels them), other values as they are', async () => {
    const names: Record<string, { value: string; label: string; sessions: number }[]> = {
      title: [{ value: 'c-1', label: 'Night Drive', sessions: 4 }],
      plan: [{ value: 'p-1', label: 'Sports Plus', sessions: 9 }],
    };
    const { view, fake } = await show(`${PATH}?f=device:android;title:c-1,c-9;!plan:p-1`, ({ dimension }: { dimension: string }) => names[dimension] ?? VALUES);
    await settle();
    expect(screen.getAllByTestId('qoe-chip').map((c) => c.firstChild!.textContent)).toEqual(['Device type is android', 'Title is Night Drive, c-9', 'Plan is not Sports Plus']);
    // Only the named dimensions are asked, once each, under the page's query.
    expect(fake.labelCalls.map((c) => c.dimensions)).toEqual([['title', 'plan']]);
    await view.user.click(screen.getByRole('link', { name: M.removeFilter('Plan is not Sports Plus') }));
    expect(decodeURIComponent(view.location())).toBe(`${PATH}?f=device:android;title:c-1,c-9`);
  });

  it('says when nothing is filtered, and when the address held a filter set it could not read', async () => {
    await show(`${PATH}?f=planet:mars`);
    expect(screen.getByText(M.noFilters)).toBeTruthy();
    expect(screen.getByTestId('qoe-filter-note').textContent).toBe(M.droppedFilter('"planet" is not something sessions can be filtered by.'));
  });

  it('adds a filter: a dimension, its values with session counts, several at once, excluded, into the address', async () => {
    const { view, fake } = await show(`${PATH}?days=30&f=cdn:akamai`);
    await view.user.click(screen.getByRole('button', { name: M.addFilter }));
    await view.user.selectOptions(screen.getByLabelText(M.dimension), 'Device type');
    await settle();
    expect(fake.calls).toEqual([{ dimension: 'device', query: { from: '2026-11-01', to: '2026-11-30', f: 'cdn:akamai' } }]);
    const list = screen.getByRole('list', { name: 'Device type' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([' Android1,200 sessions', ' iOS800 sessions', ' Web1 session']);
    await view.user.click(screen.getByRole('button', { name: M.apply }));
    expect(screen.getByRole('alert').textContent).toBe(M.pickSome);
    await view.user.click(screen.getByRole('checkbox', { name: /Android/ }));
    await view.user.click(screen.getByRole('checkbox', { name: /Web/ }));
    await view.user.click(screen.getByRole('radio', { name: M.exclude }));
    await view.user.type(screen.getByLabelText(M.search), 'io');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    await view.user.click(screen.getByRole('button', { name: M.apply }));
    expect(decodeURIComponent(view.location())).toBe(`${PATH}?days=30&f=cdn:akamai;!device:android,web`);
  });

  it('says the values failed and tries again; Cancel closes the picker', async () => {
    let fail = true;
    const { view } = await show(PATH, () => { if (fail) throw new Error('The server could not be reached.'); return VALUES; });
    await view.user.click(screen.getByRole('button', { name: M.addFilter }));
    await view.user.selectOptions(screen.getByLabelText(M.dimension), 'ISP');
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('The server could not be reached.');
    fail = false;
    await view.user.click(screen.getByRole('button', { name: M.retry }));
    await settle();
    expect(screen.getByRole('checkbox', { name: /iOS/ })).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: M.cancel }));
    expect(screen.queryByRole('form', { name: M.addFilter })).toBeNull();
    expect(screen.getByRole('button', { name: M.addFilter })).toBeTruthy();
  });

  it('reads a not-reported value as such', () => {
    expect(chipText({ dimension: 'browser', exclude: false, values: ['', 'Firefox'] })).toBe('Browser is Not reported, Firefox');
  });
});
