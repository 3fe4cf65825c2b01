/**
 * The AppCMS pages for view tests: each page machine with fake I/O, given to
 * `renderView(<BrandPage />, { pages: appcmsTestPages(appcmsFakes) })` (no vi.mock). Set
 * `appcmsFakes.records` (per editor kind) and `appcmsFakes.history` per test; saves, restores, page
 * actions and the overview's reads are recorded.
 */
import { fromPromise } from 'xstate';
import type { AppcmsOverviewRow, DiffEntry } from '../../common/appcms';
import type { EditorLoadInput, EditorRecord, EditorSaveInput } from '../../machines/editor.machine';
import type { ListPage, ListQuery } from '../../machines/list.machine';
import type { PageActionAnswer, PageActionRequest } from '../../machines/page-action.machine';
import { appcmsEditorPage, devicesDraftErrors, appcmsOverviewPage } from '../adapters/appcms-actors';
import type { PageLogicMap } from '../page-actors';
import { historyFakeActors, historyFakes } from './history-fakes';

export const appcmsFakes = {
  records: {} as Record<string, EditorRecord>,
  saves: [] as { kind: string; input: EditorSaveInput }[],
  loads: [] as { kind: string; input: EditorLoadInput }[],
  actions: [] as PageActionRequest[],
  /** What Copy from default would change, per part. */
  preview: { brand: [], settings: [] } as Record<'brand' | 'settings', DiffEntry[]>,
  /** The overview's cards, and the (site, network) pairs it was read for. */
  overview: [] as AppcmsOverviewRow[],
  overviewReads: [] as { site: string; network: string }[],
  /** Each page's History (revisions by object id: the network's identifier, or 'site'). */
  history: historyFakes(),
};

function editorIoOf(kind: string, drafts = false) {
  return {
    // Issue 38: with `drafts`, the typed changes are kept across a reload as in the browser (per site and network).
    ...(drafts ? { drafts: `appcms.${kind}` } : {}),
    load: fromPromise<EditorRecord, EditorLoadInput>(async ({ input }) => {
      appcmsFakes.loads.push({ kind, input });
      return appcmsFakes.records[kind]!;
    }),
    save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => {
      appcmsFakes.saves.push({ kind, input });
      return { ...appcmsFakes.records[kind]!, values: input.draft, version: input.version + 1 };
    }),
  };
}

const comparison = (part: 'brand' | 'settings') => fromPromise<ListPage, ListQuery>(async () => {
  const items = appcmsFakes.preview[part].map((entry) => ({ ...entry, id: entry.field }));
  return { items, total: items.length };
});

export function appcmsTestPages(options: { drafts?: boolean } = {}): PageLogicMap {
  const editorIo = (kind: string) => editorIoOf(kind, options.drafts);
  return {
    appcmsBrand: appcmsEditorPage({
      ...editorIo('brand'),
      history: historyFakeActors(appcmsFakes.history),
      comparison: comparison('brand'),
      perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
        appcmsFakes.actions.push(input);
        return { message: 'Logo uploaded. Save to use it.', draft: { [input.args.slot === 'icon' ? 'iconUrl' : 'logoUrl']: '/v2.0/appcms/files/new-logo.png' } };
      }),
    }),
    appcmsSettings: appcmsEditorPage({
      ...editorIo('settings'),
      history: historyFakeActors(appcmsFakes.history),
      comparison: comparison('settings'),
    }),
    appcmsDevices: appcmsEditorPage({ ...editorIo('devices'), fieldRules: devicesDraftErrors, history: historyFakeActors(appcmsFakes.history) }),
    appcmsService: appcmsEditorPage({
      ...editorIo('service'),
      history: historyFakeActors(appcmsFakes.history),
      perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
        appcmsFakes.actions.push(input);
        return { message: 'Signing key rotated. The old key no longer works.', reread: true };
      }),
    }),
    appcmsTemplate: appcmsEditorPage({ ...editorIo('template'), history: historyFakeActors(appcmsFakes.history) }),
    appcmsOverview: appcmsOverviewPage(fromPromise<ListPage, ListQuery>(async ({ input }) => {
      const site = input.filters.site ?? '';
      const network = input.filters.network ?? '';
      appcmsFakes.overviewReads.push({ site, network });
      const items = appcmsFakes.overview.filter((row) => network || !['brand', 'settings', 'devices'].includes(row.id));
      return { items, total: items.length };
    })),
  };
}
