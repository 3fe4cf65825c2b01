/**
 * The page machine of a page that edits one record (AppCMS › Brand, Settings, Service, Devices,
 * Template; Monetization › Models; issue 26). It invokes the record's `editor` and the page's
 * `actions`, and, when its input asks, spawns the record's `history` (its revisions, issue 28;
 * AppCMS Settings' versions of old are one case of them) and a `comparison` list (what Copy from
 * default would change). It decides what follows what they report:
 *
 * - a save (`editor.saved`) reads the history and the comparison again;
 * - a restored revision (`history.restored`) opens the editor afresh on the restored record; a Reload
 *   after a restore's conflict (`history.stale`) opens it afresh too;
 * - a page action that changed the stored record (`action.performed` with `reread`: a rotated key)
 *   opens the editor afresh; one that brings fields (`draft`: an uploaded file's address) puts them
 *   into the editor's draft;
 * - the record was read again elsewhere (`page.reload`: the network's data after a copy from the
 *   default) opens the editor afresh and compares again;
 * - the editor's Close (`editor.left`) runs the provided `leave` (the page navigates) and opens the
 *   editor afresh, so coming back shows the stored record.
 *
 * The children are plain ids (no systemId). Each page's wiring (src/adapters/<area>-actors.ts)
 * provides their I/O; `scope` (AppCMS: site and network) is passed to every child's I/O as is.
 */
import { enqueueActions, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { machineTypes } from './machine-types';
import type { RevisionKind } from '../common/revisions';
import type { EditorScope } from './editor.machine';
import { pageHistoryMachine } from './history.machine';
import { listMachine } from './list.machine';
import { pageActionLogic, pageEditorMachine } from './list-page.machine';
import type { PageActionEffects } from './page-action.machine';
import { runningChild } from './running-child';

/** Rows the comparison list reads at most (every field of a document fits). */
export const COMPARISON_LIMIT = 100;

export interface EditorPageInput {
  /** The record's id (AppCMS: the network, or the site for the site's own records). */
  id: string;
  scope?: EditorScope;
  /** Names of the page actions that ask before they run. */
  confirm?: readonly string[];
  /** Whether the page shows what Copy from default would change (read with the scope as the list's filters). */
  comparison?: boolean;
  /** The record's revisions (its kind and id as the server names them): its History is shown beside the editor. */
  revisions?: { kind: RevisionKind; objectId: string };
  /** Field name → label of the fields a save requires (passed to the editor). */
  required?: Readonly<Record<string, string>>;
}

export interface EditorPageContext {
  id: string;
  scope: EditorScope | null;
  confirm: readonly string[];
  comparison: boolean;
  revisions: { kind: RevisionKind; objectId: string } | null;
  required: Readonly<Record<string, string>> | null;
}

export type EditorPageEvent =
  | { type: 'page.reload' }
  | { type: 'editor.saved' }
  /** Sent by the editor after a create; a page of one stored record never creates (nothing follows). */
  | { type: 'editor.created'; id: string }
  | { type: 'editor.left' }
  | { type: 'history.restored' }
  | { type: 'history.stale' }
  | ({ type: 'action.performed' } & PageActionEffects);

/** Every child by its id (its actor's name): `snapshot.children.editor` and the rest are typed. */
type EditorPageChildren = { editor: 'editor'; actions: 'pageAction'; comparison: 'comparison'; history: 'history' };

export const editorPageMachine = setup({
  types: machineTypes<{ context: EditorPageContext; events: EditorPageEvent; children: EditorPageChildren; input: EditorPageInput }>(),
  actors: {
    editor: pageEditorMachine,
    pageAction: pageActionLogic,
    comparison: listMachine,
    history: pageHistoryMachine,
  },
  actions: {
    startSideChildren: enqueueActions(({ context, enqueue }) => {
      if (context.comparison) enqueue.spawnChild('comparison', { id: 'comparison', input: { filters: context.scope ?? {}, limit: COMPARISON_LIMIT } });
      if (context.revisions) enqueue.spawnChild('history', { id: 'history', input: context.revisions });
    }),
    reloadHistory: enqueueActions(({ context, enqueue }) => {
      if (context.revisions) enqueue.sendTo('history', { type: 'history.reload' });
    }),
    reloadComparison: enqueueActions(({ context, enqueue }) => {
      if (context.comparison) enqueue.sendTo('comparison', { type: 'list.reload' });
    }),
    /** The fields a page action brought (an upload's address) go into the editor's draft. */
    putIntoDraft: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'action.performed') return;
      for (const [field, value] of Object.entries(event.draft)) enqueue.sendTo('editor', { type: 'editor.change', field, value });
    }),
    /** Clears the page action's last message (sent after a save, which it asked for or which made it stale). */
    dismissActionMessage: sendTo('actions', { type: 'action.dismiss' }),
    /** Provided by the wiring file: where the editor's Close goes. */
    leave: () => {},
  },
  guards: {
    rereads: (_, params: { reread: boolean }) => params.reread,
  },
}).createMachine({
  id: 'editorPage',
  description: 'A page editing one record: its editor and page actions, with its History and the comparison with the default network where the page shows them.',
  context: ({ input }) => ({
    id: input.id,
    scope: input.scope ?? null,
    confirm: input.confirm ?? [],
    comparison: input.comparison === true,
    revisions: input.revisions ?? null,
    required: input.required ?? null,
  }),
  entry: 'startSideChildren',
  invoke: { id: 'actions', src: 'pageAction', input: ({ context }) => ({ confirm: context.confirm }) },
  initial: 'open',
  states: {
    open: {
      description: 'The editor shows the record; a restore, a rotation, a re-read elsewhere or Close opens it afresh.',
      invoke: {
        id: 'editor', src: 'editor',
        input: ({ context }) => ({ id: context.id, ...(context.scope ? { scope: context.scope } : {}), ...(context.required ? { required: context.required } : {}) }),
      },
      on: {
        'page.reload': { target: 'open', reenter: true, actions: ['reloadComparison', 'reloadHistory'] },
        // Issue 30: an action's message ("Logo uploaded. Save to use it.") no longer holds once saved.
        'editor.saved': { actions: ['reloadHistory', 'reloadComparison', 'dismissActionMessage'] },
        'history.restored': { target: 'open', reenter: true, actions: 'reloadComparison' },
        'history.stale': { target: 'open', reenter: true },
        'action.performed': [
          { guard: { type: 'rereads', params: ({ event }) => ({ reread: event.reread }) }, target: 'open', reenter: true },
          { actions: 'putIntoDraft' },
        ],
        'editor.left': { target: 'open', reenter: true, actions: 'leave' },
      },
    },
  },
});

export type EditorPageMachine = typeof editorPageMachine;
export type EditorPageSnapshot = SnapshotFrom<EditorPageMachine>;
export type PageEditorRef = ActorRefFrom<typeof pageEditorMachine>;
export type PageActionsRef = ActorRefFrom<typeof pageActionLogic>;
export type PageComparisonRef = ActorRefFrom<typeof listMachine>;

/** The editor runs in the page's only state and the actions at its root: while the page runs, both are there. */
export const selectEditorPageEditor = (snapshot: EditorPageSnapshot): PageEditorRef => runningChild(snapshot.children.editor, 'editor');
export const selectEditorPageActions = (snapshot: EditorPageSnapshot): PageActionsRef => runningChild(snapshot.children.actions, 'actions');
/** Undefined unless the page was started with `comparison`. */
export const selectEditorPageComparison = (snapshot: EditorPageSnapshot): PageComparisonRef | undefined => snapshot.children.comparison;
/** Undefined unless the page was started with `revisions`. */
export const selectEditorPageHistory = (snapshot: EditorPageSnapshot): ActorRefFrom<typeof pageHistoryMachine> | undefined => snapshot.children.history;
