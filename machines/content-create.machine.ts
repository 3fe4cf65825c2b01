/**
 * Content › Create New (issue 29): the page machine of /content/new. It loads what the form needs
 * (the site's series for an episode, the site's default time zone for a live event's start), holds
 * the form's text values and the uploaded artwork, uploads a poster or thumbnail, and creates the
 * item; on success it opens the new item's page. Its I/O (loadSetup, uploadArtwork, createItem) and
 * navigation (openCreated, leave) come from src/adapters/content-actors.ts.
 *
 * Typed input is not lost (issue 38): while the form differs from how it opened (`selectCreateGuardsLeaving`)
 * Cancel asks first (`confirmingLeave`), a navigation the form did not start asks first through the
 * shared leave guard (`create.navigate` → `confirmingNavigation`, src/views/shared/use-editor-leave-guard.ts),
 * and a reload or a closed tab asks through src/unsaved-edits.ts. Every change is handed to the provided
 * `keepDraft` (the tab's session storage), the setup brings it back after a reload, and `forgetDraft`
 * drops it once the item exists or the person chose to leave.
 */
import type { SnapshotFrom } from 'xstate';
import { createGuardsLeaving } from './content-create-leaving';
import { contentCreateSetup } from './content-create.actions';
import { initialValues, type ContentCreateContext } from './content-create.setup';
import { loadingState } from './content-create.state.loading';
import { loadFailedState } from './content-create.state.loadFailed';
import { editingState } from './content-create.state.editing';
import { uploadingState } from './content-create.state.uploading';
import { savingState } from './content-create.state.saving';
import { createdState } from './content-create.state.created';
import { confirmingLeaveState } from './content-create.state.confirmingLeave';
import { confirmingNavigationState } from './content-create.state.confirmingNavigation';
import { leftState } from './content-create.state.left';

export {
  CREATE_FIELDS, CreateFailure, createRequestOf, draftFits, durationError, episodeNumberError, errorsAfterTyping, hasTypedInput, missingFields,
  seasonMissingError, seasonNumberError, seasonsError, typedFieldError, type CreateSeries,
  type ContentCreateContext, type ContentCreateEvent, type ContentCreateInput, type CreateDraft, type CreateField, type CreateSetup,
  type CreateValues, type UploadArtworkInput, type UploadedArtwork,
} from './content-create.setup';

export const contentCreateMachine = contentCreateSetup.createMachine({
  id: 'contentCreate',
  description: 'Create New: a video, a series with its seasons, an episode of a season, or a live event, with its artwork.',
  context: ({ input }) => ({
    kind: input.kind ?? 'video',
    openedWith: { kind: input.kind ?? 'video', values: initialValues(input), fromAddress: !!(input.kind || input.seriesId) },
    values: initialValues(input),
    artwork: {},
    uploadingSlot: null,
    uploadingFile: null,
    series: [],
    timeZone: 'UTC',
    error: null,
    fieldErrors: {},
    created: null,
  }),
  initial: 'loading',
  on: {
    'create.cancel': { target: '.left', actions: 'leave' },
  },
  states: {
    loading: loadingState,
    loadFailed: loadFailedState,
    editing: editingState,
    uploading: uploadingState,
    saving: savingState,
    created: createdState,
    confirmingLeave: confirmingLeaveState,
    confirmingNavigation: confirmingNavigationState,
    left: leftState,
  },
});

export type ContentCreateMachine = typeof contentCreateMachine;
type Snapshot = SnapshotFrom<ContentCreateMachine>;

export type CreatePhase = 'loading' | 'loadFailed' | 'editing' | 'uploading' | 'saving' | 'created' | 'confirmingLeave' | 'confirmingNavigation' | 'left';
export const selectCreatePhase = (s: Snapshot): CreatePhase => s.value;
export const selectCreateContext = (s: Snapshot): ContentCreateContext => s.context;
/** Whether the form asks about leaving right now (either way of leaving). */
export const selectCreateConfirmingLeave = (s: Snapshot): boolean => s.matches('confirmingLeave') || s.matches('confirmingNavigation');
/** Whether leaving the page now would lose typed input (a page unload is held to ask). */
export const selectCreateGuardsLeaving = (s: Snapshot): boolean => createGuardsLeaving(s);
