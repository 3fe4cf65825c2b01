// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { installNavigator } from './navigation';
import { replaceAddressSearch, writeListQueryToAddress } from './list-address';

const gone: { to: string; replace?: boolean }[] = [];
const query = (over: Partial<{ search: string; status: string; offset: number }> = {}) => ({
  search: over.search ?? '', filters: { status: over.status ?? '' }, offset: over.offset ?? 0, limit: 20,
});

afterEach(() => { gone.length = 0; window.history.replaceState(null, '', '/'); });

describe("a list's query written into its address (issue 38)", () => {
  it("replaces the address with the query, keeping the page's other params", () => {
    installNavigator((to, options) => { gone.push({ to, replace: options?.replace }); });
    window.history.replaceState(null, '', '/monetization/plans?edit=p1&page=4');
    writeListQueryToAddress('/monetization/plans', query({ search: 'gold', status: 'active', offset: 20 }));
    expect(gone).toEqual([{ to: '/monetization/plans?edit=p1&search=gold&status=active&page=2', replace: true }]);
  });

  it('writes nothing when the address is already the query, or the page is no longer shown', () => {
    installNavigator((to, options) => { gone.push({ to, replace: options?.replace }); });
    window.history.replaceState(null, '', '/monetization/coupon?status=disabled');
    writeListQueryToAddress('/monetization/coupon', query({ status: 'disabled' }));
    window.history.replaceState(null, '', '/users');
    writeListQueryToAddress('/monetization/coupon', query({ search: 'SPRING' }));
    expect(gone).toEqual([]);
  });

  it("replaces a page's own search params as its address (the Users search's clamped page), only while it is shown and different", () => {
    installNavigator((to, options) => { gone.push({ to, replace: options?.replace }); });
    window.history.replaceState(null, '', '/users?status=closed&page=9');
    replaceAddressSearch('/users', { status: 'closed', page: 3, plan: undefined, network: '' });
    replaceAddressSearch('/monetization/plans', { page: 3 });
    window.history.replaceState(null, '', '/users?page=3');
    replaceAddressSearch('/users', { page: 3 });
    expect(gone).toEqual([{ to: '/users?status=closed&page=3', replace: true }]);
  });
});
