/**
 * The content library's browsing state (spec §3): the current tab (starts at 0), the search
 * keyword, the selected content kind (starts as video) and the list data; the keyword and the list
 * data are cleared on every route change. On top of that: paging (start, sort, status filter) and
 * the selected rows with their bulk publish / unpublish.
 *
 * It runs for the whole session as the `contentBrowser` system actor (the root relays every
 * `path.changed`), so the tab and kind survive a visit elsewhere while the keyword does not.
 * The rows are its `list` child's while the library is shown (./list-content.ts, the one list machine,
 * issue 39): it waits for typing to pause, aborts an overtaken read (a late answer to an old query is
 * never shown), fails with Retry, and shows the last page for a page past it (issue 38, the address
 * corrected in place); views read its loading and error through `selectContentList`.
 *
 * The address (issue 29, common/content-library-search.ts): a route change to the library that
 * carries the address's search params sets tab, keyword, status, sort and page from them (a reload,
 * Back, a shared link); every list request writes its state back as the address (`navigateUrl`: a
 * new history entry for a tab, filter, sort or page, the same entry while typing), and an address
 * the machine wrote itself is not read again. "Select all N matching" turns the selection into the
 * filter (the server applies the bulk action to it, `bulkMatching`); a bulk action asks first
 * (`confirming`, naming the count).
 */
import type { SnapshotFrom } from 'xstate';
import type { LastingUndoRef } from './lasting-undo.machine';
import { CONTENT_KINDS, DEFAULT_CONTENT_SORT } from '../common/content';
import { contentBrowserSetup } from './content-browser.actions';
import { CONTENT_PAGE_SIZE } from './content-browser.setup';
import { awayState } from './content-browser.state.away';
import { libraryState } from './content-browser.state.library';

export {
  bulkDoneText, bulkUndoLabel, CONTENT_BULK_CONFLICT, CONTENT_PAGE_SIZE, contentFetchPage, contentListMachine, SEARCH_DEBOUNCE_MS, urlOf,
  type BulkMatchingInput, type BulkOutcome, type BulkStatusInput, type ContentBrowserContext, type ContentBrowserEvent,
  type ContentListPage, type LoadListInput,
} from './content-browser.setup';

export const contentBrowserMachine = contentBrowserSetup.createMachine({
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
  },
  initial: 'away',
  on: {
    'path.changed': [
      // The address this machine wrote (its own navigation coming back): already shown.
      { guard: { type: 'isShownAddress', params: ({ event }) => ({ path: event.path, search: event.search }) } },
      { guard: { type: 'isBareReturn', params: ({ event }) => ({ path: event.path, search: event.search }) }, target: '.library', reenter: true, actions: ['clearForRoute', 'markBareAddress'] },
      {
        guard: { type: 'hasAddress', params: ({ event }) => ({ path: event.path, search: event.search }) },
        target: '.library', reenter: true,
        actions: ['clearForRoute', { type: 'applySearch', params: ({ event }) => ({ search: event.search ?? {} }) }],
      },
      { guard: { type: 'isLibraryPath', params: ({ event }) => ({ path: event.path }) }, target: '.library', reenter: true, actions: 'clearForRoute' },
      { target: '.away', actions: 'clearForRoute' },
    ],
  },
  states: {
    away: awayState,
    library: libraryState,
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
/** The library's list (./list-content.ts) while the library is shown: its loading and error (issue 39). */
export const selectContentList = (s: ContentBrowserSnapshot) => s.children.list;
type ContentListSnapshot = NonNullable<ReturnType<typeof selectContentList>> extends { getSnapshot(): infer S } ? S : never;
/** The list's failure (a view reads it from `selectContentList`'s snapshot); null while none. */
export const selectContentListError = (list: ContentListSnapshot | undefined) => (list?.hasTag('error') ? list.context.error : null);
/** The list is reading (or waiting for typing to pause). */
export const selectContentListIsLoading = (list: ContentListSnapshot | undefined) => list?.hasTag('loading') ?? false;
/** The list's failure, read through the browser's snapshot (headless callers; a view subscribes to the list). */
export const selectListError = (s: ContentBrowserSnapshot) => selectContentListError(s.children.list?.getSnapshot());
/** The list is reading, or a bulk change is saving (headless callers; a view also subscribes to the list). */
export const selectIsLoading = (s: ContentBrowserSnapshot) => selectContentListIsLoading(s.children.list?.getSnapshot()) || selectIsBulkSaving(s);
export function selectIsBulkSaving(s: ContentBrowserSnapshot): boolean {
  return s.matches({ library: 'bulkSaving' }) || s.matches({ library: 'bulkMatching' });
}
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
/** The last page read has no rows (a view shows it once the list is not reading again). */
export const selectIsEmpty = (s: ContentBrowserSnapshot) => s.matches({ library: 'ready' }) && s.context.list !== null && s.context.list.items.length === 0;
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

/** The library's lasting Undo of its last bulk change (issue 38); undefined while the library is not shown. */
export const selectLastBulk = (s: ContentBrowserSnapshot): LastingUndoRef | undefined => s.children.lastBulk;
