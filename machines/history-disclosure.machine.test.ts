import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor, type AnyMachineSnapshot } from 'xstate';
import type { Revision } from '../common/revisions';
import {
  historyDisclosureMachine, selectDisclosedHistory, selectDisclosureAvailable, selectDisclosureOpen,
} from './history-disclosure.machine';
import { pageHistoryMachine, type HistoryLoadInput, type HistoryPage } from './history.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';

function revision(seq: number): Revision {
  return {
    seq, kind: 'siteSecurity', objectId: 'site-1', objectName: null, networkId: null, objectVersion: null, actor: { id: 'u', username: 'ada@demo.test' },
    at: '2026-03-01T10:00:00.000Z', reason: null, requestId: null, restoredFrom: null,
    changes: [{ field: 'secondFactorRule', before: 'optional', after: 'required' }],
  };
}

function page(items: Revision[]): HistoryPage {
  return { items, total: items.length, page: 1, pageSize: 20, canRestore: false, restorable: false };
}

function start(objectId: string | null, answer: (input: HistoryLoadInput) => HistoryPage) {
  const load = vi.fn(answer);
  const logic = historyDisclosureMachine.provide({ actors: { history: pageHistoryMachine.provide({ actors: { load: fakeActor(load) } }) } });
  const actor = createActor(logic, { input: { kind: 'siteSecurity', objectId } }).start();
  return { actor, load };
}

describe('history disclosure machine', () => {
  it('reads nothing while closed; opening starts the History, which reads the object', async () => {
    const { actor, load } = start('site', () => page([revision(1)]));
    expect(selectDisclosureOpen(actor.getSnapshot())).toBe(false);
    expect(selectDisclosedHistory(actor.getSnapshot())).toBeUndefined();
    expect(load).not.toHaveBeenCalled();
    actor.send({ type: 'disclosure.open' });
    expect(selectDisclosureOpen(actor.getSnapshot())).toBe(true);
    const history = selectDisclosedHistory(actor.getSnapshot())!;
    await waitFor(history, (s) => s.matches('list'));
    expect(load).toHaveBeenCalledWith({ kind: 'siteSecurity', objectId: 'site', page: 1 });
    expect(history.getSnapshot().context.items.map((r) => r.seq)).toEqual([1]);
  });

  it('reads the History again when told the object changed, only while open', async () => {
    let items = [revision(1)];
    const { actor, load } = start('site', () => page(items));
    actor.send({ type: 'disclosure.changed' });
    expect(load).not.toHaveBeenCalled();
    actor.send({ type: 'disclosure.open' });
    const history = selectDisclosedHistory(actor.getSnapshot())!;
    await waitFor(history, (s) => s.matches('list'));
    items = [revision(2), revision(1)];
    actor.send({ type: 'disclosure.changed' });
    await waitFor(history, (s) => s.matches('list') && s.context.items.length === 2);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('stops the History when closed, and a fresh one reads again when reopened', async () => {
    const { actor, load } = start('site', () => page([revision(1)]));
    actor.send({ type: 'disclosure.open' });
    await waitFor(selectDisclosedHistory(actor.getSnapshot())!, (s) => s.matches('list'));
    actor.send({ type: 'disclosure.close' });
    expect(selectDisclosedHistory(actor.getSnapshot())).toBeUndefined();
    actor.send({ type: 'disclosure.open' });
    await waitFor(selectDisclosedHistory(actor.getSnapshot())!, (s) => s.matches('list'));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('cannot open without an object (a new staff account has no History yet)', () => {
    const { actor, load } = start(null, () => page([]));
    expect(selectDisclosureAvailable(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'disclosure.open' });
    expect(selectDisclosureOpen(actor.getSnapshot())).toBe(false);
    expect(load).not.toHaveBeenCalled();
    expect(selectDisclosureAvailable(undefined)).toBe(false);
    expect(selectDisclosureOpen(undefined)).toBe(false);
  });

  it('starts a fresh History after its restore (keeping the notice) or after a stale Reload', () => {
    const { actor } = start('site', () => page([revision(1)]));
    actor.send({ type: 'disclosure.open' });
    const first = selectDisclosedHistory(actor.getSnapshot());
    actor.send({ type: 'history.restored', restored: { seq: 1, wrote: true } });
    const second = selectDisclosedHistory(actor.getSnapshot());
    expect(second).not.toBe(first);
    expect(second!.getSnapshot().context.restored).toEqual({ seq: 1, wrote: true });
    actor.send({ type: 'history.stale' });
    expect(selectDisclosedHistory(actor.getSnapshot())!.getSnapshot().context.restored).toBeNull();
    actor.send({ type: 'disclosure.close' });
    expect(actor.getSnapshot().context.restored).toBeNull();
  });
});

describe('history disclosure machine: every path', () => {
  const events = [
    { type: 'disclosure.open' }, { type: 'disclosure.close' }, { type: 'disclosure.changed' },
    { type: 'history.restored', restored: { seq: 3, wrote: true } }, { type: 'history.stale' },
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) =>
    JSON.stringify([snapshot.value, snapshot.context.restored !== null]);
  itReachesEveryStateAndTransition(historyDisclosureMachine, {
    events,
    serializeState,
    input: { kind: 'siteSecurity', objectId: 'site' },
    logic: historyDisclosureMachine.provide({ actors: { history: pageHistoryMachine.provide({ actors: { load: pendingActor() } }) } }),
  });
});
