/**
 * The one unsaved-edits guard (issue 28): every editor machine of an inspected page system, its own
 * page or a child of one, is known; `beforeunload` is held (default prevented) exactly while one is
 * active and dirty, and let through once it is saved, reverted or stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import type { ContentCreateRequest, ContentItem } from '../common/content';
import { contentCreateMachine, type CreateSetup, type UploadArtworkInput, type UploadedArtwork } from '../machines/content-create.machine';
import { editorMachine, type EditorRecord, type EditorSaveInput } from '../machines/editor.machine';
import { forgotPasswordMachine } from '../machines/forgot-password.machine';
import { forgetEditors, hasUnsavedEdits, installUnsavedEditsGuard, trackUnsavedEdits } from './unsaved-edits';

const RECORD: EditorRecord = { values: { title: 'Old' }, version: 1, data: {} };
const editor = editorMachine.provide({
  actors: {
    load: fromPromise(async () => RECORD),
    save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => ({ values: input.draft, version: 2, data: {} })),
  },
});

/** A browser's BeforeUnloadEvent: cancelable, with a writable returnValue (Node's Event has a getter only). */
class BeforeUnload extends Event {
  override returnValue: boolean = true;
}

function unload(target: EventTarget): boolean {
  const event = new BeforeUnload('beforeunload', { cancelable: true });
  target.dispatchEvent(event);
  return event.defaultPrevented;
}

afterEach(() => forgetEditors());

describe('unsaved edits guard', () => {
  it('holds a reload while a root password flow (Change Password, the reset page) has a typed field, and only then (issue 38)', () => {
    const target = new EventTarget();
    const flow = createActor(forgotPasswordMachine).start();
    const uninstall = installUnsavedEditsGuard(target as unknown as Window, [flow]);
    expect(unload(target)).toBe(false);
    flow.send({ type: 'reset.open', token: 'from-link', mode: 'change' });
    expect(flow.getSnapshot().matches('newPassword')).toBe(true);
    expect(unload(target)).toBe(false);
    flow.send({ type: 'reset.edit', newPassword: 'typed', confirmPassword: '' });
    expect(hasUnsavedEdits()).toBe(true);
    expect(unload(target)).toBe(true);
    flow.send({ type: 'reset.edit', newPassword: '', confirmPassword: '' });
    expect(unload(target)).toBe(false);
    flow.send({ type: 'reset.current', currentPassword: 'Old!Pass1' });
    expect(unload(target)).toBe(true);
    uninstall();
    flow.stop();
  });

  it('holds a reload while a page\'s editor is dirty, and lets it through once saved', async () => {
    const target = new EventTarget();
    const uninstall = installUnsavedEditsGuard(target as unknown as Window);
    const actor = createActor(editor, { input: { id: 'a' }, inspect: trackUnsavedEdits }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    expect(hasUnsavedEdits()).toBe(false);
    expect(unload(target)).toBe(false);
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    expect(hasUnsavedEdits()).toBe(true);
    expect(unload(target)).toBe(true);
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => !s.hasTag('busy') && !s.matches('saving'));
    expect(unload(target)).toBe(false);
    uninstall();
  });

  it('knows an editor that is a child of the page machine, and forgets it when the page stops', async () => {
    const page = setup({ actors: { editor } }).createMachine({
      id: 'somePage', invoke: { id: 'editor', src: 'editor', input: { id: 'b' } },
    });
    const actor = createActor(page, { inspect: trackUnsavedEdits }).start();
    const child = actor.getSnapshot().children.editor!;
    await waitFor(child, (s) => s.matches('editing'));
    child.send({ type: 'editor.change', field: 'title', value: 'Changed' });
    expect(hasUnsavedEdits()).toBe(true);
    actor.stop();
    expect(hasUnsavedEdits()).toBe(false);
  });

  it('holds a reload while Create New has typed input (issue 38), and lets it through once the item exists', async () => {
    const target = new EventTarget();
    const uninstall = installUnsavedEditsGuard(target as unknown as Window);
    const form = contentCreateMachine.provide({
      actors: {
        loadSetup: fromPromise<CreateSetup, void>(async () => ({ series: [], timeZone: 'UTC' })),
        uploadArtwork: fromPromise<UploadedArtwork, UploadArtworkInput>(async () => ({ url: '', width: 0, height: 0 })),
        createItem: fromPromise<ContentItem, ContentCreateRequest>(async () => ({ id: 'n', kind: 'video' }) as ContentItem),
      },
    });
    const actor = createActor(form, { input: {}, inspect: trackUnsavedEdits }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    expect(unload(target)).toBe(false);
    actor.send({ type: 'create.change', field: 'title', value: 'Harbour lights' });
    expect(unload(target)).toBe(true);
    actor.send({ type: 'create.change', field: 'genre', value: 'Drama' });
    actor.send({ type: 'create.change', field: 'durationMinutes', value: '30' });
    actor.send({ type: 'create.submit' });
    await waitFor(actor, (s) => s.matches('created'));
    expect(unload(target)).toBe(false);
    uninstall();
  });

  it('ignores machines that are not editors', () => {
    const other = setup({}).createMachine({ id: 'other' });
    createActor(other, { inspect: trackUnsavedEdits }).start();
    expect(hasUnsavedEdits()).toBe(false);
  });
});
