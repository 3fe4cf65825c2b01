import { describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, waitFor } from 'xstate';
import { OWN_MESSAGES } from '../common/messages';
import {
  changedFields, EDITOR_FAILURE, EditorFailure, editorMachine,
  selectCanSave, selectDraft, selectEditorData, selectEditorError, selectEditorId, selectEditorPhase, selectFieldErrors, selectGuardsLeaving, selectIsBusy, selectStoredValues,
  selectIsConfirmingLeave, selectIsDirty,
  type EditorRecord, type EditorSaveInput,
} from './editor.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';

const RECORD: EditorRecord = { values: { title: 'Old', tags: ['a'], status: 'draft' }, version: 3, data: { plays: 7 } };
const SAVED: EditorRecord = { values: { title: 'New', tags: ['a'], status: 'draft' }, version: 4, data: { plays: 7 } };

function start(actors: { load?: () => Promise<EditorRecord>; save?: (input: EditorSaveInput) => Promise<EditorRecord> } = {}) {
  const leave = vi.fn();
  const saves: EditorSaveInput[] = [];
  const machine = editorMachine.provide({
    actors: {
      load: fromPromise(actors.load ?? (async () => RECORD)),
      save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => {
        saves.push(input);
        return (actors.save ?? (async () => SAVED))(input);
      }),
    },
    actions: { leave },
  });
  const actor = createActor(machine, { input: { id: 'item-1', required: { title: 'Title' } } }).start();
  return { actor, leave, saves };
}

describe('editor: load, edit, save', () => {
  it('passes the scope it was started with (where the record lives) to load and save', async () => {
    const loads: unknown[] = [];
    const saves: EditorSaveInput[] = [];
    const actor = createActor(editorMachine.provide({
      actors: {
        load: fromPromise<EditorRecord, { id: string }>(async ({ input }) => { loads.push(input); return RECORD; }),
        save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => { saves.push(input); return SAVED; }),
      },
    }), { input: { id: 'kids', scope: { site: 'demo', network: 'kids' } } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(loads).toEqual([{ id: 'kids', scope: { site: 'demo', network: 'kids' } }]);
    expect(saves[0]).toMatchObject({ id: 'kids', version: 3, scope: { site: 'demo', network: 'kids' } });
  });

  it('loads the record, tracks the draft as dirty, saves only the changed fields with the version read', async () => {
    const { actor, saves } = start();
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectEditorData(actor.getSnapshot())).toEqual({ plays: 7 });
    expect(selectIsDirty(actor.getSnapshot())).toBe(false);
    expect(selectCanSave(actor.getSnapshot())).toBe(false);

    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    expect(selectIsDirty(actor.getSnapshot())).toBe(true);
    expect(selectCanSave(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves).toEqual([{ id: 'item-1', version: 3, changes: { title: 'New' }, draft: { ...RECORD.values, title: 'New' } }]);
    expect(selectDraft(actor.getSnapshot())).toEqual(SAVED.values);
    expect(selectIsDirty(actor.getSnapshot())).toBe(false);
  });

  it('a change back to the stored value is not dirty; arrays compare by content', () => {
    expect(changedFields({ values: { tags: ['a', 'b'], t: 'x' }, draft: { tags: ['a', 'b'], t: 'x' } })).toEqual({});
    expect(changedFields({ values: { tags: ['a', 'b'] }, draft: { tags: ['b', 'a'] } })).toEqual({ tags: ['b', 'a'] });
    expect(changedFields({ values: { when: null }, draft: { when: '' } })).toEqual({ when: '' });
  });

  it('refuses to save with a required field blank, naming it', async () => {
    const { actor, saves } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: '  ' });
    actor.send({ type: 'editor.save' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('editing');
    expect(selectEditorError(actor.getSnapshot())).toBe(OWN_MESSAGES.fieldRequired('Title'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Fixed' });
    expect(selectEditorError(actor.getSnapshot())).toBeNull();
    expect(saves).toEqual([]);
  });

  it('discard puts the stored values back', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'status', value: 'published' });
    actor.send({ type: 'editor.discard' });
    expect(selectDraft(actor.getSnapshot())).toEqual(RECORD.values);
  });
});

describe('editor: two editors of one record on a page (the content item and its availability)', () => {
  it('a save reports the version it moved the record from and to; a create reports nothing', async () => {
    const { actor } = start();
    const moved: unknown[] = [];
    actor.on('editor.versionMoved', (event) => moved.push(event));
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(moved).toEqual([{ type: 'editor.versionMoved', from: 3, to: 4 }]);

    const created = start({ save: async () => ({ ...SAVED, id: 'item-9' }) });
    const fromCreate: unknown[] = [];
    created.actor.on('editor.versionMoved', (event) => fromCreate.push(event));
    await waitFor(created.actor, (s) => s.matches('editing'));
    created.actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    created.actor.send({ type: 'editor.save' });
    await waitFor(created.actor, (s) => s.matches('saved'));
    expect(fromCreate).toEqual([]);
  });

  it('with changes, keeps them and saves them with the version the other editor left', async () => {
    const { actor, saves } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Mine' });
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('editing');
    expect(selectDraft(actor.getSnapshot()).title).toBe('Mine');
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves.map((s) => s.version)).toEqual([4]);
  });

  it('while it reads again, typing is kept: changed fields keep the typed text, the rest take the stored values (issue 38)', async () => {
    let answer: (record: EditorRecord) => void = () => {};
    let loads = 0;
    const { actor, saves } = start({
      load: () => (loads++ === 0 ? Promise.resolve(RECORD) : new Promise<EditorRecord>((resolve) => { answer = resolve; })),
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('rereading');
    expect(selectIsBusy(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'editor.change', field: 'title', value: 'Typed while it read' });
    expect(selectDraft(actor.getSnapshot()).title).toBe('Typed while it read');
    expect(selectIsDirty(actor.getSnapshot())).toBe(true);
    // The stored record changed both the title (by another hand) and the status: the typed title wins.
    answer({ values: { title: 'Stored title', tags: ['a', 'b'], status: 'scheduled' }, version: 4, data: { plays: 8 } });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectDraft(actor.getSnapshot())).toEqual({ title: 'Typed while it read', tags: ['a', 'b'], status: 'scheduled' });
    expect(selectStoredValues(actor.getSnapshot())).toEqual({ title: 'Stored title', tags: ['a', 'b'], status: 'scheduled' });
    expect(selectEditorData(actor.getSnapshot())).toEqual({ plays: 8 });
    expect(actor.getSnapshot().context.version).toBe(4);
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves.map((s) => ({ version: s.version, changes: s.changes }))).toEqual([{ version: 4, changes: { title: 'Typed while it read' } }]);
  });

  it('a field typed back to what is read is not a change after the read (the form comes back clean)', async () => {
    let loads = 0;
    const { actor } = start({ load: async () => (loads++ === 0 ? RECORD : { ...RECORD, values: { ...RECORD.values, title: 'Same' }, version: 4 }) });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    actor.send({ type: 'editor.change', field: 'title', value: 'Same' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectIsDirty(actor.getSnapshot())).toBe(false);
    expect(selectGuardsLeaving(actor.getSnapshot())).toBe(false);
  });

  it('saved again while it reads: reads again at the newer version; a move from another version is ignored', async () => {
    const answers: ((record: EditorRecord) => void)[] = [];
    let loads = 0;
    const { actor } = start({
      load: () => (loads++ === 0 ? Promise.resolve(RECORD) : new Promise<EditorRecord>((resolve) => { answers.push(resolve); })),
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    actor.send({ type: 'editor.recordMoved', from: 3, to: 9 });
    expect(actor.getSnapshot().context.version).toBe(4);
    actor.send({ type: 'editor.change', field: 'title', value: 'Mine' });
    actor.send({ type: 'editor.recordMoved', from: 4, to: 5 });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('rereading');
    expect(actor.getSnapshot().context.version).toBe(5);
    expect(answers).toHaveLength(2);
    answers[1]!({ ...RECORD, version: 5 });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.version).toBe(5);
    expect(selectDraft(actor.getSnapshot()).title).toBe('Mine');
  });

  it('a failed read again keeps the draft and the moved version, and says so', async () => {
    let loads = 0;
    const { actor, saves } = start({ load: async () => { if (loads++ === 0) return RECORD; throw new Error('offline'); } });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    actor.send({ type: 'editor.change', field: 'title', value: 'Mine' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectEditorError(actor.getSnapshot())).toBe('offline');
    expect(selectDraft(actor.getSnapshot()).title).toBe('Mine');
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves.map((s) => s.version)).toEqual([4]);
  });

  it('while it reads again: Discard puts the stored values back, leaving asks with changes and not without', async () => {
    const never = () => new Promise<EditorRecord>(() => {});
    let loads = 0;
    const { actor, leave } = start({ load: () => (loads++ === 0 ? Promise.resolve(RECORD) : never()) });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    actor.send({ type: 'editor.change', field: 'title', value: 'Mine' });
    actor.send({ type: 'editor.discard' });
    expect(selectDraft(actor.getSnapshot())).toEqual(RECORD.values);
    actor.send({ type: 'editor.change', field: 'title', value: 'Mine' });
    actor.send({ type: 'editor.navigate' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('confirmingNavigation');
    actor.send({ type: 'editor.leaveCancel' });
    actor.send({ type: 'editor.recordMoved', from: 4, to: 5 });
    actor.send({ type: 'editor.leave' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('confirmingLeave');
    actor.send({ type: 'editor.leaveCancel' });
    actor.send({ type: 'editor.discard' });
    actor.send({ type: 'editor.recordMoved', from: 5, to: 6 });
    actor.send({ type: 'editor.navigate' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('rereading');
    actor.send({ type: 'editor.leave' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('left');
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('moves the version of changes kept by a failed save or a leave question too', async () => {
    let attempt = 0;
    const { actor, saves } = start({ save: async () => { if (attempt++ === 0) throw new Error('offline'); return SAVED; } });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Mine' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    actor.send({ type: 'editor.leave' });
    expect(selectIsConfirmingLeave(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'editor.recordMoved', from: 4, to: 6 });
    actor.send({ type: 'editor.leaveCancel' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves.map((s) => s.version)).toEqual([3, 6]);
  });

  it('in every state that keeps changes, takes a move only from the version it read', async () => {
    let attempt = 0;
    const { actor, saves } = start({ save: async () => { if (attempt++ === 0) throw new Error('offline'); return SAVED; } });
    const version = () => actor.getSnapshot().context.version;
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Mine' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'editor.recordMoved', from: 2, to: 7 });
    expect(version()).toBe(3);
    actor.send({ type: 'editor.leave' });
    actor.send({ type: 'editor.recordMoved', from: 2, to: 7 });
    expect(version()).toBe(3);
    actor.send({ type: 'editor.leaveCancel' });
    // A navigation elsewhere with the changes: the question keeps them, and the version moves with the record.
    actor.send({ type: 'editor.navigate' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('confirmingNavigation');
    actor.send({ type: 'editor.recordMoved', from: 2, to: 7 });
    expect(version()).toBe(3);
    actor.send({ type: 'editor.recordMoved', from: 3, to: 5 });
    expect(version()).toBe(5);
    expect(selectDraft(actor.getSnapshot()).title).toBe('Mine');
    actor.send({ type: 'editor.leaveCancel' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves.map((s) => s.version)).toEqual([3, 5]);
    // Saved (now at 4): a move from another version is not this record's; it stays as it is.
    actor.send({ type: 'editor.recordMoved', from: 3, to: 9 });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('saved');
    expect(version()).toBe(4);
  });

  it('without changes, ignores a move from a version it did not read (it does not read again)', async () => {
    let loads = 0;
    const { actor } = start({ load: async () => { loads += 1; return RECORD; } });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.recordMoved', from: 2, to: 4 });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('editing');
    expect(loads).toBe(1);
    expect(actor.getSnapshot().context.version).toBe(3);
  });

  it('without changes, or once saved, reads the record again (a status the other editor set shows)', async () => {
    let loads = 0;
    const { actor } = start({ load: async () => (loads++ === 0 ? RECORD : { ...RECORD, values: { ...RECORD.values, status: 'scheduled' }, version: 4 }) });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('rereading');
    await waitFor(actor, (s) => s.matches('editing'));
    expect(loads).toBe(2);
    expect(selectDraft(actor.getSnapshot()).status).toBe('scheduled');

    const saved = start({ load: async () => SAVED });
    await waitFor(saved.actor, (s) => s.matches('editing'));
    saved.actor.send({ type: 'editor.change', field: 'title', value: 'Again' });
    saved.actor.send({ type: 'editor.save' });
    await waitFor(saved.actor, (s) => s.matches('saved'));
    saved.actor.send({ type: 'editor.recordMoved', from: 4, to: 5 });
    expect(selectEditorPhase(saved.actor.getSnapshot())).toBe('rereading');
  });

  it('ignores a move from a version it did not read (someone else saved between: Save is refused, as it must be)', async () => {
    const { actor, saves } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Mine' });
    actor.send({ type: 'editor.recordMoved', from: 2, to: 4 });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves.map((s) => s.version)).toEqual([3]);
    // Before the record is read, there is no version to move.
    const fresh = start({ load: () => new Promise<EditorRecord>(() => {}) });
    fresh.actor.send({ type: 'editor.recordMoved', from: 0, to: 1 });
    expect(fresh.actor.getSnapshot().context.version).toBe(0);
  });
});

describe('editor: conflicts and failures', () => {
  it('a stale version ends in conflict with the message; reload discards the draft and reads again', async () => {
    let loads = 0;
    const { actor } = start({
      load: async () => (loads++ === 0 ? RECORD : { ...RECORD, values: { ...RECORD.values, title: 'Theirs' }, version: 5 }),
      save: async () => { throw new EditorFailure(EDITOR_FAILURE.conflict, OWN_MESSAGES.contentConflict); },
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Mine' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('conflict'));
    expect(selectEditorError(actor.getSnapshot())).toBe(OWN_MESSAGES.contentConflict);
    expect(selectCanSave(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'editor.reload' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectDraft(actor.getSnapshot()).title).toBe('Theirs');
    expect(selectEditorError(actor.getSnapshot())).toBeNull();
  });

  it('a failed save keeps the draft and may be retried', async () => {
    let attempts = 0;
    const { actor } = start({
      save: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('The server could not be reached.');
        return SAVED;
      },
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectEditorError(actor.getSnapshot())).toBe('The server could not be reached.');
    expect(selectDraft(actor.getSnapshot()).title).toBe('New');
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
  });

  it('an unknown record is not found; another load failure may be retried', async () => {
    const missing = start({ load: async () => { throw new EditorFailure(EDITOR_FAILURE.notFound, OWN_MESSAGES.contentNotFound); } });
    await waitFor(missing.actor, (s) => s.matches('notFound'));
    let calls = 0;
    const flaky = start({ load: async () => { calls += 1; if (calls === 1) throw new Error('offline'); return RECORD; } });
    await waitFor(flaky.actor, (s) => s.matches('loadFailed'));
    expect(selectEditorError(flaky.actor.getSnapshot())).toBe('offline');
    flaky.actor.send({ type: 'editor.reload' });
    await waitFor(flaky.actor, (s) => s.matches('editing'));
  });
});

describe('editor: the leave guard', () => {
  it('leaves while the record is still loading (the page shows its way back during Loading…)', async () => {
    const { actor, leave } = start({ load: () => new Promise<EditorRecord>(() => undefined) });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    actor.send({ type: 'editor.leave' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('left');
    expect(actor.getSnapshot().status).toBe('done');
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('leaves at once without unsaved changes', async () => {
    const { actor, leave } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.leave' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('leaves at once while saving (Back pressed before the answer; issue 38); the late answer brings nothing back', async () => {
    let answer: (record: EditorRecord) => void = () => {};
    const announceSaved = vi.fn();
    const openCreated = vi.fn();
    const leave = vi.fn();
    const actor = createActor(editorMachine.provide({
      actors: {
        load: fromPromise(async () => RECORD),
        save: fromPromise<EditorRecord, EditorSaveInput>(() => new Promise((resolve) => { answer = resolve; })),
      },
      actions: { leave, announceSaved, openCreated: (_, params) => openCreated(params) },
    }), { input: { id: 'new' } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Fresh' });
    actor.send({ type: 'editor.save' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('saving');
    actor.send({ type: 'editor.leave' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('left');
    expect(leave).toHaveBeenCalledTimes(1);
    answer({ ...SAVED, id: 'plan-9' });
    await Promise.resolve();
    expect(actor.getSnapshot().status).toBe('done');
    expect(selectEditorPhase(actor.getSnapshot())).toBe('left');
    expect(announceSaved).not.toHaveBeenCalled();
    expect(openCreated).not.toHaveBeenCalled();
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('while it reads again after a save on the page: leaves at once without typed changes, asks with them; a late read brings nothing back (issue 38)', async () => {
    let answer: (record: EditorRecord) => void = () => {};
    let loads = 0;
    const { actor, leave } = start({ load: () => (loads++ === 0 ? Promise.resolve(RECORD) : new Promise<EditorRecord>((resolve) => { answer = resolve; })) });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('rereading');
    actor.send({ type: 'editor.change', field: 'title', value: 'Typed' });
    actor.send({ type: 'editor.leave' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('confirmingLeave');
    expect(leave).not.toHaveBeenCalled();
    actor.send({ type: 'editor.leaveConfirm' });
    expect(leave).toHaveBeenCalledTimes(1);
    answer({ ...RECORD, version: 4 });
    await Promise.resolve();
    expect(selectEditorPhase(actor.getSnapshot())).toBe('left');

    const clean = start({ load: () => (loads++ === 2 ? Promise.resolve(RECORD) : new Promise<EditorRecord>((resolve) => { answer = resolve; })) });
    await waitFor(clean.actor, (s) => s.matches('editing'));
    clean.actor.send({ type: 'editor.recordMoved', from: 3, to: 4 });
    clean.actor.send({ type: 'editor.leave' });
    expect(selectEditorPhase(clean.actor.getSnapshot())).toBe('left');
    expect(clean.leave).toHaveBeenCalledTimes(1);
    answer({ ...RECORD, version: 4 });
    await Promise.resolve();
    expect(clean.actor.getSnapshot().status).toBe('done');
    expect(selectEditorPhase(clean.actor.getSnapshot())).toBe('left');
  });

  it('asks first with unsaved changes: cancel stays with the draft, confirm leaves', async () => {
    const { actor, leave } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Unsaved' });
    actor.send({ type: 'editor.leave' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('confirmingLeave');
    actor.send({ type: 'editor.leaveCancel' });
    expect(selectDraft(actor.getSnapshot()).title).toBe('Unsaved');
    actor.send({ type: 'editor.leave' });
    actor.send({ type: 'editor.leaveConfirm' });
    expect(leave).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });
});

const NO_FIELD_ERRORS: Readonly<Record<string, string>> = {};

/** An editor with field rules, as a page provides them: a title of 'x' is too short. */
const withRules = editorMachine.provide({
  actions: { checkDraft: assign(({ context }) => ({ fieldErrors: context.draft.title === 'x' ? { title: 'Too short.' } : NO_FIELD_ERRORS })) },
  guards: { breaksFieldRules: ({ context }) => context.draft.title === 'x' },
});

describe('editor: field rules and field messages', () => {
  it('keeps the form open with a message beside a bad field, clears it when the field changes, then saves', async () => {
    const saves: EditorSaveInput[] = [];
    const actor = createActor(withRules.provide({
      actors: {
        load: fromPromise(async () => RECORD),
        save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => { saves.push(input); return { ...SAVED, id: 'item-9' }; }),
      },
    }), { input: { id: 'new' } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'x' });
    actor.send({ type: 'editor.save' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('editing');
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({ title: 'Too short.' });
    actor.send({ type: 'editor.change', field: 'title', value: 'Long enough' });
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({});
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves).toHaveLength(1);
    expect(selectEditorId(actor.getSnapshot())).toBe('item-9');
  });

  it('shows the field messages of a save the server refused for invalid input', async () => {
    const actor = createActor(editorMachine.provide({
      actors: {
        load: fromPromise(async () => RECORD),
        save: fromPromise<EditorRecord, EditorSaveInput>(async () => { throw new EditorFailure('invalid', 'Some fields need attention.', { title: 'Taken.' }); }),
      },
    }), { input: { id: 'item-1' } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Other' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectEditorError(actor.getSnapshot())).toBe('Some fields need attention.');
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({ title: 'Taken.' });
    actor.send({ type: 'editor.discard' });
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({});
  });
});

describe('editor: leaving by navigation, and a create', () => {
  it('lets a navigation go without unsaved changes, and holds it to ask with them', async () => {
    const { actor, leave } = start();
    await waitFor(actor, (s) => s.matches('editing'));
    expect(selectGuardsLeaving(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'editor.navigate' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('editing');
    actor.send({ type: 'editor.change', field: 'title', value: 'New' });
    expect(selectGuardsLeaving(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'editor.navigate' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('confirmingNavigation');
    expect(selectIsConfirmingLeave(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'editor.leaveCancel' });
    expect(selectDraft(actor.getSnapshot()).title).toBe('New');
    actor.send({ type: 'editor.navigate' });
    actor.send({ type: 'editor.leaveConfirm' });
    expect(selectEditorPhase(actor.getSnapshot())).toBe('left');
    // The router goes on by itself: the page's own leave does not run.
    expect(leave).not.toHaveBeenCalled();
    expect(selectGuardsLeaving(actor.getSnapshot())).toBe(false);
  });

  it('announces every save, and opens a created record by its new id', async () => {
    const announceSaved = vi.fn();
    const openCreated = vi.fn();
    const machine = editorMachine.provide({
      actors: {
        load: fromPromise(async () => RECORD),
        save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => ({ ...SAVED, id: 'plan-9', values: input.draft })),
      },
      actions: { announceSaved, openCreated: (_, params) => openCreated(params) },
    });
    const actor = createActor(machine, { input: { id: 'new' } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'editor.change', field: 'title', value: 'Fresh' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(selectEditorId(actor.getSnapshot())).toBe('plan-9');
    expect(openCreated).toHaveBeenCalledWith({ id: 'plan-9' });
    actor.send({ type: 'editor.change', field: 'title', value: 'Fresher' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(announceSaved).toHaveBeenCalledTimes(2);
    expect(openCreated).toHaveBeenCalledTimes(1);
  });
});

describe('editor: every path', () => {
  const conflictError = new EditorFailure(EDITOR_FAILURE.conflict, OWN_MESSAGES.contentConflict);
  const events = [
    { type: 'xstate.done.actor.load', output: RECORD },
    { type: 'xstate.error.actor.load', error: new EditorFailure(EDITOR_FAILURE.notFound, OWN_MESSAGES.contentNotFound) },
    { type: 'xstate.error.actor.load', error: new Error('offline') },
    { type: 'xstate.done.actor.save', output: SAVED },
    { type: 'xstate.done.actor.save', output: { ...SAVED, id: 'item-2' } },
    { type: 'xstate.error.actor.save', error: conflictError },
    { type: 'xstate.error.actor.save', error: new Error('refused') },
    { type: 'editor.change', field: 'title', value: 'New' },
    { type: 'editor.change', field: 'title', value: '' },
    { type: 'editor.change', field: 'title', value: 'x' },
    { type: 'editor.save' },
    { type: 'editor.discard' },
    { type: 'editor.reload' },
    { type: 'editor.leave' },
    { type: 'editor.navigate' },
    { type: 'editor.leaveConfirm' },
    { type: 'editor.leaveCancel' },
    { type: 'editor.recordMoved', from: 3, to: 9 },
    { type: 'editor.recordMoved', from: 4, to: 9 },
    { type: 'editor.recordMoved', from: 9, to: 10 },
  ];
  itReachesEveryStateAndTransition(withRules, {
    events,
    logic: withRules.provide({ actors: { load: pendingActor(), save: pendingActor() } }),
    input: { id: 'item-1', required: { title: 'Title' } },
  });
});
