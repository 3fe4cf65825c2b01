/**
 * Issue 38: the editor keeps the typed changes across a reload through its provided `keepDraft`, drops
 * them once saved, discarded or left with Leave (`forgetDraft`), and opens with the changes its `load`
 * kept for the record (`keptDraft`) over the stored values, unsaved.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { editorMachine, selectDraft, selectIsDirty, type EditorRecord, type EditorSaveInput, type EditorValues } from './editor.machine';

const RECORD: EditorRecord = { values: { title: 'Old', tags: ['a'], status: 'draft' }, version: 3, data: null };

function start(record: EditorRecord = RECORD) {
  const kept: { id: string; version: number; changes: EditorValues }[] = [];
  const forgotten: string[] = [];
  const actor = createActor(editorMachine.provide({
    actors: {
      load: fromPromise(async () => record),
      save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => ({ values: input.draft, version: input.version + 1, data: null })),
    },
    actions: {
      keepDraft: (_, params: { id: string; version: number; changes: EditorValues }) => { kept.push(params); },
      forgetDraft: (_, params: { id: string }) => { forgotten.push(params.id); },
    },
  }), { input: { id: 'item-1' } }).start();
  return { actor, kept, forgotten };
}

describe('editor: drafts kept across a reload (issue 38)', () => {
  it('keeps the changed fields with the id and version read on every change', async () => {
    const { actor, kept } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.change', field: 'status', value: 'published' });
    expect(kept).toEqual([
      { id: 'item-1', version: 3, changes: { title: 'New' } },
      { id: 'item-1', version: 3, changes: { title: 'New', status: 'published' } },
    ]);
    actor.send({ type: 'editor.change', field: 'title', value: 'Old' });
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 3, changes: { status: 'published' } });
  });

  it('opens with the kept changes over the stored values, dirty (Save offered, leaving asks)', async () => {
    const { actor } = start({ ...RECORD, keptDraft: { title: 'Typed before the reload' } });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectDraft(actor.getSnapshot())).toEqual({ title: 'Typed before the reload', tags: ['a'], status: 'draft' });
    expect(selectIsDirty(actor.getSnapshot())).toBe(true);
  });

  it('drops the draft once saved', async () => {
    const { actor, forgotten } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    expect(forgotten).toEqual([]);
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(forgotten).toEqual(['item-1']);
  });

  it('drops the draft on Discard, and on a confirmed Leave (by Close or by a navigation), never on Stay', async () => {
    const { actor, forgotten } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.discard' });
    expect(forgotten).toEqual(['item-1']);
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.leave' });
    actor.send({ type: 'editor.leaveCancel' });
    actor.send({ type: 'editor.navigate' });
    actor.send({ type: 'editor.leaveCancel' });
    expect(forgotten).toEqual(['item-1']);
    actor.send({ type: 'editor.leave' });
    actor.send({ type: 'editor.leaveConfirm' });
    expect(forgotten).toEqual(['item-1', 'item-1']);
    const other = start();
    await waitFor(other.actor, (s) => s.matches('editing'));
    other.actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    other.actor.send({ type: 'editor.navigate' });
    other.actor.send({ type: 'editor.leaveConfirm' });
    expect(other.forgotten).toEqual(['item-1']);
  });
});
