/**
 * The Monetization pages for view tests: each page machine with its real field rules and fake I/O,
 * given to `renderView(<PlansPage />, { pages: monetizationTestPages(fakes) })` (no vi.mock). Set
 * `fakes.lists` / `fakes.records` per test; saves, page actions, creates opened and Close are recorded.
 */
import { fromPromise } from 'xstate';
import type { EditorRecord, EditorSaveInput } from '../../machines/editor.machine';
import type { ListPage, ListQuery } from '../../machines/list.machine';
import type { PageActionAnswer, PageActionRequest } from '../../machines/page-action.machine';
import { MONETIZATION_LIST_PAGES, monetizationListPage, monetizationModelsPage, type MonetizationListPage } from '../adapters/monetization-actors';
import type { PageLogicMap } from '../page-actors';
import { historyFakeActors, historyFakes, type HistoryFakes } from './history-fakes';

export interface MonetizationFakes {
  lists: Record<string, ListPage>;
  records: Record<string, EditorRecord>;
  reads: { page: string; query: ListQuery }[];
  saves: { kind: string; input: EditorSaveInput }[];
  actions: PageActionRequest[];
  actionAnswer: string;
  /** The new ids a create asked to show (the browser goes to `?edit=<id>`). */
  opened: string[];
  /** How often the editor's Close asked for the page without a record. */
  closed: number;
  /** The list queries a page wrote into its address (issue 38), by page route. */
  written: { route: string; query: ListQuery }[];
  /** The open record's History (revisions by object id, restores asked). */
  history: HistoryFakes;
}

export function monetizationFakes(): MonetizationFakes {
  return { lists: {}, records: {}, reads: [], saves: [], actions: [], actionAnswer: 'Done.', opened: [], closed: 0, written: [], history: historyFakes() };
}

function editorIo(kind: string, fakes: MonetizationFakes) {
  return {
    // Opened with 'new', the record is a blank one without an id, as the real adapter answers.
    load: fromPromise<EditorRecord, { id: string }>(async ({ input }) => {
      const { id, ...record } = fakes.records[kind]!;
      return input.id === 'new' ? record : { ...record, ...(id === undefined ? {} : { id }) };
    }),
    save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => {
      fakes.saves.push({ kind, input });
      return { ...fakes.records[kind]!, values: input.draft, version: input.version + 1 };
    }),
  };
}

function page(name: MonetizationListPage, fakes: MonetizationFakes) {
  return monetizationListPage(name, {
    fetchPage: fromPromise<ListPage, ListQuery>(async ({ input }) => {
      fakes.reads.push({ page: name, query: input });
      return fakes.lists[name] ?? { items: [], total: 0 };
    }),
    ...editorIo(MONETIZATION_LIST_PAGES[name].editor, fakes),
    perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
      fakes.actions.push(input);
      return fakes.actionAnswer;
    }),
    history: historyFakeActors(fakes.history),
  }, {
    openCreated: (_, id) => { fakes.opened.push(id); },
    closeEditor: () => { fakes.closed += 1; },
    writeQuery: (route, query) => { fakes.written.push({ route, query }); },
  });
}

export function monetizationTestPages(fakes: MonetizationFakes): PageLogicMap {
  return {
    plans: page('plans', fakes),
    offers: page('offers', fakes),
    planGroups: page('planGroups', fakes),
    coupons: page('coupons', fakes),
    models: monetizationModelsPage({ ...editorIo('models', fakes), history: historyFakeActors(fakes.history) }, () => { fakes.closed += 1; }),
  };
}

/** The editors' field rules, for view tests of the fields themselves. */
export { fieldRuleImplementations } from '../adapters/monetization-actors';
