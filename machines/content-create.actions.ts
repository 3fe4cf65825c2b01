/**
 * Create New's actions by name, on its setup (./content-create.setup.ts): `contentCreateSetup` is what
 * the states (./content-create.state.*.ts) and the machine are built from. `openCreated`, `leave`,
 * `keepDraft` and `forgetDraft` are provided by the wiring file.
 */
import { assign } from 'xstate';
import { CONTENT_CREATE_MESSAGES as M, type ContentItem } from '../common/content';
import { failureMessage } from './notify';
import {
  contentCreateBase, CreateFailure, draftFits, errorsAfterTyping, missingFields,
  type ContentCreateContext, type CreateDraft, type CreateSetup, type UploadArtworkInput, type UploadedArtwork,
} from './content-create.setup';

export const contentCreateSetup = contentCreateBase.extend({
  actions: {
    /** Opens the new item's page (provided by the wiring file). */
    openCreated: (_, _params: { item: ContentItem | null }) => {},
    /** Back to the library (provided by the wiring file). */
    leave: () => {},
    /** Keeps the form for this tab, so a reload brings it back (provided by the wiring file). */
    keepDraft: (_, _params: CreateDraft) => {},
    /** Drops the kept form (provided by the wiring file). */
    forgetDraft: () => {},
    storeSetup: assign(({ context }, params: { setup: CreateSetup }) => {
      const { series, timeZone, draft } = params.setup;
      return { series, timeZone, error: null, ...(draft && draftFits(context, draft) ? { kind: draft.kind, values: draft.values, artwork: draft.artwork } : {}) };
    }),
    storeLoadError: assign((_, params: { error: unknown }) => ({ error: failureMessage(params.error, M.seriesLoadFailed) })),
    setKind: assign(({ event }) => (event.type === 'create.kind' ? { kind: event.kind, fieldErrors: {}, error: null } : {})),
    setValue: assign(({ context, event }) => {
      if (event.type !== 'create.change') return {};
      // The season (against the chosen series too), the episode number and the upper bounds are checked as they are typed, by the server's own rules.
      return { values: { ...context.values, [event.field]: event.value }, fieldErrors: errorsAfterTyping(context, event.field, event.value) };
    }),
    markUploading: assign((_, params: UploadArtworkInput) => ({ uploadingSlot: params.slot, uploadingFile: params.file, error: null })),
    storeArtwork: assign(({ context }, params: { artwork: UploadedArtwork }) => {
      const slot = context.uploadingSlot!;
      const { [slot]: _dropped, ...fieldErrors } = context.fieldErrors;
      return { artwork: { ...context.artwork, [slot]: params.artwork }, uploadingSlot: null, uploadingFile: null, fieldErrors };
    }),
    storeUploadError: assign(({ context }, params: { error: unknown }) => ({
      fieldErrors: { ...context.fieldErrors, [context.uploadingSlot!]: failureMessage(params.error, M.artworkType) },
      uploadingSlot: null,
      uploadingFile: null,
    })),
    showMissing: assign(({ context }) => ({ fieldErrors: missingFields(context), error: null })),
    clearErrors: assign({ error: null, fieldErrors: {} }),
    storeCreated: assign((_, params: { item: ContentItem }) => ({ created: params.item })),
    storeCreateError: assign((_, params: { error: unknown }) => ({
      error: failureMessage(params.error, M.createFailed),
      fieldErrors: params.error instanceof CreateFailure ? { ...params.error.fields } : {},
    })),
  },
});

/** Hands the form to `keepDraft` (the tab's session storage), after every change. */
export const KEEP_DRAFT = {
  type: 'keepDraft',
  params: ({ context }: { context: ContentCreateContext }) => ({ kind: context.kind, values: context.values, artwork: context.artwork }),
} as const;
