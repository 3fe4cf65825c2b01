/**
 * The History of one object (issue 28): its revisions newest first (paged, "load more"), one
 * revision against the object as it is now, and Restore of a revision after a confirmation. The
 * restore goes through the object's editor rule on the server with the version the person's editor
 * read, so a stale one is refused like a stale save (`conflict`). Every object page uses it as its
 * page machine's `history` child: the page decides what follows `history.restored` (the editor
 * opens afresh) and `history.stale` (the person asked to read the object again after a conflict).
 *
 *   loading → list → diff → confirming → restoring → done (list read again) | conflict | failed
 *
 * Its I/O (`load`, `restore`) is left unprovided (src/adapters/history-io.ts in the browser);
 * `announceRestored` and `announceStale` are provided by the page machine (sendParent).
 */
import { assign, sendParent, setup, type SnapshotFrom } from 'xstate';
import { HISTORY_PANEL_MESSAGES, type Revision, type RevisionKind } from '../common/revisions';
import { errorCodeOf, errorStatusOf } from './error-code';
import { errorMessage } from './notify';
import { machineTypes } from './machine-types';
import { providedLater } from './unprovided';

/** What the last restore did: the revision it brought back, and whether it wrote a new one. */
export interface HistoryRestored {
  seq: number;
  wrote: boolean;
}

export interface HistoryInput {
  kind: RevisionKind;
  objectId: string;
  /** A restore this object's page just did (the page starts a fresh history after it): its notice stays shown. */
  restored?: HistoryRestored | null;
}

export interface HistoryLoadInput {
  kind: RevisionKind;
  objectId: string;
  page: number;
}

/** One page of revisions, newest first, and what the caller may do with them. */
export interface HistoryPage {
  items: readonly Revision[];
  total: number;
  page: number;
  pageSize: number;
  canRestore: boolean;
  restorable: boolean;
}

export interface HistoryRestoreInput {
  seq: number;
  /** The object's version as the person's editor read it (a stale one is refused). */
  version: number;
}

export interface HistoryRestoreOutput {
  revision: Revision | null;
  version: number | null;
}

export interface HistoryContext {
  kind: RevisionKind;
  objectId: string;
  items: readonly Revision[];
  total: number;
  page: number;
  canRestore: boolean;
  restorable: boolean;
  /** The revision shown against now; null while none is. */
  selected: number | null;
  /** The version the confirmed restore is sent with. */
  version: number;
  error: string | null;
  /** The last restore (the revision it brought back, and whether it wrote one), for the notice. */
  restored: HistoryRestored | null;
}

export type HistoryEvent =
  | { type: 'history.select'; seq: number }
  | { type: 'history.close' }
  | { type: 'history.more' }
  | { type: 'history.restore' }
  | { type: 'history.cancel' }
  /** `version`: the object's version in the person's editor; without it, the newest revision's. */
  | { type: 'history.confirm'; version?: number }
  | { type: 'history.reload' }
  | { type: 'history.dismiss' };

/** A refusal because the object changed since it was read (HTTP 409, or an editor failure's `conflict`). */
export function isConflictError(error: unknown): boolean {
  return errorStatusOf(error) === 409 || errorCodeOf(error) === 'conflict';
}

export const historyMachine = setup({
  types: machineTypes<{
    input: HistoryInput; context: HistoryContext; events: HistoryEvent;
    children: { load: 'load'; loadMore: 'load'; reload: 'load'; restore: 'restore' };
  }>(),
  actors: {
    load: providedLater<HistoryPage, HistoryLoadInput>('load'),
    restore: providedLater<HistoryRestoreOutput, HistoryRestoreInput>('restore'),
  },
  actions: {
    storeFirstPage: assign((_, params: { page: HistoryPage }) => ({
      items: params.page.items, total: params.page.total, page: params.page.page,
      canRestore: params.page.canRestore, restorable: params.page.restorable, error: null,
    })),
    appendPage: assign(({ context }, params: { page: HistoryPage }) => ({
      items: [...context.items, ...params.page.items.filter((r) => !context.items.some((k) => k.seq === r.seq))],
      total: params.page.total, page: params.page.page, canRestore: params.page.canRestore, restorable: params.page.restorable, error: null,
    })),
    select: assign((_, params: { seq: number }) => ({ selected: params.seq, restored: null, error: null })),
    clearSelection: assign({ selected: null }),
    storeVersion: assign(({ context }, params: { version: number | undefined }) => ({
      version: params.version ?? context.items[0]?.objectVersion ?? 0,
    })),
    markRestored: assign(({ context }, params: { output: HistoryRestoreOutput }) => ({
      restored: { seq: context.selected ?? 0, wrote: params.output.revision !== null }, selected: null,
    })),
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    /** Provided by the page machine: the object changed (its editor reads it again). */
    announceRestored: () => {},
    /** Provided by the page machine: the person asked to read the object again after a conflict. */
    announceStale: () => {},
  },
  guards: {
    isKnownRevision: ({ context }, params: { seq: number }) => context.items.some((r) => r.seq === params.seq),
    hasMore: ({ context }) => context.items.length < context.total,
    // Issue 37: the revision that created the object has nothing before it: never restored.
    mayRestore: ({ context }) => context.canRestore && context.restorable && context.selected !== null
      && context.items.find((r) => r.seq === context.selected)?.creation !== true,
    isConflict: (_, params: { error: unknown }) => isConflictError(params.error),
  },
}).createMachine({
  id: 'history',
  description: 'The revisions of one object newest first; one against now; Restore after a confirmation, through the editor\'s version check.',
  context: ({ input }) => ({
    kind: input.kind, objectId: input.objectId, items: [], total: 0, page: 0, canRestore: false, restorable: false,
    selected: null, version: 0, error: null, restored: input.restored ?? null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Reading the newest page of revisions.',
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ kind: context.kind, objectId: context.objectId, page: 1 }),
        onDone: { target: 'list', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, HISTORY_PANEL_MESSAGES.loadFailed) }) } },
      },
    },
    loadFailed: {
      description: 'The history could not be read; the person may try again.',
      on: { 'history.reload': { target: 'loading', actions: 'clearError' } },
    },
    list: {
      description: 'The revisions, newest first; none is shown against now. Older ones are read on demand.',
      on: {
        'history.select': {
          guard: { type: 'isKnownRevision', params: ({ event }) => ({ seq: event.seq }) },
          target: 'diff',
          actions: { type: 'select', params: ({ event }) => ({ seq: event.seq }) },
        },
        'history.more': { guard: 'hasMore', target: 'loadingMore', actions: 'clearError' },
        'history.reload': 'loading',
      },
    },
    loadingMore: {
      description: 'Reading the next page of older revisions; the ones read stay shown.',
      invoke: {
        id: 'loadMore',
        src: 'load',
        input: ({ context }) => ({ kind: context.kind, objectId: context.objectId, page: context.page + 1 }),
        onDone: { target: 'list', actions: { type: 'appendPage', params: ({ event }) => ({ page: event.output }) } },
        onError: { target: 'list', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, HISTORY_PANEL_MESSAGES.loadFailed) }) } },
      },
    },
    diff: {
      description: 'One revision is shown against the object as it is now; Restore is offered to the write role of restorable kinds.',
      on: {
        'history.select': {
          guard: { type: 'isKnownRevision', params: ({ event }) => ({ seq: event.seq }) },
          actions: { type: 'select', params: ({ event }) => ({ seq: event.seq }) },
        },
        'history.close': { target: 'list', actions: 'clearSelection' },
        'history.restore': { guard: 'mayRestore', target: 'confirming' },
        'history.reload': 'loading',
      },
    },
    confirming: {
      description: 'The person is told what the restore will do and confirms it or goes back.',
      on: {
        'history.confirm': { target: 'restoring', actions: { type: 'storeVersion', params: ({ event }) => ({ version: event.version }) } },
        'history.cancel': 'diff',
      },
    },
    restoring: {
      description: 'The server writes the revision\'s earlier values back through the object\'s editor rule, as a new revision.',
      invoke: {
        id: 'restore',
        src: 'restore',
        input: ({ context }) => ({ seq: context.selected ?? 0, version: context.version }),
        onDone: {
          target: 'done',
          actions: [{ type: 'markRestored', params: ({ event }) => ({ output: event.output }) }, 'announceRestored'],
        },
        onError: [
          {
            guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
            target: 'conflict',
            actions: { type: 'setError', params: { message: HISTORY_PANEL_MESSAGES.conflict } },
          },
          { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, HISTORY_PANEL_MESSAGES.restoreFailed) }) } },
        ],
      },
    },
    done: {
      description: 'Restored: the list is read again so the restore\'s own revision shows at the top.',
      invoke: {
        id: 'reload',
        src: 'load',
        input: ({ context }) => ({ kind: context.kind, objectId: context.objectId, page: 1 }),
        onDone: { target: 'list', actions: { type: 'storeFirstPage', params: ({ event }) => ({ page: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'setError', params: ({ event }) => ({ message: errorMessage(event.error, HISTORY_PANEL_MESSAGES.loadFailed) }) } },
      },
    },
    conflict: {
      description: 'The object changed since the person\'s editor read it: nothing was restored. Reload reads the object and the history again.',
      on: {
        'history.reload': { target: 'loading', actions: ['clearError', 'announceStale'] },
        'history.dismiss': { target: 'diff', actions: 'clearError' },
      },
    },
    failed: {
      description: 'The restore was refused or failed for another reason; nothing changed.',
      on: {
        'history.dismiss': { target: 'diff', actions: 'clearError' },
        'history.reload': { target: 'loading', actions: 'clearError' },
      },
    },
  },
});

export type HistoryMachine = typeof historyMachine;
export type HistorySnapshot = SnapshotFrom<HistoryMachine>;

export type HistoryPhase = HistorySnapshot['value'];

export const selectHistoryPhase = (s: HistorySnapshot): HistoryPhase => s.value;
export const selectHistoryItems = (s: HistorySnapshot) => s.context.items;
export const selectHistoryTotal = (s: HistorySnapshot) => s.context.total;
export const selectHistoryHasMore = (s: HistorySnapshot) => s.context.items.length < s.context.total;
export const selectHistoryError = (s: HistorySnapshot) => s.context.error;
export const selectHistoryRestored = (s: HistorySnapshot) => s.context.restored;
export const selectHistorySelected = (s: HistorySnapshot) => s.context.items.find((r) => r.seq === s.context.selected) ?? null;
/** Restore is offered: the caller has the write role, the kind can be restored, and the shown revision did not create the object (issue 37). */
export const selectCanRestore = (s: HistorySnapshot) => s.context.canRestore && s.context.restorable && !selectHistorySelectedIsCreation(s);
/** The shown revision created its object (issue 37): there are no earlier values to restore. */
export const selectHistorySelectedIsCreation = (s: HistorySnapshot) => s.context.items.find((r) => r.seq === s.context.selected)?.creation === true;
export const selectHistoryReadOnly = (s: HistorySnapshot) => !s.context.canRestore;
export const selectHistoryRestorable = (s: HistorySnapshot) => s.context.restorable;

/** One field of a revision against now: its value before the revision (what Restore brings back), after it, and now. */
export interface FieldAgainstNow {
  field: string;
  before: unknown;
  after: unknown;
  /** The value now: the newest read revision's `after` for the field (revisions are newest first). */
  now: unknown;
  /** Whether Restore would change it (its `before` differs from now). */
  changesOnRestore: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The chosen revision's fields against the object now (from the revisions read, newest first). */
export function againstNow(items: readonly Revision[], revision: Revision): FieldAgainstNow[] {
  return revision.changes.map((change) => {
    const newest = items.find((r) => r.seq >= revision.seq && r.changes.some((c) => c.field === change.field));
    const now = newest ? newest.changes.find((c) => c.field === change.field)!.after : change.after;
    return { field: change.field, before: change.before, after: change.after, now, changesOnRestore: !same(change.before, now) };
  });
}

export const selectSelectedAgainstNow = (s: HistorySnapshot) => {
  const selected = selectHistorySelected(s);
  return selected ? againstNow(s.context.items, selected) : [];
};

/** The history as a page machine's child: a restore and a Reload after a conflict are reported to the page. */
export const pageHistoryMachine = historyMachine.provide({
  actions: {
    announceRestored: sendParent(({ context }) => ({ type: 'history.restored', restored: context.restored })),
    announceStale: sendParent({ type: 'history.stale' }),
  },
});
