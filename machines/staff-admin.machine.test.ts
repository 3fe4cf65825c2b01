import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock, waitFor, type AnyActorLogic, type AnyMachineSnapshot } from 'xstate';
import type { StaffChangeResponse, StaffListResponse, StaffSession } from '../common/admin-contract';
import { ADMIN_MESSAGES } from '../common/messages';
import { SECOND_FACTOR_DONE } from '../common/second-factor-rule';
import { LIST_SEARCH_DEBOUNCE_MS, listMachine, type ListQuery, type ListSnapshot } from './list.machine';
import {
  canResetSecondFactorOf, selectAccess, selectCanEdit, selectIsLoading, selectIsWorking, selectLink, selectListError, selectNotice, selectPaging, selectPending, selectPhoneDraft,
  selectConfirmError, selectSecondFactor, selectSearch, selectSelfId, selectSessions, selectSessionsError, selectSessionsLoading, selectSessionsOf,
  selectStaff, selectStaffDialog, selectStaffList, staffAdminMachine, selectHistoryOf, selectRuleHistory, selectStaffHistory, type StaffAdminContext, type StaffPage,
  staffAccessOf, type StaffAdminInput,
} from './staff-admin.machine';
import { staffDialogMachine, selectDialogHistory, type StaffDraft } from './staff-dialog.machine';
import type { Revision } from '../common/revisions';
import { historyDisclosureMachine, selectDisclosedHistory, selectDisclosureOpen } from './history-disclosure.machine';
import { pageHistoryMachine, type HistoryLoadInput, type HistoryPage } from './history.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { staffMember } from './test-harness/fixtures';

const member = staffMember;

function listOf(overrides: Partial<StaffListResponse> = {}): StaffListResponse {
  return { success: true, items: [member('a', { twoFactorOnLogin: true }), member('b', { twoFactorOnLogin: true })], total: 45, page: 1, pageSize: 20, canEdit: true, selfId: 'a', secondFactor: { rule: 'optional', accounts: 7, withSms: 2, withAuthenticator: 1, withNeither: 0, ownAuthenticator: true }, grantable: { 'Dashboard 360': 'write', Content: 'write', 'Subscriptions & Offers': 'write', 'Customer Support': 'write', 'App CMS': 'write', Admin: 'write' }, ...overrides };
}

const SESSIONS: StaffSession[] = [
  { id: 's1', deviceId: 'd1', ipAddress: '10.0.0.1', userAgent: 'Chrome', createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: '2026-01-01T00:00:00.000Z', current: true },
  { id: 's2', deviceId: 'd2', ipAddress: '10.0.0.2', userAgent: 'Firefox', createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: '2026-01-01T00:00:00.000Z', current: false },
];

function conflictError() {
  return Object.assign(new Error(ADMIN_MESSAGES.conflict), { status: 409 });
}

const ALL_GRANTABLE = listOf().grantable;

/** The staff list's page as the Admin wiring file answers it (rows, total and the caller's access). */
function pageOf(list: StaffListResponse): StaffPage {
  return { items: list.items, total: list.total, meta: { canEdit: list.canEdit, selfId: list.selfId, secondFactor: list.secondFactor, grantable: list.grantable } };
}

type Actors = Partial<Record<'saveStaff' | 'runAction' | 'fetchSessions' | 'endSession' | 'readStaffDraft', AnyActorLogic>>;

/** A History's answer: one revision of the object asked for (read-only: neither Admin kind is restorable). */
function historyAnswer(input: HistoryLoadInput): HistoryPage {
  const item: Revision = {
    seq: 1, kind: input.kind, objectId: input.objectId, objectName: null, networkId: null, objectVersion: null, actor: null,
    at: '2026-03-01T10:00:00.000Z', reason: null, requestId: null, restoredFrom: null, changes: [{ field: 'displayName', before: 'A', after: 'B' }],
  };
  return { items: [item], total: 1, page: 1, pageSize: 20, canRestore: true, restorable: false };
}

function start(
  actors: Actors = {},
  answer: (query: ListQuery) => StaffListResponse = (q) => listOf({ page: q.offset / q.limit + 1 }),
  input: StaffAdminInput = {},
) {
  const searches: string[] = [];
  const clock = new SimulatedClock();
  const fetchPage = vi.fn((query: ListQuery) => pageOf(answer(query)));
  const loadHistory = vi.fn(historyAnswer);
  const history = pageHistoryMachine.provide({ actors: { load: fakeActor(loadHistory) } });
  const disclosure = historyDisclosureMachine.provide({ actors: { history } });
  const machine = staffAdminMachine.provide({
    actors: {
      list: listMachine.provide({ actors: { fetchPage: fakeActor(fetchPage) } }),
      staffDialog: staffDialogMachine.provide({ actors: { saveStaff: actors.saveStaff ?? pendingActor(), history: disclosure } }),
      ruleHistory: disclosure,
      staffHistory: history,
      runAction: pendingActor(),
      fetchSessions: fakeActor(() => SESSIONS),
      endSession: pendingActor(),
      ...actors,
    },
    actions: { writeSearch: (_, params: { search: string }) => { searches.push(params.search); } },
  });
  const actor = createActor(machine, { clock, input }).start();
  const list = () => selectStaffList(actor.getSnapshot())!;
  const dialog = () => selectStaffDialog(actor.getSnapshot());
  /** The list answered `calls` reads in all and shows the last. */
  const listed = (calls: number) => waitFor(list(), (s) => !s.hasTag('loading') && fetchPage.mock.calls.length === calls);
  return { actor, clock, fetchPage, list, dialog, listed, loadHistory, searches };
}

describe('the search in the address (issue 38)', () => {
  it("opens the list searched for the address's text (the audit log's link to an account) and writes each new search back", async () => {
    const { actor, fetchPage, listed, searches, clock } = start({}, undefined, { search: 'ana@demo.test' });
    await listed(1);
    expect(fetchPage.mock.calls[0]![0]).toMatchObject({ search: 'ana@demo.test', offset: 0 });
    expect(selectSearch(selectStaffList(actor.getSnapshot())!.getSnapshot())).toBe('ana@demo.test');
    expect(searches).toEqual([]);
    actor.send({ type: 'list.search', search: 'bo' });
    expect(searches).toEqual(['bo']);
    clock.increment(1000);
    await listed(2);
    expect(fetchPage.mock.calls[1]![0]).toMatchObject({ search: 'bo', offset: 0 });
  });
});

describe('Histories (an account\'s, the second-factor rule\'s)', () => {
  it("shows an account's History from its row, to Admin read too, and closes it", async () => {
    const { actor, listed, loadHistory } = start({}, () => listOf({ canEdit: false }));
    await listed(1);
    actor.send({ type: 'staff.history', id: 'missing' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'staff.history', id: 'b' });
    expect(actor.getSnapshot().matches('history')).toBe(true);
    expect(selectHistoryOf(actor.getSnapshot())).toEqual({ id: 'b', name: member('b').displayName });
    const history = selectStaffHistory(actor.getSnapshot())!;
    await waitFor(history, (s) => s.matches('list'));
    expect(loadHistory).toHaveBeenCalledWith({ kind: 'staff', objectId: 'b', page: 1 });
    actor.send({ type: 'staffHistory.close' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(selectHistoryOf(actor.getSnapshot())).toBeNull();
    expect(selectStaffHistory(actor.getSnapshot())).toBeUndefined();
  });

  it("opens the rule's History (the site's, as `site`) on demand, also for Admin read", async () => {
    const { actor, listed, loadHistory } = start({}, () => listOf({ canEdit: false }));
    await listed(1);
    const rule = selectRuleHistory(actor.getSnapshot())!;
    expect(selectDisclosureOpen(rule.getSnapshot())).toBe(false);
    expect(loadHistory).not.toHaveBeenCalled();
    rule.send({ type: 'disclosure.open' });
    await waitFor(selectDisclosedHistory(rule.getSnapshot())!, (s) => s.matches('list'));
    expect(loadHistory).toHaveBeenCalledWith({ kind: 'siteSecurity', objectId: 'site', page: 1 });
  });

  it("reads the open rule History again after the rule changed, not after another action", async () => {
    const runAction = vi.fn(() => ({ message: 'done' }));
    const { actor, listed, loadHistory } = start({ runAction: fakeActor(runAction) });
    await listed(1);
    const rule = selectRuleHistory(actor.getSnapshot())!;
    rule.send({ type: 'disclosure.open' });
    const history = selectDisclosedHistory(rule.getSnapshot())!;
    await waitFor(history, (s) => s.matches('list'));
    actor.send({ type: 'staff.confirm', kind: 'disable', id: 'b' });
    actor.send({ type: 'confirm.accept' });
    await listed(2);
    expect(loadHistory).toHaveBeenCalledTimes(1);
    actor.send({ type: 'site.secondFactor', rule: 'required' });
    actor.send({ type: 'confirm.accept' });
    await waitFor(history, (s) => s.matches('list') && loadHistory.mock.calls.length === 2);
    expect(loadHistory.mock.calls.map(([input]) => input.kind)).toEqual(['siteSecurity', 'siteSecurity']);
  });

  it("gives an edited account's form its History, and a new account's none", async () => {
    const { actor, listed, dialog, loadHistory } = start();
    await listed(1);
    actor.send({ type: 'staff.edit', id: 'b' });
    const disclosure = selectDialogHistory(dialog()!.getSnapshot())!;
    disclosure.send({ type: 'disclosure.open' });
    await waitFor(selectDisclosedHistory(disclosure.getSnapshot())!, (s) => s.matches('list'));
    expect(loadHistory).toHaveBeenCalledWith({ kind: 'staff', objectId: 'b', page: 1 });
    dialog()!.send({ type: 'editor.cancel' });
    actor.send({ type: 'staff.create' });
    const none = selectDialogHistory(dialog()!.getSnapshot())!;
    none.send({ type: 'disclosure.open' });
    expect(selectDisclosureOpen(none.getSnapshot())).toBe(false);
    expect(loadHistory).toHaveBeenCalledTimes(1);
  });
});

describe('staff list', () => {
  it('reads the first page of 20, then searches once typing pauses, from page 1', async () => {
    const { actor, clock, fetchPage, list, listed } = start();
    expect(selectIsLoading(list().getSnapshot())).toBe(true);
    await listed(1);
    expect(selectIsLoading(list().getSnapshot())).toBe(false);
    expect(selectStaff(list().getSnapshot()).map((m) => m.id)).toEqual(['a', 'b']);
    expect(selectPaging(list().getSnapshot())).toEqual({ page: 1, pages: 3, total: 45, previousOffset: null, nextOffset: 20 });
    actor.send({ type: 'list.page', offset: 20 });
    await listed(2);
    actor.send({ type: 'list.search', search: 'co' });
    clock.increment(LIST_SEARCH_DEBOUNCE_MS - 1);
    actor.send({ type: 'list.search', search: 'con' });
    clock.increment(LIST_SEARCH_DEBOUNCE_MS);
    await listed(3);
    expect(selectSearch(list().getSnapshot())).toBe('con');
    expect(fetchPage.mock.calls.map(([q]) => [q.search, q.offset, q.limit])).toEqual([['', 0, 20], ['', 20, 20], ['con', 0, 20]]);
  });

  it('keeps the table while a reload reads, ignores a page out of range and shows a failure with Retry', async () => {
    let fail = true;
    const { actor, fetchPage, list, listed } = start({}, () => { if (fail) throw new Error('down'); return listOf(); });
    await listed(1);
    expect(selectListError(list().getSnapshot())).toBe('down');
    fail = false;
    actor.send({ type: 'list.reload' });
    await listed(2);
    expect(selectListError(list().getSnapshot())).toBeNull();
    actor.send({ type: 'list.reload' });
    expect(selectIsLoading(list().getSnapshot())).toBe(false);
    await listed(3);
    actor.send({ type: 'list.page', offset: 180 });
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it("says the staff list's own words when the server cannot be reached", async () => {
    const { list, listed } = start({}, () => { throw Object.assign(new Error('offline'), { status: 0 }); });
    await listed(1);
    expect(selectListError(list().getSnapshot())).toBe(ADMIN_MESSAGES.listFailed);
  });

  it('offers no write to Admin read: create, edit and confirmations are ignored', async () => {
    const { actor, listed } = start({}, () => listOf({ canEdit: false }));
    await listed(1);
    expect(selectCanEdit(actor.getSnapshot())).toBe(false);
    for (const event of [{ type: 'staff.create' }, { type: 'staff.edit', id: 'b' }, { type: 'staff.confirm', kind: 'disable', id: 'b' }, { type: 'site.secondFactor', rule: 'required' }] as const) {
      actor.send(event);
      expect(actor.getSnapshot().matches('idle')).toBe(true);
    }
  });

  it("reads who the caller is and the site's second-factor rule from the list answer", async () => {
    const secondFactor = { rule: 'required', accounts: 3, withSms: 3, withAuthenticator: 0, withNeither: 0, ownAuthenticator: false } as const;
    const { actor, listed } = start({}, () => listOf({ secondFactor }));
    expect(selectSelfId(actor.getSnapshot())).toBeNull();
    expect(selectSecondFactor(actor.getSnapshot())).toBeNull();
    await listed(1);
    expect(selectSelfId(actor.getSnapshot())).toBe('a');
    expect(selectSecondFactor(actor.getSnapshot())).toEqual(secondFactor);
  });
});

describe('the staff dialog in the page', () => {
  it('opens the dialog with what the caller may grant; saved → the notice, the link once, and the list read again', async () => {
    const saved: StaffChangeResponse = {
      success: true, message: ADMIN_MESSAGES.created('New Person'), staff: member('n', { displayName: 'New Person' }),
      link: { url: 'http://x/set-password?token=t', expiresAt: '2026-01-02T00:00:00.000Z' },
    };
    const { actor, dialog, listed } = start({ saveStaff: fakeActor(() => saved) });
    await listed(1);
    actor.send({ type: 'staff.create' });
    expect(dialog()!.getSnapshot().context.grantable).toEqual(ALL_GRANTABLE);
    dialog()!.send({ type: 'editor.field', field: 'email', value: 'new@demo.test' });
    dialog()!.send({ type: 'editor.field', field: 'displayName', value: 'New Person' });
    dialog()!.send({ type: 'editor.field', field: 'phoneNumber', value: '+1 555 010 9999' });
    dialog()!.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.matches('idle'));
    await listed(2);
    expect(dialog()).toBeUndefined();
    expect(selectNotice(actor.getSnapshot())).toEqual({ text: saved.message, severity: 'success' });
    expect(selectLink(actor.getSnapshot())).toEqual({ ...saved.link, name: 'New Person', sentBySms: true, copied: false });
    actor.send({ type: 'link.dismiss' });
    expect(selectLink(actor.getSnapshot())).toBeNull();
  });

  it('edits a listed account only; a conflict\'s Reload reads the list again; a cancel reads nothing', async () => {
    const { actor, dialog, fetchPage, listed } = start({ saveStaff: fakeActor(() => { throw conflictError(); }) });
    await listed(1);
    actor.send({ type: 'staff.edit', id: 'nobody' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'staff.edit', id: 'b' });
    expect(dialog()!.getSnapshot().context.form).toMatchObject({ mode: 'edit', id: 'b', version: 3 });
    dialog()!.send({ type: 'editor.cancel' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(fetchPage).toHaveBeenCalledTimes(1);
    actor.send({ type: 'staff.edit', id: 'b' });
    dialog()!.send({ type: 'editor.save' });
    await waitFor(dialog()!, (s) => s.matches('conflict'));
    dialog()!.send({ type: 'editor.reload' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    await listed(2);
    expect(selectNotice(actor.getSnapshot())).toBeNull();
  });
});

describe('a staff draft kept across a reload (issue 38)', () => {
  const kept = (draft: StaffDraft | null) => fakeActor(() => draft);

  it("reopens a new account's dialog with the typed values once the list says the caller may edit", async () => {
    const { actor, dialog, listed } = start({ readStaffDraft: kept({ memberId: null, version: 0, values: { email: 'new@demo.test', roles: { Content: 'read' } } }) });
    await listed(1);
    await waitFor(actor, (s) => s.matches('editor'));
    expect(dialog()!.getSnapshot().context.form).toMatchObject({ mode: 'create', email: 'new@demo.test', roles: { Content: 'read' } });
    dialog()!.send({ type: 'editor.cancel' });
    expect(dialog()!.getSnapshot().matches('discarding')).toBe(true);
    dialog()!.send({ type: 'editor.discard' });
    // Closed: the draft does not open its dialog again.
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.keptDraft).toBeNull();
  });

  it("reopens a listed account's dialog only at the version the draft was typed on", async () => {
    const b = member('b');
    const same = start({ readStaffDraft: kept({ memberId: 'b', version: b.version, values: { displayName: 'Typed' } }) });
    await same.listed(1);
    await waitFor(same.actor, (s) => s.matches('editor'));
    expect(same.dialog()!.getSnapshot().context.form).toMatchObject({ mode: 'edit', id: 'b', displayName: 'Typed' });

    const changed = start({ readStaffDraft: kept({ memberId: 'b', version: b.version - 1, values: { displayName: 'Typed' } }) });
    await changed.listed(1);
    expect(changed.actor.getSnapshot().matches('idle')).toBe(true);
    const unlisted = start({ readStaffDraft: kept({ memberId: 'gone', version: 1, values: { displayName: 'Typed' } }) });
    await unlisted.listed(1);
    expect(unlisted.actor.getSnapshot().matches('idle')).toBe(true);
    // Another dialog opened by hand replaces the kept draft: it opens clean and the old draft stays closed.
    changed.actor.send({ type: 'staff.edit', id: 'a' });
    expect(changed.dialog()!.getSnapshot().context.form.displayName).toBe(member('a').displayName);
    changed.dialog()!.send({ type: 'editor.cancel' });
    expect(changed.actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('reopens nothing for Admin read, nor without a kept draft', async () => {
    const reader = start({ readStaffDraft: kept({ memberId: null, version: 0, values: { email: 'x@demo.test' } }) }, (q) => listOf({ page: q.offset / q.limit + 1, canEdit: false }));
    await reader.listed(1);
    expect(reader.actor.getSnapshot().matches('idle')).toBe(true);
    const none = start({ readStaffDraft: kept(null) });
    await none.listed(1);
    expect(none.actor.getSnapshot().matches('idle')).toBe(true);
  });
});

describe('confirmations', () => {
  it('runs the confirmed action with the account version, then a notice and the list read again', async () => {
    const runAction = vi.fn(() => ({ message: ADMIN_MESSAGES.disabled('Name b') }));
    const { actor, listed } = start({ runAction: fakeActor(runAction) });
    await listed(1);
    actor.send({ type: 'staff.confirm', kind: 'disable', id: 'nobody' });
    expect(selectPending(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'staff.confirm', kind: 'disable', id: 'b' });
    expect(selectPending(actor.getSnapshot())).toEqual({ kind: 'disable', id: 'b', name: 'Name b', version: 3 });
    actor.send({ type: 'confirm.cancel' });
    expect(selectPending(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'staff.confirm', kind: 'disable', id: 'b' });
    actor.send({ type: 'confirm.accept' });
    expect(selectIsWorking(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().hasTag('saving')).toBe(true);
    await listed(2);
    expect(runAction).toHaveBeenCalledWith({ action: { kind: 'disable', id: 'b', name: 'Name b', version: 3 }, phoneNumber: '' });
    expect(selectNotice(actor.getSnapshot())?.text).toBe(ADMIN_MESSAGES.disabled('Name b'));
    actor.send({ type: 'notice.dismiss' });
    expect(selectNotice(actor.getSnapshot())).toBeNull();
  });

  it('needs a valid new number for a second-factor reset, and shows a failure without reading the list again', async () => {
    const { actor, fetchPage, listed } = start({ runAction: fakeActor(() => { throw new Error(ADMIN_MESSAGES.conflict); }) });
    await listed(1);
    actor.send({ type: 'staff.confirm', kind: 'resetSecondFactor', id: 'a' });
    actor.send({ type: 'confirm.accept' });
    expect(selectConfirmError(actor.getSnapshot())).toBe(ADMIN_MESSAGES.phoneInvalid);
    actor.send({ type: 'confirm.phone', value: '+15550107777' });
    expect(selectPhoneDraft(actor.getSnapshot())).toBe('+15550107777');
    expect(selectConfirmError(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'confirm.accept' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(selectNotice(actor.getSnapshot())).toEqual({ text: ADMIN_MESSAGES.conflict, severity: 'error' });
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('offers and accepts a second-factor reset only for an account that signs in with an SMS code: its own setting or the site\'s required rule (issue 38)', async () => {
    const items = [member('a', { twoFactorOnLogin: true }), member('n', { twoFactorOnLogin: false })];
    const { actor, listed } = start({}, (q) => listOf({ items, page: q.offset / q.limit + 1 }));
    await listed(1);
    const access = selectAccess(actor.getSnapshot());
    expect(canResetSecondFactorOf(access, items[0]!)).toBe(true);
    expect(canResetSecondFactorOf(access, items[1]!)).toBe(false);
    actor.send({ type: 'staff.confirm', kind: 'resetSecondFactor', id: 'n' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(selectPending(actor.getSnapshot())).toBeNull();
    // Other actions on the same account are still offered.
    actor.send({ type: 'staff.confirm', kind: 'resetPassword', id: 'n' });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    // A reader is offered nothing; under the 'required' rule every account has the SMS code.
    expect(canResetSecondFactorOf({ ...access!, canEdit: false }, items[0]!)).toBe(false);
    expect(canResetSecondFactorOf({ ...access!, secondFactor: { ...access!.secondFactor, rule: 'required' } }, items[1]!)).toBe(true);
    expect(canResetSecondFactorOf(null, items[0]!)).toBe(false);
  });

  it("asks before changing the site's second-factor rule, from the rule in force with the list's counts; then the notice and the list read again (issue 30)", async () => {
    const runAction = vi.fn(() => ({ message: SECOND_FACTOR_DONE.authenticator }));
    const { actor, listed } = start({ runAction: fakeActor(runAction) });
    await listed(1);
    actor.send({ type: 'site.secondFactor', rule: 'authenticator' });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
    const asked = { kind: 'secondFactorRule', rule: 'authenticator', from: 'optional', counts: { accounts: 7, withSms: 2, withAuthenticator: 1, withNeither: 0 } };
    expect(selectPending(actor.getSnapshot())).toEqual(asked);
    expect(runAction).not.toHaveBeenCalled();
    actor.send({ type: 'confirm.accept' });
    await waitFor(actor, (s) => selectNotice(s) !== null);
    expect(runAction).toHaveBeenCalledWith({ action: asked, phoneNumber: '' });
    expect(selectNotice(actor.getSnapshot())).toEqual({ text: SECOND_FACTOR_DONE.authenticator, severity: 'success' });
    expect(selectLink(actor.getSnapshot())).toBeNull();
    await listed(2);
  });

  it("does not offer 'authenticator' to an editor without an app of their own (it would lock them out at once)", async () => {
    const runAction = vi.fn(() => ({ message: 'changed' }));
    const { actor, listed } = start({ runAction: fakeActor(runAction) }, () => listOf({ secondFactor: { rule: 'optional', accounts: 7, withSms: 2, withAuthenticator: 1, withNeither: 0, ownAuthenticator: false } }));
    await listed(1);
    actor.send({ type: 'site.secondFactor', rule: 'authenticator' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'site.secondFactor', rule: 'required' });
    expect(actor.getSnapshot().matches('confirming')).toBe(true);
  });

  it('asks nothing when the rule in force is chosen again, and a cancelled change writes nothing', async () => {
    const runAction = vi.fn(() => ({ message: 'changed' }));
    const { actor, listed, fetchPage } = start({ runAction: fakeActor(runAction) });
    await listed(1);
    actor.send({ type: 'site.secondFactor', rule: 'optional' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'site.secondFactor', rule: 'required' });
    actor.send({ type: 'confirm.cancel' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(selectPending(actor.getSnapshot())).toBeNull();
    expect(runAction).not.toHaveBeenCalled();
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('the staff form of a site whose rule is `required` needs a mobile number for every account (issue 30)', async () => {
    const { actor, listed, dialog } = start({}, () => listOf({ secondFactor: { rule: 'required', accounts: 2, withSms: 2, withAuthenticator: 0, withNeither: 0, ownAuthenticator: false } }));
    await listed(1);
    actor.send({ type: 'staff.create' });
    expect(dialog()!.getSnapshot().context.smsRequiredBySite).toBe(true);
  });

  it('the staff form of a site whose rule is the authenticator app asks a mobile number only for the SMS code the account chose', async () => {
    const { actor, listed, dialog } = start({}, () => listOf({ secondFactor: { rule: 'authenticator', accounts: 2, withSms: 0, withAuthenticator: 2, withNeither: 0, ownAuthenticator: true } }));
    await listed(1);
    actor.send({ type: 'staff.create' });
    expect(dialog()!.getSnapshot().context.smsRequiredBySite).toBe(false);
  });

  it('shows the set-password link of a password reset with the account name', async () => {
    const link = { url: 'http://x/set-password?token=t', expiresAt: '2026-01-02T00:00:00.000Z' };
    const { actor, listed } = start({ runAction: fakeActor(() => ({ message: 'reset', link })) });
    await listed(1);
    actor.send({ type: 'staff.confirm', kind: 'resetPassword', id: 'b' });
    actor.send({ type: 'confirm.accept' });
    await waitFor(actor, (s) => selectLink(s) !== null);
    expect(selectLink(actor.getSnapshot())).toEqual({ ...link, name: 'Name b', sentBySms: true, copied: false });
  });

  it('copies the shown link to the clipboard and says so; says when no SMS went out (issue 30)', async () => {
    const copyLink = vi.fn();
    const saved: StaffChangeResponse = {
      success: true, message: 'created', staff: member('n', { displayName: 'No Phone', phoneNumber: '' }),
      link: { url: 'http://x/set-password?token=t', expiresAt: '2026-01-02T00:00:00.000Z' },
    };
    const machine = staffAdminMachine.provide({
      actors: {
        list: listMachine.provide({ actors: { fetchPage: fakeActor(() => pageOf(listOf())) } }),
        staffDialog: staffDialogMachine.provide({ actors: { saveStaff: fakeActor(() => saved) } }),
        runAction: pendingActor(), fetchSessions: pendingActor(), endSession: pendingActor(),
      },
      actions: { copyLink: (_, params) => copyLink(params) },
    });
    const actor = createActor(machine, { input: {} }).start();
    actor.send({ type: 'link.copy' });
    expect(copyLink).not.toHaveBeenCalled();
    await waitFor(selectStaffList(actor.getSnapshot())!, (s) => !s.hasTag('loading'));
    actor.send({ type: 'staff.create' });
    const dialog = selectStaffDialog(actor.getSnapshot())!;
    dialog.send({ type: 'editor.field', field: 'email', value: 'nophone@demo.test' });
    dialog.send({ type: 'editor.field', field: 'displayName', value: 'No Phone' });
    dialog.send({ type: 'editor.save' });
    await waitFor(actor, (s) => selectLink(s) !== null);
    expect(selectLink(actor.getSnapshot())).toMatchObject({ sentBySms: false, copied: false });
    actor.send({ type: 'link.copy' });
    expect(copyLink).toHaveBeenCalledWith({ url: 'http://x/set-password?token=t' });
    expect(selectLink(actor.getSnapshot())?.copied).toBe(true);
  });
});

describe('sessions', () => {
  it('lists sessions, ends one that is not the caller own, and reads the list again on close', async () => {
    const endSession = vi.fn(() => ({ message: ADMIN_MESSAGES.sessionEnded }));
    const { actor, listed } = start({ endSession: fakeActor(endSession) });
    await listed(1);
    actor.send({ type: 'staff.sessions', id: 'a' });
    expect(selectSessionsLoading(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => s.matches({ sessions: 'listing' }));
    expect(selectSessionsOf(actor.getSnapshot())).toEqual({ id: 'a', name: 'Name a' });
    expect(selectSessions(actor.getSnapshot())).toHaveLength(2);
    actor.send({ type: 'sessions.end', sessionId: 's1' });
    expect(endSession).not.toHaveBeenCalled();
    actor.send({ type: 'sessions.end', sessionId: 's2' });
    await waitFor(actor, (s) => s.matches({ sessions: 'listing' }) && endSession.mock.calls.length === 1);
    expect(endSession).toHaveBeenCalledWith({ id: 'a', sessionId: 's2' });
    expect(selectNotice(actor.getSnapshot())?.text).toBe(ADMIN_MESSAGES.sessionEnded);
    actor.send({ type: 'sessions.close' });
    expect(selectSessionsOf(actor.getSnapshot())).toBeNull();
    await listed(2);
  });

  it('shows a failed read of the sessions with Retry', async () => {
    let fail = true;
    const { actor, listed } = start({ fetchSessions: fakeActor(() => { if (fail) throw new Error('no sessions'); return SESSIONS; }) });
    await listed(1);
    actor.send({ type: 'staff.sessions', id: 'b' });
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(selectSessionsError(actor.getSnapshot())).toBe('no sessions');
    fail = false;
    actor.send({ type: 'sessions.retry' });
    await waitFor(actor, (s) => s.matches({ sessions: 'listing' }));
    expect(selectSessionsError(actor.getSnapshot())).toBeNull();
  });
});

describe('staffAccessOf', () => {
  it('reads the caller\'s access from the list\'s meta when it carries every part; none before an answer or from another list', () => {
    const meta = pageOf(listOf()).meta;
    expect(staffAccessOf(meta)).toBe(meta);
    expect(staffAccessOf(null)).toBeNull();
    for (const missing of ['canEdit', 'selfId', 'secondFactor', 'grantable'] as const) {
      const { [missing]: _dropped, ...rest } = meta;
      void _dropped;
      expect(staffAccessOf(rest)).toBeNull();
    }
    expect(staffAccessOf({ ...meta, secondFactor: null })).toBeNull();
    expect(staffAccessOf({ ...meta, grantable: null })).toBeNull();
  });
});

describe('staff admin machine: every path', () => {
  const list = listOf();
  // A list that has read its page, as the list machine reports it to the page.
  const listSnapshot = (canEdit: boolean): ListSnapshot => listMachine.resolveState({
    value: 'ready',
    context: {
      query: { search: '', filters: {}, offset: 0, limit: 20 }, items: list.items, total: list.total, selected: [], error: null,
      meta: { ...pageOf(list).meta, canEdit }, failedMessage: null,
    },
  });
  const events = [
    { type: 'xstate.snapshot.list', snapshot: listSnapshot(true) },
    { type: 'xstate.snapshot.list', snapshot: listSnapshot(false) },
    { type: 'list.search', search: 'x' }, { type: 'list.page', offset: 20 }, { type: 'list.reload' },
    { type: 'staff.create' }, { type: 'staff.edit', id: 'b' }, { type: 'staff.confirm', kind: 'resetSecondFactor', id: 'b' },
    { type: 'site.secondFactor', rule: 'required' }, { type: 'site.secondFactor', rule: 'optional' }, { type: 'site.secondFactor', rule: 'authenticator' },
    { type: 'staff.sessions', id: 'a' }, { type: 'staff.history', id: 'b' }, { type: 'staffHistory.close' },
    { type: 'confirm.phone', value: '+15550107777' }, { type: 'confirm.accept' }, { type: 'confirm.cancel' },
    { type: 'xstate.done.actor.runAction', output: { message: 'ok', link: { url: 'u', expiresAt: 'e' } } },
    { type: 'xstate.error.actor.runAction', error: new Error('no') },
    // A cancelled dialog first: the draft's reopening path then reads no list again (the real list child would answer without access).
    { type: 'xstate.done.actor.dialog', output: { kind: 'cancelled' } },
    { type: 'xstate.done.actor.dialog', output: { kind: 'saved', result: { success: true, message: 'saved', staff: member('b') } } },
    { type: 'xstate.done.actor.dialog', output: { kind: 'reload' } },
    { type: 'xstate.done.actor.fetchSessions', output: SESSIONS },
    { type: 'xstate.error.actor.fetchSessions', error: new Error('no') },
    { type: 'sessions.retry' }, { type: 'sessions.end', sessionId: 's2' }, { type: 'sessions.end', sessionId: 's1' }, { type: 'sessions.close' },
    { type: 'xstate.done.actor.endSession', output: { message: 'ended' } },
    { type: 'xstate.error.actor.endSession', error: new Error('no') },
    { type: 'notice.dismiss' }, { type: 'link.dismiss' }, { type: 'link.copy' },
    { type: 'xstate.done.actor.keptDraft', output: { memberId: null, version: 0, values: { email: 'x@demo.test' } } },
    { type: 'staff.reopenDraft' },
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) => {
    const c: StaffAdminContext = snapshot.context;
    return JSON.stringify([
      snapshot.value, c.access?.canEdit, c.keptDraft !== null, c.pending?.kind ?? '', c.phoneDraft, c.sessions.length, c.notice !== null, c.link !== null,
    ]);
  };
  itReachesEveryStateAndTransition(staffAdminMachine, {
    events,
    serializeState,
    logic: staffAdminMachine.provide({
      actors: {
        list: listMachine.provide({ actors: { fetchPage: pendingActor() } }), staffDialog: staffDialogMachine.provide({ actors: { saveStaff: pendingActor() } }),
        runAction: pendingActor(), fetchSessions: pendingActor(), endSession: pendingActor(), readStaffDraft: pendingActor(),
        staffHistory: pageHistoryMachine.provide({ actors: { load: pendingActor() } }),
      },
    }),
  });
});
