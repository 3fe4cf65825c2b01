/** Coupons (issue 30): one named code beside batches, disable and enable one code, redemptions and last redeemed per code. */
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Coupon } from '../../../common/monetization-contract';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import { renderView } from '../../test-harness/render-view';
import { monetizationFakes, monetizationTestPages } from '../../test-harness/monetization-pages';
import { authAs, OFFER } from '../../test-harness/monetization-fixtures';
import { CouponsPage } from './CouponsPage';

const SUMMER: Coupon = {
  id: '66666666-6666-4666-8666-666666666666', offerId: OFFER.id, offerName: OFFER.name, code: 'SUMMER25', maxRedemptions: 500, maxPerSubscriber: 1,
  expiresAt: null, status: 'active', version: 2, redemptionCount: 41, lastRedeemedAt: '2026-11-26T18:30:00.000Z',
};
const UNUSED: Coupon = { ...SUMMER, id: '77777777-7777-4777-8777-777777777777', code: 'WINTER10', status: 'disabled', redemptionCount: 0, lastRedeemedAt: null };

function setUp() {
  const fakes = monetizationFakes();
  fakes.lists.coupons = { items: [SUMMER, UNUSED], total: 2 };
  fakes.records.couponBatch = {
    values: { mode: 'batch', code: '', offerId: OFFER.id, count: '50', prefix: '', maxRedemptions: '', maxPerSubscriber: '1', expiresAt: '' },
    version: 0, data: { offers: [OFFER], generated: null, created: null },
  };
  return { fakes, pages: monetizationTestPages(fakes) };
}

describe('CouponsPage: named codes, disable and enable', () => {
  it('shows each code\'s redemptions and when it was last redeemed', async () => {
    const { pages } = setUp();
    await renderView(<CouponsPage />, { url: '/monetization/coupon', pages, actors: authAs('read') });
    expect(screen.getByRole('row', { name: /SUMMER25/ }).textContent).toContain('41 / 500');
    expect(screen.getByRole('row', { name: /SUMMER25/ }).textContent).toContain('last 26 Nov 2026');
    expect(screen.getByRole('row', { name: /WINTER10/ }).textContent).toContain('never');
    // A read level changes nothing.
    expect(screen.queryByRole('button', { name: 'Disable SUMMER25' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: /What to create/ })).toBeNull();
  });

  it('creates one named code: the code field replaces the batch fields and a bad code is refused beside it', async () => {
    const { fakes, pages } = setUp();
    const view = await renderView(<CouponsPage />, { url: '/monetization/coupon', pages, actors: authAs('write') });
    await view.user.selectOptions(screen.getByRole('combobox', { name: /What to create/ }), 'single');
    expect(screen.queryByRole('spinbutton', { name: 'How many codes' })).toBeNull();
    const code = screen.getByRole('textbox', { name: /^Code/ });
    await view.user.type(code, 'SUMMER 25');
    await view.user.click(screen.getByRole('button', { name: 'Create code' }));
    expect(screen.getByText(MONETIZATION_MESSAGES.couponCode)).toBeTruthy();
    expect(fakes.saves).toHaveLength(0);
    await view.user.clear(code);
    await view.user.type(code, 'SUMMER25');
    await view.user.click(screen.getByRole('button', { name: 'Create code' }));
    await waitFor(() => expect(fakes.saves).toHaveLength(1));
    expect(fakes.saves[0]).toMatchObject({ kind: 'couponBatch', input: { draft: { mode: 'single', code: 'SUMMER25', offerId: OFFER.id, maxPerSubscriber: '1' } } });
  });

  it('disables an active code and enables a disabled one, each with its version, and says so', async () => {
    const { fakes, pages } = setUp();
    const view = await renderView(<CouponsPage />, { url: '/monetization/coupon', pages, actors: authAs('write') });
    fakes.actionAnswer = MONETIZATION_MESSAGES.couponDisabled('SUMMER25');
    await view.user.click(screen.getByRole('button', { name: 'Disable SUMMER25' }));
    await waitFor(() => expect(screen.getAllByRole('status').map((s) => s.textContent).join(' ')).toContain('SUMMER25 is disabled: it can no longer be redeemed.'));
    expect(fakes.actions.at(-1)).toEqual({ name: 'setStatus', args: { id: SUMMER.id, version: 2, status: 'disabled' }, label: 'SUMMER25' });
    fakes.actionAnswer = MONETIZATION_MESSAGES.couponEnabled('WINTER10');
    await view.user.click(screen.getByRole('button', { name: 'Enable WINTER10' }));
    await waitFor(() => expect(fakes.actions.at(-1)).toEqual({ name: 'setStatus', args: { id: UNUSED.id, version: 2, status: 'active' }, label: 'WINTER10' }));
  });
});
