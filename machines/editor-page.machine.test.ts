import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { EditorLoadInput, EditorRecord, EditorSaveInput } from './editor.machine';
import {
  editorPageMachine, selectEditorPageActions, selectEditorPageComparison, selectEditorPageEditor, selectEditorPageHistory,
  type EditorPageInput,
} from './editor-page.machine';
import { pageHistoryMachine, type HistoryLoadInput, type HistoryPage, type HistoryRestoreInput, type HistoryRestoreOutput } from './history.machine';
import { listMachine, type ListPage, type ListQuery } from './list.machine';
import { pageActionLogic, pageEditorMachine } from './list-page.machine';
import { selectActionMessage, type PageActionAnswer, type PageActionRequest } from './page-action.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const BRAND: EditorRecord = { values: { logoUrl: '', primaryColor: '#000000' }, version: 2, data: null };
const SCOPE = { site: 'demo', network: 'kids' };
const REVISIONS = { kind: 'settings', objectId: 'kids' } as const;
const HISTORY: HistoryPage = {
  items: [{
    seq: 1, kind: 'settings', objectId: 'n1', objectName: 'Kids', networkId: 'n1', objectVersion: 2, actor: null, at: '2026-11-24T00:00:00.000Z',
    reason: null, requestId: null, restoredFrom: null, changes: [{ field: 'maxStreams', before: 1, after: 2 }],
  }],
  total: 1, page: 1, pageSize: 20, canRestore: true, restorable: true,
};

function start(input: EditorPageInput, answer: (request: PageActionRequest) => PageActionAnswer = () => 'Done.') {
  const loads: unknown[] = [];
  const historyReads: HistoryLoadInput[] = [];
  const comparisons: ListQuery[] = [];
  let left = 0;
  const actor = createActor(editorPageMachine.provide({
    actors: {
      editor: pageEditorMachine.provide({
        actors: {
          load: fromPromise<EditorRecord, { id: string }>(async ({ input: load }) => { loads.push(load); return BRAND; }),
          save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input: save }) => ({ ...BRAND, values: save.draft, version: save.version + 1 })),
        },
      }),
      pageAction: pageActionLogic.provide({ actors: { perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input: request }) => answer(request)) } }),
      history: pageHistoryMachine.provide({
        actors: {
          load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input: read }) => { historyReads.push(read); return HISTORY; }),
          restore: fromPromise<HistoryRestoreOutput, HistoryRestoreInput>(async () => ({ revision: null, version: 3 })),
        },
      }),
      comparison: listMachine.provide({
        actors: { fetchPage: fromPromise<ListPage, ListQuery>(async ({ input: query }) => { comparisons.push(query); return { items: [], total: 0 }; }) },
      }),
    },
    actions: { leave: () => { left += 1; } },
  }), { input }).start();
  return { actor, loads, historyReads, comparisons, left: () => left };
}

describe('editorPage', () => {
  it('opens the editor on its record in its scope, with History and comparison only when asked', async () => {
    const plain = start({ id: 'demo' });
    await settle();
    expect(plain.loads).toEqual([{ id: 'demo' }]);
    expect(selectEditorPageHistory(plain.actor.getSnapshot())).toBeUndefined();
    expect(selectEditorPageComparison(plain.actor.getSnapshot())).toBeUndefined();
    const settings = start({ id: 'kids', scope: SCOPE, revisions: REVISIONS, comparison: true });
    await settle();
    expect(settings.loads).toEqual([{ id: 'kids', scope: SCOPE }]);
    expect(settings.historyReads).toEqual([{ ...REVISIONS, page: 1 }]);
    expect(settings.comparisons).toEqual([{ search: '', filters: SCOPE, offset: 0, limit: 100 }]);
  });

  it('reads the History and the comparison again after a save', async () => {
    const { actor, historyReads, comparisons } = start({ id: 'kids', scope: SCOPE, revisions: REVISIONS, comparison: true });
    await settle();
    const editor = selectEditorPageEditor(actor.getSnapshot());
    editor.send({ type: 'editor.change', field: 'primaryColor', value: '#FFFFFF' });
    editor.send({ type: 'editor.save' });
    await settle();
    expect(historyReads).toHaveLength(2);
    expect(comparisons).toHaveLength(2);
  });

  it('opens the editor afresh after a restore, keeping the History and its restored notice', async () => {
    const { actor, loads, comparisons } = start({ id: 'kids', scope: SCOPE, revisions: REVISIONS, comparison: true });
    await settle();
    const editor = selectEditorPageEditor(actor.getSnapshot());
    const history = selectEditorPageHistory(actor.getSnapshot())!;
    history.send({ type: 'history.select', seq: 1 });
    history.send({ type: 'history.restore' });
    history.send({ type: 'history.confirm', version: 2 });
    await settle();
    await settle();
    expect(selectEditorPageEditor(actor.getSnapshot())).not.toBe(editor);
    expect(selectEditorPageHistory(actor.getSnapshot())).toBe(history);
    expect(history.getSnapshot().context.restored).toEqual({ seq: 1, wrote: false });
    expect(loads).toHaveLength(2);
    expect(comparisons).toHaveLength(2);
  });

  it('puts an upload\'s address into the draft, and opens the editor afresh after an action that changed the record', async () => {
    const { actor, loads } = start({ id: 'kids', scope: SCOPE, confirm: ['rotate'] }, (request) => (request.name === 'upload'
      ? { message: 'Logo uploaded. Save to use it.', draft: { logoUrl: '/files/logo.png' } }
      : { message: 'Signing key rotated.', reread: true }));
    await settle();
    const editor = selectEditorPageEditor(actor.getSnapshot());
    const actions = selectEditorPageActions(actor.getSnapshot());
    actions.send({ type: 'action.request', name: 'upload', args: { slot: 'logo' }, label: 'Logo' });
    await settle();
    expect(editor.getSnapshot().context.draft.logoUrl).toBe('/files/logo.png');
    expect(selectActionMessage(actions.getSnapshot())).toBe('Logo uploaded. Save to use it.');
    // Issue 30: once saved, the upload's "Save to use it." no longer shows.
    actor.send({ type: 'editor.saved' });
    expect(selectActionMessage(actions.getSnapshot())).toBeNull();
    actions.send({ type: 'action.request', name: 'rotate', args: {}, label: 'signing key' });
    actions.send({ type: 'action.confirm' });
    await settle();
    expect(selectEditorPageEditor(actor.getSnapshot())).not.toBe(editor);
    expect(loads).toHaveLength(2);
  });

  it('opens the editor afresh when its record was read again elsewhere, and on Close after leaving', async () => {
    const { actor, loads, comparisons, left } = start({ id: 'kids', scope: SCOPE, comparison: true });
    await settle();
    actor.send({ type: 'page.reload' });
    await settle();
    expect(loads).toHaveLength(2);
    expect(comparisons).toHaveLength(2);
    selectEditorPageEditor(actor.getSnapshot()).send({ type: 'editor.leave' });
    await settle();
    expect(left()).toBe(1);
    expect(loads).toHaveLength(3);
    expect(selectEditorPageEditor(actor.getSnapshot()).getSnapshot().status).toBe('active');
  });

  it('takes Back while its editor saves or reads the record again after a save (issue 38): leaves once, and the late answer neither announces a save nor leaves again', async () => {
    let answerSave: (record: EditorRecord) => void = () => {};
    let answerRead: (record: EditorRecord) => void = () => {};
    let reads = 0;
    const historyReads: HistoryLoadInput[] = [];
    let left = 0;
    const actor = createActor(editorPageMachine.provide({
      actors: {
        editor: pageEditorMachine.provide({
          actors: {
            load: fromPromise<EditorRecord, EditorLoadInput>(() => (reads++ === 0 ? Promise.resolve(BRAND) : new Promise((resolve) => { answerRead = resolve; }))),
            save: fromPromise<EditorRecord, EditorSaveInput>(() => new Promise((resolve) => { answerSave = resolve; })),
          },
        }),
        history: pageHistoryMachine.provide({
          actors: {
            load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input: read }) => { historyReads.push(read); return HISTORY; }),
            restore: fromPromise<HistoryRestoreOutput, HistoryRestoreInput>(async () => ({ revision: null, version: 3 })),
          },
        }),
      },
      actions: { leave: () => { left += 1; } },
    }), { input: { id: 'item-1', revisions: REVISIONS } }).start();
    await settle();
    const editor = selectEditorPageEditor(actor.getSnapshot());
    editor.send({ type: 'editor.change', field: 'primaryColor', value: '#ffffff' });
    editor.send({ type: 'editor.save' });
    expect(editor.getSnapshot().value).toBe('saving');
    editor.send({ type: 'editor.leave' });
    expect(left).toBe(1);
    answerSave({ ...BRAND, version: 3 });
    await settle();
    expect(left).toBe(1);
    // No save was announced: the History was read once, on opening.
    expect(historyReads).toHaveLength(1);
    // The editor opened afresh (for coming back) reads the record; Back again while it is read after a save elsewhere.
    await settle();
    const fresh = selectEditorPageEditor(actor.getSnapshot());
    expect(fresh).not.toBe(editor);
    answerRead(BRAND);
    await settle();
    fresh.send({ type: 'editor.recordMoved', from: 2, to: 3 });
    expect(fresh.getSnapshot().value).toBe('rereading');
    fresh.send({ type: 'editor.leave' });
    expect(left).toBe(2);
    answerRead({ ...BRAND, version: 3 });
    await settle();
    expect(left).toBe(2);
    expect(fresh.getSnapshot().status).toBe('done');
  });

  // The page's own events as its children send them (an action's effects ride on action.performed).
  const pageEvents = [
    { type: 'page.reload' },
    { type: 'editor.saved' },
    { type: 'editor.left' },
    { type: 'history.restored' },
    { type: 'history.stale' },
    { type: 'action.performed', draft: {}, reread: true },
    { type: 'action.performed', draft: { logoUrl: '/files/logo.png' }, reread: false },
  ];
  itReachesEveryStateAndTransition(editorPageMachine, {
    events: pageEvents,
    input: { id: 'kids', scope: SCOPE, comparison: true, revisions: { kind: 'brand', objectId: 'n1' } },
    logic: editorPageMachine.provide({
      actors: {
        editor: pageEditorMachine.provide({ actors: { load: pendingActor(), save: pendingActor() } }),
        pageAction: pageActionLogic.provide({ actors: { perform: pendingActor() } }),
        comparison: listMachine.provide({ actors: { fetchPage: pendingActor() } }),
        history: pageHistoryMachine.provide({ actors: { load: pendingActor(), restore: pendingActor() } }),
      },
    }),
  });
});

describe('editorPage: the record\'s History', () => {
  it('starts the History of the record it names, reads it again after a save, and opens the editor afresh after a restore or a Reload after a conflict', async () => {
    const historyLoads: HistoryLoadInput[] = [];
    const loads: unknown[] = [];
    const actor = createActor(editorPageMachine.provide({
      actors: {
        editor: pageEditorMachine.provide({
          actors: {
            load: fromPromise<EditorRecord, EditorLoadInput>(async ({ input }) => { loads.push(input); return { values: { title: 'A' }, version: 2, data: null }; }),
            save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => ({ values: input.draft, version: input.version + 1, data: null })),
          },
        }),
        pageAction: pageActionLogic.provide({ actors: { perform: pendingActor() } }),
        history: pageHistoryMachine.provide({
          actors: {
            load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input }) => {
              historyLoads.push(input);
              return { items: [], total: 0, page: 1, pageSize: 20, canRestore: true, restorable: true };
            }),
            restore: pendingActor(),
          },
        }),
      },
    }), { input: { id: 'c1', revisions: { kind: 'content', objectId: 'c1' }, required: { title: 'Title' } } }).start();
    await settle();
    expect(historyLoads).toEqual([{ kind: 'content', objectId: 'c1', page: 1 }]);
    expect(loads).toEqual([{ id: 'c1' }]);
    const editor = selectEditorPageEditor(actor.getSnapshot());
    expect(editor.getSnapshot().context.required).toEqual({ title: 'Title' });
    editor.send({ type: 'editor.change', field: 'title', value: 'B' });
    editor.send({ type: 'editor.save' });
    await settle();
    await settle();
    expect(historyLoads).toHaveLength(2);
    const history = selectEditorPageHistory(actor.getSnapshot());
    actor.send({ type: 'history.restored' });
    await settle();
    expect(selectEditorPageEditor(actor.getSnapshot())).not.toBe(editor);
    expect(selectEditorPageHistory(actor.getSnapshot())).toBe(history);
    expect(loads).toHaveLength(2);
    actor.send({ type: 'history.stale' });
    await settle();
    expect(loads).toHaveLength(3);
  });
});
