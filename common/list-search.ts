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

/**
 * A Monetization list's whole query in the address (issue 38, "nothing lost"): `?search=&status=&page=`
 * on Plans, Offers, Plan groups and Coupons, so Back after a row's link, a reload or a shared link shows
 * the same filtered page. The page machine starts from it and writes each later change back, replacing
 * the address (a search as typed, once typing pauses). Each route validates it with
 * `validateListQuerySearch` and its own status codes: a status the list does not know, a page that is not
 * a whole number from 2 to `LIST_MAX_PAGE`, or a bad search is dropped (all statuses, page 1, no search).
 */
export interface ListQuerySearch extends ListSearch {
  status?: string;
  /** 1-based; left out for page 1. */
  page?: number;
}

/** The last page an address may name (a later one is dropped: page 1). */
export const LIST_MAX_PAGE = 100000;

/** The search params a list's query owns: changing only these never leaves the page's form. */
export const LIST_QUERY_PARAMS = ['search', 'status', 'page'] as const;

export function validateListQuerySearch(raw: Record<string, unknown>, statuses: readonly string[]): ListQuerySearch {
  const out: ListQuerySearch = { ...validateListSearch(raw) };
  if (typeof raw.status === 'string' && statuses.includes(raw.status)) out.status = raw.status;
  const page = typeof raw.page === 'number' ? raw.page : typeof raw.page === 'string' && raw.page.trim() !== '' ? Number(raw.page) : NaN;
  if (Number.isInteger(page) && page > 1 && page <= LIST_MAX_PAGE) out.page = page;
  return out;
}

/** The first row of an address's page, for a list of `limit` rows a page. */
export function listOffsetOf(search: ListQuerySearch, limit: number): number {
  return ((search.page ?? 1) - 1) * limit;
}

/**
 * The address of `path` showing a list's query (empty search, no status and page 1 left out), keeping
 * the address's other params (`keep`: the open record's `?edit=`, a code's `?history=`) as they are.
 */
export function listQueryHref(
  path: string, query: { search: string; status: string; offset: number; limit: number }, keep: URLSearchParams = new URLSearchParams(),
): string {
  const params = new URLSearchParams(keep);
  for (const name of LIST_QUERY_PARAMS) params.delete(name);
  const page = Math.floor(query.offset / query.limit) + 1;
  const clean = validateListQuerySearch({ search: query.search, status: query.status, page }, [query.status]);
  if (clean.search) params.set('search', clean.search);
  if (clean.status) params.set('status', clean.status);
  if (clean.page) params.set('page', String(clean.page));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Whether two addresses of one path differ only in a list's query (its search, status or page). */
export function differsOnlyInListQuery(current: Record<string, unknown>, next: Record<string, unknown>): boolean {
  const names = new Set([...Object.keys(current), ...Object.keys(next)]);
  for (const name of LIST_QUERY_PARAMS) names.delete(name);
  for (const name of names) if (JSON.stringify(current[name]) !== JSON.stringify(next[name])) return false;
  return true;
}
