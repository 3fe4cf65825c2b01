import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { planGroupOrder } from '../../../common/monetization-contract';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { monetizationFakes, monetizationTestPages } from '../../test-harness/monetization-pages';
import { renderView } from '../../test-harness/render-view';
import { PlanGroupsPage } from './PlanGroupsPage';
import { authAs, PLAN } from '../../test-harness/monetization-fixtures';

const pageFakes = monetizationFakes();
const pages = monetizationTestPages(pageFakes);

const GROUP = { id: '33333333-3333-4333-8333-333333333333', name: 'Paywall', description: '', position: 0, version: 1, planIds: [PLAN.id] };
const KIDS = { id: '55555555-5555-4555-8555-555555555555', name: 'Kids', description: '', position: 1, version: 2, planIds: [] };
pageFakes.lists.planGroups = { items: [GROUP, KIDS], total: 2 };
pageFakes.records.planGroup = { id: GROUP.id, values: { name: 'Paywall', description: '', planIds: [] }, version: 1, data: { plans: [PLAN] } };

describe('PlanGroupsPage', () => {
  it('lists groups, and adds a plan to a group in the editor', async () => {
    const view = await renderView(<PlanGroupsPage />, { url: `/monetization/planGroups?edit=${GROUP.id}`, routePath: '/monetization/planGroups', pages, actors: authAs('write') });
    expect(screen.getByRole('link', { name: 'Paywall' })).toBeTruthy();
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Add a plan' }), PLAN.id);
    expect(screen.getByRole('listitem', { name: '1. Premium Monthly (Active)' })).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(pageFakes.saves.at(-1)).toMatchObject({ kind: 'planGroup', input: { changes: { planIds: [PLAN.id] } } });
  });

  it('offers a read level no new group, no add and no save', async () => {
    await renderView(<PlanGroupsPage />, { url: `/monetization/planGroups?edit=${GROUP.id}`, routePath: '/monetization/planGroups', pages, actors: authAs('read') });
    expect(screen.queryByRole('link', { name: 'New plan group' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Add a plan' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move Kids up' })).toBeNull();
  });

  it('moves a group by its arrow and by Alt+arrow, with the buttons at the ends disabled', async () => {
    const view = await renderView(<PlanGroupsPage />, { url: '/monetization/planGroups', routePath: '/monetization/planGroups', pages, actors: authAs('write') });
    expect((screen.getByRole('button', { name: 'Move Paywall up' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Move Kids down' }) as HTMLButtonElement).disabled).toBe(true);
    pageFakes.actionAnswer = MONETIZATION_MESSAGES.groupMoved('Kids', 1);
    await view.user.click(screen.getByRole('button', { name: 'Move Kids up' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('“Kids” is now group 1 of the paywall.'));
    expect(pageFakes.actions.at(-1)).toEqual({ name: 'move', args: { id: KIDS.id, to: 0, order: planGroupOrder([GROUP, KIDS]) }, label: 'Kids' });
    screen.getByRole('button', { name: 'Move Paywall down' }).focus();
    await view.user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await waitFor(() => expect(pageFakes.actions.at(-1)).toEqual({ name: 'move', args: { id: GROUP.id, to: 1, order: planGroupOrder([GROUP, KIDS]) }, label: 'Paywall' }));
  });
});
