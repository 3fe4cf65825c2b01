/**
 * Fake History I/O for view tests (issue 28): the history machine's `load` answers the revisions set
 * per object id (newest first), `restore` records what it was asked and answers, or refuses with
 * `restoreError` (e.g. `{ status: 409 }` for a stale version).
 */
import { fromPromise } from 'xstate';
import type { Revision } from '../../common/revisions';
import type { HistoryLoadInput, HistoryPage, HistoryRestoreInput, HistoryRestoreOutput } from '../../machines/history.machine';

export interface HistoryFakes {
  revisions: Record<string, Revision[]>;
  canRestore: boolean;
  restorable: boolean;
  loads: HistoryLoadInput[];
  restores: HistoryRestoreInput[];
  restoreError: unknown;
}

export function historyFakes(): HistoryFakes {
  return { revisions: {}, canRestore: true, restorable: true, loads: [], restores: [], restoreError: null };
}

export function historyFakeActors(fakes: HistoryFakes) {
  return {
    load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input }) => {
      fakes.loads.push(input);
      const items = fakes.revisions[input.objectId] ?? [];
      return { items, total: items.length, page: 1, pageSize: 20, canRestore: fakes.canRestore, restorable: fakes.restorable };
    }),
    restore: fromPromise<HistoryRestoreOutput, HistoryRestoreInput>(async ({ input }) => {
      fakes.restores.push(input);
      if (fakes.restoreError) throw fakes.restoreError;
      return { revision: null, version: input.version + 1 };
    }),
  };
}

/** A revision as the server answers it. */
export function revision(seq: number, changes: Revision['changes'], patch: Partial<Revision> = {}): Revision {
  return {
    seq, kind: 'plan', objectId: 'p1', objectName: 'Basic', networkId: null, objectVersion: seq,
    actor: { id: 'u1', username: 'monetization@demo.test' }, at: '2026-11-20T10:30:00.000Z', reason: null, requestId: null,
    restoredFrom: null, changes, ...patch,
  };
}
