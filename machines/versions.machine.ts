/**
 * The history of a versioned document (AppCMS settings): list its versions, show the diff between
 * one of them and the current one, and restore it after a confirmation (the restore itself becomes a
 * new version, so the list is read again). It knows nothing of the document: `load` and `restore`
 * are provided by the page, and the diff is computed by the page from the versions' values.
 *
 *   loading → listing → showingDiff → confirmingRestore → restoring → loading
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import { VERSIONS_MESSAGES } from '../common/revisions';
import { errorMessage } from './notify';
import { providedLater } from './unprovided';

export interface VersionEntry {
  version: number;
  createdBy: string | null;
  createdAt: string;
  changed: readonly string[];
  restoredFrom: number | null;
  values: Readonly<Record<string, unknown>>;
}

export interface VersionList {
  current: number;
  versions: readonly VersionEntry[];
}

/** Where the document lives (AppCMS: the site and network); passed to `load` and `restore` as is. */
export type VersionsScope = Readonly<Record<string, string>>;

export interface VersionsInput {
  scope?: VersionsScope;
}

export interface VersionsLoadInput {
  scope?: VersionsScope;
}

export interface RestoreInput {
  scope?: VersionsScope;
  /** The current version the list was read at (a stale one is refused by the server). */
  current: number;
  restore: number;
}

export interface VersionsContext {
  scope: VersionsScope | null;
  current: number;
  versions: readonly VersionEntry[];
  selected: number | null;
  error: string | null;
  /** The version the last restore brought back, for the "restored" notice; null otherwise. */
  restored: number | null;
}

export type VersionsEvent =
  | { type: 'versions.select'; version: number }
  | { type: 'versions.close' }
  | { type: 'versions.restore' }
  | { type: 'versions.confirm' }
  | { type: 'versions.cancel' }
  | { type: 'versions.reload' }
  | { type: 'versions.dismiss' };

export const versionsMachine = setup({
  types: {
    context: {} as VersionsContext,
    events: {} as VersionsEvent,
  },
  actors: {
    load: providedLater<VersionList, VersionsLoadInput>('load'),
    restore: providedLater<unknown, RestoreInput>('restore'),
  },
  actions: {
    storeList: assign((_, params: { list: VersionList }) => ({ current: params.list.current, versions: params.list.versions, error: null })),
    select: assign((_, params: { version: number }) => ({ selected: params.version, restored: null })),
    clearSelection: assign({ selected: null }),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    markRestored: assign(({ context }) => ({ restored: context.selected, selected: null })),
    /** Provided by the page: the document changed (its editor reads it again). */
    announceRestored: () => {},
  },
  guards: {
    isKnownVersion: ({ context }, params: { version: number }) => context.versions.some((v) => v.version === params.version),
    isNotCurrent: ({ context }) => context.selected !== null && context.selected !== context.current,
  },
}).createMachine({
  id: 'versions',
  description: 'Lists the versions of one document, shows one against the current version, and restores one after confirmation.',
  // Its input is optional (a page without a scope starts it without one), so it is not declared in `types`.
  context: ({ input }) => ({ scope: (input as VersionsInput | undefined)?.scope ?? null, current: 0, versions: [], selected: null, error: null, restored: null }),
  initial: 'loading',
  on: {
    'versions.reload': { target: '.loading' },
  },
  states: {
    loading: {
      description: 'Reading the versions.',
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => (context.scope ? { scope: context.scope } : {}),
        onDone: { target: 'listing', actions: { type: 'storeList', params: ({ event }) => ({ list: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, VERSIONS_MESSAGES.loadFailed) }) } },
      },
    },
    loadFailed: {
      description: 'The versions could not be read; the person may try again (versions.reload).',
    },
    listing: {
      description: 'The versions, newest first; none chosen.',
      on: {
        'versions.select': {
          guard: { type: 'isKnownVersion', params: ({ event }) => ({ version: event.version }) },
          target: 'showingDiff',
          actions: { type: 'select', params: ({ event }) => ({ version: event.version }) },
        },
      },
    },
    showingDiff: {
      description: 'One version is shown against the current one; it may be restored unless it is the current one.',
      on: {
        'versions.select': {
          guard: { type: 'isKnownVersion', params: ({ event }) => ({ version: event.version }) },
          actions: { type: 'select', params: ({ event }) => ({ version: event.version }) },
        },
        'versions.close': { target: 'listing', actions: 'clearSelection' },
        'versions.restore': { guard: 'isNotCurrent', target: 'confirmingRestore' },
      },
    },
    confirmingRestore: {
      description: 'The person confirms restoring the chosen version (it becomes a new version) or goes back.',
      on: {
        'versions.confirm': 'restoring',
        'versions.cancel': 'showingDiff',
      },
    },
    restoring: {
      description: 'Restoring the chosen version on the server.',
      invoke: {
        id: 'restore',
        src: 'restore',
        input: ({ context }) => ({ current: context.current, restore: context.selected ?? 0, ...(context.scope ? { scope: context.scope } : {}) }),
        onDone: { target: 'loading', actions: ['markRestored', 'announceRestored'] },
        onError: { target: 'restoreFailed', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, VERSIONS_MESSAGES.restoreFailed) }) } },
      },
    },
    restoreFailed: {
      description: 'The restore was refused (someone saved first) or failed; nothing changed. Back to the diff, or read the list again.',
      on: {
        'versions.dismiss': { target: 'showingDiff', actions: 'clearError' },
      },
    },
  },
});

export type VersionsMachine = typeof versionsMachine;
export type VersionsSnapshot = SnapshotFrom<VersionsMachine>;

export const selectVersionsPhase = (s: VersionsSnapshot) => s.value as
  'loading' | 'loadFailed' | 'listing' | 'showingDiff' | 'confirmingRestore' | 'restoring' | 'restoreFailed';
export const selectVersions = (s: VersionsSnapshot) => s.context.versions;
export const selectCurrentVersion = (s: VersionsSnapshot) => s.context.versions.find((v) => v.version === s.context.current) ?? null;
export const selectSelectedVersion = (s: VersionsSnapshot) => s.context.versions.find((v) => v.version === s.context.selected) ?? null;
export const selectVersionsError = (s: VersionsSnapshot) => s.context.error;
export const selectRestored = (s: VersionsSnapshot) => s.context.restored;
