import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MONETIZATION_MESSAGES } from '../../../common/monetization-rules';
import type { Coupon } from '../../../common/monetization-contract';
import { monetizationFakes, monetizationTestPages } from '../../test-harness/monetization-pages';
import { renderView } from '../../test-harness/render-view';
import { CouponsPage } from './CouponsPage';
import { authAs, OFFER } from '../../test-harness/monetization-fixtures';

const pageFakes = monetizationFakes();
const pages = monetizationTestPages(pageFakes);

const COUPON: Coupon = {
  id: '44444444-4444-4444-8444-444444444444', offerId: OFFER.id, offerName: OFFER.name, code: 'SPRINGAB12CD34', maxRedemptions: 100,
  maxPerSubscriber: 1, expiresAt: null, status: 'active', version: 1, redemptionCount: 3, lastRedeemedAt: '2026-11-20T10:00:00.000Z',
};
/** A generated code without its own expiry, of an offer that ends: its offer's end applies (issue 27). */
const PARTNER: Coupon = { ...COUPON, id: '55555555-5555-4555-8555-555555555555', code: 'PARTNER7QX', maxRedemptions: 1, redemptionCount: 0, offerEndsAt: '2027-01-31T23:59:59.000Z' };
pageFakes.lists.coupons = { items: [COUPON, PARTNER], total: 2 };
pageFakes.records.couponBatch = {
  values: { offerId: OFFER.id, count: '50', prefix: '', maxRedemptions: '', maxPerSubscriber: '1', expiresAt: '' }, version: 0, data: { offers: [OFFER], generated: null },
};

describe('CouponsPage', () => {
  it('lists codes with their redemptions and refuses a batch of 0 beside the count', async () => {
    const view = await renderView(<CouponsPage />, { url: '/monetization/coupon', pages, actors: authAs('contributor') });
    expect(screen.getByText('SPRINGAB12CD34')).toBeTruthy();
    expect(screen.getByText('3 / 100')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    const count = screen.getByRole('spinbutton', { name: 'How many codes' });
    await view.user.clear(count);
    await view.user.type(count, '0');
    await view.user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(screen.getByText(MONETIZATION_MESSAGES.batchCount)).toBeTruthy();
  });

  it('shows the expiry that applies: the offer\'s end for a code without its own, never when neither ends', async () => {
    await renderView(<CouponsPage />, { url: '/monetization/coupon', pages, actors: authAs('read') });
    expect(screen.getByRole('row', { name: /PARTNER7QX/ }).textContent).toContain('31 Jan 2027 (offer ends)');
    expect(screen.getByRole('row', { name: /SPRINGAB12CD34/ }).textContent).toContain('never');
  });

  it("opens the list searched for the address's code (issue 38: the audit log's link to a coupon)", async () => {
    pageFakes.reads.length = 0;
    await renderView(<CouponsPage />, { url: '/monetization/coupon?search=SPRINGAB12CD34', pages, actors: authAs('read') });
    expect(pageFakes.reads.filter((r) => r.page === 'coupons').map((r) => r.query.search)).toEqual(['SPRINGAB12CD34']);
    expect((screen.getByRole('searchbox', { name: 'Search by code' }) as HTMLInputElement).value).toBe('SPRINGAB12CD34');
  });

  it('shows a read level the codes and the export, but no batch form', async () => {
    await renderView(<CouponsPage />, { url: '/monetization/coupon', pages, actors: authAs('read') });
    expect(screen.getByText('SPRINGAB12CD34')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Generate' })).toBeNull();
  });

  it('exports the codes of the current query and says how many', async () => {
    const view = await renderView(<CouponsPage />, { url: '/monetization/coupon', pages, actors: authAs('read') });
    pageFakes.actionAnswer = MONETIZATION_MESSAGES.exported(1);
    await view.user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Exported 1 code to coupons.csv.'));
    expect(pageFakes.actions.at(-1)).toEqual({ name: 'exportCsv', args: { search: '', status: '', offerId: '' }, label: 'coupons.csv' });
  });
});
