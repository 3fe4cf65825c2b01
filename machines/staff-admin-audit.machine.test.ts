import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { AUDIT_CSV_HEADERS, AUDIT_LOG_MESSAGES, type AuditLogEntry } from '../common/audit-actions';
import { ADMIN_MESSAGES } from '../common/messages';
import { listMachine, reportingListMachine, type ListPage, type ListQuery } from './list.machine';
import {
  NO_FILTERS, selectAuditDraft, selectAuditEntries, selectAuditError, selectAuditExporting, selectAuditExportNotice, selectAuditFilterError,
  selectAuditList, selectAuditLoading, selectAuditPaging, staffAdminAuditMachine, type AuditExportOutput, type AuditFilters, type AuditInput,
  type AuditUrlParams,
} from './staff-admin-audit.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor } from './test-harness/fakes';

const ENTRY: AuditLogEntry = {
  id: 'e1', at: '2026-03-01T10:00:00.000Z', action: 'appcms.brand.save', label: 'Brand saved', area: 'appcms', actor: { id: 'u', username: 'appcms@demo.test' },
  object: { kind: 'brand', id: 'n1', name: 'Kids Zone', words: 'brand of network Kids Zone', link: '/appcms/brand?network=kids' },
  changes: [{ field: 'Theme primary color', before: '#AA0000', after: '#123456' }], note: '', detail: {},
};

function start(
  fetch: (query: ListQuery) => ListPage = () => ({ items: [ENTRY], total: 60 }),
  exportRows: (filters: AuditFilters) => AuditExportOutput = () => ({ items: [ENTRY], total: 1 }),
  input: AuditInput = {},
) {
  const spy = vi.fn(fetch);
  const exportSpy = vi.fn(exportRows);
  const downloads: Array<{ csv: string; filename: string }> = [];
  const urls: AuditUrlParams[] = [];
  const actor = createActor(staffAdminAuditMachine.provide({
    actors: { list: listMachine.provide({ actors: { fetchPage: fakeActor(spy) } }), exportAudit: fakeActor(exportSpy) },
    actions: {
      downloadCsv: (_, params: { csv: string; filename: string }) => { downloads.push(params); },
      writeUrl: (_, params: AuditUrlParams) => { urls.push(params); },
    },
  }), { input }).start();
  const list = () => selectAuditList(actor.getSnapshot())!;
  const settled = (calls: number) => waitFor(list(), (s) => !s.hasTag('loading') && spy.mock.calls.length === calls);
  return { actor, spy, exportSpy, downloads, urls, list, settled };
}

describe('audit log page', () => {
  it('reads the first page of 25 entries, pages within range, and applies the drafted filters together from the first page', async () => {
    const { actor, spy, list, settled } = start();
    expect(selectAuditLoading(list().getSnapshot())).toBe(true);
    await settled(1);
    expect(spy.mock.calls[0]![0]).toEqual({ search: '', filters: NO_FILTERS, offset: 0, limit: 25 });
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
    expect(spy.mock.calls[3]![0]).toMatchObject({ filters: NO_FILTERS, offset: 0 });
    expect(selectAuditDraft(actor.getSnapshot())).toEqual(NO_FILTERS);
  });

  it("starts from the address's filters and page (issue 38), and writes the applied filters and page back to it", async () => {
    const filters: AuditFilters = { ...NO_FILTERS, area: 'admin', who: 'ana', from: '2026-03-01' };
    const { actor, spy, urls, list, settled } = start(undefined, undefined, { filters, page: 2 });
    await settled(1);
    expect(spy.mock.calls[0]![0]).toEqual({ search: '', filters, offset: 25, limit: 25 });
    expect(selectAuditDraft(actor.getSnapshot())).toEqual(filters);
    expect(selectAuditPaging(list().getSnapshot())).toMatchObject({ page: 2, pages: 3 });
    // Starting writes nothing: the address already says it.
    expect(urls).toEqual([]);
    actor.send({ type: 'list.page', offset: 50 });
    await settled(2);
    expect(urls).toEqual([{ filters, page: 3 }]);
    actor.send({ type: 'audit.filter', field: 'who', value: 'bo' });
    expect(urls).toHaveLength(1);
    actor.send({ type: 'audit.apply' });
    await settled(3);
    expect(urls[1]).toEqual({ filters: { ...filters, who: 'bo' }, page: 1 });
    actor.send({ type: 'audit.filter', field: 'to', value: '2026-02-01' });
    actor.send({ type: 'audit.apply' });
    expect(urls).toHaveLength(2);
    actor.send({ type: 'audit.clear' });
    await settled(4);
    expect(urls[2]).toEqual({ filters: NO_FILTERS, page: 1 });
  });

  it("shows the last page for an address's page past it, and writes that page back to the address (issue 38)", async () => {
    const reads: number[] = [];
    const urls: AuditUrlParams[] = [];
    const actor = createActor(staffAdminAuditMachine.provide({
      actors: { list: reportingListMachine.provide({ actors: { fetchPage: fakeActor((query: ListQuery) => { reads.push(query.offset); return { items: query.offset < 60 ? [ENTRY] : [], total: 60 }; }) } }) },
      actions: { writeUrl: (_, params: AuditUrlParams) => { urls.push(params); } },
    }), { input: { page: 7 } }).start();
    await waitFor(selectAuditList(actor.getSnapshot())!, (s) => s.matches('ready'));
    expect(reads).toEqual([150, 50]);
    expect(urls).toEqual([{ filters: NO_FILTERS, page: 3 }]);
    expect(selectAuditPaging(selectAuditList(actor.getSnapshot())!.getSnapshot())).toMatchObject({ page: 3, pages: 3 });
  });

  it('an address page below 2 (or not a whole number) opens the first page', async () => {
    for (const page of [0, 1, 2.5, -3]) {
      const { spy, settled } = start(undefined, undefined, { page });
      await settled(1);
      expect(spy.mock.calls[0]![0]).toMatchObject({ filters: NO_FILTERS, offset: 0 });
    }
  });

  it('an area drops a chosen action of another area, and keeps one of its own', () => {
    const { actor } = start();
    actor.send({ type: 'audit.filter', field: 'action', value: 'staff.disabled' });
    actor.send({ type: 'audit.filter', field: 'area', value: 'admin' });
    expect(selectAuditDraft(actor.getSnapshot())).toMatchObject({ area: 'admin', action: 'staff.disabled' });
    actor.send({ type: 'audit.filter', field: 'area', value: 'appcms' });
    expect(selectAuditDraft(actor.getSnapshot())).toMatchObject({ area: 'appcms', action: '' });
  });

  it('exports every row of the applied filters (not the draft) as CSV and says how many', async () => {
    const { actor, exportSpy, downloads, settled } = start();
    await settled(1);
    actor.send({ type: 'audit.filter', field: 'area', value: 'appcms' });
    actor.send({ type: 'audit.apply' });
    await settled(2);
    actor.send({ type: 'audit.filter', field: 'who', value: 'not applied' });
    actor.send({ type: 'audit.export' });
    expect(selectAuditExporting(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => !selectAuditExporting(s));
    expect(exportSpy.mock.calls[0]![0]).toEqual({ ...NO_FILTERS, area: 'appcms' });
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.filename).toBe('audit-log.csv');
    const lines = downloads[0]!.csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(AUDIT_CSV_HEADERS.join(','));
    expect(lines[1]).toBe('2026-03-01T10:00:00.000Z,appcms@demo.test,AppCMS,Brand saved,brand of network Kids Zone,Theme primary color: #AA0000 → #123456');
    expect(selectAuditExportNotice(actor.getSnapshot())).toEqual({ text: AUDIT_LOG_MESSAGES.exported(1), severity: 'success' });
  });

  it('says why an export failed and downloads nothing', async () => {
    const { actor, downloads } = start(undefined, () => { throw new Error('The filter matches 20000 entries'); });
    actor.send({ type: 'audit.export' });
    await waitFor(actor, (s) => !selectAuditExporting(s));
    expect(downloads).toEqual([]);
    expect(selectAuditExportNotice(actor.getSnapshot())).toEqual({ text: 'The filter matches 20000 entries', severity: 'error' });
    const silent = start(undefined, () => { throw new Error(''); });
    silent.actor.send({ type: 'audit.export' });
    await waitFor(silent.actor, (s) => !selectAuditExporting(s));
    expect(selectAuditExportNotice(silent.actor.getSnapshot())?.text).toBe(AUDIT_LOG_MESSAGES.exportFailed);
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
    { type: 'audit.export' }, { type: 'xstate.done.actor.exportAudit', output: { items: [], total: 0 } }, { type: 'xstate.error.actor.exportAudit', error: new Error('') },
    { type: 'list.queried', query: { search: '', filters: {}, offset: 50, limit: 25 }, clamped: true },
  ];
  itReachesEveryStateAndTransition(staffAdminAuditMachine, {
    events,
    serializeState: (s) => JSON.stringify([s.value, s.context]),
  });
});
