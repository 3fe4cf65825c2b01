/** Offers (issue 30): the discount's duration (once, N months, forever) and archived plans kept out of the choice. */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Offer } from '../../../common/monetization-contract';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { monetizationFakes, monetizationTestPages } from '../../test-harness/monetization-pages';
import { renderView } from '../../test-harness/render-view';
import { authAs, OFFER, PLAN } from '../../test-harness/monetization-fixtures';
import { OffersPage } from './OffersPage';

const OLD = { ...PLAN, id: '33333333-3333-4333-8333-333333333333', name: 'Legacy Annual', status: 'archived' };
const GONE = { ...PLAN, id: '88888888-8888-4888-8888-888888888888', name: 'Retired Weekly', status: 'archived' };

function setUp(planIds: string[]) {
  const fakes = monetizationFakes();
  const offers: Offer[] = [{ ...OFFER, duration: 'repeating', durationMonths: 3 }, { ...OFFER, id: '99999999-9999-4999-8999-999999999999', name: 'Loyal', duration: 'forever' }];
  fakes.lists.offers = { items: offers, total: 2 };
  fakes.records.offer = {
    id: OFFER.id, version: 1, data: { plans: [PLAN, OLD, GONE] },
    values: {
      name: 'Spring 20', discountType: 'percent', discountValue: '20', currency: 'USD', planIds, startsAt: '2030-01-01T00:00', endsAt: '',
      eligibility: 'new', status: 'active', duration: 'once', durationMonths: '',
    },
  };
  return { fakes, pages: monetizationTestPages(fakes) };
}

const open = (pages: ReturnType<typeof setUp>['pages']) =>
  renderView(<OffersPage />, { url: `/monetization/offers?edit=${OFFER.id}`, routePath: '/monetization/offers', pages, actors: authAs('write') });

describe('OffersPage: duration and archived plans', () => {
  it('lists how long each discount applies', async () => {
    const { pages } = setUp([PLAN.id]);
    await open(pages);
    expect(screen.getByRole('row', { name: /Spring 20/ }).textContent).toContain('3 months');
    expect(screen.getByRole('row', { name: /Loyal/ }).textContent).toContain('forever');
  });

  it('does not offer an archived plan, but keeps one the offer already has so it can be removed', async () => {
    const { pages } = setUp([PLAN.id, OLD.id]);
    await open(pages);
    expect(screen.getByRole('checkbox', { name: PLAN.name })).toBeTruthy();
    expect((screen.getByRole('checkbox', { name: 'Legacy Annual (Archived)' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('checkbox', { name: /Retired Weekly/ })).toBeNull();
  });

  it('asks for the months of a repeating discount, refuses 0 beside the field, and saves 6', async () => {
    const { fakes, pages } = setUp([PLAN.id]);
    const view = await open(pages);
    expect(screen.queryByRole('spinbutton', { name: /Months/ })).toBeNull();
    await view.user.selectOptions(screen.getByRole('combobox', { name: /Discount applies/ }), 'repeating');
    const months = screen.getByRole('spinbutton', { name: /Months/ });
    await view.user.type(months, '0');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(MONETIZATION_MESSAGES.durationMonths)).toBeTruthy();
    expect(fakes.saves).toHaveLength(0);
    await view.user.clear(months);
    await view.user.type(months, '6');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fakes.saves).toHaveLength(1));
    expect(fakes.saves[0]).toMatchObject({ kind: 'offer', input: { draft: { duration: 'repeating', durationMonths: '6' } } });
  });
});
