/**
 * Issue 38: the editor keeps the typed changes across a reload through its provided `keepDraft`, drops
 * them once saved, discarded or left with Leave (`forgetDraft`), and opens with the changes its `load`
 * kept for the record (`keptDraft`) over the stored values, unsaved.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { EDITOR_FAILURE, EditorFailure, editorMachine, selectDraft, selectIsDirty, type EditorRecord, type EditorSaveInput, type EditorValues } from './editor.machine';

const RECORD: EditorRecord = { values: { title: 'Old', tags: ['a'], status: 'draft' }, version: 3, data: null };

function start(record: EditorRecord | (() => Promise<EditorRecord>) = RECORD) {
  const kept: { id: string; version: number; changes: EditorValues }[] = [];
  const forgotten: string[] = [];
  const actor = createActor(editorMachine.provide({
    actors: {
      load: fromPromise(typeof record === 'function' ? record : async () => record),
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

  it('drops the draft on Discard after a failed save, and on Reload after a conflict (the draft is given up; issue 38)', async () => {
    const forgotten: string[] = [];
    let attempt = 0;
    const actor = createActor(editorMachine.provide({
      actors: {
        load: fromPromise(async () => RECORD),
        save: fromPromise<EditorRecord, EditorSaveInput>(async () => {
          attempt += 1;
          throw attempt === 1 ? new Error('offline') : new EditorFailure(EDITOR_FAILURE.conflict, 'Changed by someone else.');
        }),
      },
      actions: { forgetDraft: (_, params: { id: string }) => { forgotten.push(params.id); } },
    }), { input: { id: 'item-1' } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(forgotten).toEqual([]);
    actor.send({ type: 'editor.discard' });
    expect(selectIsDirty(actor.getSnapshot())).toBe(false);
    expect(forgotten).toEqual(['item-1']);
    actor.send({ type: 'editor.change', field: 'title', value: 'Again' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('conflict'));
    actor.send({ type: 'editor.reload' });
    expect(forgotten).toEqual(['item-1', 'item-1']);
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectIsDirty(actor.getSnapshot())).toBe(false);
  });

  it('keeps the draft when left while saving (the save may not be stored yet; the store drops it once it is)', async () => {
    const forgotten: string[] = [];
    const actor = createActor(editorMachine.provide({
      actors: { load: fromPromise(async () => RECORD), save: fromPromise<EditorRecord, EditorSaveInput>(() => new Promise(() => {})) },
      actions: { forgetDraft: (_, params: { id: string }) => { forgotten.push(params.id); } },
    }), { input: { id: 'item-1' } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.save' });
    actor.send({ type: 'editor.leave' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(forgotten).toEqual([]);
  });

  it('keeps a change typed while the record is read again, and moves the kept draft to the version read (or drops it when nothing differs)', async () => {
    let loads = 0;
    const { actor, kept } = start(async () => (loads++ === 0 ? RECORD : { ...RECORD, values: { ...RECORD.values, status: 'scheduled' }, version: 4 }));
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    actor.send({ type: 'editor.change', field: 'title', value: 'Typed while it read' });
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 4, changes: { title: 'Typed while it read' } });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 4, changes: { title: 'Typed while it read' } });
    // Typed back to what is stored, and read again: the kept draft is emptied (the store then drops it).
    actor.send({ type: 'editor.change', field: 'title', value: 'Old' });
    actor.send({ type: 'editor.recordMoved', from: 4, to: 5 });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 4, changes: {} });
  });

  it('moves the kept draft with the version while a failed save or a leave question keeps the changes', async () => {
    let attempt = 0;
    const record = RECORD;
    const kept: { id: string; version: number; changes: EditorValues }[] = [];
    const actor = createActor(editorMachine.provide({
      actors: {
        load: fromPromise(async () => record),
        save: fromPromise<EditorRecord, EditorSaveInput>(async () => { attempt += 1; throw new Error('offline'); }),
      },
      actions: { keepDraft: (_, params: { id: string; version: number; changes: EditorValues }) => { kept.push(params); } },
    }), { input: { id: 'item-1' } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 4, changes: { title: 'New' } });
    actor.send({ type: 'editor.change', field: 'status', value: 'published' });
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 4, changes: { title: 'New', status: 'published' } });
    actor.send({ type: 'editor.leave' });
    actor.send({ type: 'editor.recordMoved', from: 4, to: 5 });
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 5, changes: { title: 'New', status: 'published' } });
    actor.send({ type: 'editor.leaveCancel' });
    actor.send({ type: 'editor.navigate' });
    actor.send({ type: 'editor.recordMoved', from: 5, to: 6 });
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 6, changes: { title: 'New', status: 'published' } });
    expect(attempt).toBe(1);
  });

  it('moves the kept draft with the version when the record moves under typed changes', async () => {
    const { actor, kept } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 4, changes: { title: 'New' } });
  });

  it('keeps the first change typed after a save', async () => {
    const { actor, kept } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    actor.send({ type: 'editor.change', field: 'status', value: 'published' });
    expect(kept.at(-1)).toEqual({ id: 'item-1', version: 4, changes: { status: 'published' } });
  });

  it('names the scope of a scoped record with its draft (AppCMS: the site and network)', async () => {
    const kept: unknown[] = [];
    const forgotten: unknown[] = [];
    const actor = createActor(editorMachine.provide({
      actors: {
        load: fromPromise(async () => RECORD),
        save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => ({ values: input.draft, version: input.version + 1, data: null })),
      },
      actions: {
        keepDraft: (_, params) => { kept.push(params); },
        forgetDraft: (_, params) => { forgotten.push(params); },
      },
    }), { input: { id: 'kids', scope: { site: 'demo', network: 'kids' } } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    expect(kept).toEqual([{ id: 'kids', scope: { site: 'demo', network: 'kids' }, version: 3, changes: { title: 'New' } }]);
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(forgotten).toEqual([{ id: 'kids', scope: { site: 'demo', network: 'kids' } }]);
  });
});
