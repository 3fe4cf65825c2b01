import { describe, expect, it } from 'vitest';
import {
  differsOnlyInListQuery, LIST_MAX_PAGE, listOffsetOf, listQueryHref, listSearchHref, validateListQuerySearch, validateListSearch,
} from './list-search';

describe("a list's search in the address (issue 38)", () => {
  it('keeps a search text and drops what is not one', () => {
    expect(validateListSearch({ search: 'ana@demo.test' })).toEqual({ search: 'ana@demo.test' });
    expect(validateListSearch({ search: 2025 })).toEqual({ search: '2025' });
    expect(validateListSearch({ search: '   ' })).toEqual({});
    expect(validateListSearch({ search: ['a'] })).toEqual({});
    expect(validateListSearch({ search: 'x'.repeat(201) })).toEqual({});
    expect(validateListSearch({})).toEqual({});
  });

  it('writes the address with the search, or the bare path without one', () => {
    expect(listSearchHref('/admin', 'ana+ops@demo.test')).toBe('/admin?search=ana%2Bops%40demo.test');
    expect(listSearchHref('/monetization/coupon', '')).toBe('/monetization/coupon');
    expect(validateListSearch(Object.fromEntries(new URLSearchParams(listSearchHref('/admin', 'SPRING 25').split('?')[1])))).toEqual({ search: 'SPRING 25' });
  });
});

describe("a Monetization list's query in the address (issue 38)", () => {
  const STATUSES = ['draft', 'active', 'archived'];

  it('keeps a known status, a page from 2 and a search; drops anything else to the defaults, never throwing', () => {
    expect(validateListQuerySearch({ search: 'gold', status: 'archived', page: 3 }, STATUSES)).toEqual({ search: 'gold', status: 'archived', page: 3 });
    expect(validateListQuerySearch({ page: '4' }, STATUSES)).toEqual({ page: 4 });
    expect(validateListQuerySearch({ status: 'deleted', page: 1 }, STATUSES)).toEqual({});
    expect(validateListQuerySearch({ status: ['active'], page: 2.5 }, STATUSES)).toEqual({});
    expect(validateListQuerySearch({ page: 0 }, STATUSES)).toEqual({});
    expect(validateListQuerySearch({ page: -2 }, STATUSES)).toEqual({});
    expect(validateListQuerySearch({ page: 'two' }, STATUSES)).toEqual({});
    expect(validateListQuerySearch({ page: ' ' }, STATUSES)).toEqual({});
    expect(validateListQuerySearch({ page: LIST_MAX_PAGE }, STATUSES)).toEqual({ page: LIST_MAX_PAGE });
    expect(validateListQuerySearch({ page: LIST_MAX_PAGE + 1 }, STATUSES)).toEqual({});
    expect(validateListQuerySearch({ status: 'active' }, [])).toEqual({});
  });

  it('starts the list on the first row of the page', () => {
    expect(listOffsetOf({}, 20)).toBe(0);
    expect(listOffsetOf({ page: 3 }, 20)).toBe(40);
  });

  it("writes the query over the address's other params, leaving out an empty search, no status and page 1", () => {
    const keep = new URLSearchParams('edit=p1&search=old&page=9');
    expect(listQueryHref('/monetization/plans', { search: 'gold bar', status: 'active', offset: 40, limit: 20 }, keep))
      .toBe('/monetization/plans?edit=p1&search=gold+bar&status=active&page=3');
    expect(listQueryHref('/monetization/plans', { search: '', status: '', offset: 0, limit: 20 }, keep)).toBe('/monetization/plans?edit=p1');
    expect(listQueryHref('/monetization/coupon', { search: ' ', status: '', offset: 19, limit: 20 })).toBe('/monetization/coupon');
    expect(listQueryHref('/monetization/coupon', { search: '', status: 'disabled', offset: 20, limit: 20 })).toBe('/monetization/coupon?status=disabled&page=2');
  });

  it("tells a change of only the list's query from one that changes anything else", () => {
    expect(differsOnlyInListQuery({ edit: 'p1', search: 'a' }, { edit: 'p1', search: 'ab', status: 'active', page: 2 })).toBe(true);
    expect(differsOnlyInListQuery({}, {})).toBe(true);
    expect(differsOnlyInListQuery({ edit: 'p1' }, { edit: 'p2' })).toBe(false);
    expect(differsOnlyInListQuery({ edit: 'p1', search: 'a' }, { search: 'a' })).toBe(false);
    expect(differsOnlyInListQuery({ search: 'a' }, { search: 'a', history: 'c1' })).toBe(false);
  });
});
