import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { AuditListResponse } from '../common/admin-contract';
import { ADMIN_MESSAGES } from '../common/messages';
import {
  selectAuditDraft, selectAuditEntries, selectAuditError, selectAuditFilterError, selectAuditPaging, staffAdminAuditMachine,
  type FetchAuditInput,
} from './staff-admin-audit.machine';
import { itReachesEveryStateAndTransition } from './test-support/every-path';
import { fakeActor, pendingActor } from './test-support/fakes';

function result(page = 1): AuditListResponse {
  return {
    success: true, page, pageSize: 25, total: 60,
    items: [{ id: 'e1', at: '2026-03-01T10:00:00.000Z', action: 'staff.created', actor: { id: 'u', username: 'admin@demo.test' }, detail: {} }],
  };
}

function start(fetch: (input: FetchAuditInput) => unknown = (input) => result(input.page)) {
  const spy = vi.fn(fetch);
  const actor = createActor(staffAdminAuditMachine.provide({ actors: { fetchAudit: fakeActor(spy) } })).start();
  return { actor, spy };
}

describe('audit log', () => {
  it('applies the drafted filters together, from page 1, and pages within range', async () => {
    const { actor, spy } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(selectAuditEntries(actor.getSnapshot())).toHaveLength(1);
    actor.send({ type: 'audit.page', page: 3 });
    await waitFor(actor, (s) => s.matches('ready') && spy.mock.calls.length === 2);
    expect(selectAuditPaging(actor.getSnapshot())).toEqual({ page: 3, pages: 3, total: 60 });
    actor.send({ type: 'audit.page', page: 4 });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.send({ type: 'audit.filter', field: 'who', value: 'admin' });
    actor.send({ type: 'audit.filter', field: 'action', value: 'staff.disabled' });
    actor.send({ type: 'audit.filter', field: 'from', value: '2026-03-01' });
    actor.send({ type: 'audit.filter', field: 'to', value: '2026-03-02' });
    expect(selectAuditDraft(actor.getSnapshot()).who).toBe('admin');
    actor.send({ type: 'audit.apply' });
    await waitFor(actor, (s) => s.matches('ready') && spy.mock.calls.length === 3);
    expect(spy.mock.calls[2]![0]).toEqual({ who: 'admin', action: 'staff.disabled', from: '2026-03-01', to: '2026-03-02', page: 1 });
    actor.send({ type: 'audit.clear' });
    await waitFor(actor, (s) => s.matches('ready') && spy.mock.calls.length === 4);
    expect(spy.mock.calls[3]![0]).toEqual({ who: '', action: '', from: '', to: '', page: 1 });
  });

  it('refuses a reversed date range with a message, and offers Retry after a failure', async () => {
    let fail = false;
    const { actor } = start(() => { if (fail) throw new Error('down'); return result(); });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'audit.filter', field: 'from', value: '2026-03-05' });
    actor.send({ type: 'audit.filter', field: 'to', value: '2026-03-01' });
    actor.send({ type: 'audit.apply' });
    expect(selectAuditFilterError(actor.getSnapshot())).toBe(ADMIN_MESSAGES.invalidDateRange);
    fail = true;
    actor.send({ type: 'audit.clear' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectAuditError(actor.getSnapshot())).toBe('down');
    fail = false;
    actor.send({ type: 'audit.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
  });
});

describe('audit machine: every path', () => {
  const events = [
      { type: 'xstate.done.actor.fetchAudit', output: result() },
      { type: 'xstate.error.actor.fetchAudit', error: new Error('down') },
      { type: 'audit.retry' }, { type: 'audit.filter', field: 'from', value: '2026-03-05' }, { type: 'audit.filter', field: 'to', value: '2026-03-01' },
      { type: 'audit.apply' }, { type: 'audit.clear' }, { type: 'audit.page', page: 2 },
  ];
  itReachesEveryStateAndTransition(staffAdminAuditMachine, {
    events,
    logic: staffAdminAuditMachine.provide({ actors: { fetchAudit: pendingActor() } }),
  });
});
