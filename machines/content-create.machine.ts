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
import { assign, setup, type AnyEventObject, type SnapshotFrom } from 'xstate';
import {
  CONTENT_CREATE_MESSAGES as M, CONTENT_CREATE_BOUNDS,
  type ArtworkSlot, type ContentCreateRequest, type ContentItem, type ContentKind,
} from '../common/content';
import { zonedWallTimeToIso } from '../common/zoned-time';
import { createGuardsLeaving, formHasTypedInput } from './content-create-leaving';
import { readInstant } from '../common/instant-bounds';
import { failureMessage } from './notify';
import { providedLater } from './unprovided';

export interface ContentCreateInput {
  kind?: ContentKind;
  /** An episode's series and season, when the page was opened from the series. */
  seriesId?: string;
  seasonNumber?: number;
}

export interface CreateSetup {
  series: { id: string; title: string }[];
  /** The site's default time zone: a live event's start is typed in it. */
  timeZone: string;
  /** The form this tab kept before a reload; null when there is none. */
  draft?: CreateDraft | null;
}

/** What the form keeps across a reload: the kind, the typed text and the uploaded artwork. */
export interface CreateDraft {
  kind: ContentKind;
  values: CreateValues;
  artwork: Partial<Record<ArtworkSlot, UploadedArtwork>>;
}

export interface UploadedArtwork { url: string; width: number; height: number }
export interface UploadArtworkInput { slot: ArtworkSlot; file: Blob }

/** A refusal of the server: its message and, when it names them, the fields at fault. */
export class CreateFailure extends Error {
  constructor(message: string, readonly fields: Readonly<Record<string, string>> = {}) {
    super(message);
    this.name = 'CreateFailure';
  }
}

/** The form's fields, as text. */
export const CREATE_FIELDS = [
  'title', 'description', 'genre', 'tags', 'rating', 'originalLanguage', 'releaseDate', 'durationMinutes', 'startsAt', 'seasons',
  'seriesId', 'seasonNumber', 'episodeNumber',
] as const;
export type CreateField = (typeof CREATE_FIELDS)[number];
export type CreateValues = Record<CreateField, string>;

export interface ContentCreateContext {
  kind: ContentKind;
  /**
   * The kind and values the form opened with (leaving asks only once they differ), and whether the
   * address chose them (an "Add episode" of a series).
   */
  openedWith: { kind: ContentKind; values: CreateValues; fromAddress: boolean };
  values: CreateValues;
  artwork: Partial<Record<ArtworkSlot, UploadedArtwork>>;
  uploadingSlot: ArtworkSlot | null;
  series: { id: string; title: string }[];
  timeZone: string;
  error: string | null;
  fieldErrors: Partial<Record<string, string>>;
  created: ContentItem | null;
}

export type ContentCreateEvent =
  | { type: 'create.kind'; kind: ContentKind }
  | { type: 'create.change'; field: CreateField; value: string }
  | { type: 'create.upload'; slot: ArtworkSlot; file: Blob }
  | { type: 'create.submit' }
  | { type: 'create.retry' }
  | { type: 'create.cancel' }
  | { type: 'create.navigate' }
  | { type: 'create.leaveConfirm' }
  | { type: 'create.leaveCancel' };

function initialValues(input: ContentCreateInput): CreateValues {
  return {
    title: '', description: '', genre: '', tags: '', rating: 'NR', originalLanguage: 'en', releaseDate: '', durationMinutes: '',
    startsAt: '', seasons: '1', seriesId: input.seriesId ?? '', seasonNumber: input.seasonNumber ? String(input.seasonNumber) : '1', episodeNumber: '1',
  };
}

const whole = (text: string): number | null => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** The season rule of the server's schema (common/content.ts): a whole number from 1 to seasonNumberMax. */
export function seasonNumberError(text: string): string | null {
  if (!text.trim()) return M.seasonRequired;
  const season = whole(text);
  return season !== null && season >= 1 && season <= CONTENT_CREATE_BOUNDS.seasonNumberMax ? null : M.seasonNumberRule;
}

/**
 * Whether a kept form belongs to this opening: any kept form for plain Create New; for one the address
 * chose (an episode of a series), only a form of that kind and series.
 */
export function draftFits(context: Pick<ContentCreateContext, 'openedWith'>, draft: CreateDraft): boolean {
  const { openedWith } = context;
  return !openedWith.fromAddress || (draft.kind === openedWith.kind && draft.values.seriesId === openedWith.values.seriesId);
}

/** Whether the form differs from how it opened (typed text, another kind, uploaded artwork). */
export function hasTypedInput(context: Pick<ContentCreateContext, 'kind' | 'values' | 'artwork' | 'openedWith'>): boolean {
  return formHasTypedInput(context);
}

/** What the form misses before it goes to the server (the server checks everything again). */
export function missingFields(context: Pick<ContentCreateContext, 'kind' | 'values' | 'timeZone'>): Record<string, string> {
  const { kind, values } = context;
  const missing: Record<string, string> = {};
  if (!values.title.trim()) missing.title = M.titleRequired;
  if (!values.genre.trim()) missing.genre = M.genreRequired;
  if ((kind === 'video' || kind === 'episode') && !(whole(values.durationMinutes)! > 0)) missing.durationMinutes = M.durationRequired;
  if (kind === 'live') {
    const startsAt = zonedWallTimeToIso(values.startsAt, context.timeZone);
    if (!startsAt) missing.startsAt = values.startsAt ? M.startsAtInvalid : M.startsAtRequired;
    else if (readInstant(startsAt) === 'out_of_range') missing.startsAt = M.startsAtOutOfRange;
  }
  if (kind === 'series' && !(whole(values.seasons)! > 0)) missing.seasons = M.seasonsRequired;
  if (kind === 'episode') {
    if (!values.seriesId) missing.seriesId = M.seriesRequired;
    const season = seasonNumberError(values.seasonNumber);
    if (season) missing.seasonNumber = season;
    if (!(whole(values.episodeNumber)! > 0)) missing.episodeNumber = M.episodeNumberRequired;
  }
  return missing;
}

/** The body of POST /v2.0/content for the form (only the fields its kind takes). */
export function createRequestOf(context: Pick<ContentCreateContext, 'kind' | 'values' | 'artwork' | 'timeZone'>): ContentCreateRequest {
  const { kind, values, artwork } = context;
  const body: ContentCreateRequest = {
    kind,
    title: values.title.trim(),
    description: values.description.trim(),
    genre: values.genre.trim(),
    tags: [...new Set(values.tags.split(',').map((tag) => tag.trim()).filter(Boolean))],
    rating: values.rating,
    originalLanguage: values.originalLanguage,
    releaseDate: values.releaseDate || null,
    posterUrl: artwork.poster?.url ?? '',
    thumbnailUrl: artwork.thumbnail?.url ?? '',
  };
  if (kind === 'video' || kind === 'episode') body.durationSeconds = (whole(values.durationMinutes) ?? 0) * 60;
  if (kind === 'live') {
    body.startsAt = zonedWallTimeToIso(values.startsAt, context.timeZone);
    const minutes = whole(values.durationMinutes);
    if (minutes) body.durationSeconds = minutes * 60;
  }
  if (kind === 'series') {
    const count = whole(values.seasons) ?? 0;
    body.seasons = Array.from({ length: count }, (_, i) => ({ number: i + 1 }));
  }
  if (kind === 'episode') {
    body.seriesId = values.seriesId;
    body.seasonNumber = whole(values.seasonNumber);
    body.episodeNumber = whole(values.episodeNumber);
  }
  return body;
}

type DoneEvent<T> = AnyEventObject & { output: T };

const KEEP_DRAFT = { type: 'keepDraft', params: ({ context }: { context: ContentCreateContext }) => ({ kind: context.kind, values: context.values, artwork: context.artwork }) } as const;
type ErrorEvent = AnyEventObject & { error: unknown };

export const contentCreateMachine = setup({
  types: {
    context: {} as ContentCreateContext,
    events: {} as ContentCreateEvent,
    input: {} as ContentCreateInput,
  },
  actors: {
    loadSetup: providedLater<CreateSetup, void>('loadSetup'),
    uploadArtwork: providedLater<UploadedArtwork, UploadArtworkInput>('uploadArtwork'),
    createItem: providedLater<ContentItem, ContentCreateRequest>('createItem'),
  },
  actions: {
    /** Opens the new item's page (provided by the wiring file). */
    openCreated: (_, _params: { item: ContentItem | null }) => {},
    /** Back to the library (provided by the wiring file). */
    leave: () => {},
    /** Keeps the form for this tab, so a reload brings it back (provided by the wiring file). */
    keepDraft: (_, _params: CreateDraft) => {},
    /** Drops the kept form (provided by the wiring file). */
    forgetDraft: () => {},
    storeSetup: assign(({ context, event }) => {
      const { series, timeZone, draft } = (event as DoneEvent<CreateSetup>).output;
      return { series, timeZone, error: null, ...(draft && draftFits(context, draft) ? { kind: draft.kind, values: draft.values, artwork: draft.artwork } : {}) };
    }),
    storeLoadError: assign(({ event }) => ({ error: failureMessage((event as ErrorEvent).error, M.seriesLoadFailed) })),
    setKind: assign(({ event }) => (event.type === 'create.kind' ? { kind: event.kind, fieldErrors: {}, error: null } : {})),
    setValue: assign(({ context, event }) => {
      if (event.type !== 'create.change') return {};
      const { [event.field]: _dropped, ...fieldErrors } = context.fieldErrors;
      // The season is checked as it is typed, by the server's own rule.
      const season = event.field === 'seasonNumber' ? seasonNumberError(event.value) : null;
      return { values: { ...context.values, [event.field]: event.value }, fieldErrors: season ? { ...fieldErrors, seasonNumber: season } : fieldErrors };
    }),
    markUploading: assign(({ event }) => (event.type === 'create.upload' ? { uploadingSlot: event.slot, error: null } : {})),
    storeArtwork: assign(({ context, event }) => {
      const slot = context.uploadingSlot!;
      const { [slot]: _dropped, ...fieldErrors } = context.fieldErrors;
      return { artwork: { ...context.artwork, [slot]: (event as DoneEvent<UploadedArtwork>).output }, uploadingSlot: null, fieldErrors };
    }),
    storeUploadError: assign(({ context, event }) => ({
      fieldErrors: { ...context.fieldErrors, [context.uploadingSlot!]: failureMessage((event as ErrorEvent).error, M.artworkType) },
      uploadingSlot: null,
    })),
    showMissing: assign(({ context }) => ({ fieldErrors: missingFields(context), error: null })),
    clearErrors: assign({ error: null, fieldErrors: {} }),
    storeCreated: assign(({ event }) => ({ created: (event as DoneEvent<ContentItem>).output })),
    storeCreateError: assign(({ event }) => {
      const error = (event as ErrorEvent).error;
      return {
        error: failureMessage(error, M.createFailed),
        fieldErrors: error instanceof CreateFailure ? { ...error.fields } : {},
      };
    }),
  },
  guards: {
    incomplete: ({ context }) => Object.keys(missingFields(context)).length > 0,
    hasTypedInput: ({ context }) => hasTypedInput(context),
  },
}).createMachine({
  id: 'contentCreate',
  description: 'Create New: a video, a series with its seasons, an episode of a season, or a live event, with its artwork.',
  context: ({ input }) => ({
    kind: input.kind ?? 'video',
    openedWith: { kind: input.kind ?? 'video', values: initialValues(input), fromAddress: !!(input.kind || input.seriesId) },
    values: initialValues(input),
    artwork: {},
    uploadingSlot: null,
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
    loading: {
      description: 'The series an episode can belong to and the site time zone are read.',
      invoke: {
        id: 'loadSetup',
        src: 'loadSetup',
        onDone: { target: 'editing', actions: 'storeSetup' },
        onError: { target: 'loadFailed', actions: 'storeLoadError' },
      },
    },
    loadFailed: {
      description: 'What the form needs could not be read; trying again may help (a network failure).',
      on: { 'create.retry': { target: 'loading' } },
    },
    editing: {
      description: 'The operator fills in the form and uploads artwork; each change is kept for the tab.',
      on: {
        'create.kind': { actions: ['setKind', KEEP_DRAFT] },
        'create.change': { actions: ['setValue', KEEP_DRAFT] },
        'create.cancel': [
          { guard: 'hasTypedInput', target: 'confirmingLeave' },
          { target: 'left', actions: ['forgetDraft', 'leave'] },
        ],
        'create.navigate': { guard: 'hasTypedInput', target: 'confirmingNavigation' },
        'create.upload': { target: 'uploading', actions: 'markUploading' },
        'create.submit': [
          { guard: 'incomplete', actions: 'showMissing' },
          { target: 'saving', actions: 'clearErrors' },
        ],
      },
    },
    uploading: {
      description: 'One artwork file is checked and stored by the server; the form stays editable.',
      invoke: {
        id: 'uploadArtwork',
        src: 'uploadArtwork',
        input: ({ event }) => {
          const upload = event as Extract<ContentCreateEvent, { type: 'create.upload' }>;
          return { slot: upload.slot, file: upload.file };
        },
        onDone: { target: 'editing', actions: ['storeArtwork', KEEP_DRAFT] },
        onError: { target: 'editing', actions: 'storeUploadError' },
      },
      on: {
        'create.change': { actions: ['setValue', KEEP_DRAFT] },
        // A file is being stored: Cancel and navigations wait for it (the question comes once it is back).
        'create.cancel': {},
        'create.navigate': {},
      },
    },
    saving: {
      description: 'The new item is with the server.',
      on: {
        // The item is being created: it will exist, and its page opens.
        'create.cancel': {},
        'create.navigate': {},
      },
      invoke: {
        id: 'createItem',
        src: 'createItem',
        input: ({ context }) => createRequestOf(context),
        onDone: { target: 'created', actions: 'storeCreated' },
        onError: { target: 'editing', actions: 'storeCreateError' },
      },
    },
    created: {
      description: 'The item exists; its page opens.',
      entry: ['forgetDraft', { type: 'openCreated', params: ({ context }) => ({ item: context.created }) }],
      on: { 'create.cancel': {} },
    },
    confirmingLeave: {
      description: 'Typed input and the person pressed Cancel: they confirm leaving (the form is discarded) or stay.',
      on: {
        'create.leaveConfirm': { target: 'left', actions: ['forgetDraft', 'leave'] },
        'create.leaveCancel': { target: 'editing' },
        'create.cancel': {},
      },
    },
    confirmingNavigation: {
      description: 'Typed input and the person went elsewhere (a tab, the back button): the router waits while they confirm leaving (the form is discarded) or stay.',
      on: {
        'create.leaveConfirm': { target: 'left', actions: 'forgetDraft' },
        'create.leaveCancel': { target: 'editing' },
        'create.cancel': {},
      },
    },
    left: {
      description: 'The person left the form.',
      type: 'final',
    },
  },
});

export type ContentCreateMachine = typeof contentCreateMachine;
type Snapshot = SnapshotFrom<ContentCreateMachine>;

export type CreatePhase = 'loading' | 'loadFailed' | 'editing' | 'uploading' | 'saving' | 'created' | 'confirmingLeave' | 'confirmingNavigation' | 'left';
export const selectCreatePhase = (s: Snapshot): CreatePhase => s.value as CreatePhase;
export const selectCreateContext = (s: Snapshot): ContentCreateContext => s.context;
/** Whether the form asks about leaving right now (either way of leaving). */
export const selectCreateConfirmingLeave = (s: Snapshot): boolean => s.matches('confirmingLeave') || s.matches('confirmingNavigation');
/** Whether leaving the page now would lose typed input (a page unload is held to ask). */
export const selectCreateGuardsLeaving = (s: Snapshot): boolean => createGuardsLeaving(s);
