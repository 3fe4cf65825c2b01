/**
 * One editor for every record the console edits (ARCHITECTURE.md "one editor pattern"): content
 * items now, monetization plans and AppCMS documents later. It knows nothing of the entity: the
 * `load` and `save` actors are provided by the page that uses it, the record's editable fields are
 * a flat map of values, and anything else the page shows (stats, artwork) travels as `data`.
 *
 *   loading → editing → saving → saved | conflict | failed
 *   editing | saved → rereading → editing (another save of the record on the page; typing goes on)
 *
 * - dirty: the draft differs from the loaded values (`selectIsDirty`);
 * - required fields (input `required`) are checked before saving;
 * - a stale `version` (the save actor rejects with `code: 'conflict'`) leads to `conflict`, whose
 *   only way on is to reload (the draft is discarded) or leave;
 * - the leave guard: `editor.leave` with unsaved changes asks first (`confirmingLeave`); without
 *   them, or once confirmed, the provided `leave` action runs (the page navigates) and the editor
 *   stops in `left`. A navigation the page did not start (a tab link, the browser's back) is
 *   `editor.navigate`: with unsaved changes it asks first (`confirmingNavigation`) and the router
 *   waits for the answer (`left`: go on; back in `editing`: stay); without them nothing happens and
 *   the router goes on. `selectGuardsLeaving` tells the page whether to hold a page unload;
 * - after a save the provided `announceSaved` runs (the page refreshes its list); a create (the
 *   record answers with an id other than the editor's) also runs the provided `openCreated` with
 *   the new id (the page shows it at its own URL).
 */
import type { SnapshotFrom } from 'xstate';
import { editorSetup } from './editor.actions';
import { changedFields } from './editor.setup';
import { editorGuardsLeaving } from './editor-leaving';
import { loadingState } from './editor.state.loading';
import { rereadingState } from './editor.state.rereading';
import { notFoundState } from './editor.state.notFound';
import { loadFailedState } from './editor.state.loadFailed';
import { editingState } from './editor.state.editing';
import { savingState } from './editor.state.saving';
import { savedState } from './editor.state.saved';
import { conflictState } from './editor.state.conflict';
import { failedState } from './editor.state.failed';
import { confirmingLeaveState } from './editor.state.confirmingLeave';
import { confirmingNavigationState } from './editor.state.confirmingNavigation';
import { leftState } from './editor.state.left';

export {
  EDITOR_FAILURE, EditorFailure, changedFields, failureFields,
  type DraftOwner, type EditorContext, type EditorEmitted, type EditorEvent, type EditorInput, type EditorLoadInput, type EditorRecord,
  type EditorSaveInput, type EditorScope, type EditorValue, type EditorValues,
} from './editor.setup';

export const editorMachine = editorSetup.createMachine({
  id: 'editor',
  description: 'Loads one record, edits a draft of its fields, saves it with the version it was read at, and guards leaving with unsaved changes.',
  context: ({ input }) => ({
    id: input.id,
    scope: input.scope ?? null,
    required: input.required ?? {},
    values: {},
    draft: {},
    version: 0,
    data: null,
    error: null,
    fieldErrors: {},
  }),
  initial: 'loading',
  states: {
    loading: loadingState,
    notFound: notFoundState,
    loadFailed: loadFailedState,
    editing: editingState,
    rereading: rereadingState,
    saving: savingState,
    saved: savedState,
    conflict: conflictState,
    failed: failedState,
    confirmingLeave: confirmingLeaveState,
    confirmingNavigation: confirmingNavigationState,
    left: leftState,
  },
});

export type EditorMachine = typeof editorMachine;
export type EditorSnapshot = SnapshotFrom<EditorMachine>;

export const selectEditorPhase = (snapshot: EditorSnapshot) => snapshot.value;
export const selectDraft = (snapshot: EditorSnapshot) => snapshot.context.draft;
export const selectStoredValues = (snapshot: EditorSnapshot) => snapshot.context.values;
export const selectEditorData = (snapshot: EditorSnapshot) => snapshot.context.data;
export const selectEditorError = (snapshot: EditorSnapshot) => snapshot.context.error;
export const selectFieldErrors = (snapshot: EditorSnapshot) => snapshot.context.fieldErrors;
export const selectEditorId = (snapshot: EditorSnapshot) => snapshot.context.id;
export const selectIsDirty = (snapshot: EditorSnapshot) => Object.keys(changedFields(snapshot.context)).length > 0;
/** Whether leaving the page now would lose changes (a page unload is held to ask). */
export const selectGuardsLeaving = (snapshot: EditorSnapshot) => editorGuardsLeaving(snapshot);
/** Whether the editor asks about leaving right now (either way of leaving). */
export const selectIsConfirmingLeave = (snapshot: EditorSnapshot) => snapshot.matches('confirmingLeave') || snapshot.matches('confirmingNavigation');
export const selectIsBusy = (snapshot: EditorSnapshot) => snapshot.matches('loading') || snapshot.matches('saving');
export const selectCanSave = (snapshot: EditorSnapshot) =>
  (snapshot.matches('editing') || snapshot.matches('failed')) && selectIsDirty(snapshot);
