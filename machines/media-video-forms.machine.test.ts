import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  hasTypedText, selectHasLeftVideo, selectIsConfirmingVideoLeave, selectVideoFormValues, selectVideoLeaveReason, VIDEO_FORM_DEFAULTS, videoFormsMachine,
  type VideoFormsSubmitted,
} from './media-video-forms.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';

/** The forms with what they submit kept (the panel hears it in the app, machines/media-item-video.machine.test.ts). */
function start() {
  const submitted: VideoFormsSubmitted[] = [];
  const actor = createActor(videoFormsMachine.provide({ actions: { submit: (_, params) => { submitted.push(params); } } })).start();
  return { forms: () => actor, submitted };
}

describe('video panel forms machine', () => {
  it('keeps the typed values and hands them to the panel with the file or Attach', () => {
    const { forms, submitted } = start();
    expect(selectVideoFormValues(forms().getSnapshot())).toEqual(VIDEO_FORM_DEFAULTS);
    forms().send({ type: 'forms.field', field: 'captionsLanguage', value: ' fr ' });
    forms().send({ type: 'forms.field', field: 'captionsLabel', value: 'Français' });
    forms().send({ type: 'forms.submitCaptions', format: 'srt', text: '1\n' });
    forms().send({ type: 'forms.field', field: 'externalTitle', value: 'Feed' });
    forms().send({ type: 'forms.field', field: 'externalUrl', value: 'https://cdn.example/a/master.m3u8 ' });
    forms().send({ type: 'forms.submitExternal' });
    expect(submitted).toEqual([
      { type: 'captions.add', language: 'fr', label: 'Français', format: 'srt', text: '1\n' },
      { type: 'video.external', title: 'Feed', hlsUrl: 'https://cdn.example/a/master.m3u8' },
    ]);
    forms().send({ type: 'forms.clear', form: 'external' });
    expect(selectVideoFormValues(forms().getSnapshot())).toEqual({ ...VIDEO_FORM_DEFAULTS, captionsLanguage: ' fr ', captionsLabel: 'Français' });
    forms().send({ type: 'forms.clear', form: 'captions' });
    expect(selectVideoFormValues(forms().getSnapshot())).toEqual(VIDEO_FORM_DEFAULTS);
  });

  it('a navigation with nothing to lose goes on; typed text asks "Unsaved changes" (Stay keeps it, Leave leaves)', () => {
    const { forms } = start();
    forms().send({ type: 'forms.navigate' });
    expect(selectIsConfirmingVideoLeave(forms().getSnapshot())).toBe(false);
    forms().send({ type: 'forms.field', field: 'externalUrl', value: 'https://cdn.example/x.m3u8' });
    forms().send({ type: 'forms.navigate' });
    expect(selectIsConfirmingVideoLeave(forms().getSnapshot())).toBe(true);
    expect(selectVideoLeaveReason(forms().getSnapshot())).toBe('typed');
    forms().send({ type: 'forms.stay' });
    expect(selectIsConfirmingVideoLeave(forms().getSnapshot())).toBe(false);
    expect(selectVideoFormValues(forms().getSnapshot()).externalUrl).toBe('https://cdn.example/x.m3u8');
    forms().send({ type: 'forms.navigate' });
    forms().send({ type: 'forms.leave' });
    expect(selectHasLeftVideo(forms().getSnapshot())).toBe(true);
  });

  it('an upload on its way asks first ("Leaving stops the upload"); once it stopped, nothing is asked', () => {
    const { forms } = start();
    forms().send({ type: 'forms.uploading', on: true });
    forms().send({ type: 'forms.navigate' });
    expect(selectIsConfirmingVideoLeave(forms().getSnapshot())).toBe(true);
    expect(selectVideoLeaveReason(forms().getSnapshot())).toBe('upload');
    forms().send({ type: 'forms.stay' });
    forms().send({ type: 'forms.uploading', on: false });
    forms().send({ type: 'forms.navigate' });
    expect(selectIsConfirmingVideoLeave(forms().getSnapshot())).toBe(false);
  });

  it('defaults and spaces are not typed text', () => {
    expect(hasTypedText({ ...VIDEO_FORM_DEFAULTS })).toBe(false);
    expect(hasTypedText({ ...VIDEO_FORM_DEFAULTS, externalTitle: '  ' })).toBe(false);
    expect(hasTypedText({ ...VIDEO_FORM_DEFAULTS, captionsLanguage: 'de' })).toBe(true);
  });
});

describe('video panel forms machine: every path', () => {
  const events = [
    { type: 'forms.field', field: 'externalTitle', value: 'Feed' }, { type: 'forms.submitCaptions', format: 'vtt', text: 'WEBVTT\n' },
    { type: 'forms.submitExternal' }, { type: 'forms.clear', form: 'external' }, { type: 'forms.uploading', on: true },
    { type: 'forms.navigate' }, { type: 'forms.stay' }, { type: 'forms.leave' },
  ];
  itReachesEveryStateAndTransition(videoFormsMachine, { events, logic: videoFormsMachine.provide({ actions: { submit: () => undefined } }) });
});
