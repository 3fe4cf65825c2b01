/**
 * The list page machine's setup (machines/list-page.machine.ts assembles it with its states): its
 * children as a page's children (each reporting to the page with sendParent), its types and its guards
 * by name. The actions are added in ./list-page.actions.ts.
 */
import { fromCallback, sendParent, setup } from 'xstate';
import type { RevisionKind } from '../common/revisions';
import { editorMachine } from './editor.machine';
import { pageHistoryMachine, type HistoryRestored } from './history.machine';
import { listMachine, type ListQuery } from './list.machine';
import { pageActionMachine, type PageActionEffects } from './page-action.machine';
import { machineTypes } from './machine-types';

/** The id an editor is opened with to create a record rather than edit one. */
export const NEW_RECORD_ID = 'new';

/** The editor as a page's child: its save, create and Close are reported to the page machine. */
export const pageEditorMachine = editorMachine.provide({
  actions: {
    announceSaved: sendParent({ type: 'editor.saved' }),
    openCreated: sendParent((_, params: { id: string }) => ({ type: 'editor.created', id: params.id })),
    leave: sendParent({ type: 'editor.left' }),
  },
});

/**
 * The list as a page's child: each query the person asks for (search, filter, page) is reported to the
 * page machine, which writes it into the address (issue 38).
 */
export const pageListMachine = listMachine.provide({
  actions: { queryChanged: sendParent(({ context }) => ({ type: 'list.queried', query: context.query })) },
});

/** The page actions as a page's child: each finished action is reported to the page machine. */
export const pageActionLogic = pageActionMachine.provide({
  actions: { performed: sendParent((_, params: PageActionEffects) => ({ type: 'action.performed', ...params })) },
});

/** The History of a row (no editor) as a page's child: its restore and Reload are reported as `rowHistory.*`. */
export const pageRowHistoryMachine = pageHistoryMachine.provide({
  actions: {
    announceRestored: sendParent(({ context }) => ({ type: 'rowHistory.restored', restored: context.restored })),
    announceStale: sendParent({ type: 'rowHistory.stale' }),
  },
});

/**
 * The address's later changes (Back/Forward) as page events: the wiring file provides it (the
 * browser's popstate read as `page.history` / `page.closeHistory`); by default it listens to nothing.
 */
export const pageAddressLogic = fromCallback(() => undefined);

export interface ListPageInput {
  /** The list's filters, '' for none (e.g. `{ status: '' }`). */
  filters?: Readonly<Record<string, string>>;
  /** The search the list opens with (the address's `?search=`, issue 38), if any. */
  search?: string;
  /** The first row the list opens on (the address's `?page=`, issue 38); 0 when left out. */
  offset?: number;
  /** Names of the page actions that ask before they run. */
  confirm?: readonly string[];
  /** The record open when the page is shown (the address's `?edit=`), if any. */
  open?: string;
  /** An editor always open on this id (the coupon batch form): Close opens it afresh. */
  keepEditor?: string;
  /** The revision kind of the records: the open record's History is shown beside its editor. */
  history?: RevisionKind;
  /** The row whose History is shown when the page is shown (the address's `?history=`), if any. */
  showHistory?: string;
}

export interface ListPageContext {
  filters: Readonly<Record<string, string>>;
  /** The search the list opened with. */
  search: string;
  /** The first row the list opened on. */
  offset: number;
  confirm: readonly string[];
  /** The id of the record in the editor; null while none is open. */
  openId: string | null;
  keepEditor: string | null;
  history: RevisionKind | null;
  /** The restore the open record's History just did (shown again by the fresh History after it). */
  historyNotice: HistoryRestored | null;
  /** The id of the row whose History is shown without an editor; null while none is. */
  historyOf: string | null;
  /** The restore that row's History just did (shown again by the fresh History after it). */
  rowHistoryNotice: HistoryRestored | null;
}

export type ListPageEvent =
  | { type: 'page.open'; id: string }
  | { type: 'page.close' }
  | { type: 'editor.saved' }
  | { type: 'editor.created'; id: string }
  | { type: 'editor.left' }
  | { type: 'history.restored'; restored?: HistoryRestored | null }
  | { type: 'history.stale' }
  | { type: 'page.history'; id: string }
  | { type: 'page.closeHistory' }
  | { type: 'list.queried'; query: ListQuery }
  | { type: 'rowHistory.restored'; restored?: HistoryRestored | null }
  | { type: 'rowHistory.stale' }
  | ({ type: 'action.performed' } & PageActionEffects);

/** Every child by id: the actor's name (so `snapshot.children.<id>` is typed; a type, not an interface, to fit setup's `Record<string, string>`). */
export type ListPageChildren = {
  list: 'list';
  actions: 'pageAction';
  editor: 'editor';
  history: 'history';
  rowHistory: 'rowHistory';
  address: 'address';
};

export const listPageBase = setup({
  types: machineTypes<{ input: ListPageInput; context: ListPageContext; events: ListPageEvent; children: ListPageChildren }>(),
  actors: {
    list: pageListMachine,
    pageAction: pageActionLogic,
    editor: pageEditorMachine,
    history: pageHistoryMachine,
    rowHistory: pageRowHistoryMachine,
    address: pageAddressLogic,
  },
  guards: {
    isOpenOn: ({ context }, params: { id: string }) => context.openId === params.id,
    hasOpenRecord: ({ context }) => context.openId !== null,
    keepsEditor: ({ context }) => context.keepEditor !== null,
    /** The page shows History and the open record is a stored one (not a new one). */
    showsHistory: ({ context }) => context.history !== null && context.openId !== null && context.openId !== NEW_RECORD_ID
      && context.openId !== context.keepEditor,
    /** The page names its revision kind and a row's History was asked for. */
    showsRowHistory: ({ context }) => context.history !== null && context.historyOf !== null,
    hasHistoryKind: ({ context }) => context.history !== null,
    isHistoryOf: ({ context }, params: { id: string }) => context.historyOf === params.id,
  },
});
