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
 * only ids still on the page after each load. A page past the last one (an address's `?page=` after
 * rows went, issue 38) is read again as the last page, and reported (`queryChanged`, clamped).
 * `createListMachine<Row, Meta>()` types the rows and the meta (issue 39: the subscriber search, the
 * content library's list); `listMachine` is the one of plain rows.
 */
import { assign, sendParent, setup, type SnapshotFrom } from 'xstate';
import { OWN_MESSAGES } from '../common/messages';
import { errorMessage, failureMessage } from './notify';
import { machineTypes } from './machine-types';
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

/** What the server answers beside the rows (e.g. whether the caller may edit): the default kind of `meta`. */
export type ListMeta = Readonly<Record<string, unknown>>;

export interface ListPage<Row extends ListRow = ListRow, Meta = ListMeta> {
  items: Row[];
  total: number;
  /** What the server answers beside the rows (e.g. whether the caller may edit); kept as is. */
  meta?: Meta;
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

export interface ListContext<Row extends ListRow = ListRow, Meta = ListMeta> {
  query: ListQuery;
  items: Row[];
  total: number;
  selected: readonly string[];
  error: string | null;
  /** The `meta` of the last page read; null until one is read. */
  meta: Meta | null;
  failedMessage: string | null;
}

export type ListEvent =
  | { type: 'list.search'; search: string }
  | { type: 'list.filter'; name: string; value: string }
  /** Several filters applied together (a filter form with an Apply button). */
  | { type: 'list.filters'; filters: Readonly<Record<string, string>> }
  /** The whole query at once (search and filters; from the first row unless `offset` says otherwise): a parent that keeps the query. */
  | { type: 'list.query'; search: string; filters: Readonly<Record<string, string>>; offset?: number }
  | { type: 'list.page'; offset: number }
  | { type: 'list.reload' }
  | { type: 'list.toggle'; id: string }
  | { type: 'list.selectPage' }
  | { type: 'list.clearSelection' };

/** The offset of the last page of `total` rows, `limit` a page (0 for none). */
export function lastPageOffset(total: number, limit: number): number {
  return total > 0 ? Math.floor((total - 1) / limit) * limit : 0;
}

/**
 * The list machine for rows of type `Row` with a `meta` of type `Meta`: every list of the console is
 * one of these, its `fetchPage` (and, where a parent listens, `queryChanged` / `pageLoaded`) provided.
 */
export function createListMachine<Row extends ListRow = ListRow, Meta = ListMeta>() {
  return setup({
    types: machineTypes<{ input: ListInput; context: ListContext<Row, Meta>; events: ListEvent; tags: 'loading' | 'error' }>(),
    actors: {
      fetchPage: providedLater<ListPage<Row, Meta>, ListQuery>('fetchPage'),
    },
    actions: {
      setSearch: assign(({ context }, params: { search: string }) => ({ query: { ...context.query, search: params.search, offset: 0 } })),
      setFilter: assign(({ context }, params: { name: string; value: string }) => ({
        query: { ...context.query, filters: { ...context.query.filters, [params.name]: params.value }, offset: 0 },
      })),
      setFilters: assign(({ context }, params: { filters: Readonly<Record<string, string>> }) => ({
        query: { ...context.query, filters: params.filters, offset: 0 },
      })),
      setQuery: assign(({ context }, params: { search: string; filters: Readonly<Record<string, string>>; offset: number }) => ({
        query: { ...context.query, search: params.search, filters: params.filters, offset: Math.max(0, params.offset) },
      })),
      setOffset: assign(({ context }, params: { offset: number }) => ({ query: { ...context.query, offset: params.offset } })),
      storePage: assign(({ context }, params: { page: ListPage<Row, Meta> }) => ({
        items: params.page.items,
        total: params.page.total,
        selected: context.selected.filter((id) => params.page.items.some((row) => row.id === id)),
        error: null,
        meta: params.page.meta ?? null,
      })),
      /** Issue 38: a page past the last one (an old link, rows deleted since) shows the last page instead. */
      clampOffset: assign(({ context }, params: { total: number }) => ({
        query: { ...context.query, offset: lastPageOffset(params.total, context.query.limit) },
      })),
      setError: assign((_, params: { message: string }) => ({ error: params.message })),
      toggleSelection: assign(({ context }, params: { id: string }) => ({
        selected: context.selected.includes(params.id) ? context.selected.filter((id) => id !== params.id) : [...context.selected, params.id],
      })),
      selectPage: assign(({ context }) => ({ selected: context.items.map((row) => row.id) })),
      clearSelection: assign({ selected: [] }),
      /**
       * The query changed by the person (a search once typing paused, a filter, a page; never a reload)
       * or by the list itself (`clamped`: a page past the last one became the last): a page that keeps
       * the query in its address provides it (list-page.machine.ts `pageListMachine`, issue 38).
       */
      queryChanged: (_, params: { clamped: boolean }) => { void params; },
      /** A page was read: a parent that keeps the rows (the content library's bulk changes) provides it. */
      pageLoaded: (_, params: { page: ListPage<Row, Meta> }) => { void params; },
    },
    guards: {
      isPageInRange: ({ context }, params: { offset: number }) =>
        Number.isInteger(params.offset) && params.offset >= 0 && (params.offset === 0 || params.offset < context.total) && params.offset !== context.query.offset,
      isOnPage: ({ context }, params: { id: string }) => context.items.some((row) => row.id === params.id),
      /** The page read is past the last one: no rows on it while there are rows before it. */
      isPastLastPage: ({ context }, params: { page: ListPage<Row, Meta> }) =>
        params.page.items.length === 0 && params.page.total > 0 && context.query.offset >= params.page.total,
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
        actions: [{ type: 'setFilter', params: ({ event }) => ({ name: event.name, value: event.value }) }, { type: 'queryChanged', params: { clamped: false } }],
      },
      'list.filters': {
        target: '.loading', reenter: true,
        actions: [{ type: 'setFilters', params: ({ event }) => ({ filters: event.filters }) }, { type: 'queryChanged', params: { clamped: false } }],
      },
      'list.query': {
        target: '.loading', reenter: true,
        actions: [
          { type: 'setQuery', params: ({ event }) => ({ search: event.search, filters: event.filters, offset: event.offset ?? 0 }) },
          { type: 'queryChanged', params: { clamped: false } },
        ],
      },
      'list.reload': { target: '.loading', reenter: true },
    },
    initial: 'loading',
    states: {
      debouncing: {
        description: 'The search text changed; waiting for typing to pause before loading.',
        tags: ['loading'],
        after: { searchDebounce: { target: 'loading', actions: { type: 'queryChanged', params: { clamped: false } } } },
      },
      loading: {
        description: 'Reading the page the query asks for.',
        tags: ['loading'],
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => context.query,
          onDone: [
            {
              guard: { type: 'isPastLastPage', params: ({ event }) => ({ page: event.output }) },
              target: 'loading', reenter: true,
              actions: [
                { type: 'clampOffset', params: ({ event }) => ({ total: event.output.total }) },
                { type: 'queryChanged', params: { clamped: true } },
              ],
            },
            {
              target: 'ready',
              actions: [
                { type: 'storePage', params: ({ event }) => ({ page: event.output }) },
                { type: 'pageLoaded', params: ({ event }) => ({ page: event.output }) },
              ],
            },
          ],
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
            actions: [{ type: 'setOffset', params: ({ event }) => ({ offset: event.offset }) }, { type: 'queryChanged', params: { clamped: false } }],
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
}

/** The list of plain rows (`meta` any record): the Monetization, Admin, AppCMS and availability lists. */
export const listMachine = createListMachine();

/**
 * The plain list as a page's child that writes its own address (the audit log): each query is reported
 * to the parent (`list.queried`), `clamped` when a page past the last one became the last (issue 38).
 */
export const reportingListMachine = listMachine.provide({
  actions: { queryChanged: sendParent(({ context }, params: { clamped: boolean }) => ({ type: 'list.queried', query: context.query, clamped: params.clamped })) },
});

export type ListMachine = typeof listMachine;
export type ListSnapshot = SnapshotFrom<ListMachine>;

/** What the selectors read of the snapshot of any list (every `createListMachine<Row, Meta>()`). */
export interface ListView<Row extends ListRow = ListRow, Meta = ListMeta> {
  context: ListContext<Row, Meta>;
  value: unknown;
  hasTag(tag: 'loading' | 'error'): boolean;
}

export const selectListRows = <Row extends ListRow>(snapshot: ListSnapshot) => snapshot.context.items as Row[];
/** The rows of a typed list (`createListMachine<Row>()`), as typed. */
export const selectListItems = <Row extends ListRow, Meta>(snapshot: ListView<Row, Meta>): Row[] => snapshot.context.items;
export const selectListTotal = <Row extends ListRow, Meta>(snapshot: ListView<Row, Meta>) => snapshot.context.total;
export const selectListQuery = <Row extends ListRow, Meta>(snapshot: ListView<Row, Meta>) => snapshot.context.query;
export const selectListError = <Row extends ListRow, Meta>(snapshot: ListView<Row, Meta>) => snapshot.context.error;
export const selectListSelected = <Row extends ListRow, Meta>(snapshot: ListView<Row, Meta>) => snapshot.context.selected;
export const selectListIsLoading = <Row extends ListRow, Meta>(snapshot: ListView<Row, Meta>) => snapshot.hasTag('loading');
export const selectListMeta = <Row extends ListRow, Meta>(snapshot: ListView<Row, Meta>) => snapshot.context.meta;
export const selectListIsEmpty = <Row extends ListRow, Meta>(snapshot: ListView<Row, Meta>) => snapshot.value === 'ready' && snapshot.context.items.length === 0;

export interface ListPaging {
  /** 1-based. */
  page: number;
  pages: number;
  from: number;
  to: number;
  previousOffset: number | null;
  nextOffset: number | null;
}

export function selectListPaging<Row extends ListRow, Meta>(snapshot: ListView<Row, Meta>): ListPaging {
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
