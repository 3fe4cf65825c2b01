import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { AuditEntry } from '../common/admin-contract';
import { ADMIN_MESSAGES } from '../common/messages';
import { listMachine, type ListPage, type ListQuery } from './list.machine';
import {
  selectAuditDraft, selectAuditEntries, selectAuditError, selectAuditFilterError, selectAuditList, selectAuditLoading, selectAuditPaging,
  staffAdminAuditMachine,
} from './staff-admin-audit.machine';
import { itReachesEveryStateAndTransition } from './test-support/every-path';
import { fakeActor } from './test-support/fakes';

const ENTRY: AuditEntry = { id: 'e1', at: '2026-03-01T10:00:00.000Z', action: 'staff.created', actor: { id: 'u', username: 'admin@demo.test' }, detail: {} };

function start(fetch: (query: ListQuery) => ListPage = () => ({ items: [ENTRY], total: 60 })) {
  const spy = vi.fn(fetch);
  const actor = createActor(staffAdminAuditMachine.provide({
    actors: { list: listMachine.provide({ actors: { fetchPage: fakeActor(spy) } }) },
  })).start();
  const list = () => selectAuditList(actor.getSnapshot())!;
  const settled = (calls: number) => waitFor(list(), (s) => !s.hasTag('loading') && spy.mock.calls.length === calls);
  return { actor, spy, list, settled };
}

describe('audit log page', () => {
  it('reads the first page of 25 entries, pages within range, and applies the drafted filters together from the first page', async () => {
    const { actor, spy, list, settled } = start();
    expect(selectAuditLoading(list().getSnapshot())).toBe(true);
    await settled(1);
    expect(spy.mock.calls[0]![0]).toEqual({ search: '', filters: { who: '', action: '', from: '', to: '' }, offset: 0, limit: 25 });
    expect(selectAuditEntries(list().getSnapshot())).toEqual([ENTRY]);
    actor.send({ type: 'list.page', offset: 50 });
    await settled(2);
    expect(selectAuditPaging(list().getSnapshot())).toEqual({ page: 3, pages: 3, total: 60, previousOffset: 25, nextOffset: null });
    actor.send({ type: 'list.page', offset: 75 });
    expect(spy).toHaveBeenCalledTimes(2);
    actor.send({ type: 'audit.filter', field: 'who', value: 'admin' });
    actor.send({ type: 'audit.filter', field: 'action', value: 'staff.disabled' });
    actor.send({ type: 'audit.filter', field: 'from', value: '2026-03-01' });
    actor.send({ type: 'audit.filter', field: 'to', value: '2026-03-02' });
    expect(selectAuditDraft(actor.getSnapshot()).who).toBe('admin');
    expect(spy).toHaveBeenCalledTimes(2);
    actor.send({ type: 'audit.apply' });
    await settled(3);
    expect(spy.mock.calls[2]![0]).toMatchObject({ filters: { who: 'admin', action: 'staff.disabled', from: '2026-03-01', to: '2026-03-02' }, offset: 0 });
    actor.send({ type: 'audit.clear' });
    await settled(4);
    expect(spy.mock.calls[3]![0]).toMatchObject({ filters: { who: '', action: '', from: '', to: '' }, offset: 0 });
    expect(selectAuditDraft(actor.getSnapshot())).toEqual({ who: '', action: '', from: '', to: '' });
  });

  it('refuses a reversed date range with a message and reads nothing; the next edit clears the message', async () => {
    const { actor, spy, settled } = start();
    await settled(1);
    actor.send({ type: 'audit.filter', field: 'from', value: '2026-03-05' });
    actor.send({ type: 'audit.filter', field: 'to', value: '2026-03-01' });
    actor.send({ type: 'audit.apply' });
    expect(selectAuditFilterError(actor.getSnapshot())).toBe(ADMIN_MESSAGES.invalidDateRange);
    expect(spy).toHaveBeenCalledTimes(1);
    actor.send({ type: 'audit.filter', field: 'to', value: '2026-03-09' });
    expect(selectAuditFilterError(actor.getSnapshot())).toBeNull();
  });

  it("says the audit log's own words when the read fails, and reads again on Retry", async () => {
    let fail = true;
    const { actor, list, settled } = start(() => {
      if (fail) throw Object.assign(new Error(''), { status: 500 });
      return { items: [ENTRY], total: 1 };
    });
    await settled(1);
    expect(list().getSnapshot().hasTag('error')).toBe(true);
    expect(selectAuditError(list().getSnapshot())).toBe(ADMIN_MESSAGES.auditFailed);
    fail = false;
    actor.send({ type: 'list.reload' });
    await settled(2);
    expect(selectAuditError(list().getSnapshot())).toBeNull();
  });

  it('selects empty values before the list child exists', () => {
    expect(selectAuditEntries(undefined)).toEqual([]);
    expect(selectAuditError(undefined)).toBeNull();
    expect(selectAuditLoading(undefined)).toBe(true);
    expect(selectAuditPaging(undefined)).toEqual({ page: 1, pages: 1, total: 0, previousOffset: null, nextOffset: null });
  });
});

describe('audit page machine: every path', () => {
  const events = [
    { type: 'audit.filter', field: 'from', value: '2026-03-05' }, { type: 'audit.filter', field: 'to', value: '2026-03-01' },
    { type: 'audit.apply' }, { type: 'audit.clear' }, { type: 'list.page', offset: 25 }, { type: 'list.reload' },
  ];
  itReachesEveryStateAndTransition(staffAdminAuditMachine, {
    events,
    serializeState: (s) => JSON.stringify([s.value, s.context]),
  });
});
