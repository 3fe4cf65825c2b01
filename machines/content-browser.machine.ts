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
 */
import { assign, enqueueActions, setup, type SnapshotFrom } from 'xstate';
import {
  CONTENT_KINDS, CONTENT_LIST_BOUNDS, DEFAULT_CONTENT_SORT,
  type BulkStatus, type ContentKind, type ContentListQuery, type ContentSort, type ContentStatus, type ContentSummary,
} from '../common/content';
import { ROUTES } from '../common/constants';
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
}

export const CONTENT_BULK_CONFLICT = 'conflict';

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
  error: string | null;
}

export type ContentBrowserEvent =
  | { type: 'path.changed'; path: string }
  | { type: 'list.tab'; index: number }
  | { type: 'list.search'; keyword: string }
  | { type: 'list.status'; status: ContentStatus | null }
  | { type: 'list.sort'; sort: ContentSort }
  | { type: 'list.page'; start: number }
  | { type: 'list.retry' }
  | { type: 'list.select'; id: string; selected: boolean }
  | { type: 'list.selectPage'; selected: boolean }
  | { type: 'list.bulk'; status: BulkStatus };

function isLibraryPath(path: string): boolean {
  return path.replace(/\/+$/, '') === ROUTES.content;
}

export const contentBrowserMachine = setup({
  types: {
    context: {} as ContentBrowserContext,
    events: {} as ContentBrowserEvent,
  },
  actors: {
    loadList: providedLater<ContentListPage, LoadListInput>('loadList'),
    bulkStatus: providedLater<number, BulkStatusInput>('bulkStatus'),
  },
  delays: {
    searchDebounce: SEARCH_DEBOUNCE_MS,
  },
  actions: {
    /** Spec §3: every route change clears the keyword and the list data (and with them paging and selection). */
    clearForRoute: assign({ keyword: '', list: null, start: 0, selected: [], error: null }),
    chooseTab: assign((_, params: { index: number }) => ({
      tab: params.index,
      kind: CONTENT_KINDS[params.index] ?? CONTENT_KINDS[0],
      start: 0,
      selected: [],
    })),
    setKeyword: assign((_, params: { keyword: string }) => ({ keyword: params.keyword, start: 0, selected: [] })),
    setStatusFilter: assign((_, params: { status: ContentStatus | null }) => ({ status: params.status, start: 0, selected: [] })),
    setSort: assign((_, params: { sort: ContentSort }) => ({ sort: params.sort, start: 0, selected: [] })),
    setStart: assign((_, params: { start: number }) => ({ start: Math.max(0, params.start), selected: [] })),
    storeList: assign((_, params: { list: ContentListPage }) => ({ list: params.list, error: null })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    toggleRow: assign(({ context }, params: { id: string; selected: boolean }) => ({
      selected: params.selected
        ? [...new Set([...context.selected, params.id])]
        : context.selected.filter((id) => id !== params.id),
    })),
    togglePage: assign(({ context }, params: { selected: boolean }) => ({
      selected: params.selected ? (context.list?.items ?? []).map((item) => item.id) : [],
    })),
    clearSelection: assign({ selected: [] }),
    notify: enqueueActions(({ enqueue, system }, params: NotifyParams) => {
      const notifier = system.get('notifier');
      if (notifier) enqueue.sendTo(notifier, showNotification(params));
    }),
  },
  guards: {
    isLibraryPath: (_, params: { path: string }) => isLibraryPath(params.path),
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
    error: null,
  },
  initial: 'away',
  on: {
    'path.changed': [
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
          actions: { type: 'chooseTab', params: ({ event }) => ({ index: event.index }) },
        },
        'list.search': { target: '.debouncing', reenter: true, actions: { type: 'setKeyword', params: ({ event }) => ({ keyword: event.keyword }) } },
        'list.status': { target: '.loading', reenter: true, actions: { type: 'setStatusFilter', params: ({ event }) => ({ status: event.status }) } },
        'list.sort': { target: '.loading', reenter: true, actions: { type: 'setSort', params: ({ event }) => ({ sort: event.sort }) } },
        'list.page': { target: '.loading', reenter: true, actions: { type: 'setStart', params: ({ event }) => ({ start: event.start }) } },
      },
      states: {
        debouncing: {
          description: 'The keyword is being typed: the list is asked for once typing pauses.',
          after: { searchDebounce: 'loading' },
        },
        loading: {
          description: 'Asking for one page of the list with the current kind, keyword, status, sort and start.',
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
            'list.bulk': { guard: 'hasSelection', target: 'bulkSaving' },
          },
        },
        failed: {
          description: 'The list could not be loaded; the message is shown with a way to try again.',
          on: { 'list.retry': { target: 'loading', actions: 'clearError' } },
        },
        bulkSaving: {
          description: 'Setting one status on every selected row (each with the version it was listed at).',
          invoke: {
            id: 'bulkStatus',
            src: 'bulkStatus',
            input: ({ context, event }) => ({
              status: (event as Extract<ContentBrowserEvent, { type: 'list.bulk' }>).status,
              items: (context.list?.items ?? []).filter((item) => context.selected.includes(item.id)).map((item) => ({ id: item.id, version: item.version })),
            }),
            onDone: {
              target: 'loading',
              actions: ['clearSelection', {
                type: 'notify',
                params: ({ event }) => ({ message: OWN_MESSAGES.contentBulkDone(event.output, 'updated'), severity: 'success' as const }),
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
                actions: { type: 'notify', params: ({ event }) => ({ message: failureMessage(event.error, OWN_MESSAGES.editorSaveFailed), severity: 'error' as const }) },
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
  s.matches({ library: 'loading' }) || s.matches({ library: 'debouncing' }) || s.matches({ library: 'bulkSaving' });
export const selectIsBulkSaving = (s: ContentBrowserSnapshot) => s.matches({ library: 'bulkSaving' });
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
