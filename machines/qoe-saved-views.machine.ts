/**
 * Dashboard 360 › Saved views (issue 41): the person's own views and those shared with the site, each
 * opened on its page with its range and filters; its owner renames it, shares it (Dashboard 360
 * editors only) or makes it private, and deletes it after a question that says what it does. With
 * `openId` (the address /analytics/saved/$id) the view is read and the browser goes to its page.
 * I/O and navigation: src/adapters/qoe-alert-actors.ts.
 */
import { assign, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import type { QoeSavedView, QoeSavedViewInput } from '../common/qoe';
import { QOE_SAVED_VIEW_MESSAGES as M } from '../common/messages/qoe-alerts';
import { isConflictError } from './history.machine';
import { errorStatusOf } from './error-code';
import { machineTypes } from './machine-types';
import { failureMessage } from './notify';
import { providedLater } from './unprovided';
import { savedViewNameError } from './qoe-saved-view-save.machine';

export interface SavedViewsInput {
  canShare: boolean;
  /** Open this view at once (its own address). */
  openId?: string;
}

export interface SavedViewsContext {
  canShare: boolean;
  openId: string | null;
  views: QoeSavedView[];
  targetId: string | null;
  /** The new name being typed (rename). */
  name: string;
  nameError: string | null;
  error: string | null;
  notice: string | null;
}

export type SavedViewsEvent =
  | { type: 'views.retry' }
  | { type: 'views.open'; id: string }
  | { type: 'views.rename'; id: string }
  | { type: 'views.share'; id: string; shared: boolean }
  | { type: 'views.delete'; id: string }
  | { type: 'rename.name'; name: string }
  | { type: 'rename.submit' }
  | { type: 'rename.cancel' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

export interface UpdateViewInput { id: string; version: number; view: QoeSavedViewInput }
export interface DeleteViewInput { id: string; version: number }
export interface OpenViewParams { path: string; search: Record<string, string>; replace: boolean }

/** The address a saved view opens: its page with its search. */
export function savedViewHref(view: Pick<QoeSavedView, 'path' | 'search'>): string {
  const query = new URLSearchParams(view.search).toString();
  return query === '' ? view.path : `${view.path}?${query}`;
}

function inputOf(view: QoeSavedView): QoeSavedViewInput {
  return { name: view.name, path: view.path, search: view.search, shared: view.shared };
}

type Args = { context: SavedViewsContext; event: SavedViewsEvent };
const idOf = ({ event }: Args) => ({ id: 'id' in event ? event.id : '' });
const nameOf = (context: SavedViewsContext) => context.views.find((v) => v.id === context.targetId)?.name ?? '';

export const qoeSavedViewsMachine = setup({
  types: machineTypes<{
    input: SavedViewsInput; context: SavedViewsContext; events: SavedViewsEvent;
    children: { fetchViews: 'fetchViews'; fetchView: 'fetchView'; updateView: 'updateView'; deleteView: 'deleteView' };
  }>(),
  actors: {
    fetchViews: providedLater<QoeSavedView[]>('fetchViews'),
    fetchView: providedLater<QoeSavedView, { id: string }>('fetchView'),
    updateView: providedLater<QoeSavedView, UpdateViewInput>('updateView'),
    deleteView: providedLater<unknown, DeleteViewInput>('deleteView'),
  },
  actions: {
    /** Provided by the adapter: the browser goes to the view's page with its search. */
    openView: (_, _params: OpenViewParams) => {},
    storeViews: assign((_, params: { views: QoeSavedView[] }) => ({ views: params.views })),
    setTarget: assign((_, params: { id: string }) => ({ targetId: params.id, error: null, notice: null, nameError: null })),
    startRename: assign(({ context }, params: { id: string }) => ({
      targetId: params.id, name: context.views.find((v) => v.id === params.id)?.name ?? '', nameError: null, error: null, notice: null,
    })),
    setName: assign(({ event }) => (event.type === 'rename.name' ? { name: event.name, nameError: null } : {})),
    showNameError: assign(({ context }) => ({ nameError: savedViewNameError(context.name) })),
    storeView: assign(({ context }, params: { view: QoeSavedView; notice: string }) => ({
      views: context.views.map((v) => (v.id === params.view.id ? params.view : v)), notice: params.notice, error: null, targetId: null,
    })),
    setNotice: assign((_, params: { message: string }) => ({ notice: params.message, error: null })),
    setError: assign((_, params: { message: string }) => ({ error: params.message, notice: null })),
    clearTarget: assign({ targetId: null }),
  },
  guards: {
    opensOne: ({ context }) => context.openId !== null,
    isMine: ({ context }, params: { id: string }) => context.views.some((v) => v.id === params.id && v.mine),
    mayShare: ({ context, event }) => event.type === 'views.share' && context.views.some((v) => v.id === event.id && v.mine)
      && (context.canShare || !event.shared),
    isKnown: ({ context }, params: { id: string }) => context.views.some((v) => v.id === params.id),
    nameIsValid: ({ context }) => savedViewNameError(context.name) === null,
    isConflict: (_, params: { error: unknown }) => isConflictError(params.error),
    isGone: (_, params: { error: unknown }) => errorStatusOf(params.error) === 404 || errorStatusOf(params.error) === 403,
  },
}).createMachine({
  id: 'qoeSavedViews',
  description: 'Saved views: the list (mine and shared), opening one on its page, and its owner\'s rename, share and delete; or one view opened from its address.',
  context: ({ input }) => ({
    canShare: input.canShare, openId: input.openId ?? null, views: [], targetId: null, name: '', nameError: null, error: null, notice: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      description: 'Chooses between opening one view (its address) and listing them.',
      always: [{ guard: 'opensOne', target: 'opening' }, { target: 'loading' }],
    },
    opening: {
      description: 'The view of the address is read; the browser then goes to its page with its range and filters.',
      invoke: {
        id: 'fetchView', src: 'fetchView',
        input: ({ context }) => ({ id: context.openId ?? '' }),
        onDone: {
          target: 'opened',
          actions: { type: 'openView', params: ({ event }: { event: DoneActorEvent<QoeSavedView> }) => ({ path: event.output.path, search: event.output.search, replace: true }) },
        },
        onError: [
          { guard: { type: 'isGone', params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }) }, target: 'loading', actions: { type: 'setError', params: { message: M.notFound } } },
          { target: 'loading', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.loadFailed) }) } },
        ],
      },
    },
    opened: {
      description: 'The browser is on the view\'s page.',
      type: 'final',
    },
    loading: {
      description: 'The saved views (mine and shared) are being read.',
      invoke: {
        id: 'fetchViews', src: 'fetchViews',
        onDone: { target: 'list', actions: { type: 'storeViews', params: ({ event }: { event: DoneActorEvent<QoeSavedView[]> }) => ({ views: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.loadFailed) }) } },
      },
    },
    failed: {
      description: 'The list could not be read; the person may try again.',
      on: { 'views.retry': { target: 'loading' } },
    },
    list: {
      description: 'The saved views are listed; any may be opened, the person\'s own renamed, shared or made private, or deleted.',
      on: {
        'views.open': {
          guard: { type: 'isKnown', params: idOf },
          actions: { type: 'openView', params: ({ context, event }) => {
            const view = context.views.find((v) => v.id === (event.type === 'views.open' ? event.id : ''));
            return { path: view?.path ?? '/analytics', search: view?.search ?? {}, replace: false };
          } },
        },
        'views.rename': { guard: { type: 'isMine', params: idOf }, target: 'renaming', actions: { type: 'startRename', params: idOf } },
        'views.share': { guard: 'mayShare', target: 'sharing', actions: { type: 'setTarget', params: idOf } },
        'views.delete': { guard: { type: 'isMine', params: idOf }, target: 'confirmingDelete', actions: { type: 'setTarget', params: idOf } },
      },
    },
    renaming: {
      description: 'The rename dialog asks for the new name.',
      initial: 'asking',
      states: {
        asking: {
          description: 'The new name is being typed.',
          on: {
            'rename.name': { actions: 'setName' },
            'rename.submit': [{ guard: 'nameIsValid', target: 'saving' }, { actions: 'showNameError' }],
            'rename.cancel': { target: '#qoeSavedViews.list', actions: 'clearTarget' },
          },
        },
        saving: {
          description: 'The new name is being stored.',
          invoke: {
            id: 'updateView', src: 'updateView',
            input: ({ context }) => {
              const view = context.views.find((v) => v.id === context.targetId);
              return { id: context.targetId ?? '', version: view?.version ?? 0, view: { ...(view ? inputOf(view) : { path: '', search: {}, shared: false }), name: context.name.trim() } };
            },
            onDone: { target: '#qoeSavedViews.list', actions: { type: 'storeView', params: ({ event }: { event: DoneActorEvent<QoeSavedView> }) => ({ view: event.output, notice: M.renamed(event.output.name) }) } },
            onError: [
              { guard: { type: 'isConflict', params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }) }, target: '#qoeSavedViews.loading', actions: { type: 'setError', params: { message: M.conflict } } },
              { target: 'asking', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.changeFailed) }) } },
            ],
          },
        },
      },
    },
    sharing: {
      description: 'The view is being shared with the site or made private.',
      invoke: {
        id: 'updateView', src: 'updateView',
        input: ({ context }) => {
          const view = context.views.find((v) => v.id === context.targetId);
          return { id: context.targetId ?? '', version: view?.version ?? 0, view: { ...(view ? inputOf(view) : { name: '', path: '', search: {} }), shared: !(view?.shared ?? true) } };
        },
        onDone: {
          target: 'list',
          actions: { type: 'storeView', params: ({ event }: { event: DoneActorEvent<QoeSavedView> }) => ({ view: event.output, notice: event.output.shared ? M.sharedNotice(event.output.name) : M.privateNotice(event.output.name) }) },
        },
        onError: [
          { guard: { type: 'isConflict', params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }) }, target: 'loading', actions: { type: 'setError', params: { message: M.conflict } } },
          { target: 'list', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.changeFailed) }) } },
        ],
      },
    },
    confirmingDelete: {
      description: 'The person is asked whether to delete the view (the question says who loses it).',
      on: {
        'delete.confirm': { target: 'deleting' },
        'delete.cancel': { target: 'list', actions: 'clearTarget' },
      },
    },
    deleting: {
      description: 'The view is being deleted; the list is read again after it.',
      invoke: {
        id: 'deleteView', src: 'deleteView',
        input: ({ context }) => ({ id: context.targetId ?? '', version: context.views.find((v) => v.id === context.targetId)?.version ?? 0 }),
        onDone: { target: 'loading', actions: [{ type: 'setNotice', params: ({ context }) => ({ message: M.deleted(nameOf(context)) }) }, 'clearTarget'] },
        onError: [
          { guard: { type: 'isConflict', params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }) }, target: 'loading', actions: { type: 'setError', params: { message: M.conflict } } },
          { target: 'list', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.changeFailed) }) } },
        ],
      },
    },
  },
});

export type QoeSavedViewsMachine = typeof qoeSavedViewsMachine;
export type QoeSavedViewsSnapshot = SnapshotFrom<QoeSavedViewsMachine>;
export type SavedViewsPhase = 'opening' | 'opened' | 'loading' | 'failed' | 'list' | 'renaming' | 'sharing' | 'confirmingDelete' | 'deleting';
export function selectSavedViewsPhase(s: QoeSavedViewsSnapshot): SavedViewsPhase {
  const phases = ['opening', 'opened', 'loading', 'failed', 'renaming', 'sharing', 'confirmingDelete', 'deleting'] as const;
  return phases.find((p) => s.matches(p)) ?? 'list';
}
export const selectSavedViewsContext = (s: QoeSavedViewsSnapshot) => s.context;
export const selectRenameSaving = (s: QoeSavedViewsSnapshot) => s.matches({ renaming: 'saving' });
