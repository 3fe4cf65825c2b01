/**
 * One editor for every record the console edits (ARCHITECTURE.md "one editor pattern"): content
 * items now, monetization plans and AppCMS documents later. It knows nothing of the entity: the
 * `load` and `save` actors are provided by the page that uses it, the record's editable fields are
 * a flat map of values, and anything else the page shows (stats, artwork) travels as `data`.
 *
 *   loading → editing → saving → saved | conflict | failed
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
import { assign, emit, setup, type SnapshotFrom } from 'xstate';
import { OWN_MESSAGES } from '../common/messages';
import { errorMessage } from './notify';
import { providedLater } from './unprovided';

export type EditorValue = string | number | boolean | null | readonly string[];
export type EditorValues = Readonly<Record<string, EditorValue>>;

/** What `load` and `save` resolve with: the stored values, their version, and what else the page shows. */
export interface EditorRecord {
  /** The record's id when it differs from the editor's (a create answers with the new record's id). */
  id?: string;
  values: EditorValues;
  version: number;
  data: unknown;
}

/** Where a record lives beyond its id (AppCMS: the site and network); passed to `load` and `save` as is. */
export type EditorScope = Readonly<Record<string, string>>;

export interface EditorLoadInput {
  id: string;
  scope?: EditorScope;
}

export interface EditorSaveInput {
  id: string;
  version: number;
  /** Only the fields whose draft differs from the stored value. */
  changes: EditorValues;
  /** The whole draft, for stores that replace a record rather than patch it. */
  draft: EditorValues;
  scope?: EditorScope;
}

/** Why `load` or `save` failed, as the actors report it (a thrown Error with a `code`). */
export const EDITOR_FAILURE = { notFound: 'not-found', conflict: 'conflict' } as const;

export class EditorFailure extends Error {
  constructor(
    readonly code: (typeof EDITOR_FAILURE)[keyof typeof EDITOR_FAILURE] | 'invalid',
    message: string,
    /** Field name → message, shown beside each field (a save refused for invalid input). */
    readonly fields: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'EditorFailure';
  }
}

export interface EditorInput {
  id: string;
  scope?: EditorScope;
  /** Field name → the label a "<label> is required." message uses. */
  required?: Readonly<Record<string, string>>;
}

export interface EditorContext {
  id: string;
  scope: EditorScope | null;
  required: Readonly<Record<string, string>>;
  values: EditorValues;
  draft: EditorValues;
  version: number;
  data: unknown;
  /** What went wrong last (load, validation, save, conflict); null when nothing did. */
  error: string | null;
  /** Field name → message beside that field: from the provided `checkDraft` or from a refused save. */
  fieldErrors: Readonly<Record<string, string>>;
}

export type EditorEvent =
  | { type: 'editor.change'; field: string; value: EditorValue }
  | { type: 'editor.save' }
  | { type: 'editor.discard' }
  | { type: 'editor.reload' }
  | { type: 'editor.leave' }
  | { type: 'editor.navigate' }
  | { type: 'editor.leaveConfirm' }
  | { type: 'editor.leaveCancel' }
  /**
   * Another editor of the same page saved the same record (the content item's fields and its
   * availability share the item's version), from version `from` to `to`, changing none of this
   * editor's fields: the version this editor read moves with it, so its next save is not refused.
   */
  | { type: 'editor.recordMoved'; from: number; to: number };

/** What an editor reports to whoever listens (the page's other editor of the same record). */
export type EditorEmitted = { type: 'editor.versionMoved'; from: number; to: number };

function sameValue(a: EditorValue | undefined, b: EditorValue | undefined): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => v === b[i]);
  }
  return (a ?? null) === (b ?? null);
}

/** The draft fields that differ from the stored values. */
export function changedFields(context: Pick<EditorContext, 'values' | 'draft'>): EditorValues {
  return Object.fromEntries(Object.entries(context.draft).filter(([field, value]) => !sameValue(value, context.values[field])));
}

function isBlank(value: EditorValue | undefined): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

function firstMissing(context: EditorContext): string | undefined {
  return Object.keys(context.required).find((field) => isBlank(context.draft[field]));
}

function failureCode(error: unknown): string | undefined {
  return (error as { code?: unknown } | null)?.code as string | undefined;
}

function failureFields(error: unknown): Readonly<Record<string, string>> {
  const fields = (error as { fields?: unknown } | null)?.fields;
  return typeof fields === 'object' && fields !== null ? fields as Record<string, string> : {};
}

function withoutField(errors: Readonly<Record<string, string>>, field: string): Readonly<Record<string, string>> {
  if (!(field in errors)) return errors;
  const { [field]: _cleared, ...rest } = errors;
  void _cleared;
  return rest;
}

export const editorMachine = setup({
  types: {
    input: {} as EditorInput,
    context: {} as EditorContext,
    events: {} as EditorEvent,
    emitted: {} as EditorEmitted,
  },
  actors: {
    load: providedLater<EditorRecord, EditorLoadInput>('load'),
    save: providedLater<EditorRecord, EditorSaveInput>('save'),
  },
  actions: {
    storeRecord: assign(({ context }, params: { record: EditorRecord }) => ({
      id: params.record.id ?? context.id,
      fieldErrors: {},
      values: params.record.values,
      draft: params.record.values,
      version: params.record.version,
      data: params.record.data,
      error: null,
    })),
    setField: assign(({ context }, params: { field: string; value: EditorValue }) => ({
      draft: { ...context.draft, [params.field]: params.value },
      fieldErrors: withoutField(context.fieldErrors, params.field),
    })),
    discardDraft: assign(({ context }) => ({ draft: context.values, error: null, fieldErrors: {} })),
    /**
     * Provided by a page with field rules, with the `breaksFieldRules` guard over the same rules:
     * `assign({ fieldErrors: rules(draft) })`. The defaults find nothing, so an editor without rules
     * saves as before.
     */
    checkDraft: assign({ fieldErrors: {} }),
    storeFieldErrors: assign((_, params: { error: unknown }) => ({ fieldErrors: failureFields(params.error) })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    setMissingError: assign(({ context }) => ({ error: OWN_MESSAGES.fieldRequired(context.required[firstMissing(context) ?? ''] ?? '') })),
    clearError: assign({ error: null }),
    /** The record moved on from the version this editor read, by a save of the page's other editor. */
    moveVersion: assign((_, params: { to: number }) => ({ version: params.to })),
    /** Tells a listener the record's version this save moved from and to (before the saved record is stored). */
    reportVersionMoved: emit(({ context }, params: { to: number }) => ({ type: 'editor.versionMoved' as const, from: context.version, to: params.to })),
    /** Provided by the page: go where the person asked to go. */
    leave: () => {},
    /** Provided by the page: a save went through (it refreshes what shows the record). */
    announceSaved: () => {},
    /** Provided by the page: a create went through; show the new record at its own address. */
    openCreated: (_, params: { id: string }) => { void params; },
  },
  guards: {
    isDirty: ({ context }) => Object.keys(changedFields(context)).length > 0,
    hasMissingRequired: ({ context }) => firstMissing(context) !== undefined,
    /** Provided with `checkDraft` by a page with field rules. */
    breaksFieldRules: () => false,
    isNotFound: (_, params: { error: unknown }) => failureCode(params.error) === EDITOR_FAILURE.notFound,
    isConflict: (_, params: { error: unknown }) => failureCode(params.error) === EDITOR_FAILURE.conflict,
    isCreated: (_, params: { before: string; after: string | undefined }) => params.after !== undefined && params.after !== params.before,
    /** The record is at the version this editor read (a move from another one is not this editor's record state). */
    isReadAt: ({ context }, params: { version: number }) => context.version === params.version && context.version > 0,
    /** Read at that version and nothing changed in the draft. */
    isCleanAt: ({ context }, params: { version: number }) =>
      context.version === params.version && context.version > 0 && Object.keys(changedFields(context)).length === 0,
  },
}).createMachine({
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
    loading: {
      description: 'Reading the record. The way back is offered while it loads, so leaving is too.',
      on: { 'editor.leave': { target: 'left', actions: 'leave' } },
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ id: context.id, ...(context.scope ? { scope: context.scope } : {}) }),
        onDone: { target: 'editing', actions: { type: 'storeRecord', params: ({ event }) => ({ record: event.output }) } },
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'loadFailed', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, OWN_MESSAGES.editorLoadFailed) }) } },
        ],
      },
    },
    notFound: {
      description: 'No such record (or not on this site): nothing to edit.',
      on: { 'editor.leave': { target: 'left', actions: 'leave' } },
    },
    loadFailed: {
      description: 'The record could not be read; the person may try again.',
      on: {
        'editor.reload': 'loading',
        'editor.leave': { target: 'left', actions: 'leave' },
      },
    },
    editing: {
      description: 'The form shows the draft; changes are kept until saved or discarded.',
      on: {
        // The page's other editor saved this record: without changes here, read it again (its other
        // fields, e.g. a status the availability set, show as stored); with changes, keep them and move
        // the version, so Save is not refused for a save made on this same page (so too while a failed
        // save or a leave question keeps the changes).
        'editor.recordMoved': [
          {
            guard: { type: 'isCleanAt', params: ({ event }) => ({ version: event.from }) },
            target: 'loading',
          },
          {
            guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) },
            actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) },
          },
        ],
        'editor.change': { actions: [{ type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) }, 'clearError'] },
        'editor.discard': { actions: 'discardDraft' },
        'editor.save': [
          { guard: 'hasMissingRequired', actions: 'setMissingError' },
          { guard: 'breaksFieldRules', actions: 'checkDraft' },
          { guard: 'isDirty', target: 'saving' },
        ],
        'editor.leave': [
          { guard: 'isDirty', target: 'confirmingLeave' },
          { target: 'left', actions: 'leave' },
        ],
        'editor.navigate': { guard: 'isDirty', target: 'confirmingNavigation' },
      },
    },
    saving: {
      description: 'Writing the changed fields with the version they were read at.',
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({
          id: context.id, version: context.version, changes: changedFields(context), draft: context.draft, ...(context.scope ? { scope: context.scope } : {}),
        }),
        onDone: [
          {
            guard: { type: 'isCreated', params: ({ context, event }) => ({ before: context.id, after: event.output.id }) },
            target: 'saved',
            actions: [
              { type: 'storeRecord', params: ({ event }) => ({ record: event.output }) },
              'announceSaved',
              { type: 'openCreated', params: ({ event }) => ({ id: event.output.id! }) },
            ],
          },
          {
            target: 'saved',
            actions: [
              { type: 'reportVersionMoved', params: ({ event }) => ({ to: event.output.version }) },
              { type: 'storeRecord', params: ({ event }) => ({ record: event.output }) },
              'announceSaved',
            ],
          },
        ],
        onError: [
          { guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) }, target: 'conflict', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, OWN_MESSAGES.contentConflict) }) } },
          {
            target: 'failed',
            actions: [
              { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, OWN_MESSAGES.editorSaveFailed) }) },
              { type: 'storeFieldErrors', params: ({ event }) => ({ error: event.error }) },
            ],
          },
        ],
      },
    },
    saved: {
      description: 'The changes are stored; the form shows the new values until the next change.',
      on: {
        // The page's other editor saved this record since: read it again.
        'editor.recordMoved': { guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) }, target: 'loading' },
        'editor.change': { target: 'editing', actions: { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        'editor.leave': { target: 'left', actions: 'leave' },
      },
    },
    conflict: {
      description: 'Someone else saved first: the draft cannot be saved over their version; reload (discarding it) or leave.',
      on: {
        'editor.reload': 'loading',
        'editor.leave': { target: 'confirmingLeave' },
        'editor.navigate': { guard: 'isDirty', target: 'confirmingNavigation' },
      },
    },
    failed: {
      description: 'The save failed (refused or unreachable); the draft is kept to try again or change.',
      on: {
        'editor.save': 'saving',
        'editor.change': { target: 'editing', actions: [{ type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) }, 'clearError'] },
        'editor.discard': { target: 'editing', actions: 'discardDraft' },
        'editor.leave': { target: 'confirmingLeave' },
        'editor.recordMoved': { guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) }, actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) } },
        'editor.navigate': { guard: 'isDirty', target: 'confirmingNavigation' },
      },
    },
    confirmingLeave: {
      description: 'Unsaved changes: the person confirms leaving (they are discarded) or stays.',
      on: {
        'editor.leaveConfirm': { target: 'left', actions: 'leave' },
        'editor.leaveCancel': { target: 'editing' },
        'editor.recordMoved': { guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) }, actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) } },
      },
    },
    confirmingNavigation: {
      description: 'Unsaved changes and the person went elsewhere (a tab, the back button): the router waits while they confirm leaving (the changes are discarded) or stay.',
      on: {
        'editor.leaveConfirm': { target: 'left' },
        'editor.leaveCancel': { target: 'editing' },
        'editor.recordMoved': { guard: { type: 'isReadAt', params: ({ event }) => ({ version: event.from }) }, actions: { type: 'moveVersion', params: ({ event }) => ({ to: event.to }) } },
      },
    },
    left: {
      description: 'The person left the page.',
      type: 'final',
    },
  },
});

export type EditorMachine = typeof editorMachine;
export type EditorSnapshot = SnapshotFrom<EditorMachine>;

export const selectEditorPhase = (snapshot: EditorSnapshot) => snapshot.value as
  'loading' | 'notFound' | 'loadFailed' | 'editing' | 'saving' | 'saved' | 'conflict' | 'failed' | 'confirmingLeave' | 'confirmingNavigation' | 'left';
export const selectDraft = (snapshot: EditorSnapshot) => snapshot.context.draft;
export const selectStoredValues = (snapshot: EditorSnapshot) => snapshot.context.values;
export const selectEditorData = (snapshot: EditorSnapshot) => snapshot.context.data;
export const selectEditorError = (snapshot: EditorSnapshot) => snapshot.context.error;
export const selectFieldErrors = (snapshot: EditorSnapshot) => snapshot.context.fieldErrors;
export const selectEditorId = (snapshot: EditorSnapshot) => snapshot.context.id;
export const selectIsDirty = (snapshot: EditorSnapshot) => Object.keys(changedFields(snapshot.context)).length > 0;
/** Whether leaving the page now would lose changes (a page unload is held to ask). */
export const selectGuardsLeaving = (snapshot: EditorSnapshot) => snapshot.status === 'active' && selectIsDirty(snapshot);
/** Whether the editor asks about leaving right now (either way of leaving). */
export const selectIsConfirmingLeave = (snapshot: EditorSnapshot) => snapshot.matches('confirmingLeave') || snapshot.matches('confirmingNavigation');
export const selectIsBusy = (snapshot: EditorSnapshot) => snapshot.matches('loading') || snapshot.matches('saving');
export const selectCanSave = (snapshot: EditorSnapshot) =>
  (snapshot.matches('editing') || snapshot.matches('failed')) && selectIsDirty(snapshot);
