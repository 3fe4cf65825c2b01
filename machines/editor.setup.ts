/**
 * The editor machine's setup (machines/editor.machine.ts assembles it with its states): the record's
 * types, the `load` and `save` actors (provided by the page) and the guards by name. The actions are
 * added in ./editor.actions.ts.
 */
import { setup } from 'xstate';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';
import { changedFields, type EditorValue, type EditorValues } from './editor-leaving';

export type { EditorValue, EditorValues } from './editor-leaving';

/** What `load` and `save` resolve with: the stored values, their version, and what else the page shows. */
export interface EditorRecord {
  /** The record's id when it differs from the editor's (a create answers with the new record's id). */
  id?: string;
  values: EditorValues;
  version: number;
  data: unknown;
  /**
   * Changes typed before a reload and kept for this record at this version (issue 38): the form opens
   * with them over the stored values, unsaved. `load` answers them from the one draft store
   * (src/adapters/form-drafts.ts); never a password, code or secret.
   */
  keptDraft?: EditorValues;
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

export { changedFields } from './editor-leaving';

/** Which record a kept draft belongs to (`keepDraft`, `forgetDraft`): its id, and where it lives when scoped (AppCMS: the site). */
export interface DraftOwner {
  id: string;
  scope?: EditorScope;
}

export function draftOwner(context: Pick<EditorContext, 'id' | 'scope'>): DraftOwner {
  return context.scope ? { id: context.id, scope: context.scope } : { id: context.id };
}

function isBlank(value: EditorValue | undefined): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

export function firstMissing(context: EditorContext): string | undefined {
  return Object.keys(context.required).find((field) => isBlank(context.draft[field]));
}

function failureCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/** Field name → message of a refused save (`EditorFailure.fields`); anything else carries none. */
export function failureFields(error: unknown): Readonly<Record<string, string>> {
  const fields = typeof error === 'object' && error !== null && 'fields' in error ? error.fields : undefined;
  if (typeof fields !== 'object' || fields === null) return {};
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export function withoutField(errors: Readonly<Record<string, string>>, field: string): Readonly<Record<string, string>> {
  if (!(field in errors)) return errors;
  const { [field]: _cleared, ...rest } = errors;
  void _cleared;
  return rest;
}

export const editorBase = setup({
  // The editor has no children and no output.
  types: machineTypes<{ context: EditorContext; events: EditorEvent; input: EditorInput; emitted: EditorEmitted }>(),
  actors: {
    load: providedLater<EditorRecord, EditorLoadInput>('load'),
    save: providedLater<EditorRecord, EditorSaveInput>('save'),
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
});
