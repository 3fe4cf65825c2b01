/**
 * One list for every table the console pages through (plans, offers, coupons, ...): a query of a
 * search text, named filters and a page; the rows of the current page with the total; a selection
 * of row ids. It knows nothing of the entity: the `fetchPage` actor is provided by the page.
 *
 *   loading → ready | failed; typing a search waits `searchDebounce` before loading
 *
 * Tags for views: `loading` (reading or waiting to read), `error` (the last read failed).
 * A page machine (Staff, Audit, ...) invokes it as its `list` child and sends `list.reload` after a
 * save; `meta` keeps what the server answers beside the rows (what the caller may do on the page).
 *
 * A new query while a page is loading restarts the load (the old request is aborted through the
 * actor's signal). Changing the search or a filter goes back to the first page; the selection keeps
 * only ids still on the page after each load.
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import { OWN_MESSAGES } from '../common/messages';
import { errorMessage, failureMessage } from './notify';
import { typed } from './setup-types';
import { providedLater } from './unprovided';

export const LIST_SEARCH_DEBOUNCE_MS = 300;
export const LIST_PAGE_SIZE = 20;

export interface ListQuery {
  search: string;
  /** Filter name → value; '' means no filter. */
  filters: Readonly<Record<string, string>>;
  offset: number;
  limit: number;
}

export interface ListRow {
  id: string;
}

export interface ListPage<Row extends ListRow = ListRow> {
  items: Row[];
  total: number;
  /** What the server answers beside the rows (e.g. whether the caller may edit); kept as is. */
  meta?: Readonly<Record<string, unknown>>;
}

export interface ListInput {
  filters?: Readonly<Record<string, string>>;
  /** The search text to start from (a page's address, issue 38); '' when left out. */
  search?: string;
  /** The first row to start from (a page's address, issue 38); 0 when left out. */
  offset?: number;
  limit?: number;
  /** The page's own words for a failed read (shown also when the server could not be reached). */
  failedMessage?: string;
}

export interface ListContext {
  query: ListQuery;
  items: ListRow[];
  total: number;
  selected: readonly string[];
  error: string | null;
  /** The `meta` of the last page read; null until one is read. */
  meta: Readonly<Record<string, unknown>> | null;
  failedMessage: string | null;
}

export type ListEvent =
  | { type: 'list.search'; search: string }
  | { type: 'list.filter'; name: string; value: string }
  /** Several filters applied together (a filter form with an Apply button). */
  | { type: 'list.filters'; filters: Readonly<Record<string, string>> }
  | { type: 'list.page'; offset: number }
  | { type: 'list.reload' }
  | { type: 'list.toggle'; id: string }
  | { type: 'list.selectPage' }
  | { type: 'list.clearSelection' };

export const listMachine = setup({
  types: {
    input: typed<ListInput>(),
    context: typed<ListContext>(),
    events: typed<ListEvent>(),
  },
  actors: {
    fetchPage: providedLater<ListPage, ListQuery>('fetchPage'),
  },
  actions: {
    setSearch: assign(({ context }, params: { search: string }) => ({ query: { ...context.query, search: params.search, offset: 0 } })),
    setFilter: assign(({ context }, params: { name: string; value: string }) => ({
      query: { ...context.query, filters: { ...context.query.filters, [params.name]: params.value }, offset: 0 },
    })),
    setFilters: assign(({ context }, params: { filters: Readonly<Record<string, string>> }) => ({
      query: { ...context.query, filters: params.filters, offset: 0 },
    })),
    setOffset: assign(({ context }, params: { offset: number }) => ({ query: { ...context.query, offset: params.offset } })),
    storePage: assign(({ context }, params: { page: ListPage }) => ({
      items: params.page.items,
      total: params.page.total,
      selected: context.selected.filter((id) => params.page.items.some((row) => row.id === id)),
      error: null,
      meta: params.page.meta ?? null,
    })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    toggleSelection: assign(({ context }, params: { id: string }) => ({
      selected: context.selected.includes(params.id) ? context.selected.filter((id) => id !== params.id) : [...context.selected, params.id],
    })),
    selectPage: assign(({ context }) => ({ selected: context.items.map((row) => row.id) })),
    clearSelection: assign({ selected: [] }),
    /**
     * The person changed the query (a search once typing paused, a filter, a page; never a reload): a page
     * that keeps the query in its address provides it (list-page.machine.ts `pageListMachine`, issue 38).
     */
    queryChanged: () => {},
  },
  guards: {
    isPageInRange: ({ context }, params: { offset: number }) =>
      Number.isInteger(params.offset) && params.offset >= 0 && (params.offset === 0 || params.offset < context.total) && params.offset !== context.query.offset,
    isOnPage: ({ context }, params: { id: string }) => context.items.some((row) => row.id === params.id),
  },
  delays: {
    searchDebounce: LIST_SEARCH_DEBOUNCE_MS,
  },
}).createMachine({
  id: 'list',
  description: 'A paged, searchable, filterable list of rows with a selection; the rows come from the provided fetchPage actor.',
  context: ({ input }) => ({
    query: { search: input.search ?? '', filters: input.filters ?? {}, offset: input.offset ?? 0, limit: input.limit ?? LIST_PAGE_SIZE },
    items: [],
    total: 0,
    selected: [],
    error: null,
    meta: null,
    failedMessage: input.failedMessage ?? null,
  }),
  on: {
    'list.search': { target: '.debouncing', actions: { type: 'setSearch', params: ({ event }) => ({ search: event.search }) } },
    'list.filter': {
      target: '.loading', reenter: true,
      actions: [{ type: 'setFilter', params: ({ event }) => ({ name: event.name, value: event.value }) }, 'queryChanged'],
    },
    'list.filters': { target: '.loading', reenter: true, actions: [{ type: 'setFilters', params: ({ event }) => ({ filters: event.filters }) }, 'queryChanged'] },
    'list.reload': { target: '.loading', reenter: true },
  },
  initial: 'loading',
  states: {
    debouncing: {
      description: 'The search text changed; waiting for typing to pause before loading.',
      tags: ['loading'],
      after: { searchDebounce: { target: 'loading', actions: 'queryChanged' } },
    },
    loading: {
      description: 'Reading the page the query asks for.',
      tags: ['loading'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => context.query,
        onDone: { target: 'ready', actions: { type: 'storePage', params: ({ event }) => ({ page: event.output }) } },
        onError: {
          target: 'failed',
          actions: {
            type: 'setError',
            params: ({ context, event }) => ({
              message: context.failedMessage ? failureMessage(event.error, context.failedMessage) : errorMessage(event.error, OWN_MESSAGES.listLoadFailed),
            }),
          },
        },
      },
    },
    ready: {
      description: 'The page is shown; the person may page, select rows or change the query.',
      on: {
        'list.page': {
          guard: { type: 'isPageInRange', params: ({ event }) => ({ offset: event.offset }) },
          target: 'loading',
          actions: [{ type: 'setOffset', params: ({ event }) => ({ offset: event.offset }) }, 'queryChanged'],
        },
        'list.toggle': {
          guard: { type: 'isOnPage', params: ({ event }) => ({ id: event.id }) },
          actions: { type: 'toggleSelection', params: ({ event }) => ({ id: event.id }) },
        },
        'list.selectPage': { actions: 'selectPage' },
        'list.clearSelection': { actions: 'clearSelection' },
      },
    },
    failed: {
      description: 'The page could not be read; the message shows with a way to try again.',
      tags: ['error'],
    },
  },
});

export type ListMachine = typeof listMachine;
export type ListSnapshot = SnapshotFrom<ListMachine>;

export const selectListRows = <Row extends ListRow>(snapshot: ListSnapshot) => snapshot.context.items as Row[];
export const selectListTotal = (snapshot: ListSnapshot) => snapshot.context.total;
export const selectListQuery = (snapshot: ListSnapshot) => snapshot.context.query;
export const selectListError = (snapshot: ListSnapshot) => snapshot.context.error;
export const selectListSelected = (snapshot: ListSnapshot) => snapshot.context.selected;
export const selectListIsLoading = (snapshot: ListSnapshot) => snapshot.hasTag('loading');
export const selectListMeta = (snapshot: ListSnapshot) => snapshot.context.meta;
export const selectListIsEmpty = (snapshot: ListSnapshot) => snapshot.matches('ready') && snapshot.context.items.length === 0;

export interface ListPaging {
  /** 1-based. */
  page: number;
  pages: number;
  from: number;
  to: number;
  previousOffset: number | null;
  nextOffset: number | null;
}

export function selectListPaging(snapshot: ListSnapshot): ListPaging {
  const { query, total, items } = snapshot.context;
  const pages = Math.max(1, Math.ceil(total / query.limit));
  return {
    page: Math.floor(query.offset / query.limit) + 1,
    pages,
    from: items.length === 0 ? 0 : query.offset + 1,
    to: query.offset + items.length,
    previousOffset: query.offset > 0 ? Math.max(0, query.offset - query.limit) : null,
    nextOffset: query.offset + query.limit < total ? query.offset + query.limit : null,
  };
}
