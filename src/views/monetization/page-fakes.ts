/**
 * The Monetization pages' I/O for view tests: vi.mock the adapter module with `mockedAdapter()` and
 * set `pageFakes.lists` / `pageFakes.records` / `pageFakes.saves` per test; page actions (plan delete /
 * duplicate, coupon export) are recorded in `pageFakes.actions` and answer `pageFakes.actionAnswer`.
 */
import { fromPromise } from 'xstate';
import type { EditorRecord, EditorSaveInput } from '../../../machines/editor.machine';
import type { ListPage } from '../../../machines/list.machine';
import type { PageActionAnswer, PageActionRequest } from '../../../machines/page-action.machine';

export const pageFakes = {
  lists: {} as Record<string, ListPage>,
  records: {} as Record<string, EditorRecord>,
  saves: [] as { kind: string; input: EditorSaveInput }[],
  actions: [] as PageActionRequest[],
  actionAnswer: 'Done.',
};

const recordedAction = () => fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
  pageFakes.actions.push(input);
  return pageFakes.actionAnswer;
});

export async function mockedAdapter(original: () => Promise<Record<string, unknown>>) {
  const real = await original();
  return {
    ...real,
    listActors: () => new Proxy({}, {
      get: (_, kind: string) => fromPromise(async () => pageFakes.lists[kind] ?? { items: [], total: 0 }),
    }),
    planActionActor: recordedAction,
    couponExportActor: recordedAction,
    planGroupMoveActor: recordedAction,
    editorActors: (kind: string) => ({
      // Opened with 'new', the record is a blank one without an id, as the real adapter answers.
      load: fromPromise<EditorRecord, { id: string }>(async ({ input }) => {
        const { id, ...record } = pageFakes.records[kind]!;
        return input.id === 'new' ? record : { ...record, ...(id === undefined ? {} : { id }) };
      }),
      save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => {
        pageFakes.saves.push({ kind, input });
        return { ...pageFakes.records[kind]!, values: input.draft, version: input.version + 1 };
      }),
    }),
  };
}
