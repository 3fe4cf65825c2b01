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
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { pageHistoryMachine } from './history.machine';
import type { listMachine } from './list.machine';
import { listPageSetup } from './list-page.actions';
import type { pageActionLogic, pageEditorMachine } from './list-page.setup';
import { editorState } from './list-page.state.editor';
import { rowHistoryState } from './list-page.state.rowHistory';
import { runningChild } from './running-child';

export {
  NEW_RECORD_ID, pageActionLogic, pageAddressLogic, pageEditorMachine, pageListMachine, pageRowHistoryMachine,
  type ListPageChildren, type ListPageContext, type ListPageEvent, type ListPageInput,
} from './list-page.setup';

export const listPageMachine = listPageSetup.createMachine({
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
    editor: editorState,
    rowHistory: rowHistoryState,
  },
});

export type ListPageMachine = typeof listPageMachine;
export type ListPageSnapshot = SnapshotFrom<ListPageMachine>;
export type PageListRef = ActorRefFrom<typeof listMachine>;
export type PageEditorRef = ActorRefFrom<typeof pageEditorMachine>;
export type PageActionsRef = ActorRefFrom<typeof pageActionLogic>;
export const selectPageList = (snapshot: ListPageSnapshot): PageListRef => runningChild(snapshot.children.list, 'list');
export const selectPageActions = (snapshot: ListPageSnapshot): PageActionsRef => runningChild(snapshot.children.actions, 'actions');
/** The open record's editor; undefined while none is open. */
export const selectPageEditor = (snapshot: ListPageSnapshot): PageEditorRef | undefined => snapshot.children.editor;
export const selectOpenId = (snapshot: ListPageSnapshot) => snapshot.context.openId;
export const selectIsEditing = (snapshot: ListPageSnapshot) => snapshot.hasTag('editing');
export type PageHistoryRef = ActorRefFrom<typeof pageHistoryMachine>;
/** The open record's History; undefined while none is open, for a new record, or on a page without history. */
export const selectPageHistory = (snapshot: ListPageSnapshot): PageHistoryRef | undefined => snapshot.children.history;
/** The History of a row shown without an editor (`page.history`); undefined while none is. */
export const selectRowHistory = (snapshot: ListPageSnapshot): PageHistoryRef | undefined => snapshot.children.rowHistory;
/** The id of the row whose History is shown; null while none is. */
export const selectRowHistoryId = (snapshot: ListPageSnapshot) => (snapshot.hasTag('rowHistory') ? snapshot.context.historyOf : null);
