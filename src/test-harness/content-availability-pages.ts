/**
 * Content › Country groups, Video licences and the item's availability panel for view tests: each
 * page machine with its real field rules and fake I/O, given to
 * `renderView(<CountryGroupsPage />, { pages: contentAvailabilityTestPages(fakes) })` (no vi.mock).
 * Set `fakes.rows` / `fakes.records`; saves, page actions, creates opened and Close are recorded. A
 * fake may refuse with `fakes.refuse` (a server answer: status and message).
 */
import { fromPromise } from 'xstate';
import type { EditorRecord, EditorSaveInput } from '../../machines/editor.machine';
import type { ListPage, ListQuery } from '../../machines/list.machine';
import type { PageActionAnswer, PageActionRequest } from '../../machines/page-action.machine';
import { ApiError } from '../api/client';
import { availabilityFailureOf, contentAvailabilityPanel, contentListPage, type ContentListPageName } from '../adapters/content-availability-io';
import type { PageLogicMap } from '../page-actors';
import { historyFakeActors, historyFakes } from './history-fakes';

export interface ContentAvailabilityFakes {
  rows: Partial<Record<ContentListPageName, ListPage>>;
  records: Partial<Record<ContentListPageName | 'availability', EditorRecord>>;
  saves: { kind: string; input: EditorSaveInput }[];
  actions: PageActionRequest[];
  actionAnswer: string;
  /** The next save or page action is refused with this server answer. */
  refuse: { status: number; message: string } | null;
  opened: string[];
  closed: number;
  /** The queries each list read, and those a page wrote into its address (issue 38). */
  reads: ListQuery[];
  written: { route: string; query: ListQuery }[];
}

export function contentAvailabilityFakes(): ContentAvailabilityFakes {
  return { rows: {}, records: {}, saves: [], actions: [], actionAnswer: 'Done.', refuse: null, opened: [], closed: 0, reads: [], written: [] };
}

function refused(fakes: ContentAvailabilityFakes): void {
  const refusal = fakes.refuse;
  if (!refusal) return;
  fakes.refuse = null;
  throw new ApiError(refusal.message, refusal.status, { success: false, message: refusal.message });
}

function editorIo(kind: ContentListPageName | 'availability', fakes: ContentAvailabilityFakes) {
  return {
    load: fromPromise<EditorRecord, { id: string }>(async ({ input }) => {
      const { id, ...record } = fakes.records[kind]!;
      return input.id === 'new' ? record : { ...record, ...(id === undefined ? {} : { id }) };
    }),
    save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => {
      fakes.saves.push({ kind, input });
      try {
        refused(fakes);
      } catch (error) {
        throw availabilityFailureOf(error);
      }
      return { ...fakes.records[kind]!, values: input.draft, version: input.version + 1 };
    }),
  };
}

function page(name: ContentListPageName, fakes: ContentAvailabilityFakes) {
  return contentListPage(name, {
    fetchPage: fromPromise<ListPage, ListQuery>(async ({ input }) => { fakes.reads.push(input); return fakes.rows[name] ?? { items: [], total: 0 }; }),
    ...editorIo(name, fakes),
    perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
      fakes.actions.push(input);
      refused(fakes);
      return fakes.actionAnswer;
    }),
    history: historyFakeActors(historyFakes()),
  }, {
    openCreated: (_, id) => { fakes.opened.push(id); },
    closeEditor: () => { fakes.closed += 1; },
    writeQuery: (route, query) => { fakes.written.push({ route, query }); },
  });
}

export function contentAvailabilityTestPages(fakes: ContentAvailabilityFakes): PageLogicMap {
  return {
    countryGroups: page('countryGroups', fakes),
    licences: page('licences', fakes),
    contentAvailability: contentAvailabilityPanel(editorIo('availability', fakes)),
  };
}
