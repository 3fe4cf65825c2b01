/**
 * The content browser's actions by name, on its setup (./content-browser.setup.ts): `contentBrowserSetup`
 * is what the states (./content-browser.state.*.ts) and the machine (./content-browser.machine.ts) are
 * built from.
 */
import { assign, sendTo } from 'xstate';
import { CONTENT_KINDS, DEFAULT_CONTENT_SORT, type BulkStatus, type ContentSort, type ContentStatus } from '../common/content';
import { ROUTES } from '../common/constants';
import { validateLibrarySearch } from '../common/content-library-search';
import { contentBrowserBase, CONTENT_PAGE_SIZE, urlOf, type ContentListPage } from './content-browser.setup';
import type { LastingChange } from './lasting-undo.machine';
import type { ListQuery } from './list.machine';
import { contentFiltersOf } from './list-content';
import { notify } from './system-actions';

export const contentBrowserSetup = contentBrowserBase.extend({
  actions: {
    /** Spec §3: every route change clears the keyword and the list data (and with them paging and selection). */
    clearForRoute: assign({ keyword: '', list: null, start: 0, selected: [], allMatching: false, pendingBulk: null, lastUrl: null }),
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
    writeUrl: contentBrowserBase.enqueueActions(({ context, enqueue }) => {
      const url = urlOf(context);
      if (url === context.lastUrl) return;
      enqueue.assign({ lastUrl: url, urlMode: 'push' });
      enqueue({ type: 'navigateUrl', params: { to: url, replace: context.urlMode === 'replace' || context.lastUrl === null } });
    }),
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
    storeList: assign((_, params: { list: ContentListPage }) => ({ list: params.list })),
    /** The query the list read: its first row (a page past the last one was clamped: the address is corrected in place). */
    storeQueried: assign((_, params: { query: ListQuery; clamped: boolean }) => ({
      start: params.query.offset, ...(params.clamped ? { urlMode: 'replace' as const } : {}),
    })),
    /** The browser's query to its list: kind, keyword, status, sort and first row at once. */
    queryList: sendTo('list', ({ context }) => ({
      type: 'list.query' as const, search: context.keyword, filters: contentFiltersOf(context), offset: context.start,
    })),
    /** Typing: the list reads it once typing pauses (and reports it then: the address follows). */
    searchList: sendTo('list', ({ context }) => ({ type: 'list.search' as const, search: context.keyword })),
    reloadList: sendTo('list', { type: 'list.reload' as const }),
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
    /** The bulk change just done, offered to undo on the page (issue 38: the snackbar's Undo went after 8 s). */
    keepLastBulk: sendTo('lastBulk', (_, params: { change: LastingChange }) => ({ type: 'lastingUndo.keep' as const, change: params.change })),
    notify,
  },
});
