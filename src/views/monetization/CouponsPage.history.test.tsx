import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Coupon } from '../../../common/monetization-contract';
import { revision } from '../../test-harness/history-fakes';
import { authAs, OFFER } from '../../test-harness/monetization-fixtures';
import { monetizationFakes, monetizationTestPages } from '../../test-harness/monetization-pages';
import { renderView, settle } from '../../test-harness/render-view';
import { CouponsPage } from './CouponsPage';

const SUMMER: Coupon = {
  id: '66666666-6666-4666-8666-666666666666', offerId: OFFER.id, offerName: OFFER.name, code: 'SUMMER25', maxRedemptions: null,
  maxPerSubscriber: 1, expiresAt: null, status: 'disabled', version: 2, redemptionCount: 0, lastRedeemedAt: null,
};
const SPRING: Coupon = { ...SUMMER, id: '77777777-7777-4777-8777-777777777777', code: 'SPRING10', status: 'active', version: 1 };
const URL = '/monetization/coupon';

function setup() {
  const fakes = monetizationFakes();
  fakes.lists.coupons = { items: [SUMMER, SPRING], total: 2 };
  fakes.records.couponBatch = {
    values: { mode: 'batch', offerId: OFFER.id, count: '50', prefix: '', maxRedemptions: '', maxPerSubscriber: '1', expiresAt: '' },
    version: 0, data: { offers: [OFFER], generated: null },
  };
  fakes.history.revisions[SUMMER.id] = [
    revision(2, [{ field: 'status', before: 'active', after: 'disabled' }], { kind: 'coupon', objectId: SUMMER.id, objectName: 'SUMMER25' }),
    revision(1, [{ field: 'code', before: null, after: 'SUMMER25' }, { field: 'status', before: null, after: 'active' }], { kind: 'coupon', objectId: SUMMER.id, objectName: 'SUMMER25' }),
  ];
  return { fakes, pages: monetizationTestPages(fakes) };
}

describe('CouponsPage: a code\'s History', () => {
  it('opens from the row\'s History link in place of the batch form, says the status change in words, and closes back to the form with its draft', async () => {
    const { fakes, pages } = setup();
    const view = await renderView(<CouponsPage />, { url: URL, pages, actors: authAs('write') });
    expect(screen.queryByTestId('history-panel')).toBeNull();
    const count = screen.getByRole('spinbutton', { name: 'How many codes' });
    await view.user.clear(count);
    await view.user.type(count, '7');
    const link = screen.getByRole('link', { name: 'History of SUMMER25' });
    await view.user.click(link);
    await settle();
    expect(view.location()).toBe(`${URL}?history=${SUMMER.id}`);
    const region = screen.getByRole('region', { name: 'History of SUMMER25' });
    await waitFor(() => expect(within(region).getByText('Status: Active → Disabled')).toBeTruthy());
    expect(fakes.history.loads).toEqual([{ kind: 'coupon', objectId: SUMMER.id, page: 1 }]);
    // The router marks the link of the History shown (its address is the page's).
    expect(screen.getByRole('link', { name: 'History of SUMMER25' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'History of SPRING10' }).getAttribute('aria-current')).toBeNull();
    // The batch form is hidden while the History shows.
    expect(screen.queryByRole('spinbutton', { name: 'How many codes' })).toBeNull();
    await view.user.click(within(region).getByRole('link', { name: 'Close history' }));
    await settle();
    expect(view.location()).toBe(URL);
    expect(screen.queryByTestId('history-panel')).toBeNull();
    expect((screen.getByRole('spinbutton', { name: 'How many codes' }) as HTMLInputElement).value).toBe('7');
  });

  it('is reached by keyboard: Tab to the History link, Enter opens it', async () => {
    const { pages } = setup();
    const view = await renderView(<CouponsPage />, { url: URL, pages, actors: authAs('read') });
    const link = screen.getByRole('link', { name: 'History of SPRING10' });
    link.focus();
    expect(document.activeElement).toBe(link);
    await view.user.keyboard('{Enter}');
    await settle();
    expect(view.location()).toBe(`${URL}?history=${SPRING.id}`);
    expect(screen.getByRole('region', { name: 'History of SPRING10' })).toBeTruthy();
  });

  it('opens the History the address names (a reload), and shows a read level no Restore', async () => {
    const { fakes, pages } = setup();
    fakes.history.canRestore = false;
    const view = await renderView(<CouponsPage />, { url: `${URL}?history=${SUMMER.id}`, pages, actors: authAs('read') });
    const region = screen.getByRole('region', { name: 'History of SUMMER25' });
    await waitFor(() => expect(within(region).getByText('Status: Active → Disabled')).toBeTruthy());
    expect(screen.queryByRole('button', { name: /Disable|Enable/ })).toBeNull();
    await view.user.click(within(region).getAllByRole('button', { name: 'Compare with now' })[0]!);
    expect(within(region).queryByRole('button', { name: /^Restore/ })).toBeNull();
  });

  it('restores a Disabled revision with the row\'s version and reads the rows and the History again', async () => {
    const { fakes, pages } = setup();
    const view = await renderView(<CouponsPage />, { url: `${URL}?history=${SUMMER.id}`, pages, actors: authAs('write') });
    const region = screen.getByRole('region', { name: 'History of SUMMER25' });
    await waitFor(() => expect(within(region).getByText('Status: Active → Disabled')).toBeTruthy());
    const reads = fakes.reads.length;
    await view.user.click(within(region).getAllByRole('button', { name: 'Compare with now' })[0]!);
    await view.user.click(within(region).getByRole('button', { name: 'Restore the values before #2' }));
    fakes.lists.coupons = { items: [{ ...SUMMER, status: 'active', version: 3 }, SPRING], total: 2 };
    await view.user.click(screen.getByRole('button', { name: 'Restore' }));
    await settle();
    expect(fakes.history.restores).toEqual([{ seq: 2, version: 2 }]);
    expect(fakes.reads.length).toBe(reads + 1);
    expect(screen.getByRole('row', { name: /SUMMER25/ }).textContent).toContain('Active');
    expect(screen.getByRole('region', { name: 'History of SUMMER25' })).toBeTruthy();
    expect(fakes.history.loads.filter((l) => l.objectId === SUMMER.id).length).toBeGreaterThanOrEqual(2);
  });

  it('reads the shown History again after the row\'s Disable (a new revision)', async () => {
    const { fakes, pages } = setup();
    const view = await renderView(<CouponsPage />, { url: `${URL}?history=${SPRING.id}`, pages, actors: authAs('write') });
    expect(fakes.history.loads).toHaveLength(1);
    await view.user.click(screen.getByRole('button', { name: 'Disable SPRING10' }));
    await settle();
    expect(fakes.actions.at(-1)).toMatchObject({ name: 'setStatus', args: { id: SPRING.id, status: 'disabled' } });
    expect(fakes.history.loads).toHaveLength(2);
  });
});
