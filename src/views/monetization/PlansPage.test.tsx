import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { PLAN_FIGURES } from '../../../common/plan-figures';
import { renderView } from '../../test-harness/render-view';
import { monetizationFakes, monetizationTestPages } from '../../test-harness/monetization-pages';
import { PlansPage } from './PlansPage';
import { authAs, PLAN } from '../../test-harness/monetization-fixtures';
import { revision } from '../../test-harness/history-fakes';

const pageFakes = monetizationFakes();
const pages = monetizationTestPages(pageFakes);

pageFakes.lists.plans = { items: [PLAN], total: 1 };
pageFakes.records.plan = {
  id: PLAN.id, version: 3, data: null,
  values: { name: 'Premium Monthly', description: '', billingPeriod: 'month', trialDays: '7', deviceLimit: '4', status: 'active', priceCurrencies: ['USD'], priceAmounts: ['9.99'] },
};

describe('PlansPage', () => {
  it("opens the list on the address's search, status and page and writes the person's changes back (issue 38)", async () => {
    pageFakes.reads.length = 0;
    pageFakes.written.length = 0;
    const view = await renderView(<PlansPage />, { url: '/monetization/plans?search=Premium&status=archived&page=2', pages, actors: authAs('read') });
    expect(pageFakes.reads.filter((r) => r.page === 'plans').map((r) => r.query)).toEqual([{ search: 'Premium', filters: { status: 'archived' }, offset: 20, limit: 20 }]);
    expect((screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement).value).toBe('archived');
    expect((screen.getByRole('searchbox', { name: 'Search by name' }) as HTMLInputElement).value).toBe('Premium');
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Draft');
    await waitFor(() => expect(pageFakes.written).toEqual([
      { route: '/monetization/plans', query: { search: 'Premium', filters: { status: 'draft' }, offset: 0, limit: 20 } },
    ]));
  });

  it('keeps what was typed in the plan across a reload, unsaved, and drops it once saved (issue 38)', async () => {
    const url = `/monetization/plans?edit=${PLAN.id}`;
    const first = await renderView(<PlansPage />, { url, routePath: '/monetization/plans', pages: monetizationTestPages(pageFakes), actors: authAs('contributor') });
    await first.user.type(screen.getByRole('textbox', { name: 'Description' }), 'Our best plan');
    first.unmount();
    // The page again, as after a reload of the tab (its session storage kept).
    const again = await renderView(<PlansPage />, { url, routePath: '/monetization/plans', pages: monetizationTestPages(pageFakes), actors: authAs('contributor') });
    expect((screen.getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement).value).toBe('Our best plan');
    await again.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(pageFakes.saves.at(-1)).toMatchObject({ kind: 'plan', input: { id: PLAN.id, changes: { description: 'Our best plan' } } }));
    expect(sessionStorage.length).toBe(0);
  });

  it('opens the whole list when the address names a status or a page the list does not have', async () => {
    pageFakes.reads.length = 0;
    await renderView(<PlansPage />, { url: '/monetization/plans?status=deleted&page=-3', pages, actors: authAs('read') });
    expect(pageFakes.reads.filter((r) => r.page === 'plans').map((r) => r.query)).toEqual([{ search: '', filters: { status: '' }, offset: 0, limit: 20 }]);
    expect(screen.getByRole('link', { name: 'Premium Monthly' })).toBeTruthy();
  });

  it('lists plans with prices and offers create, duplicate and delete to a writer', async () => {
    await renderView(<PlansPage />, { url: '/monetization/plans', pages, actors: authAs('write') });
    expect(screen.getByRole('link', { name: 'Premium Monthly' })).toBeTruthy();
    expect(screen.getByText('USD 9.99')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New plan' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Duplicate' })).toBeTruthy();
  });

  it('names each count column by what it counts and shows each one\'s definition beside the list (issue 38)', async () => {
    await renderView(<PlansPage />, { url: '/monetization/plans', pages, actors: authAs('read') });
    const table = screen.getByRole('table', { name: 'Plans' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Prices', 'Period', 'Status', 'Subscriptions (all time)', 'Live subscriptions', 'Paying subscribers', 'On an earlier price']);
    const cells = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(4)).toEqual([String(PLAN.subscriptionCount), String(PLAN.payingSubscriptionCount), String(PLAN.payingSubscriberCount), String(PLAN.oldPriceSubscriptionCount)]);
    const definitions = screen.getByTestId('plan-count-definitions');
    for (const figure of [PLAN_FIGURES.subscriptionsAllTime, PLAN_FIGURES.liveSubscriptions, PLAN_FIGURES.payingSubscribers, PLAN_FIGURES.earlierPrice]) {
      expect(within(definitions).getByText(figure.label)).toBeTruthy();
      expect(within(definitions).getByText(figure.help)).toBeTruthy();
    }
  });

  it('opens the editor from ?edit, refuses a price with too many decimals beside the field, and saves a fixed one', async () => {
    const view = await renderView(<PlansPage />, { url: `/monetization/plans?edit=${PLAN.id}`, routePath: '/monetization/plans', pages, actors: authAs('contributor') });
    const amount = screen.getByRole('spinbutton', { name: 'Amount 1' });
    await view.user.clear(amount);
    await view.user.type(amount, '9.999');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Enter an amount of 0 or more with at most 2 decimals for USD.')).toBeTruthy();
    await view.user.clear(amount);
    await view.user.type(amount, '12.50');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(pageFakes.saves.at(-1)).toMatchObject({ kind: 'plan', input: { id: PLAN.id, version: 3, changes: { priceAmounts: ['12.50'] } } });
  });

  it('refuses beside the field a price past the one money bound (issue 37), and saves the largest one', async () => {
    const view = await renderView(<PlansPage />, { url: `/monetization/plans?edit=${PLAN.id}`, routePath: '/monetization/plans', pages, actors: authAs('contributor') });
    const amount = screen.getByRole('spinbutton', { name: 'Amount 1' });
    await view.user.clear(amount);
    await view.user.type(amount, '21474836.48');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(MONETIZATION_MESSAGES.priceTooLarge('USD'))).toBeTruthy();
    expect(MONETIZATION_MESSAGES.priceTooLarge('USD')).toBe('Enter an amount of at most 21474836.47 USD.');
    await view.user.clear(amount);
    await view.user.type(amount, '21474836.47');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(pageFakes.saves.at(-1)).toMatchObject({ kind: 'plan', input: { id: PLAN.id, changes: { priceAmounts: ['21474836.47'] } } });
  });

  it('shows a read level the list and a disabled form, without create, duplicate, delete or save', async () => {
    await renderView(<PlansPage />, { url: `/monetization/plans?edit=${PLAN.id}`, routePath: '/monetization/plans', pages, actors: authAs('read') });
    expect(screen.queryByRole('link', { name: 'New plan' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Duplicate' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).disabled).toBe(true);
  });

  it('asks before deleting a plan, then deletes it with its version and shows the answer', async () => {
    const view = await renderView(<PlansPage />, { url: '/monetization/plans', pages, actors: authAs('write') });
    pageFakes.actionAnswer = MONETIZATION_MESSAGES.archivedInUse;
    await view.user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('dialog', { name: 'Delete plan' }).textContent).toContain(MONETIZATION_MESSAGES.deleteConfirm('Premium Monthly'));
    expect(pageFakes.actions).toHaveLength(0);
    await view.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await view.user.click(screen.getByRole('button', { name: 'Delete' }));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain(MONETIZATION_MESSAGES.archivedInUse));
    expect(pageFakes.actions.at(-1)).toEqual({ name: 'delete', args: { id: PLAN.id, version: 3 }, label: 'Premium Monthly' });
  });

  it('duplicates a plan at once and shows the new name', async () => {
    const view = await renderView(<PlansPage />, { url: '/monetization/plans', pages, actors: authAs('write') });
    pageFakes.actionAnswer = MONETIZATION_MESSAGES.duplicatedAs('Premium Monthly (copy)');
    await view.user.click(screen.getByRole('button', { name: 'Duplicate' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Duplicated as “Premium Monthly (copy)”.'));
    expect(pageFakes.actions.at(-1)).toMatchObject({ name: 'duplicate', args: { id: PLAN.id } });
    await view.user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Duplicated as “Premium Monthly (copy)”.')).toBeNull();
  });

  it('asks before another row or New plan replaces unsaved changes; Stay keeps them, Leave goes', async () => {
    const view = await renderView(<PlansPage />, { url: `/monetization/plans?edit=${PLAN.id}`, routePath: '/monetization/plans', pages, actors: authAs('write') });
    await view.user.clear(screen.getByRole('textbox', { name: 'Name' }));
    await view.user.type(screen.getByRole('textbox', { name: 'Name' }), 'Premium Plus');
    await view.user.click(screen.getByRole('link', { name: 'New plan' }));
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Unsaved changes' })).toBeTruthy());
    await view.user.click(screen.getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(view.location()).toContain(`edit=${PLAN.id}`);
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Premium Plus');
    await view.user.click(screen.getByRole('link', { name: 'New plan' }));
    await view.user.click(await screen.findByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'New plan' })).toBeTruthy());
    expect(view.location()).toContain('edit=new');
  });

  it('after creating a plan shows it at ?edit=<id> as "Edit plan", still saying Saved.', async () => {
    const view = await renderView(<PlansPage />, { url: '/monetization/plans?edit=new', routePath: '/monetization/plans', pages, actors: authAs('write') });
    expect(screen.getByRole('heading', { name: 'New plan' })).toBeTruthy();
    await view.user.type(screen.getByRole('textbox', { name: 'Name' }), ' copy');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(pageFakes.opened).toEqual([PLAN.id]));
    expect(screen.getByRole('heading', { name: 'Edit plan' })).toBeTruthy();
    // The browser then shows the new plan's address: the same editor stays, still saying Saved.
    await view.navigate(`/monetization/plans?edit=${PLAN.id}`);
    expect(screen.getByRole('heading', { name: 'Edit plan' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain(MONETIZATION_MESSAGES.saved);
  });

  it('reads the plans again after a save, and Close asks for the list without an open plan', async () => {
    const view = await renderView(<PlansPage />, { url: `/monetization/plans?edit=${PLAN.id}`, routePath: '/monetization/plans', pages, actors: authAs('write') });
    const reads = pageFakes.reads.length;
    await view.user.type(screen.getByRole('textbox', { name: 'Name' }), ' Plus');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(pageFakes.reads.length).toBe(reads + 1));
    const closed = pageFakes.closed;
    await view.user.click(screen.getByRole('button', { name: 'Close' }));
    expect(pageFakes.closed).toBe(closed + 1);
    expect(screen.queryByRole('heading', { name: 'Edit plan' })).toBeNull();
  });

  it('shows the open plan\'s History beside its editor; a restore sends the editor\'s version and opens the editor afresh', async () => {
    pageFakes.history.revisions[PLAN.id] = [revision(8, [{ field: 'prices', before: [{ currency: 'USD', amount: 999 }], after: [{ currency: 'USD', amount: 1299 }] }], { objectId: PLAN.id })];
    const view = await renderView(<PlansPage />, { url: `/monetization/plans?edit=${PLAN.id}`, routePath: '/monetization/plans', pages, actors: authAs('write') });
    const panel = await screen.findByTestId('revision-8');
    expect(panel.textContent).toContain('Price: 9.99 USD → 12.99 USD');
    const loadsBefore = pageFakes.history.loads.length;
    await view.user.click(within(panel).getByRole('button', { name: 'Compare with now' }));
    await view.user.click(screen.getByRole('button', { name: 'Restore the values before #8' }));
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(pageFakes.history.restores).toEqual([{ seq: 8, version: 3 }]));
    // The page opens the editor and its History afresh (the history is read again).
    await waitFor(() => expect(pageFakes.history.loads.length).toBeGreaterThan(loadsBefore));
    expect(await screen.findByRole('textbox', { name: 'Name' })).toBeTruthy();
  });

  it('a read level sees the History without Restore', async () => {
    pageFakes.history.revisions[PLAN.id] = [revision(8, [{ field: 'trialDays', before: 7, after: 14 }], { objectId: PLAN.id })];
    pageFakes.history.canRestore = false;
    const view = await renderView(<PlansPage />, { url: `/monetization/plans?edit=${PLAN.id}`, routePath: '/monetization/plans', pages, actors: authAs('read') });
    const item = await screen.findByTestId('revision-8');
    await view.user.click(within(item).getByRole('button', { name: 'Compare with now' }));
    expect(screen.getByTestId('revision-diff')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
    pageFakes.history.canRestore = true;
  });
});
