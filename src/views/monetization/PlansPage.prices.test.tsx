/** Plans › price versions (issue 30): the editor says who stays on the old price before a new one is saved, and offers the confirmed move at renewal. */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { PLAN_FIGURES } from '../../../common/plan-figures';
import { renderView } from '../../test-harness/render-view';
import { monetizationFakes, monetizationTestPages } from '../../test-harness/monetization-pages';
import { authAs, PLAN } from '../../test-harness/monetization-fixtures';
import { PlansPage } from './PlansPage';

const values = { name: 'Basic Monthly', description: '', billingPeriod: 'month', trialDays: '7', deviceLimit: '1', status: 'active', priceCurrencies: ['USD'], priceAmounts: ['7.99'] };

function setUp(counts: { paying: number; old: number; moving: number }) {
  const fakes = monetizationFakes();
  const row = { ...PLAN, name: 'Basic Monthly', payingSubscriptionCount: counts.paying, oldPriceSubscriptionCount: counts.old, movingAtRenewalCount: counts.moving };
  fakes.lists.plans = { items: [row], total: 1 };
  fakes.records.plan = { id: PLAN.id, version: 3, data: { payingSubscriptionCount: counts.paying, oldPriceSubscriptionCount: counts.old, movingAtRenewalCount: counts.moving }, values };
  return { fakes, pages: monetizationTestPages(fakes) };
}

const open = (pages: ReturnType<typeof setUp>['pages'], level: 'write' | 'read' = 'write') =>
  renderView(<PlansPage />, { url: `/monetization/plans?edit=${PLAN.id}`, routePath: '/monetization/plans', pages, actors: authAs(level) });

describe('PlansPage: price versions', () => {
  it('says how many live subscriptions keep the current price as soon as the price is changed, before Save', async () => {
    const { pages } = setUp({ paying: 590, old: 0, moving: 0 });
    const view = await open(pages);
    expect(screen.queryByTestId('price-versions')).toBeNull();
    const amount = screen.getByRole('spinbutton', { name: 'Amount 1' });
    await view.user.clear(amount);
    await view.user.type(amount, '8.99');
    expect(screen.getByTestId('price-versions').textContent).toContain(MONETIZATION_MESSAGES.priceChangeKeeps(590));
    expect(screen.getByText('590 live subscriptions keep the current price. The new price applies to new subscriptions only.')).toBeTruthy();
    // No move offered while a new price is unsaved.
    expect(screen.queryByRole('button', { name: MONETIZATION_MESSAGES.moveAtRenewalLabel })).toBeNull();
  });

  it('offers the move at the next renewal for subscribers on an earlier price, asks first, and sends the plan with its version', async () => {
    const { fakes, pages } = setUp({ paying: 590, old: 588, moving: 0 });
    fakes.actionAnswer = MONETIZATION_MESSAGES.movedAtRenewal(588);
    const view = await open(pages);
    expect(screen.getByTestId('price-versions').textContent).toContain(MONETIZATION_MESSAGES.oldPriceSubscribers(588));
    await view.user.click(screen.getByRole('button', { name: MONETIZATION_MESSAGES.moveAtRenewalLabel }));
    const dialog = screen.getByRole('dialog', { name: MONETIZATION_MESSAGES.moveAtRenewalLabel });
    expect(dialog.textContent).toContain(MONETIZATION_MESSAGES.moveAtRenewalConfirm('Basic Monthly', 588));
    expect(fakes.actions).toHaveLength(0);
    await view.user.click(within(dialog).getByRole('button', { name: 'Move at next renewal' }));
    await waitFor(() => expect(screen.getAllByRole('status').map((s) => s.textContent).join(' ')).toContain(MONETIZATION_MESSAGES.movedAtRenewal(588)));
    expect(fakes.actions.at(-1)).toEqual({ name: 'moveAtRenewal', args: { id: PLAN.id, version: 3, count: 588 }, label: 'Basic Monthly' });
  });

  it('shows who is moving at renewal, and a read level sees the counts without the move', async () => {
    const { pages } = setUp({ paying: 590, old: 2, moving: 588 });
    await open(pages, 'read');
    const note = screen.getByTestId('price-versions').textContent;
    expect(note).toContain(MONETIZATION_MESSAGES.movingAtRenewal(588));
    expect(note).toContain(MONETIZATION_MESSAGES.oldPriceSubscribers(2));
    // Issue 38: the note says what it counts.
    expect(note).toContain(`${PLAN_FIGURES.liveSubscriptions.label}: ${PLAN_FIGURES.liveSubscriptions.help}`);
    expect(screen.queryByRole('button', { name: MONETIZATION_MESSAGES.moveAtRenewalLabel })).toBeNull();
  });
});
