/**
 * The item's Video panel's small forms (issue 40) and its leave question: the captions' language and
 * label, the external HLS address's title and address (the site without encoding), kept here instead of
 * in the view; and whether leaving the page would lose something: typed text (the same "Unsaved
 * changes" question as every form) or an upload on its way ("Leaving stops the upload …").
 *
 *   editing ─forms.navigate [typed text or uploading]→ confirmingLeave ─forms.stay→ editing
 *                                                                     ─forms.leave→ left
 *
 * The item's panel (machines/media-item-video.machine.ts) runs it as its `forms` child: it tells it when
 * an upload starts and stops (`forms.uploading`) and hears the submissions (`captions.add`,
 * `video.external`, its provided `submit`) with the typed values; after a success it clears the form
 * (`forms.clear`).
 */
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { machineTypes } from './machine-types';

/** What a new captions file is labelled with unless the writer types otherwise (not typed text). */
export const VIDEO_FORM_DEFAULTS = { captionsLanguage: 'en', captionsLabel: 'English', externalTitle: '', externalUrl: '' } as const;

export type VideoFormField = keyof typeof VIDEO_FORM_DEFAULTS;
export type VideoFormValues = Record<VideoFormField, string>;

export interface VideoFormsContext {
  values: VideoFormValues;
  /** An upload of this panel is on its way (told by the panel). */
  uploading: boolean;
}

export type VideoFormsEvent =
  | { type: 'forms.field'; field: VideoFormField; value: string }
  | { type: 'forms.submitCaptions'; format: 'vtt' | 'srt'; text: string }
  | { type: 'forms.submitExternal' }
  | { type: 'forms.clear'; form: 'captions' | 'external' }
  | { type: 'forms.uploading'; on: boolean }
  | { type: 'forms.navigate' }
  | { type: 'forms.stay' }
  | { type: 'forms.leave' };

/** What the forms tell the panel (their parent). */
export type VideoFormsSubmitted =
  | { type: 'captions.add'; language: string; label: string; format: 'vtt' | 'srt'; text: string }
  | { type: 'video.external'; title: string; hlsUrl: string };

const ALL_FIELDS: readonly VideoFormField[] = ['captionsLanguage', 'captionsLabel', 'externalTitle', 'externalUrl'];

const FORM_FIELDS: Record<'captions' | 'external', readonly VideoFormField[]> = {
  captions: ['captionsLanguage', 'captionsLabel'],
  external: ['externalTitle', 'externalUrl'],
};

/** Whether any field holds text the writer typed (differs from its default, spaces aside). */
export function hasTypedText(values: VideoFormValues): boolean {
  return ALL_FIELDS.some((field) => values[field].trim() !== VIDEO_FORM_DEFAULTS[field]);
}

export const videoFormsMachine = setup({
  types: machineTypes<{ context: VideoFormsContext; events: VideoFormsEvent }>(),
  actions: {
    setField: assign(({ context }, params: { field: VideoFormField; value: string }) => ({ values: { ...context.values, [params.field]: params.value } })),
    clearForm: assign(({ context }, params: { form: 'captions' | 'external' }) => ({
      values: { ...context.values, ...Object.fromEntries(FORM_FIELDS[params.form].map((field) => [field, VIDEO_FORM_DEFAULTS[field]])) },
    })),
    setUploading: assign((_, params: { on: boolean }) => ({ uploading: params.on })),
    /** The typed values handed on: the panel provides it with sendParent (nothing by default). */
    submit: (_, params: VideoFormsSubmitted) => { void params; },
  },
  guards: {
    losesSomething: ({ context }) => context.uploading || hasTypedText(context.values),
  },
}).createMachine({
  id: 'mediaVideoForms',
  description: 'The Video panel\'s captions and HLS address forms, and the question before leaving loses typed text or an upload.',
  context: { values: { ...VIDEO_FORM_DEFAULTS }, uploading: false },
  on: {
    'forms.uploading': { actions: { type: 'setUploading', params: ({ event }) => event } },
    'forms.clear': { actions: { type: 'clearForm', params: ({ event }) => event } },
  },
  initial: 'editing',
  states: {
    editing: {
      description: 'The writer types; a file or Attach sends the typed values to the panel.',
      on: {
        'forms.field': { actions: { type: 'setField', params: ({ event }) => event } },
        'forms.submitCaptions': {
          actions: {
            type: 'submit',
            params: ({ context, event }) => ({
              type: 'captions.add' as const, language: context.values.captionsLanguage.trim(), label: context.values.captionsLabel.trim(), format: event.format, text: event.text,
            }),
          },
        },
        'forms.submitExternal': {
          actions: { type: 'submit', params: ({ context }) => ({ type: 'video.external' as const, title: context.values.externalTitle.trim(), hlsUrl: context.values.externalUrl.trim() }) },
        },
        // A navigation the page did not start: asked first when it would lose typed text or stop an upload.
        'forms.navigate': { guard: 'losesSomething', target: 'confirmingLeave' },
      },
    },
    confirmingLeave: {
      description: '"Leaving stops the upload …" or "Unsaved changes": Stay or Leave.',
      on: {
        'forms.stay': { target: 'editing' },
        'forms.leave': { target: 'left' },
      },
    },
    left: {
      description: 'The writer chose to leave: the navigation goes on (the page, and its upload, end).',
    },
  },
});

export type VideoFormsMachine = typeof videoFormsMachine;
export type VideoFormsRef = ActorRefFrom<VideoFormsMachine>;
type Snapshot = SnapshotFrom<VideoFormsMachine>;

export const selectVideoFormValues = (s: Snapshot) => s.context.values;
export const selectIsConfirmingVideoLeave = (s: Snapshot) => s.matches('confirmingLeave');
export const selectHasLeftVideo = (s: Snapshot) => s.matches('left');
/** Why the question is asked: an upload on its way wins over typed text (it is what leaving stops). */
export const selectVideoLeaveReason = (s: Snapshot): 'upload' | 'typed' => (s.context.uploading ? 'upload' : 'typed');
