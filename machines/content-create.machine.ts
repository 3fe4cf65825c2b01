/**
 * Content › Create New (issue 29): the page machine of /content/new. It loads what the form needs
 * (the site's series for an episode, the site's default time zone for a live event's start), holds
 * the form's text values and the uploaded artwork, uploads a poster or thumbnail, and creates the
 * item; on success it opens the new item's page. Its I/O (loadSetup, uploadArtwork, createItem) and
 * navigation (openCreated, leave) come from src/adapters/content-actors.ts.
 */
import { assign, setup, type AnyEventObject, type SnapshotFrom } from 'xstate';
import {
  CONTENT_CREATE_MESSAGES as M,
  type ArtworkSlot, type ContentCreateRequest, type ContentItem, type ContentKind,
} from '../common/content';
import { zonedWallTimeToIso } from '../common/zoned-time';
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
  | { type: 'create.cancel' };

function initialValues(input: ContentCreateInput): CreateValues {
  return {
    title: '', description: '', genre: '', tags: '', rating: 'NR', originalLanguage: 'en', releaseDate: '', durationMinutes: '',
    startsAt: '', seasons: '1', seriesId: input.seriesId ?? '', seasonNumber: input.seasonNumber ? String(input.seasonNumber) : '1', episodeNumber: '1',
  };
}

const whole = (text: string): number | null => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

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
    if (!(whole(values.seasonNumber)! > 0)) missing.seasonNumber = M.seasonRequired;
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
    storeSetup: assign(({ event }) => {
      const { series, timeZone } = (event as DoneEvent<CreateSetup>).output;
      return { series, timeZone, error: null };
    }),
    storeLoadError: assign(({ event }) => ({ error: failureMessage((event as ErrorEvent).error, M.seriesLoadFailed) })),
    setKind: assign(({ event }) => (event.type === 'create.kind' ? { kind: event.kind, fieldErrors: {}, error: null } : {})),
    setValue: assign(({ context, event }) => {
      if (event.type !== 'create.change') return {};
      const { [event.field]: _dropped, ...fieldErrors } = context.fieldErrors;
      return { values: { ...context.values, [event.field]: event.value }, fieldErrors };
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
  },
}).createMachine({
  id: 'contentCreate',
  description: 'Create New: a video, a series with its seasons, an episode of a season, or a live event, with its artwork.',
  context: ({ input }) => ({
    kind: input.kind ?? 'video',
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
    'create.cancel': { actions: 'leave' },
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
      description: 'The operator fills in the form and uploads artwork.',
      on: {
        'create.kind': { actions: 'setKind' },
        'create.change': { actions: 'setValue' },
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
        onDone: { target: 'editing', actions: 'storeArtwork' },
        onError: { target: 'editing', actions: 'storeUploadError' },
      },
      on: {
        'create.change': { actions: 'setValue' },
      },
    },
    saving: {
      description: 'The new item is with the server.',
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
      entry: { type: 'openCreated', params: ({ context }) => ({ item: context.created }) },
    },
  },
});

export type ContentCreateMachine = typeof contentCreateMachine;
type Snapshot = SnapshotFrom<ContentCreateMachine>;

export type CreatePhase = 'loading' | 'loadFailed' | 'editing' | 'uploading' | 'saving' | 'created';
export const selectCreatePhase = (s: Snapshot): CreatePhase => s.value as CreatePhase;
export const selectCreateContext = (s: Snapshot): ContentCreateContext => s.context;
