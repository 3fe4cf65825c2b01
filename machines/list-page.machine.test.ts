import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { EditorRecord, EditorSaveInput } from './editor.machine';
import { LIST_SEARCH_DEBOUNCE_MS, listMachine, selectListRows, type ListPage, type ListQuery } from './list.machine';
import {
  listPageMachine, NEW_RECORD_ID, pageActionLogic, pageEditorMachine, pageListMachine, selectIsEditing, selectOpenId, selectPageActions, selectPageEditor, selectPageList,
  type ListPageInput,
} from './list-page.machine';
import type { PageActionAnswer, PageActionRequest } from './page-action.machine';
import { createCoverage } from './test-harness/coverage';
import { coveringPaths, drivePath, pathTitle } from './test-harness/paths';
import { pendingActor } from './test-harness/fakes';
import { pageHistoryMachine, selectHistoryRestored, type HistoryLoadInput, type HistoryPage, type HistoryRestoreInput, type HistoryRestoreOutput } from './history.machine';
import { pageRowHistoryMachine, selectPageHistory, selectRowHistory, selectRowHistoryId } from './list-page.machine';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const GOLD: EditorRecord = { id: 'p1', values: { name: 'Gold' }, version: 3, data: null };

function start(input: ListPageInput = {}) {
  const reads: ListQuery[] = [];
  const loads: string[] = [];
  const saves: EditorSaveInput[] = [];
  const opened: string[] = [];
  let closed = 0;
  const actor = createActor(listPageMachine.provide({
    actors: {
      list: listMachine.provide({
        actors: { fetchPage: fromPromise<ListPage, ListQuery>(async ({ input: query }) => { reads.push(query); return { items: [{ id: 'p1' }], total: 1 }; }) },
      }),
      editor: pageEditorMachine.provide({
        actors: {
          load: fromPromise<EditorRecord, { id: string }>(async ({ input: { id } }) => { loads.push(id); return id === NEW_RECORD_ID ? { values: { name: '' }, version: 0, data: null } : GOLD; }),
          save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input: save }) => {
            saves.push(save);
            return { id: save.id === NEW_RECORD_ID ? 'p9' : save.id, values: save.draft, version: save.version + 1, data: null };
          }),
        },
      }),
      pageAction: pageActionLogic.provide({ actors: { perform: fromPromise<PageActionAnswer, PageActionRequest>(async () => 'Deleted.') } }),
    },
    actions: {
      openCreated: (_, params: { id: string }) => { opened.push(params.id); },
      closeEditor: () => { closed += 1; },
    },
  }), { input }).start();
  return { actor, reads, loads, saves, opened, closed: () => closed };
}

describe('listPage', () => {
  it("opens the list with the address's search (issue 38: ?search=<code> on the coupon list)", async () => {
    const { reads } = start({ filters: { status: '' }, search: 'SPRING' });
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    expect(reads[0]).toMatchObject({ search: 'SPRING', filters: { status: '' }, offset: 0 });
    const plain = start();
    await vi.waitFor(() => expect(plain.reads).toHaveLength(1));
    expect(plain.reads[0]!.search).toBe('');
  });

  it('reads the rows with the filters it was given, and opens no editor without a record', async () => {
    const { actor, reads } = start({ filters: { status: '' } });
    await settle();
    expect(reads).toEqual([{ search: '', filters: { status: '' }, offset: 0, limit: 20 }]);
    expect(selectListRows(selectPageList(actor.getSnapshot()).getSnapshot())).toEqual([{ id: 'p1' }]);
    expect(selectPageEditor(actor.getSnapshot())).toBeUndefined();
    expect(selectIsEditing(actor.getSnapshot())).toBe(false);
  });

  it('opens the record it was shown with, and another on page.open; the same id leaves the editor as it is', async () => {
    const { actor, loads } = start({ open: 'p1' });
    await settle();
    const first = selectPageEditor(actor.getSnapshot())!;
    first.send({ type: 'editor.change', field: 'name', value: 'Gold Plus' });
    actor.send({ type: 'page.open', id: 'p1' });
    expect(selectPageEditor(actor.getSnapshot())).toBe(first);
    expect(first.getSnapshot().context.draft.name).toBe('Gold Plus');
    actor.send({ type: 'page.open', id: 'p2' });
    await settle();
    expect(selectPageEditor(actor.getSnapshot())).not.toBe(first);
    expect(selectOpenId(actor.getSnapshot())).toBe('p2');
    expect(loads).toEqual(['p1', 'p2']);
    actor.send({ type: 'page.close' });
    expect(selectPageEditor(actor.getSnapshot())).toBeUndefined();
  });

  it('reads the rows again after a save', async () => {
    const { actor, reads, saves } = start({ open: 'p1' });
    await settle();
    const editor = selectPageEditor(actor.getSnapshot())!;
    editor.send({ type: 'editor.change', field: 'name', value: 'Gold Plus' });
    editor.send({ type: 'editor.save' });
    await settle();
    expect(saves).toHaveLength(1);
    expect(reads).toHaveLength(2);
    expect(editor.getSnapshot().matches('saved')).toBe(true);
  });

  it('after a create keeps the same editor on the new id and asks to show it at its own address', async () => {
    const { actor, reads, opened } = start({ open: NEW_RECORD_ID });
    await settle();
    const editor = selectPageEditor(actor.getSnapshot())!;
    editor.send({ type: 'editor.change', field: 'name', value: 'Silver' });
    editor.send({ type: 'editor.save' });
    await settle();
    expect(opened).toEqual(['p9']);
    expect(selectOpenId(actor.getSnapshot())).toBe('p9');
    expect(reads).toHaveLength(2);
    // The address follows (?edit=p9): the view's page.open changes nothing, the editor still says Saved.
    actor.send({ type: 'page.open', id: 'p9' });
    expect(selectPageEditor(actor.getSnapshot())).toBe(editor);
    expect(editor.getSnapshot().matches('saved')).toBe(true);
  });

  it('closes the editor on its Close and asks for the address without a record', async () => {
    const { actor, closed } = start({ open: 'p1' });
    await settle();
    selectPageEditor(actor.getSnapshot())!.send({ type: 'editor.leave' });
    expect(closed()).toBe(1);
    expect(selectPageEditor(actor.getSnapshot())).toBeUndefined();
    expect(actor.getSnapshot().matches({ editor: 'closed' })).toBe(true);
  });

  it('opens an always-there editor afresh after its Close, and keeps it on page.close', async () => {
    const { actor, loads, closed } = start({ keepEditor: 'batch' });
    await settle();
    const first = selectPageEditor(actor.getSnapshot())!;
    first.send({ type: 'editor.leave' });
    await settle();
    expect(closed()).toBe(0);
    expect(selectPageEditor(actor.getSnapshot())).not.toBe(first);
    expect(loads).toEqual(['batch', 'batch']);
    actor.send({ type: 'page.close' });
    expect(selectPageEditor(actor.getSnapshot())).toBeDefined();
  });

  it("opens the list on the address's status and page, and writes each query the person asks for back (issue 38), a search once typing pauses", async () => {
    vi.useFakeTimers();
    try {
      const written: ListQuery[] = [];
      const reads: ListQuery[] = [];
      const actor = createActor(listPageMachine.provide({
        actors: {
          list: pageListMachine.provide({
            actors: { fetchPage: fromPromise<ListPage, ListQuery>(async ({ input: query }) => { reads.push(query); return { items: [{ id: 'p1' }], total: 60 }; }) },
          }),
        },
        actions: { writeQuery: (_, params: { query: ListQuery }) => { written.push(params.query); } },
      }), { input: { filters: { status: 'archived' }, search: 'gold', offset: 40 } }).start();
      await vi.advanceTimersByTimeAsync(0);
      expect(reads).toEqual([{ search: 'gold', filters: { status: 'archived' }, offset: 40, limit: 20 }]);
      // Opening on the address writes nothing back (the address is already the query).
      expect(written).toEqual([]);
      const list = selectPageList(actor.getSnapshot());
      list.send({ type: 'list.page', offset: 20 });
      expect(written).toEqual([{ search: 'gold', filters: { status: 'archived' }, offset: 20, limit: 20 }]);
      list.send({ type: 'list.filter', name: 'status', value: 'active' });
      expect(written.at(-1)).toEqual({ search: 'gold', filters: { status: 'active' }, offset: 0, limit: 20 });
      list.send({ type: 'list.search', search: 'silv' });
      list.send({ type: 'list.search', search: 'silver' });
      expect(written).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(LIST_SEARCH_DEBOUNCE_MS);
      expect(written).toHaveLength(3);
      expect(written.at(-1)).toEqual({ search: 'silver', filters: { status: 'active' }, offset: 0, limit: 20 });
      // A reload (after a save or an action) is no new query: the address stays as it is.
      list.send({ type: 'list.reload' });
      await vi.advanceTimersByTimeAsync(0);
      expect(written).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("opens an address's page past the last one on the last page, and writes that page back (issue 38)", async () => {
    const written: ListQuery[] = [];
    const reads: number[] = [];
    const rows = Array.from({ length: 25 }, (_, i) => ({ id: `c${i}` }));
    createActor(listPageMachine.provide({
      actors: {
        list: pageListMachine.provide({
          actors: {
            fetchPage: fromPromise<ListPage, ListQuery>(async ({ input: query }) => {
              reads.push(query.offset);
              return { items: rows.slice(query.offset, query.offset + query.limit), total: rows.length };
            }),
          },
        }),
      },
      actions: { writeQuery: (_, params: { query: ListQuery }) => { written.push(params.query); } },
    }), { input: { filters: { status: '' }, offset: 180 } }).start();
    await settle();
    await settle();
    expect(reads).toEqual([180, 20]);
    expect(written).toEqual([{ search: '', filters: { status: '' }, offset: 20, limit: 20 }]);
  });

  it('reads the rows again after a page action', async () => {
    const { actor, reads } = start({ confirm: ['delete'] });
    await settle();
    const actions = selectPageActions(actor.getSnapshot());
    actions.send({ type: 'action.request', name: 'delete', args: { id: 'p1' }, label: 'Gold' });
    expect(reads).toHaveLength(1);
    actions.send({ type: 'action.confirm' });
    await settle();
    expect(reads).toHaveLength(2);
  });

  const events = [
    { type: 'page.open', id: 'p1' },
    { type: 'page.open', id: 'p2' },
    { type: 'page.close' },
    { type: 'editor.saved' },
    { type: 'editor.created', id: 'p9' },
    { type: 'editor.left' },
    { type: 'action.performed' },
    { type: 'history.restored' },
    { type: 'history.stale' },
    { type: 'page.history', id: 'p1' },
    { type: 'page.history', id: 'p2' },
    { type: 'page.closeHistory' },
    { type: 'rowHistory.restored' },
    { type: 'rowHistory.stale' },
    { type: 'list.queried', query: { search: 'gold', filters: { status: 'active' }, offset: 20, limit: 20 } },
  ];
  const logic = listPageMachine.provide({
    actors: {
      list: listMachine.provide({ actors: { fetchPage: pendingActor() } }),
      editor: pageEditorMachine.provide({ actors: { load: pendingActor(), save: pendingActor() } }),
      pageAction: pageActionLogic.provide({ actors: { perform: pendingActor() } }),
      history: pageHistoryMachine.provide({ actors: { load: pendingActor(), restore: pendingActor() } }),
      rowHistory: pageRowHistoryMachine.provide({ actors: { load: pendingActor(), restore: pendingActor() } }),
    },
  });
  // Two inputs between them take every transition (a page with a keepEditor never starts closed):
  // their paths are measured together.
  const inputs: ListPageInput[] = [{}, { keepEditor: 'batch' }, { history: 'plan' }, { keepEditor: 'batch', history: 'coupon', showHistory: 'p1' }];
  const paths = inputs.flatMap((input) => coveringPaths(listPageMachine, { events, input }).map((path) => ({ input, path })));
  it.each(paths.map(({ input, path }) => [`${input.showHistory ? 'keeping its editor, a row\'s history shown' : input.keepEditor ? 'keeping its editor' : input.history ? 'with history' : 'opened without a record'}: ${pathTitle(path)}`, input, path] as const))(
    'reaches %s', (_, input, path) => {
      expect(drivePath(logic, path, { input }).value).toEqual(path.state.value);
    },
  );
  it('covers every state and every transition of the machine', () => {
    const coverage = createCoverage(listPageMachine);
    for (const { input, path } of paths) drivePath(logic, path, { input, inspect: coverage.inspect });
    expect(coverage.report().states.missing).toEqual([]);
    expect(coverage.report().transitions.missing).toEqual([]);
  });
});

describe('listPage: the open record\'s History', () => {
  it('starts the history of the open record (never of a new one), reads it again after a save, and a restore opens the editor and the rows afresh', async () => {
    const historyLoads: HistoryLoadInput[] = [];
    const editorLoads: string[] = [];
    let rowReads = 0;
    const actor = createActor(listPageMachine.provide({
      actors: {
        list: listMachine.provide({ actors: { fetchPage: fromPromise<ListPage, ListQuery>(async () => { rowReads += 1; return { items: [{ id: 'p1' }], total: 1 }; }) } }),
        editor: pageEditorMachine.provide({
          actors: {
            load: fromPromise<EditorRecord, { id: string }>(async ({ input: { id } }) => {
              editorLoads.push(id);
              return id === NEW_RECORD_ID ? { values: { name: '' }, version: 0, data: null } : GOLD;
            }),
            save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input: save }) => ({ ...GOLD, values: save.draft, version: save.version + 1 })),
          },
        }),
        pageAction: pageActionLogic.provide({ actors: { perform: pendingActor() } }),
        history: pageHistoryMachine.provide({
          actors: {
            load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input }) => {
              historyLoads.push(input);
              return { items: [], total: 0, page: 1, pageSize: 20, canRestore: true, restorable: true };
            }),
            restore: fromPromise<HistoryRestoreOutput, HistoryRestoreInput>(async () => ({ revision: null, version: 4 })),
          },
        }),
      },
    }), { input: { history: 'plan' } }).start();
    actor.send({ type: 'page.open', id: NEW_RECORD_ID });
    expect(selectPageHistory(actor.getSnapshot())).toBeUndefined();
    // Once created, the new record's History starts beside the same editor.
    const creating = selectPageEditor(actor.getSnapshot())!;
    await settle();
    creating.send({ type: 'editor.change', field: 'name', value: 'New' });
    creating.send({ type: 'editor.save' });
    await settle();
    await settle();
    expect(selectPageEditor(actor.getSnapshot())).toBe(creating);
    expect(historyLoads).toEqual([{ kind: 'plan', objectId: 'p1', page: 1 }]);
    historyLoads.length = 0;
    actor.send({ type: 'page.open', id: 'p1' });
    await settle();
    expect(historyLoads).toEqual([]);
    actor.send({ type: 'page.open', id: 'p2' });
    actor.send({ type: 'page.open', id: 'p1' });
    await settle();
    expect(historyLoads).toEqual([{ kind: 'plan', objectId: 'p2', page: 1 }, { kind: 'plan', objectId: 'p1', page: 1 }]);
    historyLoads.length = 0;
    const editor = selectPageEditor(actor.getSnapshot())!;
    editor.send({ type: 'editor.change', field: 'name', value: 'Platinum' });
    editor.send({ type: 'editor.save' });
    await settle();
    await settle();
    expect(historyLoads).toHaveLength(1);
    const before = rowReads;
    actor.send({ type: 'history.restored', restored: { seq: 8, wrote: true } });
    await settle();
    // The fresh History keeps saying what the restore did.
    expect(selectHistoryRestored(selectPageHistory(actor.getSnapshot())!.getSnapshot())).toEqual({ seq: 8, wrote: true });
    expect(selectPageEditor(actor.getSnapshot())).not.toBe(editor);
    expect(editorLoads.filter((id) => id === 'p1')).toHaveLength(2);
    expect(historyLoads).toHaveLength(2);
    expect(rowReads).toBe(before + 1);
    actor.send({ type: 'history.stale' });
    await settle();
    expect(selectHistoryRestored(selectPageHistory(actor.getSnapshot())!.getSnapshot())).toBeNull();
    expect(editorLoads.filter((id) => id === 'p1')).toHaveLength(3);
    expect(rowReads).toBe(before + 1);
  });
});

describe('listPage: a row\'s History without an editor (Coupons)', () => {
  function startRows(input: ListPageInput) {
    const historyLoads: HistoryLoadInput[] = [];
    const editorLoads: string[] = [];
    let rowReads = 0;
    const actor = createActor(listPageMachine.provide({
      actors: {
        list: listMachine.provide({ actors: { fetchPage: fromPromise<ListPage, ListQuery>(async () => { rowReads += 1; return { items: [{ id: 'c1' }], total: 1 }; }) } }),
        editor: pageEditorMachine.provide({
          actors: {
            load: fromPromise<EditorRecord, { id: string }>(async ({ input: { id } }) => { editorLoads.push(id); return { values: { count: '' }, version: 0, data: null }; }),
            save: pendingActor(),
          },
        }),
        pageAction: pageActionLogic.provide({ actors: { perform: fromPromise<PageActionAnswer, PageActionRequest>(async () => 'Disabled.') } }),
        history: pageHistoryMachine.provide({ actors: { load: pendingActor(), restore: pendingActor() } }),
        rowHistory: pageRowHistoryMachine.provide({
          actors: {
            load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input: load }) => {
              historyLoads.push(load);
              return { items: [], total: 0, page: 1, pageSize: 20, canRestore: true, restorable: true };
            }),
            restore: fromPromise<HistoryRestoreOutput, HistoryRestoreInput>(async () => ({ revision: null, version: 4 })),
          },
        }),
      },
    }), { input }).start();
    return { actor, historyLoads, editorLoads, rowReads: () => rowReads };
  }

  it('shows the History of the row the address names beside the always-there form, which shows none of its own', async () => {
    const { actor, historyLoads } = startRows({ keepEditor: 'batch', history: 'coupon', showHistory: 'c1' });
    await settle();
    expect(selectPageEditor(actor.getSnapshot())).toBeDefined();
    expect(selectPageHistory(actor.getSnapshot())).toBeUndefined();
    expect(selectRowHistoryId(actor.getSnapshot())).toBe('c1');
    expect(historyLoads).toEqual([{ kind: 'coupon', objectId: 'c1', page: 1 }]);
  });

  it('shows a row\'s History on page.history, another row\'s afresh, the same one as it is, and hides it on page.closeHistory, keeping the form\'s draft', async () => {
    const { actor, historyLoads, editorLoads } = startRows({ keepEditor: 'batch', history: 'coupon' });
    await settle();
    const form = selectPageEditor(actor.getSnapshot())!;
    form.send({ type: 'editor.change', field: 'count', value: '20' });
    expect(selectRowHistory(actor.getSnapshot())).toBeUndefined();
    expect(selectRowHistoryId(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'page.history', id: 'c1' });
    await settle();
    const first = selectRowHistory(actor.getSnapshot())!;
    expect(selectRowHistoryId(actor.getSnapshot())).toBe('c1');
    actor.send({ type: 'page.history', id: 'c1' });
    expect(selectRowHistory(actor.getSnapshot())).toBe(first);
    actor.send({ type: 'page.history', id: 'c2' });
    await settle();
    expect(selectRowHistory(actor.getSnapshot())).not.toBe(first);
    expect(historyLoads.map((l) => l.objectId)).toEqual(['c1', 'c2']);
    actor.send({ type: 'page.closeHistory' });
    expect(selectRowHistory(actor.getSnapshot())).toBeUndefined();
    expect(selectRowHistoryId(actor.getSnapshot())).toBeNull();
    expect(selectPageEditor(actor.getSnapshot())).toBe(form);
    expect(form.getSnapshot().context.draft.count).toBe('20');
    expect(editorLoads).toEqual(['batch']);
  });

  it('shows no row History on a page that names no revision kind', () => {
    const { actor } = startRows({ keepEditor: 'batch', showHistory: 'c1' });
    actor.send({ type: 'page.history', id: 'c1' });
    expect(selectRowHistory(actor.getSnapshot())).toBeUndefined();
    expect(selectRowHistoryId(actor.getSnapshot())).toBeNull();
  });

  it('reads the rows and the shown History again after a row action, once each', async () => {
    const { actor, historyLoads, rowReads } = startRows({ history: 'coupon', showHistory: 'c1' });
    await settle();
    const before = rowReads();
    selectPageActions(actor.getSnapshot()).send({ type: 'action.request', name: 'setStatus', args: { id: 'c1' }, label: 'C1' });
    await settle();
    await settle();
    expect(rowReads()).toBe(before + 1);
    expect(historyLoads).toHaveLength(2);
  });

  it('after a restore reloads the rows and shows the History afresh with its notice; a Reload after a conflict without it; the form stays', async () => {
    const { actor, historyLoads, editorLoads, rowReads } = startRows({ keepEditor: 'batch', history: 'coupon', showHistory: 'c1' });
    await settle();
    const form = selectPageEditor(actor.getSnapshot())!;
    const first = selectRowHistory(actor.getSnapshot())!;
    const before = rowReads();
    actor.send({ type: 'rowHistory.restored', restored: { seq: 2, wrote: true } });
    await settle();
    const fresh = selectRowHistory(actor.getSnapshot())!;
    expect(fresh).not.toBe(first);
    expect(selectHistoryRestored(fresh.getSnapshot())).toEqual({ seq: 2, wrote: true });
    expect(rowReads()).toBe(before + 1);
    expect(selectPageEditor(actor.getSnapshot())).toBe(form);
    actor.send({ type: 'rowHistory.stale' });
    await settle();
    expect(selectHistoryRestored(selectRowHistory(actor.getSnapshot())!.getSnapshot())).toBeNull();
    expect(rowReads()).toBe(before + 2);
    expect(historyLoads).toHaveLength(3);
    expect(editorLoads).toEqual(['batch']);
  });

  it('reports a restore of the row History as rowHistory.restored, not as the editor\'s', async () => {
    const { actor } = startRows({ keepEditor: 'batch', history: 'coupon', showHistory: 'c1' });
    await settle();
    const history = selectRowHistory(actor.getSnapshot())!;
    const form = selectPageEditor(actor.getSnapshot())!;
    history.send({ type: 'history.select', seq: 1 });
    expect(selectRowHistory(actor.getSnapshot())).toBe(history);
    expect(selectPageEditor(actor.getSnapshot())).toBe(form);
  });
});
