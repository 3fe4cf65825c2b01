/**
 * The AppCMS editors' I/O for view tests: vi.mock the adapter module with `mockedAppcmsAdapter()` and
 * set `appcmsFakes.records` (per editor kind) and `appcmsFakes.versions` per test; saves, restores and
 * page actions are recorded.
 */
import { fromPromise } from 'xstate';
import type { DiffEntry } from '../../../common/appcms';
import type { AppcmsOverviewRow } from '../../adapters/appcms-actors';
import type { ListPage } from '../../../machines/list.machine';
import type { EditorRecord, EditorSaveInput } from '../../../machines/editor.machine';
import type { PageActionAnswer, PageActionRequest } from '../../../machines/page-action.machine';
import type { RestoreInput, VersionList } from '../../../machines/versions.machine';

export const appcmsFakes = {
  records: {} as Record<string, EditorRecord>,
  saves: [] as { kind: string; input: EditorSaveInput }[],
  versions: { current: 1, versions: [] } as VersionList,
  restores: [] as RestoreInput[],
  actions: [] as PageActionRequest[],
  /** What Copy from default would change, per part. */
  preview: { brand: [], settings: [] } as Record<'brand' | 'settings', DiffEntry[]>,
  /** The overview's cards, and the (site, network) pairs it was read for. */
  overview: [] as AppcmsOverviewRow[],
  overviewReads: [] as { site: string; network: string }[],
};

export async function mockedAppcmsAdapter(original: () => Promise<Record<string, unknown>>) {
  const real = await original();
  return {
    ...real,
    appcmsEditorActors: (kind: string) => ({
      load: fromPromise<EditorRecord, { id: string }>(async () => appcmsFakes.records[kind]!),
      save: fromPromise<EditorRecord, EditorSaveInput>(async ({ input }) => {
        appcmsFakes.saves.push({ kind, input });
        return { ...appcmsFakes.records[kind]!, values: input.draft, version: input.version + 1 };
      }),
    }),
    appcmsOverviewFetch: (site: string, network: string) => fromPromise<ListPage>(async () => {
      appcmsFakes.overviewReads.push({ site, network });
      const items = appcmsFakes.overview.filter((row) => network || !['brand', 'settings', 'devices'].includes(row.id));
      return { items, total: items.length };
    }),
    copyPreviewFetch: (_site: string, _network: string, part: 'brand' | 'settings') => fromPromise<ListPage>(async () => {
      const items = appcmsFakes.preview[part].map((entry) => ({ ...entry, id: entry.field }));
      return { items, total: items.length };
    }),
    settingsVersionsActors: () => ({
      load: fromPromise<VersionList>(async () => appcmsFakes.versions),
      restore: fromPromise<unknown, RestoreInput>(async ({ input }) => { appcmsFakes.restores.push(input); return {}; }),
    }),
    brandActionActor: (_site: string, _network: string, onUploaded: (slot: string, url: string) => void) => fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
      appcmsFakes.actions.push(input);
      onUploaded(String(input.args.slot), '/v2.0/appcms/files/new-logo.png');
      return 'Logo uploaded. Save to use it.';
    }),
    rotateKeyActor: (_site: string, onRotated: () => void) => fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
      appcmsFakes.actions.push(input);
      onRotated();
      return 'Signing key rotated. The old key no longer works.';
    }),
  };
}
