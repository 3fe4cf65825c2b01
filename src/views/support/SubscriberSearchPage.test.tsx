import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SEARCH_TOTAL_CAP, SEARCH_TOTAL_CAPPED_TEXT, SUBSCRIBER_SEARCH_HELP, SUPPORT_MESSAGES } from '../../../common/support';
import { renderView } from '../../test-harness/render-view';
import { SubscriberSearchPage } from './SubscriberSearchPage';
import { searchStartOf, type UsersSearch } from './search';
import { SubscriberSearchHost } from './support-logic';
import { fakeSupportLogic, listItem, searchPage } from '../../test-harness/support-fixtures';

async function renderSearch(options: Parameters<typeof fakeSupportLogic>[0] = {}, address: UsersSearch = {}) {
  const fake = fakeSupportLogic(options);
  const view = await renderView(
    <SubscriberSearchHost input={searchStartOf(address)}><SubscriberSearchPage /></SubscriberSearchHost>,
    { url: '/users', pages: fake.pages },
  );
  return { ...fake, view };
}

describe('SubscriberSearchPage', () => {
  it('lists the newest subscribers with e-mail and phone masked, each linking to its page', async () => {
    await renderSearch();
    expect(screen.getByRole('heading', { name: 'Users' })).toBeTruthy();
    expect(screen.getByText('2 subscribers')).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('ma•••@example.com')).toBeTruthy();
    expect(within(rows[0]!).getByText('•••• 4321')).toBeTruthy();
    expect(within(rows[0]!).getByRole('link', { name: 'Maria Lopez 1' }).getAttribute('href')).toBe(`/users/${listItem(1).id}`);
  });

  it('says under the search box what a search matches, the domain and a word of the e-mail among it (issue 38)', async () => {
    await renderSearch();
    const box = screen.getByRole('searchbox', { name: 'Search subscribers', description: SUBSCRIBER_SEARCH_HELP.help });
    expect(box.getAttribute('placeholder')).toBe('E-mail, domain, name, phone or id');
    expect(SUBSCRIBER_SEARCH_HELP.help).toContain('everyone at a domain ("example.org" or "@example.org", its subdomains too)');
  });

  it('searches what the agent typed once they pause, and filters by status at once', async () => {
    const { view, searches } = await renderSearch({ search: (r) => searchPage(r.query ? [listItem(7, { name: 'Maria Zed' })] : [listItem(1)]) });
    await view.user.type(screen.getByLabelText('Search subscribers'), 'maria');
    expect(searches).toHaveLength(1);
    await waitFor(() => expect(searches.at(-1)?.query).toBe('maria'));
    expect(searches).toHaveLength(2);
    expect(await screen.findByRole('link', { name: 'Maria Zed' })).toBeTruthy();
    await view.user.selectOptions(screen.getByLabelText('Status'), 'Suspended');
    await waitFor(() => expect(searches.at(-1)).toEqual({ query: 'maria', status: 'suspended', state: null, plan: null, network: null, page: 1, pageSize: 20 }));
  });

  it('says "More than 10,000 matches" for a search past the cap, and pages up to the cap (issue 38)', async () => {
    const { view, searches } = await renderSearch({
      search: (r) => (r.query ? searchPage([listItem(r.page)], SEARCH_TOTAL_CAP, r.page, true) : searchPage([listItem(1)], 1)),
    });
    expect(screen.getByText('1 subscriber')).toBeTruthy();
    await view.user.type(screen.getByLabelText('Search subscribers'), 'inbox');
    expect(await screen.findByText('More than 10,000 matches')).toBeTruthy();
    expect(SEARCH_TOTAL_CAPPED_TEXT).toBe('More than 10,000 matches');
    expect(screen.queryByText('10,000 subscribers')).toBeNull();
    expect(screen.getByText('Page 1 of 500')).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(searches.at(-1)).toMatchObject({ query: 'inbox', page: 2 }));
  });

  it('pages with Previous and Next', async () => {
    const { view, searches } = await renderSearch({ search: (r) => searchPage([listItem(r.page)], 45, r.page) });
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', true);
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeTruthy());
    expect(searches.at(-1)?.page).toBe(2);
  });

  it('keeps the status filter and the page in the address, never the typed text (issue 38: personal data)', async () => {
    const { view, searches } = await renderSearch({ search: (r) => searchPage([listItem(r.page)], 45, r.page) });
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(view.location()).toBe('/users?page=2'));
    await view.user.selectOptions(screen.getByLabelText('Status'), 'Suspended');
    await waitFor(() => expect(view.location()).toBe('/users?status=suspended'));
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(view.location()).toBe('/users?status=suspended&page=2'));
    await view.user.type(screen.getByLabelText('Search subscribers'), 'maria@example.com');
    await waitFor(() => expect(searches.at(-1)?.query).toBe('maria@example.com'));
    // Typing goes back to page 1; the text itself never reaches the address.
    expect(view.location()).toBe('/users?status=suspended');
  });

  it("shows the last page for an address's page past it, not an empty page (issue 38)", async () => {
    const { searches } = await renderSearch({ search: (r) => searchPage(r.page <= 3 ? [listItem(r.page)] : [], 45, r.page) }, { page: 9 });
    expect(await screen.findByText('Page 3 of 3')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Maria Lopez 3' })).toBeTruthy();
    expect(searches.map((r) => r.page)).toEqual([9, 3]);
  });

  it('says when nothing matches', async () => {
    await renderSearch({ search: () => searchPage([]) });
    expect(screen.getByText(SUPPORT_MESSAGES.noResults)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a failed search with Retry, which searches again', async () => {
    let fail = true;
    const { view, searches } = await renderSearch({
      search: () => { if (fail) throw new Error('The server could not be reached. Please try again.'); return searchPage([listItem(3)]); },
    });
    expect(screen.getByRole('alert').textContent).toContain('The server could not be reached. Please try again.');
    fail = false;
    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Maria Lopez 3' })).toBeTruthy();
    expect(searches).toHaveLength(2);
  });
});
