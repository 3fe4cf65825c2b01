import { describe, expect, it } from 'vitest';
import { listSearchHref, validateListSearch } from './list-search';

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
