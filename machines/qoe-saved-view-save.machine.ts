/**
 * "Save view" on a Dashboard 360 report page (issue 41): a dialog asks for a name and whether to
 * share it with the site (offered to Dashboard 360 editors only), then stores the page's path and
 * its search (range, filters, breakdown, sort) as a saved view. I/O: src/adapters/qoe-alert-actors.ts.
 */
import { assign, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { QOE_ALERT_NAME_MAX, type QoeSavedView, type QoeSavedViewInput } from '../common/qoe';
import { QOE_SAVED_VIEW_MESSAGES as M } from '../common/messages/qoe-alerts';
import { machineTypes } from './machine-types';
import { failureMessage } from './notify';
import { providedLater } from './unprovided';

export interface SaveViewInput {
  /** Whether the person may share a view with the site (Dashboard 360 write). */
  canShare: boolean;
}

export interface SaveViewContext {
  canShare: boolean;
  name: string;
  shared: boolean;
  path: string;
  search: Record<string, string>;
  nameError: string | null;
  error: string | null;
  /** The view just saved (its link is shown). */
  saved: QoeSavedView | null;
}

export type SaveViewEvent =
  | { type: 'saveView.open'; path: string; search: Record<string, string>; name: string }
  | { type: 'saveView.name'; name: string }
  | { type: 'saveView.shared'; shared: boolean }
  | { type: 'saveView.submit' }
  | { type: 'saveView.cancel' }
  | { type: 'saveView.dismiss' };

export function savedViewNameError(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return M.nameRequired;
  if (trimmed.length > QOE_ALERT_NAME_MAX) return M.nameTooLong;
  return null;
}

export const qoeSaveViewMachine = setup({
  types: machineTypes<{ input: SaveViewInput; context: SaveViewContext; events: SaveViewEvent; children: { createView: 'createView' } }>(),
  actors: {
    createView: providedLater<QoeSavedView, QoeSavedViewInput>('createView'),
  },
  actions: {
    openDialog: assign(({ event }) => (event.type === 'saveView.open'
      ? { path: event.path, search: event.search, name: event.name, shared: false, nameError: null, error: null, saved: null } : {})),
    setName: assign(({ event }) => (event.type === 'saveView.name' ? { name: event.name, nameError: null } : {})),
    setShared: assign(({ context, event }) => (event.type === 'saveView.shared' ? { shared: context.canShare && event.shared } : {})),
    showNameError: assign(({ context }) => ({ nameError: savedViewNameError(context.name) })),
    storeSaved: assign((_, params: { view: QoeSavedView }) => ({ saved: params.view, error: null })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearSaved: assign({ saved: null, error: null }),
  },
  guards: {
    nameIsValid: ({ context }) => savedViewNameError(context.name) === null,
  },
}).createMachine({
  id: 'qoeSaveView',
  description: 'The "Save view" control of a report page: closed, the dialog asking for a name (and sharing), or saving.',
  context: ({ input }) => ({ canShare: input.canShare, name: '', shared: false, path: '', search: {}, nameError: null, error: null, saved: null }),
  initial: 'closed',
  states: {
    closed: {
      description: 'Only the Save view button shows (and, after a save, what was saved).',
      on: {
        'saveView.open': { target: 'asking', actions: 'openDialog' },
        'saveView.dismiss': { actions: 'clearSaved' },
      },
    },
    asking: {
      description: 'The dialog asks for the view\'s name and, for an editor, whether to share it with the site.',
      on: {
        'saveView.name': { actions: 'setName' },
        'saveView.shared': { actions: 'setShared' },
        'saveView.submit': [{ guard: 'nameIsValid', target: 'saving' }, { actions: 'showNameError' }],
        'saveView.cancel': { target: 'closed' },
      },
    },
    saving: {
      description: 'The view is being stored.',
      invoke: {
        id: 'createView', src: 'createView',
        input: ({ context }) => ({ name: context.name.trim(), path: context.path, search: context.search, shared: context.canShare && context.shared }),
        onDone: { target: 'closed', actions: { type: 'storeSaved', params: ({ event }: { event: DoneActorEvent<QoeSavedView> }) => ({ view: event.output }) } },
        onError: { target: 'asking', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.saveFailed) }) } },
      },
    },
  },
});

export type QoeSaveViewMachine = typeof qoeSaveViewMachine;
export type QoeSaveViewSnapshot = SnapshotFrom<QoeSaveViewMachine>;
export const selectSaveViewPhase = (s: QoeSaveViewSnapshot): 'closed' | 'asking' | 'saving' =>
  (s.matches('asking') ? 'asking' : s.matches('saving') ? 'saving' : 'closed');
export const selectSaveViewContext = (s: QoeSaveViewSnapshot) => s.context;
