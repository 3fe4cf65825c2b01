import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock, waitFor, type AnyActorLogic, type AnyMachineSnapshot } from 'xstate';
import type { StaffChangeResponse, StaffListResponse, StaffMember, StaffSession } from '../common/admin-contract';
import { ADMIN_MESSAGES } from '../common/messages';
import {
  formErrorsOf, SEARCH_DEBOUNCE_MS, selectCanEdit, selectForm, selectFormErrors, selectIsConflict, selectIsDiscarding, selectLink,
  selectCanGrant, selectListError, selectNotice, selectPaging, selectPending, selectSessions, selectSessionsOf, selectStaff, staffAdminMachine,
  type StaffAdminContext, type StaffForm,
} from './staff-admin.machine';
import { itReachesEveryStateAndTransition } from './test-support/every-path';
import { delayedEvents } from './test-support/paths';
import { fakeActor, pendingActor } from './test-support/fakes';

function member(id: string, overrides: Partial<StaffMember> = {}): StaffMember {
  return {
    id, username: `${id}@demo.test`, email: `${id}@demo.test`, displayName: `Name ${id}`, phoneNumber: '+15550100001',
    twoFactorOnLogin: false, roles: { Content: 'read' }, disabled: false, createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: null,
    activeSessions: 1, version: 3, ...overrides,
  };
}

function listOf(overrides: Partial<StaffListResponse> = {}): StaffListResponse {
  return { success: true, items: [member('a'), member('b')], total: 45, page: 1, pageSize: 20, canEdit: true, selfId: 'a', requireTwoFactor: false, grantable: { 'Dashboard 360': 'write', Content: 'write', 'Subscriptions & Offers': 'write', 'Customer Support': 'write', 'App CMS': 'write', Admin: 'write' }, ...overrides };
}

const SESSIONS: StaffSession[] = [
  { id: 's1', deviceId: 'd1', ipAddress: '10.0.0.1', userAgent: 'Chrome', createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: '2026-01-01T00:00:00.000Z', current: true },
  { id: 's2', deviceId: 'd2', ipAddress: '10.0.0.2', userAgent: 'Firefox', createdAt: '2026-01-01T00:00:00.000Z', lastSeenAt: '2026-01-01T00:00:00.000Z', current: false },
];

function conflictError() {
  return Object.assign(new Error(ADMIN_MESSAGES.conflict), { status: 409 });
}

function start(actors: Partial<Record<'fetchStaff' | 'saveStaff' | 'runAction' | 'fetchSessions' | 'endSession', AnyActorLogic>> = {}) {
  const clock = new SimulatedClock();
  const fetchStaff = vi.fn((input: { search: string; page: number }) => listOf({ page: input.page }));
  const machine = staffAdminMachine.provide({
    actors: {
      fetchStaff: fakeActor(fetchStaff),
      saveStaff: pendingActor(),
      runAction: pendingActor(),
      fetchSessions: fakeActor(() => SESSIONS),
      endSession: pendingActor(),
      ...actors,
    },
  });
  const actor = createActor(machine, { clock }).start();
  return { actor, clock, fetchStaff };
}

const ready = (s: AnyMachineSnapshot) => s.matches({ ready: 'idle' });

describe('staff list', () => {
  it('reads the first page, then searches once typing pauses, from page 1', async () => {
    const { actor, clock, fetchStaff } = start();
    await waitFor(actor, ready);
    expect(selectStaff(actor.getSnapshot()).map((m) => m.id)).toEqual(['a', 'b']);
    expect(selectPaging(actor.getSnapshot())).toEqual({ page: 1, pages: 3, total: 45 });
    actor.send({ type: 'list.page', page: 2 });
    await waitFor(actor, ready);
    actor.send({ type: 'list.search', text: 'co' });
    clock.increment(SEARCH_DEBOUNCE_MS - 1);
    actor.send({ type: 'list.search', text: 'con' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    await waitFor(actor, ready);
    expect(fetchStaff.mock.calls.map(([input]) => input)).toEqual([{ search: '', page: 1 }, { search: '', page: 2 }, { search: 'con', page: 1 }]);
  });

  it('ignores a page out of range and shows a failure with Retry', async () => {
    let fail = true;
    const { actor, fetchStaff } = start({ fetchStaff: fakeActor(() => { if (fail) throw new Error('down'); return listOf(); }) });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectListError(actor.getSnapshot())).toBe('down');
    fail = false;
    actor.send({ type: 'list.retry' });
    await waitFor(actor, ready);
    actor.send({ type: 'list.page', page: 9 });
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(fetchStaff).not.toHaveBeenCalled();
  });

  it('offers no write to Admin read: create, edit and confirmations are ignored', async () => {
    const { actor } = start({ fetchStaff: fakeActor(() => listOf({ canEdit: false })) });
    await waitFor(actor, ready);
    expect(selectCanEdit(actor.getSnapshot())).toBe(false);
    for (const event of [{ type: 'staff.create' }, { type: 'staff.edit', id: 'b' }, { type: 'staff.confirm', kind: 'disable', id: 'b' }, { type: 'site.twoFactor', required: true }] as const) {
      actor.send(event);
      expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    }
  });
});

describe('editor form', () => {
  it('checks the fields, sends the form with its roles and shows the set-password link once', async () => {
    const saved: StaffChangeResponse = {
      success: true, message: ADMIN_MESSAGES.created('New Person'), staff: member('n', { displayName: 'New Person' }),
      link: { url: 'http://x/set-password?token=t', expiresAt: '2026-01-02T00:00:00.000Z' },
    };
    const saveStaff = vi.fn(() => saved);
    const { actor } = start({ saveStaff: fakeActor(saveStaff) });
    await waitFor(actor, ready);
    actor.send({ type: 'staff.create' });
    actor.send({ type: 'editor.save' });
    expect(selectFormErrors(actor.getSnapshot())).toEqual({
      email: ADMIN_MESSAGES.emailRequired, displayName: ADMIN_MESSAGES.displayNameRequired, phoneNumber: ADMIN_MESSAGES.phoneInvalid,
    });
    actor.send({ type: 'editor.field', field: 'email', value: 'new@demo.test' });
    actor.send({ type: 'editor.field', field: 'displayName', value: 'New Person' });
    actor.send({ type: 'editor.field', field: 'phoneNumber', value: '+1 555 010 9999' });
    actor.send({ type: 'editor.field', field: 'twoFactorOnLogin', value: true });
    actor.send({ type: 'editor.role', area: 'Content', level: 'read' });
    actor.send({ type: 'editor.role', area: 'Admin', level: 'write' });
    actor.send({ type: 'editor.role', area: 'Admin', level: 'none' });
    expect(selectFormErrors(actor.getSnapshot())).toEqual({});
    actor.send({ type: 'editor.save' });
    await waitFor(actor, ready);
    expect(saveStaff).toHaveBeenCalledWith({
      form: { mode: 'create', id: null, version: 0, email: 'new@demo.test', displayName: 'New Person', phoneNumber: '+1 555 010 9999', twoFactorOnLogin: true, roles: { Content: 'read' } },
    });
    expect(selectNotice(actor.getSnapshot())).toEqual({ text: saved.message, severity: 'success' });
    expect(selectLink(actor.getSnapshot())).toEqual({ ...saved.link, name: 'New Person' });
    actor.send({ type: 'link.dismiss' });
    expect(selectLink(actor.getSnapshot())).toBeNull();
  });

  it('asks before discarding changes, and offers a reload on a conflict', async () => {
    const { actor } = start({ saveStaff: fakeActor(() => { throw conflictError(); }) });
    await waitFor(actor, ready);
    actor.send({ type: 'staff.edit', id: 'b' });
    expect(selectForm(actor.getSnapshot())).toMatchObject({ mode: 'edit', id: 'b', version: 3 });
    actor.send({ type: 'editor.cancel' });
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    actor.send({ type: 'staff.edit', id: 'b' });
    actor.send({ type: 'editor.role', area: 'Content', level: 'none' });
    actor.send({ type: 'editor.cancel' });
    expect(selectIsDiscarding(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'editor.keep' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, selectIsConflict);
    actor.send({ type: 'editor.reload' });
    await waitFor(actor, ready);
    expect(selectForm(actor.getSnapshot())).toBeNull();
  });

  it('keeps the form open with the server message on another failure', async () => {
    const { actor } = start({ saveStaff: fakeActor(() => { throw Object.assign(new Error(ADMIN_MESSAGES.lastAdmin), { status: 409 }); }) });
    await waitFor(actor, ready);
    actor.send({ type: 'staff.edit', id: 'a' });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => s.context.formError !== null);
    expect(actor.getSnapshot().context.formError).toBe(ADMIN_MESSAGES.lastAdmin);
  });

  it('offers only the roles and levels the signed-in user may grant (the grant cap, issue 25)', async () => {
    const fetchStaff = () => listOf({ grantable: { Admin: 'write', Content: 'contributor', 'Customer Support': 'read' }, items: [member('a'), member('b', { roles: { 'Dashboard 360': 'write', Content: 'read' } })] });
    const { actor } = start({ fetchStaff: fakeActor(fetchStaff) });
    await waitFor(actor, ready);
    actor.send({ type: 'staff.create' });
    for (const [area, level] of [['Content', 'write'], ['Customer Support', 'contributor'], ['App CMS', 'read'], ['Dashboard 360', 'read']] as const) {
      actor.send({ type: 'editor.role', area, level });
      expect(selectCanGrant(actor.getSnapshot(), area, level)).toBe(false);
    }
    expect(selectForm(actor.getSnapshot())?.roles).toEqual({});
    actor.send({ type: 'editor.role', area: 'Content', level: 'contributor' });
    actor.send({ type: 'editor.role', area: 'Customer Support', level: 'read' });
    expect(selectForm(actor.getSnapshot())?.roles).toEqual({ Content: 'contributor', 'Customer Support': 'read' });
    actor.send({ type: 'editor.cancel' });
    actor.send({ type: 'editor.discard' });
    // An account with a role above the caller's: that area stays as it is; the caller's own areas still change.
    actor.send({ type: 'staff.edit', id: 'b' });
    for (const level of ['none', 'read', 'contributor'] as const) {
      actor.send({ type: 'editor.role', area: 'Dashboard 360', level });
      expect(selectCanGrant(actor.getSnapshot(), 'Dashboard 360', level)).toBe(false);
    }
    expect(selectCanGrant(actor.getSnapshot(), 'Dashboard 360', 'write')).toBe(true);
    actor.send({ type: 'editor.role', area: 'Content', level: 'none' });
    expect(selectForm(actor.getSnapshot())?.roles).toEqual({ 'Dashboard 360': 'write' });
  });

  it('lists field errors as pure rules', () => {
    const form: StaffForm = { mode: 'edit', id: 'x', version: 1, email: '', displayName: ' ', phoneNumber: '12', twoFactorOnLogin: false, roles: {} };
    expect(formErrorsOf(form)).toEqual({ displayName: ADMIN_MESSAGES.displayNameRequired, phoneNumber: ADMIN_MESSAGES.phoneInvalid });
    expect(formErrorsOf({ ...form, mode: 'create', email: 'not-mail' }).email).toBe(ADMIN_MESSAGES.emailInvalid);
  });
});

describe('confirmations', () => {
  it('runs the confirmed action with the account version and reloads the list', async () => {
    const runAction = vi.fn(() => ({ message: ADMIN_MESSAGES.disabled('Name b') }));
    const { actor, fetchStaff } = start({ runAction: fakeActor(runAction) });
    await waitFor(actor, ready);
    actor.send({ type: 'staff.confirm', kind: 'disable', id: 'b' });
    expect(selectPending(actor.getSnapshot())).toEqual({ kind: 'disable', id: 'b', name: 'Name b', version: 3 });
    actor.send({ type: 'confirm.cancel' });
    expect(selectPending(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'staff.confirm', kind: 'disable', id: 'b' });
    actor.send({ type: 'confirm.accept' });
    await waitFor(actor, (s) => ready(s) && fetchStaff.mock.calls.length === 2);
    expect(runAction).toHaveBeenCalledWith({ action: { kind: 'disable', id: 'b', name: 'Name b', version: 3 }, phoneNumber: '' });
    expect(selectNotice(actor.getSnapshot())?.text).toBe(ADMIN_MESSAGES.disabled('Name b'));
    actor.send({ type: 'notice.dismiss' });
    expect(selectNotice(actor.getSnapshot())).toBeNull();
  });

  it('needs a valid new number for a second-factor reset, and shows a failure', async () => {
    const { actor } = start({ runAction: fakeActor(() => { throw new Error(ADMIN_MESSAGES.conflict); }) });
    await waitFor(actor, ready);
    actor.send({ type: 'staff.confirm', kind: 'resetSecondFactor', id: 'a' });
    actor.send({ type: 'confirm.accept' });
    expect(actor.getSnapshot().context.confirmError).toBe(ADMIN_MESSAGES.phoneInvalid);
    actor.send({ type: 'confirm.phone', value: '+15550107777' });
    actor.send({ type: 'confirm.accept' });
    await waitFor(actor, ready);
    expect(selectNotice(actor.getSnapshot())).toEqual({ text: ADMIN_MESSAGES.conflict, severity: 'error' });
  });

  it('confirms the site-wide second factor', async () => {
    const runAction = vi.fn(() => ({ message: ADMIN_MESSAGES.twoFactorRequiredOn }));
    const { actor } = start({ runAction: fakeActor(runAction) });
    await waitFor(actor, ready);
    actor.send({ type: 'site.twoFactor', required: true });
    actor.send({ type: 'confirm.accept' });
    await waitFor(actor, (s) => selectNotice(s) !== null);
    expect(runAction).toHaveBeenCalledWith({ action: { kind: 'twoFactor', required: true }, phoneNumber: '' });
  });
});

describe('sessions', () => {
  it('lists sessions, ends one that is not the caller own, and reloads the list on close', async () => {
    const endSession = vi.fn(() => ({ message: ADMIN_MESSAGES.sessionEnded }));
    const { actor, fetchStaff } = start({ endSession: fakeActor(endSession) });
    await waitFor(actor, ready);
    actor.send({ type: 'staff.sessions', id: 'a' });
    await waitFor(actor, (s) => s.matches({ ready: { sessions: 'listing' } }));
    expect(selectSessionsOf(actor.getSnapshot())).toEqual({ id: 'a', name: 'Name a' });
    expect(selectSessions(actor.getSnapshot())).toHaveLength(2);
    actor.send({ type: 'sessions.end', sessionId: 's1' });
    expect(endSession).not.toHaveBeenCalled();
    actor.send({ type: 'sessions.end', sessionId: 's2' });
    await waitFor(actor, (s) => s.matches({ ready: { sessions: 'listing' } }) && endSession.mock.calls.length === 1);
    expect(endSession).toHaveBeenCalledWith({ id: 'a', sessionId: 's2' });
    actor.send({ type: 'sessions.close' });
    await waitFor(actor, (s) => ready(s) && fetchStaff.mock.calls.length === 2);
  });
});

describe('staff admin machine: every path', () => {
  const list = listOf();
  const events = [
    { type: 'xstate.done.actor.fetchStaff', output: list },
    { type: 'xstate.done.actor.fetchStaff', output: listOf({ canEdit: false }) },
    { type: 'xstate.error.actor.fetchStaff', error: new Error('down') },
    { type: 'list.retry' }, { type: 'list.search', text: 'x' }, { type: 'list.page', page: 2 },
    { type: 'staff.create' }, { type: 'staff.edit', id: 'b' }, { type: 'staff.confirm', kind: 'resetSecondFactor', id: 'b' },
    { type: 'site.twoFactor', required: true }, { type: 'staff.sessions', id: 'a' },
    { type: 'confirm.phone', value: '+15550107777' }, { type: 'confirm.accept' }, { type: 'confirm.cancel' },
    { type: 'xstate.done.actor.runAction', output: { message: 'ok', link: { url: 'u', expiresAt: 'e' } } },
    { type: 'xstate.error.actor.runAction', error: new Error('no') },
    { type: 'editor.field', field: 'displayName', value: '' }, { type: 'editor.role', area: 'Admin', level: 'write' },
    { type: 'editor.save' }, { type: 'editor.cancel' }, { type: 'editor.discard' }, { type: 'editor.keep' }, { type: 'editor.reload' },
    { type: 'xstate.done.actor.saveStaff', output: { success: true, message: 'saved', staff: member('b') } },
    { type: 'xstate.error.actor.saveStaff', error: conflictError() },
    { type: 'xstate.error.actor.saveStaff', error: new Error('no') },
    { type: 'xstate.done.actor.fetchSessions', output: SESSIONS },
    { type: 'xstate.error.actor.fetchSessions', error: new Error('no') },
    { type: 'sessions.retry' }, { type: 'sessions.end', sessionId: 's2' }, { type: 'sessions.end', sessionId: 's1' }, { type: 'sessions.close' },
    { type: 'xstate.done.actor.endSession', output: { message: 'ended' } },
    { type: 'xstate.error.actor.endSession', error: new Error('no') },
    { type: 'notice.dismiss' }, { type: 'link.dismiss' },
    ...delayedEvents(staffAdminMachine),
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) => {
    const c = snapshot.context as StaffAdminContext;
    return JSON.stringify([
      snapshot.value, c.list?.canEdit, c.form ? Object.keys(formErrorsOf(c.form)).length : -1, c.form?.roles.Admin ?? '',
      c.pending?.kind ?? '', c.phoneDraft, c.sessions.length, c.notice !== null, c.link !== null,
    ]);
  };
  itReachesEveryStateAndTransition(staffAdminMachine, {
    events,
    serializeState,
    logic: staffAdminMachine.provide({
      actors: { fetchStaff: pendingActor(), saveStaff: pendingActor(), runAction: pendingActor(), fetchSessions: pendingActor(), endSession: pendingActor() },
    }),
  });
});
