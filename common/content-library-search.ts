/**
 * The library's address (issue 29): tab, search, status filter, sort and page as search params of
 * /content, e.g. `/content?tab=series&q=storm&status=draft&sort=title&page=2`. The route validates
 * them with `validateLibrarySearch` (TanStack Router's validateSearch, src/router.tsx), the content
 * browser machine reads them from every route change and writes them back when the operator
 * changes one. A value that is not allowed is dropped (its default applies), never an error.
 * Defaults are left out of the address, so /content is the library as it starts.
 */
import {
  CONTENT_KINDS, CONTENT_LIST_BOUNDS, CONTENT_SORTS, CONTENT_STATUSES, DEFAULT_CONTENT_SORT,
  type ContentKind, type ContentSort, type ContentStatus,
} from './content';
import { isOneOf } from './one-of';

export interface LibrarySearch {
  tab?: ContentKind;
  q?: string;
  status?: ContentStatus;
  sort?: ContentSort;
  /** 1-based. */
  page?: number;
}

/** The highest page the address may name (the list's start bound over its page size). */
export const LIBRARY_MAX_PAGE = Math.floor(CONTENT_LIST_BOUNDS.startMax / CONTENT_LIST_BOUNDS.limitDefault) + 1;

export function validateLibrarySearch(raw: Record<string, unknown>): LibrarySearch {
  const out: LibrarySearch = {};
  if (isOneOf(CONTENT_KINDS, raw.tab) && raw.tab !== CONTENT_KINDS[0]) out.tab = raw.tab;
  const q = typeof raw.q === 'string' || typeof raw.q === 'number' ? String(raw.q).slice(0, CONTENT_LIST_BOUNDS.qMaxLength) : '';
  if (q.trim()) out.q = q;
  if (isOneOf(CONTENT_STATUSES, raw.status)) out.status = raw.status;
  if (isOneOf(CONTENT_SORTS, raw.sort) && raw.sort !== DEFAULT_CONTENT_SORT) out.sort = raw.sort;
  const page = typeof raw.page === 'number' ? raw.page : typeof raw.page === 'string' ? Number(raw.page) : NaN;
  if (Number.isInteger(page) && page > 1 && page <= LIBRARY_MAX_PAGE) out.page = page;
  return out;
}

/** The address of a library state (defaults left out; a fixed order, so equal states give equal addresses). */
export function libraryHref(search: LibrarySearch, path = '/content'): string {
  const clean = validateLibrarySearch(search as Record<string, unknown>);
  const params = new URLSearchParams();
  if (clean.tab) params.set('tab', clean.tab);
  if (clean.q) params.set('q', clean.q);
  if (clean.status) params.set('status', clean.status);
  if (clean.sort) params.set('sort', clean.sort);
  if (clean.page) params.set('page', String(clean.page));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
