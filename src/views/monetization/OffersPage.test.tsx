import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { monetizationFakes, monetizationTestPages } from '../../test-harness/monetization-pages';
import { renderView } from '../../test-harness/render-view';
import { OffersPage } from './OffersPage';
import { authAs, OFFER, PLAN } from '../../test-harness/monetization-fixtures';

const pageFakes = monetizationFakes();
const pages = monetizationTestPages(pageFakes);

pageFakes.lists.offers = { items: [OFFER], total: 1 };
pageFakes.records.offer = {
  id: OFFER.id, version: 1, data: { plans: [PLAN] },
  values: { name: 'Spring 20', discountType: 'percent', discountValue: '20', currency: 'USD', planIds: [PLAN.id], startsAt: '2030-01-01T00:00', endsAt: '', eligibility: 'new', status: 'active' },
};

describe('OffersPage', () => {
  it('lists offers and shows the percentage and end rules beside their fields', async () => {
    const view = await renderView(<OffersPage />, { url: `/monetization/offers?edit=${OFFER.id}`, routePath: '/monetization/offers', pages, actors: authAs('write') });
    expect(screen.getByText('20%')).toBeTruthy();
    const percent = screen.getByRole('spinbutton', { name: 'Percent off' });
    await view.user.clear(percent);
    await view.user.type(percent, '101');
    await view.user.type(screen.getByLabelText(/^Ends/), '2029-12-31T10:00');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(MONETIZATION_MESSAGES.percentage)).toBeTruthy();
    expect(screen.getByText(MONETIZATION_MESSAGES.endAfterStart)).toBeTruthy();
  });

  it('offers a read level no new offer and no save', async () => {
    await renderView(<OffersPage />, { url: `/monetization/offers?edit=${OFFER.id}`, routePath: '/monetization/offers', pages, actors: authAs('read') });
    expect(screen.queryByRole('link', { name: 'New offer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
