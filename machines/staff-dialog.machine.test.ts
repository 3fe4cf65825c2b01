import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor, type AnyActorLogic, type AnyMachineSnapshot } from 'xstate';
import type { StaffChangeResponse, StaffMember } from '../common/admin-contract';
import type { Roles } from '../common/contract';
import { ADMIN_MESSAGES } from '../common/messages';
import {
  formErrorsOf, selectCanGrant, selectForm, selectFormError, selectFormErrors, selectIsConflict, selectIsDiscarding, selectIsSaving, selectPhoneRequired,
  selectIsConfirmingNavigation, selectStaffGuardsLeaving,
  staffDialogMachine, type StaffDialogContext, type StaffDraft, type StaffDraftValues, type StaffForm,
} from './staff-dialog.machine';
import { historyDisclosureMachine, selectDisclosedHistory, selectDisclosureAvailable, selectDisclosureOpen } from './history-disclosure.machine';
import { pageHistoryMachine, type HistoryLoadInput } from './history.machine';
import { selectDialogHistory } from './staff-dialog.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { staffMember } from './test-harness/fixtures';

const member = staffMember;

const ALL: Roles = { 'Dashboard 360': 'write', Content: 'write', 'Subscriptions & Offers': 'write', 'Customer Support': 'write', 'App CMS': 'write', Admin: 'write' };

function conflictError() {
  return Object.assign(new Error(ADMIN_MESSAGES.conflict), { status: 409 });
}

function start(
  saveStaff: AnyActorLogic = pendingActor(),
  input: { member?: StaffMember | null; grantable?: Roles; smsRequiredBySite?: boolean } = { member: null },
) {
  return createActor(staffDialogMachine.provide({ actors: { saveStaff } }), {
    input: { member: input.member ?? null, grantable: input.grantable ?? ALL, smsRequiredBySite: input.smsRequiredBySite },
  }).start();
}

describe('staff dialog', () => {
  it('checks the fields on Save, sends the form with its roles and ends with what the server answered', async () => {
    const saved: StaffChangeResponse = {
      success: true, message: ADMIN_MESSAGES.created('New Person'), staff: member('n', { displayName: 'New Person' }),
      link: { url: 'http://x/set-password?token=t', expiresAt: '2026-01-02T00:00:00.000Z' },
    };
    const saveStaff = vi.fn(() => saved);
    const actor = start(fakeActor(saveStaff));
    actor.send({ type: 'editor.save' });
    // No second factor yet: the mobile number is optional (issue 30).
    expect(selectFormErrors(actor.getSnapshot())).toEqual({ email: ADMIN_MESSAGES.emailRequired, displayName: ADMIN_MESSAGES.displayNameRequired });
    actor.send({ type: 'editor.field', field: 'email', value: 'new@demo.test' });
    actor.send({ type: 'editor.field', field: 'displayName', value: 'New Person' });
    actor.send({ type: 'editor.field', field: 'phoneNumber', value: '+1 555 010 9999' });
    actor.send({ type: 'editor.field', field: 'twoFactorOnLogin', value: true });
    actor.send({ type: 'editor.role', area: 'Content', level: 'read' });
    actor.send({ type: 'editor.role', area: 'Admin', level: 'write' });
    actor.send({ type: 'editor.role', area: 'Admin', level: 'none' });
    expect(selectFormErrors(actor.getSnapshot())).toEqual({});
    actor.send({ type: 'editor.save' });
    expect(selectIsSaving(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => s.status === 'done');
    expect(saveStaff).toHaveBeenCalledWith({
      form: { mode: 'create', id: null, version: 0, email: 'new@demo.test', displayName: 'New Person', phoneNumber: '+1 555 010 9999', twoFactorOnLogin: true, roles: { Content: 'read' } },
    });
    expect(actor.getSnapshot().output).toEqual({ kind: 'saved', result: saved });
    expect(selectForm(actor.getSnapshot())).toBeNull();
  });

  it('closes at once without changes, and asks before discarding changes', () => {
    const clean = start(pendingActor(), { member: member('b') });
    expect(selectForm(clean.getSnapshot())).toMatchObject({ mode: 'edit', id: 'b', version: 3 });
    clean.send({ type: 'editor.cancel' });
    expect(clean.getSnapshot().output).toEqual({ kind: 'cancelled' });

    const edited = start(pendingActor(), { member: member('b') });
    edited.send({ type: 'editor.role', area: 'Content', level: 'none' });
    edited.send({ type: 'editor.cancel' });
    expect(selectIsDiscarding(edited.getSnapshot())).toBe(true);
    edited.send({ type: 'editor.keep' });
    expect(selectIsDiscarding(edited.getSnapshot())).toBe(false);
    edited.send({ type: 'editor.cancel' });
    edited.send({ type: 'editor.discard' });
    expect(edited.getSnapshot().output).toEqual({ kind: 'cancelled' });
  });

  it('offers a reload on a conflict, or closing', async () => {
    const reload = start(fakeActor(() => { throw conflictError(); }), { member: member('b') });
    reload.send({ type: 'editor.save' });
    await waitFor(reload, selectIsConflict);
    expect(reload.getSnapshot().hasTag('error')).toBe(true);
    reload.send({ type: 'editor.reload' });
    expect(reload.getSnapshot().output).toEqual({ kind: 'reload' });

    const close = start(fakeActor(() => { throw conflictError(); }), { member: member('b') });
    close.send({ type: 'editor.save' });
    await waitFor(close, selectIsConflict);
    close.send({ type: 'editor.cancel' });
    expect(close.getSnapshot().output).toEqual({ kind: 'cancelled' });
  });

  it('keeps the form open with the server message on another failure', async () => {
    const actor = start(fakeActor(() => { throw Object.assign(new Error(ADMIN_MESSAGES.lastAdmin), { status: 409 }); }), { member: member('a') });
    actor.send({ type: 'editor.save' });
    await waitFor(actor, (s) => selectFormError(s) !== null);
    expect(selectFormError(actor.getSnapshot())).toBe(ADMIN_MESSAGES.lastAdmin);
    expect(actor.getSnapshot().matches('editing')).toBe(true);
  });

  it('offers only the roles and levels the signed-in user may grant (the grant cap, issue 25)', () => {
    const grantable: Roles = { Admin: 'write', Content: 'contributor', 'Customer Support': 'read' };
    const create = start(pendingActor(), { member: null, grantable });
    for (const [area, level] of [['Content', 'write'], ['Customer Support', 'contributor'], ['App CMS', 'read'], ['Dashboard 360', 'read']] as const) {
      create.send({ type: 'editor.role', area, level });
      expect(selectCanGrant(create.getSnapshot(), area, level)).toBe(false);
    }
    expect(selectForm(create.getSnapshot())?.roles).toEqual({});
    create.send({ type: 'editor.role', area: 'Content', level: 'contributor' });
    create.send({ type: 'editor.role', area: 'Customer Support', level: 'read' });
    expect(selectForm(create.getSnapshot())?.roles).toEqual({ Content: 'contributor', 'Customer Support': 'read' });
    // An account with a role above the caller's: that area stays as it is; the caller's own areas still change.
    const edit = start(pendingActor(), { member: member('b', { roles: { 'Dashboard 360': 'write', Content: 'read' } }), grantable });
    for (const level of ['none', 'read', 'contributor'] as const) {
      edit.send({ type: 'editor.role', area: 'Dashboard 360', level });
      expect(selectCanGrant(edit.getSnapshot(), 'Dashboard 360', level)).toBe(false);
    }
    expect(selectCanGrant(edit.getSnapshot(), 'Dashboard 360', 'write')).toBe(true);
    edit.send({ type: 'editor.role', area: 'Content', level: 'none' });
    expect(selectForm(edit.getSnapshot())?.roles).toEqual({ 'Dashboard 360': 'write' });
  });

  it('requires a mobile number only where the SMS second factor applies: the account\'s setting or the site\'s rule (issue 30)', async () => {
    const saveStaff = vi.fn((): StaffChangeResponse => ({ success: true, message: 'ok', staff: member('n') }));
    const withoutSms = start(fakeActor(saveStaff));
    expect(selectPhoneRequired(withoutSms.getSnapshot())).toBe(false);
    withoutSms.send({ type: 'editor.field', field: 'email', value: 'plain@demo.test' });
    withoutSms.send({ type: 'editor.field', field: 'displayName', value: 'Plain' });
    withoutSms.send({ type: 'editor.field', field: 'twoFactorOnLogin', value: true });
    expect(selectPhoneRequired(withoutSms.getSnapshot())).toBe(true);
    withoutSms.send({ type: 'editor.save' });
    expect(selectFormErrors(withoutSms.getSnapshot())).toEqual({ phoneNumber: ADMIN_MESSAGES.phoneRequiredForSms });
    withoutSms.send({ type: 'editor.field', field: 'twoFactorOnLogin', value: false });
    withoutSms.send({ type: 'editor.save' });
    await waitFor(withoutSms, (s) => s.status === 'done');
    expect(saveStaff).toHaveBeenCalledWith({ form: expect.objectContaining({ phoneNumber: '', twoFactorOnLogin: false }) });

    const siteRule = start(pendingActor(), { smsRequiredBySite: true });
    expect(selectPhoneRequired(siteRule.getSnapshot())).toBe(true);
    siteRule.send({ type: 'editor.save' });
    expect(selectFormErrors(siteRule.getSnapshot()).phoneNumber).toBe(ADMIN_MESSAGES.phoneRequiredForSms);
    expect(selectPhoneRequired(undefined)).toBe(false);
  });

  it('lists field errors as pure rules', () => {
    const form: StaffForm = { mode: 'edit', id: 'x', version: 1, email: '', displayName: ' ', phoneNumber: '12', twoFactorOnLogin: false, roles: {} };
    expect(formErrorsOf(form)).toEqual({ displayName: ADMIN_MESSAGES.displayNameRequired, phoneNumber: ADMIN_MESSAGES.phoneInvalid });
    expect(formErrorsOf({ ...form, mode: 'create', email: 'not-mail' }).email).toBe(ADMIN_MESSAGES.emailInvalid);
  });

  it('selects nothing when no dialog is open', () => {
    expect(selectForm(undefined)).toBeNull();
    expect(selectFormErrors(undefined)).toEqual({});
    expect(selectFormError(undefined)).toBeNull();
    expect(selectIsSaving(undefined)).toBe(false);
    expect(selectIsDiscarding(undefined)).toBe(false);
    expect(selectIsConflict(undefined)).toBe(false);
    expect(selectCanGrant(undefined, 'Admin', 'write')).toBe(false);
  });
});

describe("staff dialog: the account's History", () => {
  function open(member: StaffMember | null) {
    const load = vi.fn((input: HistoryLoadInput) => ({ items: [], total: 0, page: input.page, pageSize: 20, canRestore: false, restorable: false }));
    const history = historyDisclosureMachine.provide({ actors: { history: pageHistoryMachine.provide({ actors: { load: fakeActor(load) } }) } });
    const actor = createActor(staffDialogMachine.provide({ actors: { saveStaff: pendingActor(), history } }), { input: { member, grantable: ALL } }).start();
    return { actor, load };
  }

  it('holds the edited account\'s History behind a disclosure, read only once opened, kept while the form is edited', async () => {
    const { actor, load } = open(member('b'));
    const disclosure = selectDialogHistory(actor.getSnapshot())!;
    expect(selectDisclosureAvailable(disclosure.getSnapshot())).toBe(true);
    expect(load).not.toHaveBeenCalled();
    disclosure.send({ type: 'disclosure.open' });
    await waitFor(selectDisclosedHistory(disclosure.getSnapshot())!, (s) => s.matches('list'));
    expect(load).toHaveBeenCalledWith({ kind: 'staff', objectId: 'b', page: 1 });
    actor.send({ type: 'editor.field', field: 'displayName', value: 'Changed' });
    expect(selectDisclosureOpen(selectDialogHistory(actor.getSnapshot())!.getSnapshot())).toBe(true);
    actor.send({ type: 'editor.cancel' });
    actor.send({ type: 'editor.discard' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(disclosure.getSnapshot().status).toBe('stopped');
  });

  it('has none for a new account', () => {
    const { actor, load } = open(null);
    const disclosure = selectDialogHistory(actor.getSnapshot())!;
    expect(selectDisclosureAvailable(disclosure.getSnapshot())).toBe(false);
    disclosure.send({ type: 'disclosure.open' });
    expect(selectDisclosureOpen(disclosure.getSnapshot())).toBe(false);
    expect(load).not.toHaveBeenCalled();
    expect(selectDialogHistory(undefined)).toBeUndefined();
  });
});

describe('nothing lost (issue 38): the leave question and the draft', () => {
  function startWithDrafts(input: { member: StaffMember | null; keptDraft?: StaffDraftValues | null }) {
    const keepDraft = vi.fn((_: unknown, params: { draft: StaffDraft }) => params.draft);
    const forgetDraft = vi.fn();
    const machine = staffDialogMachine.provide({ actors: { saveStaff: pendingActor() }, actions: { keepDraft, forgetDraft } });
    const actor = createActor(machine, { input: { ...input, grantable: ALL } }).start();
    return { actor, keepDraft, forgetDraft };
  }

  it('lets a navigation through untouched, and asks (Stay or Leave) once something was typed', () => {
    const { actor, forgetDraft } = startWithDrafts({ member: member('b') });
    actor.send({ type: 'editor.navigate' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(selectIsConfirmingNavigation(actor.getSnapshot())).toBe(false);
    expect(selectStaffGuardsLeaving(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'editor.field', field: 'displayName', value: 'Renamed' });
    expect(selectStaffGuardsLeaving(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'editor.navigate' });
    expect(selectIsConfirmingNavigation(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'editor.stay' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(selectForm(actor.getSnapshot())?.displayName).toBe('Renamed');
    expect(forgetDraft).not.toHaveBeenCalled();
    actor.send({ type: 'editor.navigate' });
    actor.send({ type: 'editor.leave' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ kind: 'cancelled' });
    expect(selectStaffGuardsLeaving(actor.getSnapshot())).toBe(false);
    expect(forgetDraft).toHaveBeenCalledTimes(1);
  });

  it("keeps the whole typed form with the account's id and version on each change, and drops it when the dialog closes", () => {
    const { actor, keepDraft, forgetDraft } = startWithDrafts({ member: member('b') });
    actor.send({ type: 'editor.field', field: 'phoneNumber', value: '+15550100002' });
    actor.send({ type: 'editor.role', area: 'Admin', level: 'read' });
    expect(keepDraft).toHaveBeenCalledTimes(2);
    const b = member('b');
    expect(keepDraft.mock.results[1]?.value).toEqual({
      memberId: 'b', version: b.version,
      values: { email: b.email, displayName: b.displayName, phoneNumber: '+15550100002', twoFactorOnLogin: b.twoFactorOnLogin, roles: { ...b.roles, Admin: 'read' } },
    });
    actor.send({ type: 'editor.cancel' });
    expect(forgetDraft).not.toHaveBeenCalled();
    actor.send({ type: 'editor.discard' });
    expect(forgetDraft).toHaveBeenCalledTimes(1);
  });

  it("keeps a new account's draft as the id null, and a role the caller may not grant keeps nothing", () => {
    const { actor, keepDraft } = startWithDrafts({ member: null });
    actor.send({ type: 'editor.field', field: 'email', value: 'new@demo.test' });
    expect(keepDraft.mock.results[0]?.value).toMatchObject({ memberId: null, version: 0, values: { email: 'new@demo.test' } });
    const capped = createActor(staffDialogMachine.provide({ actions: { keepDraft } }), { input: { member: null, grantable: {} } }).start();
    capped.send({ type: 'editor.role', area: 'Admin', level: 'write' });
    expect(keepDraft).toHaveBeenCalledTimes(1);
  });

  it('opens with a kept draft over the account: dirty, so Cancel and a navigation ask', () => {
    const { actor } = startWithDrafts({ member: member('b'), keptDraft: { displayName: 'Typed before the reload', roles: { Admin: 'read' } } });
    expect(selectForm(actor.getSnapshot())).toMatchObject({ id: 'b', displayName: 'Typed before the reload', email: member('b').email, roles: { Admin: 'read' } });
    expect(actor.getSnapshot().context.formInitial.displayName).toBe(member('b').displayName);
    actor.send({ type: 'editor.cancel' });
    expect(selectIsDiscarding(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'editor.keep' });
    actor.send({ type: 'editor.navigate' });
    expect(selectIsConfirmingNavigation(actor.getSnapshot())).toBe(true);
    expect(selectIsConfirmingNavigation(undefined)).toBe(false);
  });
});

describe('staff dialog machine: every path', () => {
  const events = [
    { type: 'editor.field', field: 'displayName', value: '' },
    { type: 'editor.field', field: 'phoneNumber', value: '+15550100002' },
    { type: 'editor.role', area: 'Admin', level: 'write' },
    { type: 'editor.save' }, { type: 'editor.cancel' }, { type: 'editor.discard' }, { type: 'editor.keep' }, { type: 'editor.reload' },
    { type: 'editor.navigate' }, { type: 'editor.stay' }, { type: 'editor.leave' },
    { type: 'xstate.done.actor.saveStaff', output: { success: true, message: 'saved', staff: member('b') } },
    { type: 'xstate.error.actor.saveStaff', error: conflictError() },
    { type: 'xstate.error.actor.saveStaff', error: new Error('no') },
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) => {
    const c: StaffDialogContext = snapshot.context;
    return JSON.stringify([snapshot.value, Object.keys(formErrorsOf(c.form)).length, c.form.roles.Admin ?? '', c.form.phoneNumber, c.outcome.kind]);
  };
  itReachesEveryStateAndTransition(staffDialogMachine, {
    events,
    serializeState,
    input: { member: member('b'), grantable: ALL },
    logic: staffDialogMachine.provide({ actors: { saveStaff: pendingActor() } }),
  });
});
