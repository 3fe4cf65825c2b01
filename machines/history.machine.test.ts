import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { HISTORY_PANEL_MESSAGES, type Revision } from '../common/revisions';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';
import {
  againstNow, historyMachine, isConflictError, selectCanRestore, selectHistoryError, selectHistoryHasMore, selectHistoryItems,
  selectHistoryPhase, selectHistoryReadOnly, selectHistoryRestored, selectHistorySelected, selectHistorySelectedIsCreation, selectSelectedAgainstNow,
  type HistoryLoadInput, type HistoryPage, type HistoryRestoreInput, type HistoryRestoreOutput,
} from './history.machine';

const settle = async () => { for (let i = 0; i < 4; i += 1) await new Promise((resolve) => setTimeout(resolve, 0)); };

const rev = (seq: number, changes: Revision['changes'], objectVersion = seq): Revision => ({
  seq, kind: 'plan', objectId: 'p1', objectName: 'Basic', networkId: null, objectVersion,
  actor: { id: 'u1', username: 'monetization@demo.test' }, at: `2026-11-2${seq}T10:00:00.000Z`, reason: null, requestId: null, restoredFrom: null, changes,
});
const price = (amount: number) => [{ currency: 'USD', amount }];
const R3 = rev(3, [{ field: 'prices', before: price(999), after: price(1299) }]);
const R2 = rev(2, [{ field: 'name', before: 'Basic', after: 'Basic Monthly' }]);
const R1 = rev(1, [{ field: 'prices', before: price(499), after: price(999) }, { field: 'name', before: 'Old', after: 'Basic' }]);
const page = (items: Revision[], p = 1, total = 3, canRestore = true): HistoryPage => ({ items, total, page: p, pageSize: 2, canRestore, restorable: true });

function start(options: { pages?: HistoryPage[]; restore?: (input: HistoryRestoreInput) => Promise<HistoryRestoreOutput> } = {}) {
  const loads: HistoryLoadInput[] = [];
  const restores: HistoryRestoreInput[] = [];
  const announced: string[] = [];
  const pages = options.pages ?? [page([R3, R2]), page([R1], 2)];
  const actor = createActor(historyMachine.provide({
    actors: {
      load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input }) => { loads.push(input); return pages[input.page - 1]!; }),
      restore: fromPromise<HistoryRestoreOutput, HistoryRestoreInput>(async ({ input }) => {
        restores.push(input);
        return (options.restore ?? (async () => ({ revision: rev(4, R3.changes), version: 4 })))(input);
      }),
    },
    actions: { announceRestored: () => { announced.push('restored'); }, announceStale: () => { announced.push('stale'); } },
  }), { input: { kind: 'plan', objectId: 'p1' } }).start();
  return { actor, loads, restores, announced };
}

describe('history', () => {
  it('reads the newest page for the object, then older pages on demand, and stops offering more when all are read', async () => {
    const { actor, loads } = start();
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('loading');
    await settle();
    expect(loads).toEqual([{ kind: 'plan', objectId: 'p1', page: 1 }]);
    expect(selectHistoryItems(actor.getSnapshot()).map((r) => r.seq)).toEqual([3, 2]);
    expect(selectHistoryHasMore(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'history.more' });
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('loadingMore');
    await settle();
    expect(loads[1]).toEqual({ kind: 'plan', objectId: 'p1', page: 2 });
    expect(selectHistoryItems(actor.getSnapshot()).map((r) => r.seq)).toEqual([3, 2, 1]);
    expect(selectHistoryHasMore(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'history.more' });
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('list');
  });

  it('shows a revision against now, restores it with the editor\'s version after confirming, tells the page, and reads the list again', async () => {
    const { actor, restores, announced, loads } = start();
    await settle();
    actor.send({ type: 'history.select', seq: 3 });
    expect(selectHistorySelected(actor.getSnapshot())?.seq).toBe(3);
    expect(selectSelectedAgainstNow(actor.getSnapshot())).toEqual([
      { field: 'prices', before: price(999), after: price(1299), now: price(1299), changesOnRestore: true },
    ]);
    actor.send({ type: 'history.restore' });
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('confirming');
    actor.send({ type: 'history.cancel' });
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('diff');
    actor.send({ type: 'history.restore' });
    actor.send({ type: 'history.confirm', version: 7 });
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('restoring');
    await settle();
    expect(restores).toEqual([{ seq: 3, version: 7 }]);
    expect(announced).toEqual(['restored']);
    expect(selectHistoryRestored(actor.getSnapshot())).toEqual({ seq: 3, wrote: true });
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('list');
    expect(loads).toHaveLength(2);
  });

  it('sends the newest revision\'s version when the page gives none, and says when a restore wrote nothing', async () => {
    const { actor, restores } = start({ restore: async () => ({ revision: null, version: 3 }) });
    await settle();
    actor.send({ type: 'history.select', seq: 2 });
    actor.send({ type: 'history.restore' });
    actor.send({ type: 'history.confirm' });
    await settle();
    expect(restores).toEqual([{ seq: 2, version: 3 }]);
    expect(selectHistoryRestored(actor.getSnapshot())).toEqual({ seq: 2, wrote: false });
  });

  it('a stale version is a conflict: nothing restored; Reload tells the page and reads the history again', async () => {
    const stale = Object.assign(new Error('changed'), { status: 409 });
    const { actor, announced, loads } = start({ restore: async () => { throw stale; } });
    await settle();
    actor.send({ type: 'history.select', seq: 3 });
    actor.send({ type: 'history.restore' });
    actor.send({ type: 'history.confirm', version: 1 });
    await settle();
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('conflict');
    expect(selectHistoryError(actor.getSnapshot())).toBe(HISTORY_PANEL_MESSAGES.conflict);
    expect(announced).toEqual([]);
    actor.send({ type: 'history.reload' });
    expect(announced).toEqual(['stale']);
    await settle();
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('list');
    expect(loads).toHaveLength(2);
  });

  it('another refusal is shown as it came and nothing changes; a read role is never offered the restore', async () => {
    const { actor } = start({ restore: async () => { throw new Error('Not allowed here.'); } });
    await settle();
    actor.send({ type: 'history.select', seq: 3 });
    actor.send({ type: 'history.restore' });
    actor.send({ type: 'history.confirm', version: 3 });
    await settle();
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('failed');
    expect(selectHistoryError(actor.getSnapshot())).toBe('Not allowed here.');
    actor.send({ type: 'history.dismiss' });
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('diff');

    const reader = start({ pages: [page([R3, R2], 1, 2, false)] });
    await settle();
    expect(selectHistoryReadOnly(reader.actor.getSnapshot())).toBe(true);
    expect(selectCanRestore(reader.actor.getSnapshot())).toBe(false);
    reader.actor.send({ type: 'history.select', seq: 3 });
    reader.actor.send({ type: 'history.restore' });
    expect(selectHistoryPhase(reader.actor.getSnapshot())).toBe('diff');
  });

  it('issue 37: the revision that created the object is shown but never restored (a write role is not offered it, and a restore event does nothing)', async () => {
    const created: Revision = { ...rev(1, [{ field: 'name', before: null, after: 'Basic' }]), creation: true };
    const { actor, restores } = start({ pages: [page([R2, created], 1, 2)] });
    await settle();
    actor.send({ type: 'history.select', seq: 2 });
    expect(selectCanRestore(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'history.select', seq: 1 });
    expect(selectHistorySelectedIsCreation(actor.getSnapshot())).toBe(true);
    expect(selectCanRestore(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'history.restore' });
    actor.send({ type: 'history.confirm', version: 1 });
    await settle();
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('diff');
    expect(restores).toEqual([]);
  });

  it('starts with the notice of a restore its page just did, and reports a restore with what it did', async () => {
    const reports: unknown[] = [];
    const actor = createActor(historyMachine.provide({
      actors: {
        load: fromPromise<HistoryPage, HistoryLoadInput>(async () => page([R3, R2])),
        restore: fromPromise<HistoryRestoreOutput, HistoryRestoreInput>(async () => ({ revision: rev(4, R3.changes), version: 4 })),
      },
      actions: { announceRestored: ({ context }) => { reports.push(context.restored); } },
    }), { input: { kind: 'plan', objectId: 'p1', restored: { seq: 2, wrote: false } } }).start();
    expect(selectHistoryRestored(actor.getSnapshot())).toEqual({ seq: 2, wrote: false });
    await settle();
    actor.send({ type: 'history.select', seq: 3 });
    expect(selectHistoryRestored(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'history.restore' });
    actor.send({ type: 'history.confirm', version: 3 });
    await settle();
    expect(reports).toEqual([{ seq: 3, wrote: true }]);
  });

  it('ignores revisions it does not know; a failed load says so and can be tried again', async () => {
    let fail = true;
    const actor = createActor(historyMachine.provide({
      actors: {
        load: fromPromise<HistoryPage, HistoryLoadInput>(async () => { if (fail) throw new Error(''); return page([R3]); }),
        restore: pendingActor(),
      },
    }), { input: { kind: 'plan', objectId: 'p1' } }).start();
    await settle();
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('loadFailed');
    expect(selectHistoryError(actor.getSnapshot())).toBe(HISTORY_PANEL_MESSAGES.loadFailed);
    fail = false;
    actor.send({ type: 'history.reload' });
    await settle();
    actor.send({ type: 'history.select', seq: 99 });
    expect(selectHistoryPhase(actor.getSnapshot())).toBe('list');
  });

  it('against now: each field\'s value now comes from the newest revision that changed it', () => {
    expect(againstNow([R3, R2, R1], R1)).toEqual([
      { field: 'prices', before: price(499), after: price(999), now: price(1299), changesOnRestore: true },
      { field: 'name', before: 'Old', after: 'Basic', now: 'Basic Monthly', changesOnRestore: true },
    ]);
    expect(againstNow([R2], rev(5, [{ field: 'name', before: 'Basic Monthly', after: 'Basic Monthly' }]))[0]!.changesOnRestore).toBe(false);
    expect(isConflictError({ code: 'conflict' })).toBe(true);
    expect(isConflictError(new Error('x'))).toBe(false);
  });
});

describe('history: every path', () => {
  const conflict = Object.assign(new Error('changed'), { status: 409 });
  const events = [
    { type: 'xstate.done.actor.load', output: page([R3, R2]) },
    { type: 'xstate.error.actor.load', error: new Error('down') },
    { type: 'xstate.done.actor.loadMore', output: page([R1], 2) },
    { type: 'xstate.error.actor.loadMore', error: new Error('down') },
    { type: 'xstate.done.actor.reload', output: page([R3, R2]) },
    { type: 'xstate.error.actor.reload', error: new Error('down') },
    { type: 'history.select', seq: 3 },
    { type: 'history.close' },
    { type: 'history.more' },
    { type: 'history.restore' },
    { type: 'history.cancel' },
    { type: 'history.confirm', version: 3 },
    { type: 'history.reload' },
    { type: 'history.dismiss' },
    { type: 'xstate.done.actor.restore', output: { revision: null, version: 3 } },
    { type: 'xstate.error.actor.restore', error: conflict },
    { type: 'xstate.error.actor.restore', error: new Error('refused') },
  ];
  itReachesEveryStateAndTransition(historyMachine, {
    events,
    input: { kind: 'plan', objectId: 'p1' },
    logic: historyMachine.provide({ actors: { load: pendingActor(), restore: pendingActor() } }),
  });
});
