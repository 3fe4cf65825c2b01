/**
 * A list page's query written into its address (issue 38, "nothing lost"): the list's search, status and
 * page over the address's other params (the open record's `?edit=`, a code's `?history=`), replacing the
 * address so Back still leaves the page. The page machine decides when (`writeQuery` on `list.queried`);
 * this only writes. Nothing is written while the page is no longer shown or when the address is the same.
 */
import { listQueryHref } from '../../common/list-search';
import type { ListQuery } from '../../machines/list.machine';
import { navigateTo } from './navigation';

export function writeListQueryToAddress(route: string, query: ListQuery): void {
  if (window.location.pathname.replace(/\/$/, '') !== route) return;
  const href = listQueryHref(route, { search: query.search, status: query.filters.status ?? '', offset: query.offset, limit: query.limit },
    new URLSearchParams(window.location.search));
  if (href !== `${route}${window.location.search}`) navigateTo(href, { replace: true });
}

/**
 * A page's own search params (a list whose address is not the Monetization shape: the Users search)
 * written as its address, replacing it: the list clamped a page past the last one (issue 38). Nothing
 * is written while the page is no longer shown or when the address is the same.
 */
export function replaceAddressSearch(route: string, search: Readonly<Record<string, string | number | undefined>>): void {
  if (window.location.pathname.replace(/\/$/, '') !== route) return;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(search)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  const href = text ? `${route}?${text}` : route;
  if (href !== `${route}${window.location.search}`) navigateTo(href, { replace: true });
}
