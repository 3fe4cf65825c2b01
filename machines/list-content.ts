/**
 * The content library's list (issue 39): the one list machine (./list.machine.ts) typed with the
 * library's rows, run by the content browser (./content-browser.machine.ts) as its `list` child instead
 * of loading states of its own. The browser keeps the query it shows and writes as the address (kind,
 * keyword, status, sort, page) and sends it to the list (`list.query`, `list.search` while typing); the
 * list reads it, debounces typing, aborts an overtaken read, shows a failure with Retry
 * (`list.reload`), clamps a page past the last one (issue 38), and reports each query and each page
 * read to the browser (`list.queried`, `list.loaded`).
 *
 * The query's filters are `mediaType`, `status` ('' for all) and `sort`; `contentFetchPage` turns it
 * into the REST request (`LoadListInput`) over the wiring's fetch (src/adapters/content-actors.ts).
 */
import { fromPromise, sendParent } from 'xstate';
import {
  CONTENT_KINDS, CONTENT_SORTS, CONTENT_STATUSES, DEFAULT_CONTENT_SORT,
  type ContentKind, type ContentListQuery, type ContentSort, type ContentStatus, type ContentSummary,
} from '../common/content';
import { OWN_MESSAGES } from '../common/messages';
import { createListMachine, type ListInput, type ListPage, type ListQuery } from './list.machine';

export interface ContentListPage {
  items: ContentSummary[];
  total: number;
  start: number;
}

/** The REST request of one page of the library. */
export interface LoadListInput extends Required<Pick<ContentListQuery, 'mediaType' | 'start' | 'limit' | 'sort'>> {
  q: string;
  status: ContentStatus | null;
}

/** What the browser keeps of the query: the list's input and its `list.query`. */
export interface ContentQuery {
  kind: ContentKind;
  keyword: string;
  status: ContentStatus | null;
  sort: ContentSort;
  start: number;
}

/** The list's filters of the browser's query. */
export function contentFiltersOf(query: Pick<ContentQuery, 'kind' | 'status' | 'sort'>): Record<string, string> {
  return { mediaType: query.kind, status: query.status ?? '', sort: query.sort };
}

/** The list's input for the browser's query, `limit` rows a page. */
export function contentListInputOf(query: ContentQuery, limit: number): ListInput {
  return { search: query.keyword, filters: contentFiltersOf(query), offset: query.start, limit, failedMessage: OWN_MESSAGES.contentLoadFailed };
}

/** The REST request of the list's query: the trimmed keyword, the kind, status, sort and first row. */
export function loadListInputOf(query: ListQuery): LoadListInput {
  const { filters } = query;
  return {
    mediaType: CONTENT_KINDS.find((kind) => kind === filters.mediaType) ?? CONTENT_KINDS[0],
    q: query.search.trim(),
    status: CONTENT_STATUSES.find((status) => status === filters.status) ?? null,
    sort: CONTENT_SORTS.find((sort) => sort === filters.sort) ?? DEFAULT_CONTENT_SORT,
    start: query.offset,
    limit: query.limit,
  };
}

/** The list's `fetchPage` over the library's fetch (its signal passed on: an overtaken read is aborted). */
export function contentFetchPage(load: (input: LoadListInput, signal: AbortSignal) => Promise<ContentListPage>) {
  return fromPromise<ListPage<ContentSummary>, ListQuery>(async ({ input, signal }) => {
    const page = await load(loadListInputOf(input), signal);
    return { items: page.items, total: page.total };
  });
}

/** The library's list as the browser's child: each query and each page read are reported to it. */
export const contentListMachine = createListMachine<ContentSummary>().provide({
  actions: {
    queryChanged: sendParent(({ context }, params: { clamped: boolean }) => ({ type: 'list.queried', query: context.query, clamped: params.clamped })),
    pageLoaded: sendParent(({ context }, params: { page: ListPage<ContentSummary> }) => ({
      type: 'list.loaded', page: { items: params.page.items, total: params.page.total, start: context.query.offset },
    })),
  },
});
