/**
 * The page machine of a list page with an editor beside it and actions on its rows (Monetization ›
 * Plans, Offers, Plan groups, Coupons; issue 26). It invokes its three children and decides what
 * follows what they report:
 *
 * - `list` (list.machine.ts): the rows. It is read again after a save (`editor.saved`) and after a
 *   page action (`action.performed`); it opens on the address's query (`search`, `filters`, `offset`)
 *   and each query the person asks for (`list.queried`) goes to the provided `writeQuery` (the address,
 *   replaced: issue 38);
 * - `actions` (page-action.machine.ts): delete, duplicate, export, move, asking first where needed;
 * - `editor` (editor.machine.ts), while a record is open (`open`): `page.open` with the record's id
 *   opens it (the view sends it when the address's `?edit=` changes), `page.close` closes it. A create
 *   (`editor.created`) keeps the same editor and records the new id, and the provided `openCreated`
 *   action shows it at its own address (the view's `page.open` with that id then changes nothing).
 *   The editor's Close (`editor.left`) closes it and runs the provided `closeEditor` (the address
 *   without `?edit=`); a page whose editor is always there (`keepEditor`: the coupon batch form)
 *   opens it afresh instead.
 * - `history` (history.machine.ts), beside the open record when the page names its revision kind
 *   (`history`; never for a new record): a save reads it again; a restore (`history.restored`) or a
 *   Reload after a conflict (`history.stale`) opens the editor and the history afresh (and a restore
 *   reloads the rows). Never beside an always-there editor (a form, not a record).
 * - `rowHistory` (history.machine.ts, its reports named `rowHistory.*`), the History of one row without
 *   an editor (Coupons: a code has no editor, only Disable/Enable), in its own region beside the
 *   editor's: `page.history` with the row's id shows it (the view sends it from the row's History
 *   control; the address's `?history=` gives it at the start, the provided `address` actor on
 *   Back/Forward), `page.closeHistory` hides it. A row action reads it again (Disable writes a
 *   revision); a restore reloads the rows and shows it afresh with its notice.
 *
 * The children are plain ids (no systemId: every mounted page has its own). The wiring file of the
 * area (src/adapters/<area>-actors.ts) provides each child's I/O and the two navigation actions:
 *
 *   listPageMachine.provide({
 *     actors: { list: listMachine.provide(…), editor: pageEditorMachine.provide(…), pageAction: pageActionLogic.provide(…) },
 *     actions: { openCreated: …navigate…, closeEditor: …navigate… },
 *   })
 *
 * Tags: `editing` while a record is open; `rowHistory` while a row's History is shown.
 */
import { assign, fromCallback, sendParent, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { RevisionKind } from '../common/revisions';
import { editorMachine } from './editor.machine';
import { pageHistoryMachine, type HistoryRestored } from './history.machine';
import { listMachine, type ListQuery } from './list.machine';
import { pageActionMachine, type PageActionEffects } from './page-action.machine';

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

export const listPageMachine = setup({
  types: {
    input: {} as ListPageInput,
    context: {} as ListPageContext,
    events: {} as ListPageEvent,
    children: {} as { list: 'list'; actions: 'pageAction'; editor: 'editor'; history: 'history'; rowHistory: 'rowHistory'; address: 'address' },
  },
  actors: {
    list: pageListMachine,
    pageAction: pageActionLogic,
    editor: pageEditorMachine,
    history: pageHistoryMachine,
    rowHistory: pageRowHistoryMachine,
    address: pageAddressLogic,
  },
  actions: {
    setOpenId: assign((_, params: { id: string | null }) => ({ openId: params.id, historyNotice: null })),
    storeHistoryNotice: assign((_, params: { restored: HistoryRestored | null }) => ({ historyNotice: params.restored })),
    clearHistoryNotice: assign({ historyNotice: null }),
    reloadList: sendTo('list', { type: 'list.reload' }),
    reloadHistory: sendTo('history', { type: 'history.reload' }),
    setHistoryOf: assign((_, params: { id: string | null }) => ({ historyOf: params.id, rowHistoryNotice: null })),
    storeRowHistoryNotice: assign((_, params: { restored: HistoryRestored | null }) => ({ rowHistoryNotice: params.restored })),
    clearRowHistoryNotice: assign({ rowHistoryNotice: null }),
    reloadRowHistory: sendTo('rowHistory', { type: 'history.reload' }),
    /** Provided by the wiring file: show the created record at its own address (replacing `?edit=new`). */
    openCreated: (_, params: { id: string }) => { void params; },
    /** Provided by the wiring file: the page's address without an open record. */
    closeEditor: () => {},
    /** Provided by the wiring file: the list's query as the page's address, replacing it (issue 38). */
    writeQuery: (_, params: { query: ListQuery }) => { void params; },
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
}).createMachine({
  id: 'listPage',
  description: 'A list page: its rows, the actions on them and the editor of one record; a save or an action reloads the rows, a create opens the new record, Close closes the editor.',
  context: ({ input }) => ({
    filters: input.filters ?? {},
    search: input.search ?? '',
    offset: input.offset ?? 0,
    confirm: input.confirm ?? [],
    openId: input.keepEditor ?? input.open ?? null,
    keepEditor: input.keepEditor ?? null,
    history: input.history ?? null,
    historyNotice: null,
    historyOf: input.history ? input.showHistory ?? null : null,
    rowHistoryNotice: null,
  }),
  invoke: [
    { id: 'list', src: 'list', input: ({ context }) => ({ filters: context.filters, search: context.search, offset: context.offset }) },
    { id: 'actions', src: 'pageAction', input: ({ context }) => ({ confirm: context.confirm }) },
    { id: 'address', src: 'address' },
  ],
  on: {
    'action.performed': { actions: 'reloadList' },
    'list.queried': { actions: { type: 'writeQuery', params: ({ event }) => ({ query: event.query }) } },
  },
  type: 'parallel',
  states: {
    editor: {
      description: 'The editor of one record beside the list, or none.',
      initial: 'closed',
      states: {
        closed: {
          description: 'Only the list is shown; a row or New opens the editor. A page shown with a record (or always having one) opens it at once.',
          always: { guard: 'hasOpenRecord', target: 'open' },
          on: {
            'page.open': { target: 'open', actions: { type: 'setOpenId', params: ({ event }) => ({ id: event.id }) } },
          },
        },
        open: {
          description: 'The editor of one record is beside the list. Another record opens a fresh editor; the one already open is left as it is.',
          tags: ['editing'],
          invoke: { id: 'editor', src: 'editor', input: ({ context }) => ({ id: context.openId! }) },
          on: {
            'page.open': [
              { guard: { type: 'isOpenOn', params: ({ event }) => ({ id: event.id }) } },
              { target: 'open', reenter: true, actions: { type: 'setOpenId', params: ({ event }) => ({ id: event.id }) } },
            ],
            'page.close': [
              { guard: 'keepsEditor' },
              { target: 'closed', actions: { type: 'setOpenId', params: { id: null } } },
            ],
            'editor.saved': { actions: 'reloadList' },
            'history.restored': {
              target: 'open', reenter: true,
              actions: [{ type: 'storeHistoryNotice', params: ({ event }) => ({ restored: event.restored ?? null }) }, 'reloadList'],
            },
            'history.stale': { target: 'open', reenter: true, actions: 'clearHistoryNotice' },
            'editor.created': {
              actions: [
                { type: 'setOpenId', params: ({ event }) => ({ id: event.id }) },
                { type: 'openCreated', params: ({ event }) => ({ id: event.id }) },
              ],
            },
            'editor.left': [
              { guard: 'keepsEditor', target: 'open', reenter: true },
              { target: 'closed', actions: [{ type: 'setOpenId', params: { id: null } }, 'closeEditor'] },
            ],
          },
          initial: 'choosing',
          states: {
            choosing: {
              description: 'Whether the open record shows its History beside the editor.',
              always: [{ guard: 'showsHistory', target: 'withHistory' }, { target: 'withoutHistory' }],
            },
            withHistory: {
              description: 'The record\'s History is beside its editor; a save reads it again.',
              invoke: {
                id: 'history', src: 'history',
                input: ({ context }) => ({ kind: context.history!, objectId: context.openId!, restored: context.historyNotice }),
              },
              on: { 'editor.saved': { actions: ['reloadList', 'reloadHistory'] } },
            },
            withoutHistory: {
              description: 'No History: the page shows none, or the record is a new one (once created, its History starts).',
              on: {
                'editor.created': {
                  target: 'choosing',
                  actions: [
                    { type: 'setOpenId', params: ({ event }) => ({ id: event.id }) },
                    { type: 'openCreated', params: ({ event }) => ({ id: event.id }) },
                  ],
                },
              },
            },
          },
        },
      },
    },
    rowHistory: {
      description: 'The History of one row without an editor (a page naming its revision kind), beside the list, or none.',
      initial: 'hidden',
      states: {
        hidden: {
          description: 'No row\'s History is shown. A page shown with one (the address\'s ?history=) shows it at once.',
          always: { guard: 'showsRowHistory', target: 'shown' },
          on: {
            'page.history': { guard: 'hasHistoryKind', target: 'shown', actions: { type: 'setHistoryOf', params: ({ event }) => ({ id: event.id }) } },
          },
        },
        shown: {
          description: 'One row\'s History is beside the list. Another row shows its own afresh; a row action reads it again (a Disable is a revision); a restore reloads the rows and shows it afresh.',
          tags: ['rowHistory'],
          invoke: {
            id: 'rowHistory', src: 'rowHistory',
            input: ({ context }) => ({ kind: context.history!, objectId: context.historyOf!, restored: context.rowHistoryNotice }),
          },
          on: {
            'page.history': [
              { guard: { type: 'isHistoryOf', params: ({ event }) => ({ id: event.id }) } },
              { target: 'shown', reenter: true, actions: { type: 'setHistoryOf', params: ({ event }) => ({ id: event.id }) } },
            ],
            'page.closeHistory': { target: 'hidden', actions: { type: 'setHistoryOf', params: { id: null } } },
            // Taken instead of the page's own (one reload of the rows, not two).
            'action.performed': { actions: ['reloadList', 'reloadRowHistory'] },
            'rowHistory.restored': {
              target: 'shown', reenter: true,
              actions: [{ type: 'storeRowHistoryNotice', params: ({ event }) => ({ restored: event.restored ?? null }) }, 'reloadList'],
            },
            'rowHistory.stale': { target: 'shown', reenter: true, actions: ['clearRowHistoryNotice', 'reloadList'] },
          },
        },
      },
    },
  },
});

export type ListPageMachine = typeof listPageMachine;
export type ListPageSnapshot = SnapshotFrom<ListPageMachine>;
export type PageListRef = ActorRefFrom<typeof listMachine>;
export type PageEditorRef = ActorRefFrom<typeof pageEditorMachine>;
export type PageActionsRef = ActorRefFrom<typeof pageActionLogic>;

export const selectPageList = (snapshot: ListPageSnapshot) => snapshot.children.list as PageListRef;
export const selectPageActions = (snapshot: ListPageSnapshot) => snapshot.children.actions as PageActionsRef;
/** The open record's editor; undefined while none is open. */
export const selectPageEditor = (snapshot: ListPageSnapshot) => snapshot.children.editor as PageEditorRef | undefined;
export const selectOpenId = (snapshot: ListPageSnapshot) => snapshot.context.openId;
export const selectIsEditing = (snapshot: ListPageSnapshot) => snapshot.hasTag('editing');
export type PageHistoryRef = ActorRefFrom<typeof pageHistoryMachine>;
/** The open record's History; undefined while none is open, for a new record, or on a page without history. */
export const selectPageHistory = (snapshot: ListPageSnapshot) => snapshot.children.history as PageHistoryRef | undefined;
/** The History of a row shown without an editor (`page.history`); undefined while none is. */
export const selectRowHistory = (snapshot: ListPageSnapshot) => snapshot.children.rowHistory as PageHistoryRef | undefined;
/** The id of the row whose History is shown; null while none is. */
export const selectRowHistoryId = (snapshot: ListPageSnapshot) => (snapshot.hasTag('rowHistory') ? snapshot.context.historyOf : null);
