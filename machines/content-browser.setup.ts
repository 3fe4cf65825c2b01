/**
 * The content browser's setup (machines/content-browser.machine.ts assembles it with its states): its
 * types, the address it writes, its `list` child (./list-content.ts: the one list machine, issue 39),
 * the `bulkStatus` and `bulkMatching` actors (src/adapters/content-actors.ts) and the guards by name. The actions are added in
 * ./content-browser.actions.ts; `navigateUrl` is declared here so they can enqueue it by name.
 */
import { setup } from 'xstate';
import {
  CONTENT_KINDS, CONTENT_LIST_BOUNDS, type BulkStatus, type ContentKind, type ContentSort, type ContentStatus,
} from '../common/content';
import { ROUTES } from '../common/constants';
import { libraryHref, validateLibrarySearch } from '../common/content-library-search';
import { OWN_MESSAGES } from '../common/messages';
import { errorCodeOf } from './error-code';
import { lastingUndoMachine } from './lasting-undo.machine';
import { LIST_SEARCH_DEBOUNCE_MS, type ListQuery } from './list.machine';
import { contentListMachine, type ContentListPage } from './list-content';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

export { contentFetchPage, contentListMachine, type ContentListPage, type LoadListInput } from './list-content';


/** Pause after the last keystroke before the list is asked for (the list's own). */
export const SEARCH_DEBOUNCE_MS = LIST_SEARCH_DEBOUNCE_MS;
export const CONTENT_PAGE_SIZE = CONTENT_LIST_BOUNDS.limitDefault;

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
  /** The last page the `list` child read (its rows and versions for a bulk change); null until one is. */
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
  /** From the `list` child: a query it read (a search once typing paused, or a page past the last one `clamped` to it). */
  | { type: 'list.queried'; query: ListQuery; clamped: boolean }
  /** From the `list` child: the page it read. */
  | { type: 'list.loaded'; page: ContentListPage }
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

/**
 * The words of the library's lasting Undo of a bulk change (issue 38): 'Undo publish of 2 items'. The
 * snackbar keeps its own message (`bulkDoneText`); the Undo stays on the page (lasting-undo.machine.ts).
 */
export function bulkUndoLabel(status: BulkStatus, outcome: BulkOutcome): string {
  const count = typeof outcome === 'number' ? outcome : outcome.updated;
  return `Undo ${status === 'published' ? 'publish' : 'unpublish'} of ${count} ${count === 1 ? 'item' : 'items'}`;
}

export const contentBrowserBase = setup({
  /** The library's children by id (so `snapshot.children.lastBulk` and `.list` are typed). */
  types: machineTypes<{ context: ContentBrowserContext; events: ContentBrowserEvent; children: { lastBulk: 'lastBulk'; list: 'list' } }>(),
  actors: {
    /** The library's rows (issue 39): its `fetchPage` is provided by the wiring. */
    list: contentListMachine,
    bulkStatus: providedLater<BulkOutcome, BulkStatusInput>('bulkStatus'),
    bulkMatching: providedLater<BulkOutcome, BulkMatchingInput>('bulkMatching'),
    /** The library's lasting Undo of its last bulk change (issue 38); its undo I/O is provided by the wiring. */
    lastBulk: lastingUndoMachine,
  },
  actions: {
    /** The navigation effect (the wiring file provides it); a no-op in headless tests. */
    navigateUrl: (_, _params: { to: string; replace: boolean }) => undefined,
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
    isConflict: (_, params: { error: unknown }) => errorCodeOf(params.error) === CONTENT_BULK_CONFLICT,
  },
});
