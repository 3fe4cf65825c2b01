/**
 * The content library's browsing state (spec §3): the current tab (starts at 0), the search
 * keyword, the selected content kind (starts as video) and the list data; the keyword and the list
 * data are cleared on every route change. On top of that: paging (start, sort, status filter) and
 * the selected rows with their bulk publish / unpublish.
 *
 * It runs for the whole session as the `contentBrowser` system actor (the root relays every
 * `path.changed`), so the tab and kind survive a visit elsewhere while the keyword does not.
 * Typing is debounced with an `after` delay; a newer query re-enters `loading`, which stops the
 * older request, so a late answer to an old query is never shown.
 *
 * The address (issue 29, common/content-library-search.ts): a route change to the library that
 * carries the address's search params sets tab, keyword, status, sort and page from them (a reload,
 * Back, a shared link); every list request writes its state back as the address (`navigateUrl`: a
 * new history entry for a tab, filter, sort or page, the same entry while typing), and an address
 * the machine wrote itself is not read again. "Select all N matching" turns the selection into the
 * filter (the server applies the bulk action to it, `bulkMatching`); a bulk action asks first
 * (`confirming`, naming the count).
 */
import { assign, enqueueActions, setup, type SnapshotFrom } from 'xstate';
import {
  CONTENT_KINDS, CONTENT_LIST_BOUNDS, DEFAULT_CONTENT_SORT,
  type BulkStatus, type ContentKind, type ContentListQuery, type ContentSort, type ContentStatus, type ContentSummary,
} from '../common/content';
import { ROUTES } from '../common/constants';
import { libraryHref, validateLibrarySearch } from '../common/content-library-search';
import { OWN_MESSAGES } from '../common/messages';
import { failureMessage, showNotification, type NotifyParams } from './notify';
import { providedLater } from './unprovided';

/** Pause after the last keystroke before the list is asked for. */
export const SEARCH_DEBOUNCE_MS = 300;
export const CONTENT_PAGE_SIZE = CONTENT_LIST_BOUNDS.limitDefault;

export interface ContentListPage {
  items: ContentSummary[];
  total: number;
  start: number;
}

export interface LoadListInput extends Required<Pick<ContentListQuery, 'mediaType' | 'start' | 'limit' | 'sort'>> {
  q: string;
  status: ContentStatus | null;
}

export interface BulkStatusInput {
  status: BulkStatus;
  items: { id: string; version: number }[];
  /** The change's handle (issue 28), never sent: the adapter keeps the request id the server answered under it, which its Undo names (issue 37). */
  requestId?: string;
}

export const CONTENT_BULK_CONFLICT = 'conflict';

/** "All matching": the filter the server applies the bulk action to, and the count the operator saw. */
export interface BulkMatchingInput {
  status: BulkStatus;
  expected: number;
  mediaType: ContentKind;
  q: string;
  filterStatus: ContentStatus | null;
}

export interface ContentBrowserContext {
  /** Spec §3. */
  tab: number;
  keyword: string;
  kind: ContentKind;
  list: ContentListPage | null;
  /** Paging and filters. */
  start: number;
  sort: ContentSort;
  status: ContentStatus | null;
  /** Ids of the selected rows (of the page shown). */
  selected: string[];
  /** Every item matching the filters is selected (not only the page's rows). */
  allMatching: boolean;
  /** The bulk action waiting for the operator's confirmation. */
  pendingBulk: BulkStatus | null;
  /** The address this state was last written as (or read from); null away from the library. */
  lastUrl: string | null;
  /** How the next list request writes the address: a new history entry or the same one. */
  urlMode: 'push' | 'replace';
  error: string | null;
  /** The request id of the bulk change being saved (the snackbar's Undo names it; issue 28). */
  bulkRequestId?: string | null;
}

export type ContentBrowserEvent =
  | { type: 'path.changed'; path: string; search?: Record<string, unknown> }
  | { type: 'list.tab'; index: number }
  | { type: 'list.search'; keyword: string }
  | { type: 'list.status'; status: ContentStatus | null }
  | { type: 'list.sort'; sort: ContentSort }
  | { type: 'list.page'; start: number }
  | { type: 'list.retry' }
  | { type: 'list.select'; id: string; selected: boolean }
  | { type: 'list.selectPage'; selected: boolean }
  | { type: 'list.bulk'; status: BulkStatus }
  | { type: 'list.selectAllMatching' }
  | { type: 'list.confirm' }
  | { type: 'list.cancel' }
  | { type: 'list.clearFilters' }
  /** The snackbar's Undo of a bulk change went through (machines/undo.machine.ts): the list is read again. */
  | { type: 'undo.done'; requestId: string };

function isLibraryPath(path: string): boolean {
  return path.replace(/\/+$/, '') === ROUTES.content;
}

/** The address of the context's tab, keyword, status, sort and page. */
export function urlOf(context: Pick<ContentBrowserContext, 'kind' | 'keyword' | 'status' | 'sort' | 'start'>): string {
  return libraryHref({
    tab: context.kind, q: context.keyword.trim(), status: context.status ?? undefined, sort: context.sort,
    page: Math.floor(context.start / CONTENT_PAGE_SIZE) + 1,
  });
}

/** What a bulk action answers: the count of items changed, or (issue 37) the count and what it did besides (a cancelled pending unpublish). */
export type BulkOutcome = number | { updated: number; message?: string };

/** The snackbar's words for a done bulk action. */
export function bulkDoneText(outcome: BulkOutcome): string {
  if (typeof outcome === 'number') return OWN_MESSAGES.contentBulkDone(outcome, 'updated');
  const done = OWN_MESSAGES.contentBulkDone(outcome.updated, 'updated');
  return outcome.message ? `${done} ${outcome.message}` : done;
}

export const contentBrowserMachine = setup({
  types: {
    context: {} as ContentBrowserContext,
    events: {} as ContentBrowserEvent,
  },
  actors: {
    loadList: providedLater<ContentListPage, LoadListInput>('loadList'),
    bulkStatus: providedLater<BulkOutcome, BulkStatusInput>('bulkStatus'),
    bulkMatching: providedLater<BulkOutcome, BulkMatchingInput>('bulkMatching'),
  },
  delays: {
    searchDebounce: SEARCH_DEBOUNCE_MS,
  },
  actions: {
    /** Spec §3: every route change clears the keyword and the list data (and with them paging and selection). */
    clearForRoute: assign({ keyword: '', list: null, start: 0, selected: [], allMatching: false, pendingBulk: null, lastUrl: null, error: null }),
    /** The address's search params (already a route change): the state they name, written as read. */
    applySearch: assign((_, params: { search: Record<string, unknown> }) => {
      const search = validateLibrarySearch(params.search);
      const kind = search.tab ?? CONTENT_KINDS[0];
      const next = {
        tab: Math.max(0, CONTENT_KINDS.indexOf(kind)), kind, keyword: search.q ?? '', status: search.status ?? null,
        sort: search.sort ?? DEFAULT_CONTENT_SORT, start: ((search.page ?? 1) - 1) * CONTENT_PAGE_SIZE,
      };
      return { ...next, lastUrl: urlOf(next), urlMode: 'push' as const };
    }),
    /** Writes the state as the address unless it already is (leaves it to the provided navigateUrl). */
    writeUrl: enqueueActions(({ context, enqueue }) => {
      const url = urlOf(context);
      if (url === context.lastUrl) return;
      enqueue.assign({ lastUrl: url, urlMode: 'push' });
      // Named here by type (setup's own actions are not typed inside it yet).
      enqueue({ type: 'navigateUrl', params: { to: url, replace: context.urlMode === 'replace' || context.lastUrl === null } } as never);
    }),
    /** The navigation effect (the wiring file provides it); a no-op in headless tests. */
    navigateUrl: (_, _params: { to: string; replace: boolean }) => undefined,
    pushUrl: assign({ urlMode: 'push' as const }),
    /** The address is the bare /content: the state kept is written over it in place. */
    markBareAddress: assign({ lastUrl: ROUTES.content, urlMode: 'replace' as const }),
    replaceUrl: assign({ urlMode: 'replace' as const }),
    selectAllMatching: assign({ allMatching: true }),
    setPendingBulk: assign((_, params: { status: BulkStatus }) => ({ pendingBulk: params.status })),
    clearPendingBulk: assign({ pendingBulk: null }),
    clearFilters: assign({ keyword: '', status: null, start: 0, selected: [], allMatching: false }),
    chooseTab: assign((_, params: { index: number }) => ({
      tab: params.index,
      kind: CONTENT_KINDS[params.index] ?? CONTENT_KINDS[0],
      start: 0,
      selected: [],
      allMatching: false,
    })),
    setKeyword: assign((_, params: { keyword: string }) => ({ keyword: params.keyword, start: 0, selected: [], allMatching: false })),
    setStatusFilter: assign((_, params: { status: ContentStatus | null }) => ({ status: params.status, start: 0, selected: [], allMatching: false })),
    setSort: assign((_, params: { sort: ContentSort }) => ({ sort: params.sort, start: 0, selected: [], allMatching: false })),
    setStart: assign((_, params: { start: number }) => ({ start: Math.max(0, params.start), selected: [], allMatching: false })),
    storeList: assign((_, params: { list: ContentListPage }) => ({ list: params.list, error: null })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    toggleRow: assign(({ context }, params: { id: string; selected: boolean }) => ({
      allMatching: false,
      selected: params.selected
        ? [...new Set([...context.selected, params.id])]
        : context.selected.filter((id) => id !== params.id),
    })),
    togglePage: assign(({ context }, params: { selected: boolean }) => ({
      allMatching: false,
      selected: params.selected ? (context.list?.items ?? []).map((item) => item.id) : [],
    })),
    clearSelection: assign({ selected: [], allMatching: false, pendingBulk: null }),
    nameBulkRequest: assign(() => ({ bulkRequestId: crypto.randomUUID() })),
    notify: enqueueActions(({ enqueue, system }, params: NotifyParams) => {
      const notifier = system.get('notifier');
      if (notifier) enqueue.sendTo(notifier, showNotification(params));
    }),
  },
  guards: {
    isLibraryPath: (_, params: { path: string }) => isLibraryPath(params.path),
    /** A route change to the library with the address this machine last wrote or read: nothing to do. */
    isShownAddress: ({ context }, params: { path: string; search?: Record<string, unknown> }) =>
      isLibraryPath(params.path) && params.search !== undefined && context.lastUrl !== null
      && libraryHref(validateLibrarySearch(params.search)) === context.lastUrl,
    hasAddress: (_, params: { path: string; search?: Record<string, unknown> }) => isLibraryPath(params.path) && params.search !== undefined,
    /** Back to the bare library address from another page (a menu link, "Back to library"): tab, filter and sort stay as they were (spec §3). */
    isBareReturn: ({ context }, params: { path: string; search?: Record<string, unknown> }) =>
      isLibraryPath(params.path) && params.search !== undefined && context.lastUrl === null
      && Object.keys(validateLibrarySearch(params.search)).length === 0,
    /** The whole page is selected and more items match than the page shows. */
    canSelectAllMatching: ({ context }) => {
      const items = context.list?.items ?? [];
      return items.length > 0 && items.every((item) => context.selected.includes(item.id)) && (context.list?.total ?? 0) > items.length;
    },
    isAllMatching: ({ context }) => context.allMatching,
    hasFilters: ({ context }) => context.keyword.trim() !== '' || context.status !== null,
    isValidTab: (_, params: { index: number }) => Number.isInteger(params.index) && params.index >= 0 && params.index < CONTENT_KINDS.length,
    hasSelection: ({ context }) => context.selected.length > 0,
    isConflict: (_, params: { error: unknown }) => (params.error as { code?: unknown } | null)?.code === CONTENT_BULK_CONFLICT,
  },
}).createMachine({
  id: 'contentBrowser',
  description: 'The content library: tab, keyword, kind and list (spec §3), paging, filters and row selection with bulk status changes.',
  context: {
    tab: 0,
    keyword: '',
    kind: CONTENT_KINDS[0],
    list: null,
    start: 0,
    sort: DEFAULT_CONTENT_SORT,
    status: null,
    selected: [],
    allMatching: false,
    pendingBulk: null,
    lastUrl: null,
    urlMode: 'push',
    error: null,
  },
  initial: 'away',
  on: {
    'path.changed': [
      // The address this machine wrote (its own navigation coming back): already shown.
      { guard: { type: 'isShownAddress', params: ({ event }) => ({ path: event.path, search: event.search }) } },
      { guard: { type: 'isBareReturn', params: ({ event }) => ({ path: event.path, search: event.search }) }, target: '.library.loading', reenter: true, actions: ['clearForRoute', 'markBareAddress'] },
      {
        guard: { type: 'hasAddress', params: ({ event }) => ({ path: event.path, search: event.search }) },
        target: '.library.loading', reenter: true,
        actions: ['clearForRoute', { type: 'applySearch', params: ({ event }) => ({ search: event.search ?? {} }) }],
      },
      { guard: { type: 'isLibraryPath', params: ({ event }) => ({ path: event.path }) }, target: '.library.loading', reenter: true, actions: 'clearForRoute' },
      { target: '.away', actions: 'clearForRoute' },
    ],
  },
  states: {
    away: {
      description: 'Another page is shown: nothing is loaded; tab, kind, filters and sort wait for the next visit.',
    },
    library: {
      description: 'The library page is shown.',
      initial: 'loading',
      on: {
        'list.tab': {
          guard: { type: 'isValidTab', params: ({ event }) => ({ index: event.index }) },
          target: '.loading', reenter: true,
          actions: ['pushUrl', { type: 'chooseTab', params: ({ event }) => ({ index: event.index }) }],
        },
        'list.search': { target: '.debouncing', reenter: true, actions: ['replaceUrl', { type: 'setKeyword', params: ({ event }) => ({ keyword: event.keyword }) }] },
        'list.status': { target: '.loading', reenter: true, actions: ['pushUrl', { type: 'setStatusFilter', params: ({ event }) => ({ status: event.status }) }] },
        'list.sort': { target: '.loading', reenter: true, actions: ['pushUrl', { type: 'setSort', params: ({ event }) => ({ sort: event.sort }) }] },
        'list.page': { target: '.loading', reenter: true, actions: ['pushUrl', { type: 'setStart', params: ({ event }) => ({ start: event.start }) }] },
        'list.clearFilters': { guard: 'hasFilters', target: '.loading', reenter: true, actions: ['pushUrl', 'clearFilters'] },
        'undo.done': { target: '.loading', reenter: true, actions: 'clearSelection' },
      },
      states: {
        debouncing: {
          description: 'The keyword is being typed: the list is asked for once typing pauses.',
          after: { searchDebounce: 'loading' },
        },
        loading: {
          description: 'Asking for one page of the list with the current kind, keyword, status, sort and start (written as the address first).',
          entry: 'writeUrl',
          invoke: {
            id: 'loadList',
            src: 'loadList',
            input: ({ context }) => ({
              mediaType: context.kind,
              q: context.keyword.trim(),
              status: context.status,
              sort: context.sort,
              start: context.start,
              limit: CONTENT_PAGE_SIZE,
            }),
            onDone: { target: 'ready', actions: { type: 'storeList', params: ({ event }) => ({ list: event.output }) } },
            onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.contentLoadFailed) }) } },
          },
        },
        ready: {
          description: 'The page of the list is shown; rows may be selected for a bulk status change.',
          on: {
            'list.select': { actions: { type: 'toggleRow', params: ({ event }) => ({ id: event.id, selected: event.selected }) } },
            'list.selectPage': { actions: { type: 'togglePage', params: ({ event }) => ({ selected: event.selected }) } },
            'list.selectAllMatching': { guard: 'canSelectAllMatching', actions: 'selectAllMatching' },
            'list.bulk': { guard: 'hasSelection', target: 'confirming', actions: { type: 'setPendingBulk', params: ({ event }) => ({ status: event.status }) } },
          },
        },
        confirming: {
          description: 'The bulk action waits for the operator: the dialog names what it will do and to how many items.',
          on: {
            'list.confirm': [
              { guard: 'isAllMatching', target: 'bulkMatching' },
              { target: 'bulkSaving' },
            ],
            'list.cancel': { target: 'ready', actions: 'clearPendingBulk' },
          },
        },
        bulkMatching: {
          description: 'Setting one status on every item the filters match (the server applies it to the filter, refusing if the count changed).',
          invoke: {
            id: 'bulkMatching',
            src: 'bulkMatching',
            input: ({ context }) => ({
              status: context.pendingBulk ?? 'unpublished',
              expected: context.list?.total ?? 0,
              mediaType: context.kind,
              q: context.keyword.trim(),
              filterStatus: context.status,
            }),
            onDone: {
              target: 'loading',
              actions: ['clearSelection', {
                type: 'notify',
                params: ({ event }) => ({ message: bulkDoneText(event.output), severity: 'success' as const }),
              }],
            },
            onError: [
              {
                guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
                target: 'loading',
                actions: ['clearSelection', { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.contentBulkConflict), severity: 'warning' as const }) }],
              },
              {
                target: 'ready',
                actions: ['clearPendingBulk', { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.editorSaveFailed), severity: 'error' as const }) }],
              },
            ],
          },
        },
        failed: {
          description: 'The list could not be loaded; the message is shown with a way to try again.',
          on: { 'list.retry': { target: 'loading', actions: 'clearError' } },
        },
        bulkSaving: {
          description: 'Setting one status on every selected row (each with the version it was listed at), as one request the snackbar can Undo.',
          entry: 'nameBulkRequest',
          invoke: {
            id: 'bulkStatus',
            src: 'bulkStatus',
            input: ({ context }) => ({
              status: context.pendingBulk ?? 'unpublished',
              items: (context.list?.items ?? []).filter((item) => context.selected.includes(item.id)).map((item) => ({ id: item.id, version: item.version })),
              ...(context.bulkRequestId ? { requestId: context.bulkRequestId } : {}),
            }),
            onDone: {
              target: 'loading',
              actions: ['clearSelection', {
                type: 'notify',
                params: ({ context, event }) => ({
                  message: bulkDoneText(event.output), severity: 'success' as const,
                  ...(context.bulkRequestId ? { undo: { requestId: context.bulkRequestId, replyTo: 'contentBrowser' } } : {}),
                }),
              }],
            },
            onError: [
              {
                guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
                target: 'loading',
                actions: ['clearSelection', { type: 'notify', params: { message: OWN_MESSAGES.contentBulkConflict, severity: 'warning' } }],
              },
              {
                target: 'ready',
                actions: ['clearPendingBulk', { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.editorSaveFailed), severity: 'error' as const }) }],
              },
            ],
          },
        },
      },
    },
  },
});

export type ContentBrowserMachine = typeof contentBrowserMachine;
export type ContentBrowserSnapshot = SnapshotFrom<ContentBrowserMachine>;

export const selectTab = (s: ContentBrowserSnapshot) => s.context.tab;
export const selectKind = (s: ContentBrowserSnapshot) => s.context.kind;
export const selectKeyword = (s: ContentBrowserSnapshot) => s.context.keyword;
export const selectList = (s: ContentBrowserSnapshot) => s.context.list;
export const selectRows = (s: ContentBrowserSnapshot) => s.context.list?.items ?? [];
export const selectStatusFilter = (s: ContentBrowserSnapshot) => s.context.status;
export const selectSort = (s: ContentBrowserSnapshot) => s.context.sort;
export const selectSelected = (s: ContentBrowserSnapshot) => s.context.selected;
export const selectListError = (s: ContentBrowserSnapshot) => (s.matches({ library: 'failed' }) ? s.context.error : null);
export const selectIsLoading = (s: ContentBrowserSnapshot) =>
  s.matches({ library: 'loading' }) || s.matches({ library: 'debouncing' }) || s.matches({ library: 'bulkSaving' }) || s.matches({ library: 'bulkMatching' });
export const selectIsBulkSaving = (s: ContentBrowserSnapshot) => s.matches({ library: 'bulkSaving' }) || s.matches({ library: 'bulkMatching' });
export const selectAllMatching = (s: ContentBrowserSnapshot) => s.context.allMatching;
/** "Select all N matching" is offered: the page is wholly selected and more items match. */
export const selectCanSelectAllMatching = (s: ContentBrowserSnapshot) => s.matches({ library: 'ready' }) && s.can({ type: 'list.selectAllMatching' });
/** The bulk action awaiting confirmation, with the number of items it will change. */
export const selectBulkConfirm = (s: ContentBrowserSnapshot) => (s.matches({ library: 'confirming' }) && s.context.pendingBulk
  ? { status: s.context.pendingBulk, count: s.context.allMatching ? s.context.list?.total ?? 0 : s.context.selected.length }
  : null);
/** The filters in force (chips): the keyword and the status. */
export const selectFilters = (s: ContentBrowserSnapshot) => ({ keyword: s.context.keyword.trim(), status: s.context.status });
export const selectCanSelect = (s: ContentBrowserSnapshot) => s.matches({ library: 'ready' });
export const selectIsEmpty = (s: ContentBrowserSnapshot) => s.matches({ library: 'ready' }) && (s.context.list?.items.length ?? 0) === 0;
/** Paging: the 1-based range shown, the total, and the starts of the previous and next pages (null at the ends). */
export const selectPaging = (s: ContentBrowserSnapshot) => {
  const list = s.context.list;
  if (!list) return null;
  const first = list.items.length ? list.start + 1 : 0;
  const last = list.start + list.items.length;
  return {
    first,
    last,
    total: list.total,
    previousStart: list.start > 0 ? Math.max(0, list.start - CONTENT_PAGE_SIZE) : null,
    nextStart: last < list.total ? list.start + CONTENT_PAGE_SIZE : null,
  };
};
