/**
 * Create New's kept form (issue 38) on the one draft store of the console's forms
 * (./form-drafts.ts: the tab's session storage, never a secret, cleared on sign-out): the kind, the
 * typed text and the uploaded artwork, kept under `content.create:new` as flat values (each artwork
 * file as its slot's address, width and height). The machine says when (`keepDraft` on every change,
 * `forgetDraft` once created or left); this only turns the form into a draft and back. Anything
 * that is not a whole draft of the form (another version's shape, a hand-edited value) is dropped
 * rather than half-restored.
 */
import { ARTWORK_SLOTS, CONTENT_KINDS, type ArtworkSlot, type ContentKind } from '../../common/content';
import { CREATE_FIELDS, type CreateDraft, type CreateField, type CreateValues, type UploadedArtwork } from '../../machines/content-create.machine';
import type { EditorValue, EditorValues } from '../../machines/editor.machine';
import { forgetFormDraft, keepFormDraft, readFormDraft, type FormDraft } from './form-drafts';

/** The store's key of Create New's draft (a new record's id is `new`). */
export const CREATE_DRAFT_KEY = 'content.create:new';

const artworkField = (slot: ArtworkSlot, part: keyof UploadedArtwork) => `artwork.${slot}.${part}`;

/** The form as the store keeps it (a new record: version 0). */
export function formDraftOfCreate(draft: CreateDraft): FormDraft {
  const artwork = ARTWORK_SLOTS.flatMap((slot): [string, EditorValue][] => {
    const file = draft.artwork[slot];
    return file ? [[artworkField(slot, 'url'), file.url], [artworkField(slot, 'width'), file.width], [artworkField(slot, 'height'), file.height]] : [];
  });
  return { version: 0, values: { kind: draft.kind, ...draft.values, ...Object.fromEntries(artwork) } };
}

function createValuesOf(stored: EditorValues): CreateValues | null {
  if (!CREATE_FIELDS.every((field) => typeof stored[field] === 'string')) return null;
  const text = (field: CreateField) => String(stored[field]);
  return {
    title: text('title'), description: text('description'), genre: text('genre'), tags: text('tags'), rating: text('rating'),
    originalLanguage: text('originalLanguage'), releaseDate: text('releaseDate'), durationMinutes: text('durationMinutes'),
    startsAt: text('startsAt'), seasons: text('seasons'), seriesId: text('seriesId'), seasonNumber: text('seasonNumber'),
    episodeNumber: text('episodeNumber'),
  };
}

function artworkOf(stored: EditorValues): CreateDraft['artwork'] {
  const artwork: Partial<Record<ArtworkSlot, UploadedArtwork>> = {};
  for (const slot of ARTWORK_SLOTS) {
    const [url, width, height] = [stored[artworkField(slot, 'url')], stored[artworkField(slot, 'width')], stored[artworkField(slot, 'height')]];
    if (typeof url === 'string' && typeof width === 'number' && typeof height === 'number') artwork[slot] = { url, width, height };
  }
  return artwork;
}

/** The whole form of a kept draft, or null (none, or not a whole draft of the form). */
export function createDraftOf(draft: FormDraft | null): CreateDraft | null {
  if (!draft) return null;
  const kind: ContentKind | undefined = CONTENT_KINDS.find((known) => known === draft.values.kind);
  const values = createValuesOf(draft.values);
  return kind && values ? { kind, values, artwork: artworkOf(draft.values) } : null;
}

/** Create New's draft I/O: what `loadSetup` answers, and the machine's `keepDraft` / `forgetDraft`. */
export const contentCreateDraft = {
  read: (): CreateDraft | null => createDraftOf(readFormDraft(CREATE_DRAFT_KEY)),
  keep: (draft: CreateDraft): void => keepFormDraft(CREATE_DRAFT_KEY, formDraftOfCreate(draft)),
  forget: (): void => forgetFormDraft(CREATE_DRAFT_KEY),
};
