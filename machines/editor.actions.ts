/**
 * The editor machine's actions by name, on its setup (./editor.setup.ts): `editorSetup` is what the
 * states (./editor.state.*.ts) and the machine (./editor.machine.ts) are built from. `leave`,
 * `announceSaved`, `openCreated` and `checkDraft` are provided by the page.
 */
import { assign, emit } from 'xstate';
import { OWN_MESSAGES } from '../common/messages';
import { changedFields, editorBase, failureFields, firstMissing, withoutField, type DraftOwner, type EditorRecord, type EditorValue, type EditorValues } from './editor.setup';

export const editorSetup = editorBase.extend({
  actions: {
    storeRecord: assign(({ context }, params: { record: EditorRecord }) => ({
      id: params.record.id ?? context.id,
      fieldErrors: {},
      values: params.record.values,
      draft: { ...params.record.values, ...params.record.keptDraft },
      version: params.record.version,
      data: params.record.data,
      error: null,
    })),
    /**
     * A record read again while the form stays editable (`rereading`, issue 38): the fields changed
     * since the last read keep the typed text, the rest take the stored values; the version moves.
     */
    mergeRecord: assign(({ context }, params: { record: EditorRecord }) => {
      const typed = changedFields(context);
      return {
        id: params.record.id ?? context.id,
        values: params.record.values,
        draft: { ...params.record.values, ...typed },
        version: params.record.version,
        data: params.record.data,
      };
    }),
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
    /**
     * Provided by the wiring (issue 38): keep the typed changes across a reload (the tab's session
     * storage, src/adapters/form-drafts.ts), and drop them once saved or discarded.
     */
    keepDraft: (_, params: DraftOwner & { version: number; changes: EditorValues }) => { void params; },
    forgetDraft: (_, params: DraftOwner) => { void params; },
    /** Provided by the page: go where the person asked to go. */
    leave: () => {},
    /** Provided by the page: a save went through (it refreshes what shows the record). */
    announceSaved: () => {},
    /** Provided by the page: a create went through; show the new record at its own address. */
    openCreated: (_, params: { id: string }) => { void params; },
  },
});
