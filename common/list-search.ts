/**
 * A list's search text in the address (issue 38): `?search=<text>` on the Staff list (`/admin`) and
 * the Coupons list, so the audit log's link to an account or a coupon opens its list searched for it,
 * and Back or a reload shows the same search. The route validates it with `validateListSearch`: a
 * value that is not text (or is longer than a search may be) is dropped, so a bad link still opens the list.
 */

/** The longest search text the lists take (their servers' bound). */
export const LIST_SEARCH_MAX = 200;

export interface ListSearch {
  search?: string;
}

export function validateListSearch(raw: Record<string, unknown>): ListSearch {
  const search = typeof raw.search === 'string' || typeof raw.search === 'number' ? String(raw.search) : '';
  return search.trim() !== '' && search.length <= LIST_SEARCH_MAX ? { search } : {};
}

/** The address of a list searched for `search` (none: the list's own path). */
export function listSearchHref(path: string, search: string): string {
  const clean = validateListSearch({ search });
  return clean.search ? `${path}?${new URLSearchParams({ search: clean.search }).toString()}` : path;
}
