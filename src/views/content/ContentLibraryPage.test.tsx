import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Roles } from '../../../common/contract';
import { OWN_MESSAGES } from '../../../common/messages';
import type { ContentListPage } from '../../../machines/content-browser.machine';
import type { ListQuery } from '../../../machines/list.machine';
import { fakeActor, pendingActor } from '../../../machines/test-harness/fakes';
import { renderView } from '../../test-harness/render-view';
import { ContentLibraryPage } from './ContentLibraryPage';
import { contentRow, signedInAs } from '../../test-harness/content-fixtures';

const PAGE: ContentListPage = { items: [contentRow(1), contentRow(2, { title: 'Storm Chasers', status: 'draft', kind: 'video' })], total: 45, start: 0 };

function show(options: { roles?: Roles; loadList?: ReturnType<typeof fakeActor>; bulkMatching?: ReturnType<typeof fakeActor>; search?: Record<string, unknown> } = {}) {
  return renderView(<ContentLibraryPage />, {
    url: '/content',
    actors: {
      auth: { readStoredSession: fakeActor(() => signedInAs(options.roles ?? { Content: 'write' })) },
      // The library's rows are its list child's (issue 39): its fetchPage answers with the page.
      contentBrowser: { fetchPage: options.loadList ?? fakeActor(() => PAGE), ...(options.bulkMatching ? { bulkMatching: options.bulkMatching } : {}) },
    },
    given: (root) => { root.send({ type: 'path.changed', path: '/content', ...(options.search ? { search: options.search } : {}) }); },
  });
}

describe('ContentLibraryPage', () => {
  it("shows the last page for an address's page past it, not an empty library (issue 38)", async () => {
    const starts: number[] = [];
    await show({
      search: { page: 9 },
      loadList: fakeActor((query: ListQuery) => {
        starts.push(query.offset);
        return { items: query.offset < 45 ? [contentRow(41), contentRow(42)] : [], total: 45 };
      }),
    });
    expect(await screen.findByText('41–42 of 45')).toBeTruthy();
    expect(screen.queryByText(OWN_MESSAGES.contentEmpty)).toBeNull();
    expect(starts).toEqual([160, 40]);
  });

  it('shows the spec §2.6 menu entries (Create New, Video License and Country Group built as pages, issue 29), the kind tabs with Video selected, and the rows', async () => {
    await show();
    const menu = screen.getByRole('navigation', { name: 'Content menu' });
    expect(within(menu).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Library', '/'], ['Create New', '/content/new'], ['Video License', '/content/licences'], ['Country Group', '/content/country-groups'],
      ['Media', '/content/media'],
    ]);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Video', 'Series', 'Episode', 'Live']);
    expect(screen.getByRole('tab', { name: 'Video' })).toHaveProperty('ariaSelected', 'true');
    const link = screen.getByRole('link', { name: 'Storm Chasers' });
    expect(link.getAttribute('href')).toBe(`/content/video/${contentRow(2).id}`);
    const row = link.closest('tr')!;
    expect(within(row).getByText('Draft')).toBeTruthy();
    expect(within(row).getByText('1:02:05')).toBeTruthy();
    expect(within(row).getByText('1,202')).toBeTruthy();
    expect(screen.getByText('1–2 of 45')).toBeTruthy();
  });

  it('sends what the person does: search, tab, status filter, sort, next page', async () => {
    const view = await show();
    await view.user.type(screen.getByLabelText('Search titles'), 'st');
    await view.user.click(screen.getByRole('tab', { name: 'Live' }));
    await view.user.selectOptions(screen.getByLabelText('Status'), 'scheduled');
    await view.user.click(screen.getByRole('button', { name: 'Title' }));
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(view.sentTo('contentBrowser')).toEqual([
      { type: 'list.search', keyword: 's' },
      { type: 'list.search', keyword: 'st' },
      { type: 'list.tab', index: 3 },
      { type: 'list.status', status: 'scheduled' },
      { type: 'list.sort', sort: 'title' },
      { type: 'list.page', start: 20 },
    ]);
  });

  it('marks the sorted column and sorts it the other way on a second click', async () => {
    const view = await show();
    const updated = screen.getByRole('columnheader', { name: /Updated/ });
    expect(updated.getAttribute('aria-sort')).toBe('descending');
    await view.user.click(within(updated).getByRole('button'));
    expect(view.sentTo('contentBrowser')).toEqual([{ type: 'list.sort', sort: 'updated' }]);
  });

  it('offers row selection and bulk actions to a write role', async () => {
    const view = await show({ roles: { Content: 'contributor' } });
    const bulk = screen.getByRole('group', { name: 'Bulk actions' });
    expect(within(bulk).getByRole('button', { name: 'Unpublish' })).toHaveProperty('disabled', true);
    await view.user.click(screen.getByRole('checkbox', { name: 'Select Storm Chasers' }));
    await view.user.click(screen.getByRole('checkbox', { name: 'Select all rows of this page' }));
    expect(view.sentTo('contentBrowser')).toEqual([
      { type: 'list.select', id: contentRow(2).id, selected: true },
      { type: 'list.selectPage', selected: true },
    ]);
    expect(within(bulk).getByText('2 selected')).toBeTruthy();
    await view.user.click(within(bulk).getByRole('button', { name: 'Unpublish' }));
    expect(view.sentTo('contentBrowser').at(-1)).toEqual({ type: 'list.bulk', status: 'unpublished' });
  });

  it('offers "Select all N matching" once the page is selected, and asks before the bulk action, naming the count (issue 29)', async () => {
    const sent: unknown[] = [];
    const view = await show({ bulkMatching: fakeActor((input: unknown) => { sent.push(input); return 45; }) });
    expect(screen.queryByRole('button', { name: /Select all 45 matching/ })).toBeNull();
    await view.user.click(screen.getByRole('checkbox', { name: 'Select all rows of this page' }));
    await view.user.click(screen.getByRole('button', { name: 'Select all 45 matching' }));
    const bulk = screen.getByRole('group', { name: 'Bulk actions' });
    expect(within(bulk).getByText('All 45 matching selected')).toBeTruthy();
    await view.user.click(within(bulk).getByRole('button', { name: 'Unpublish' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Unpublish 45 items?' });
    expect(dialog.textContent).toContain('45 items are taken off the service now.');
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await view.user.click(within(bulk).getByRole('button', { name: 'Unpublish' }));
    await view.user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Unpublish 45' }));
    expect(view.sentTo('contentBrowser').slice(-2)).toEqual([{ type: 'list.bulk', status: 'unpublished' }, { type: 'list.confirm' }]);
    await screen.findByText('0 selected');
    expect(sent).toEqual([{ status: 'unpublished', expected: 45, mediaType: 'video', q: '', filterStatus: null }]);
  });

  it('shows the filters from the address as chips, and "Clear filters" on an empty result (issue 29)', async () => {
    const view = await show({ search: { q: 'zebra', status: 'draft' }, loadList: fakeActor(() => ({ items: [], total: 0, start: 0 })) });
    const chips = screen.getByRole('list', { name: 'Filters' });
    expect(within(chips).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Search: “zebra”×', 'Status: Draft×']);
    expect(screen.getByLabelText<HTMLInputElement>('Search titles').value).toBe('zebra');
    await view.user.click(within(chips).getByRole('button', { name: 'Remove filter: Draft' }));
    expect(view.sentTo('contentBrowser')).toEqual([{ type: 'list.status', status: null }]);
    await view.user.click(await screen.findByRole('button', { name: 'Clear filters' }));
    expect(view.sentTo('contentBrowser').at(-1)).toEqual({ type: 'list.clearFilters' });
    expect(screen.queryByRole('list', { name: 'Filters' })).toBeNull();
  });

  it('shows a read role no selection and no bulk actions', async () => {
    await show({ roles: { Content: 'read' } });
    expect(screen.queryByRole('group', { name: 'Bulk actions' })).toBeNull();
    expect(screen.queryAllByRole('checkbox')).toEqual([]);
    expect(screen.getByRole('link', { name: 'Storm Chasers' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Create New' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Library' })).toBeTruthy();
  });

  it('says so when nothing matches', async () => {
    await show({ loadList: fakeActor(() => ({ items: [], total: 0, start: 0 })) });
    expect(screen.getByText(OWN_MESSAGES.contentEmpty)).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it('shows loading while the list is asked for', async () => {
    await show({ loadList: pendingActor() });
    expect(screen.getByRole('status').textContent).toBe('Loading…');
  });

  it('shows a failure with a way to try again', async () => {
    const view = await show({ loadList: fakeActor(() => { throw Object.assign(new Error('The content library could not be loaded.'), { status: 500 }); }) });
    expect(screen.getByRole('alert').textContent).toContain(OWN_MESSAGES.contentLoadFailed);
    await view.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(view.sentTo('contentBrowser')).toEqual([{ type: 'list.retry' }]);
  });
});
