/**
 * The Admin area's staff dialog (issue 18; its own machine since issue 26): the create/edit form of one
 * staff account with its role grid (area × level, capped by what the signed-in user may grant, issue 25),
 * field checks on Save, a question before unsaved changes are thrown away, and the conflict answer
 * when someone else changed the account first. The Staff page machine (staff-admin.machine.ts) invokes
 * it and decides what follows its outcome (saved → notice and list reload; reload → list reload).
 *
 *   editing → saving → closed (saved) | editing (message) | conflict → closed (reload | cancelled)
 *   editing → discarding → closed (cancelled) | editing
 *   editing → confirmingNavigation → closed (cancelled) | editing   (a navigation the dialog did not start, issue 38)
 *
 * Issue 38 ("nothing lost"): what was typed is kept as a draft (`keepDraft`, provided by the wiring file:
 * src/adapters/staff-dialog-draft.ts) on each change, dropped when the dialog closes however it closes
 * (`forgetDraft`); a reload reopens the dialog with it (`keptDraft` input, from the Staff page machine).
 * The draft holds the e-mail, name, mobile number, SMS setting and roles; a staff form has no password
 * (set through the one-time link), and the store drops any secret field anyway.
 *
 * An existing account's form also holds its History behind a disclosure (the `history` child,
 * history-disclosure.machine.ts: read-only, a staff account cannot be restored); a new one has none yet.
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import { machineTypes } from './machine-types';
import type { StaffChangeResponse, StaffMember } from '../common/admin-contract';
import type { AccessLevel, AreaName } from '../common/constants';
import type { Roles } from '../common/contract';
import { canSetLevel } from '../common/grant-cap';
import { ADMIN_MESSAGES } from '../common/messages';
import { smsCodeApplies } from '../common/second-factor-rule';
import { sameStaffForm, staffGuardsLeaving } from './staff-dialog-leaving';
import { historyDisclosureMachine, type HistoryDisclosureRef } from './history-disclosure.machine';
import { failureMessage } from './notify';
import { providedLater } from './unprovided';

export type FormField = 'email' | 'displayName' | 'phoneNumber' | 'twoFactorOnLogin';

export interface StaffForm {
  mode: 'create' | 'edit';
  id: string | null;
  version: number;
  email: string;
  displayName: string;
  phoneNumber: string;
  twoFactorOnLogin: boolean;
  roles: Roles;
}

export interface StaffDialogInput {
  /** The account to edit; null opens an empty form for a new account. */
  member: StaffMember | null;
  /** What the signed-in user may hand out (the list's answer). */
  grantable: Roles;
  /**
   * The site's second-factor rule is `required` (the list's answer, common/second-factor-rule.ts): the SMS
   * code then applies to every account, stays on and needs a mobile number.
   */
  smsRequiredBySite?: boolean;
  /** What was typed before a reload (issue 38), laid over the account's values: the form opens dirty. */
  keptDraft?: StaffDraftValues | null;
}

/** The typed values a staff draft keeps (never a secret: the form has none). */
export type StaffDraftValues = Partial<Pick<StaffForm, 'email' | 'displayName' | 'phoneNumber' | 'twoFactorOnLogin' | 'roles'>>;

/** One kept staff draft: which account (null = a new one), at which version, and its typed values. */
export interface StaffDraft {
  memberId: string | null;
  version: number;
  values: StaffDraftValues;
}

/** How the dialog ended: the page machine decides what follows. */
export type StaffDialogOutcome =
  | { kind: 'saved'; result: StaffChangeResponse }
  | { kind: 'reload' }
  | { kind: 'cancelled' };

export interface StaffDialogContext {
  form: StaffForm;
  formInitial: StaffForm;
  grantable: Roles;
  smsRequiredBySite: boolean;
  formErrors: Partial<Record<FormField, string>>;
  formError: string | null;
  outcome: StaffDialogOutcome;
}

export type StaffDialogEvent =
  | { type: 'editor.field'; field: FormField; value: string | boolean }
  | { type: 'editor.role'; area: AreaName; level: AccessLevel | 'none' }
  | { type: 'editor.save' }
  | { type: 'editor.cancel' }
  | { type: 'editor.discard' }
  | { type: 'editor.keep' }
  | { type: 'editor.reload' }
  | { type: 'editor.navigate' }
  | { type: 'editor.stay' }
  | { type: 'editor.leave' };

export interface SaveStaffInput { form: StaffForm }

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()-]{5,18}[0-9]$/;

export function phoneValid(value: string): boolean {
  return PHONE.test(value.trim());
}

/**
 * Whether the SMS second factor applies to the account (issue 30): its own two-factor setting or the
 * site's `required` rule. Only then is a mobile number required (the server checks the same rule).
 */
export function smsApplies(form: Pick<StaffForm, 'twoFactorOnLogin'>, smsRequiredBySite: boolean): boolean {
  return smsCodeApplies(form.twoFactorOnLogin, smsRequiredBySite ? 'required' : 'optional');
}

/** Field errors of a form, empty when it may be sent. */
export function formErrorsOf(form: StaffForm, smsRequiredBySite = false): Partial<Record<FormField, string>> {
  const errors: Partial<Record<FormField, string>> = {};
  if (form.mode === 'create') {
    if (!form.email.trim()) errors.email = ADMIN_MESSAGES.emailRequired;
    else if (!EMAIL.test(form.email.trim())) errors.email = ADMIN_MESSAGES.emailInvalid;
  }
  if (!form.displayName.trim()) errors.displayName = ADMIN_MESSAGES.displayNameRequired;
  if (form.phoneNumber.trim() === '') {
    if (smsApplies(form, smsRequiredBySite)) errors.phoneNumber = ADMIN_MESSAGES.phoneRequiredForSms;
  } else if (!phoneValid(form.phoneNumber)) errors.phoneNumber = ADMIN_MESSAGES.phoneInvalid;
  return errors;
}

const sameForm = sameStaffForm;

function formFor(member: StaffMember | null): StaffForm {
  if (!member) return { mode: 'create', id: null, version: 0, email: '', displayName: '', phoneNumber: '', twoFactorOnLogin: false, roles: {} };
  return {
    mode: 'edit', id: member.id, version: member.version, email: member.email, displayName: member.displayName,
    phoneNumber: member.phoneNumber, twoFactorOnLogin: member.twoFactorOnLogin, roles: { ...member.roles },
  };
}

function statusOf(error: unknown): number | undefined {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
  return typeof status === 'number' ? status : undefined;
}

/** The draft of the form as it is now (after the change just assigned). */
function draftOf({ context }: { context: StaffDialogContext }): { draft: StaffDraft } {
  const { email, displayName, phoneNumber, twoFactorOnLogin, roles } = context.form;
  return { draft: { memberId: context.form.id, version: context.form.version, values: { email, displayName, phoneNumber, twoFactorOnLogin, roles } } };
}

/** Every child by its id (its actor's name): `snapshot.children.history` is typed. */
type StaffDialogChildren = { history: 'history'; saveStaff: 'saveStaff' };

export const staffDialogMachine = setup({
  types: machineTypes<{ context: StaffDialogContext; events: StaffDialogEvent; children: StaffDialogChildren; input: StaffDialogInput; output: StaffDialogOutcome }>(),
  actors: {
    saveStaff: providedLater<StaffChangeResponse, SaveStaffInput>('saveStaff'),
    history: historyDisclosureMachine,
  },
  actions: {
    setField: assign(({ context }, params: { field: FormField; value: string | boolean }) => {
      const value = params.field === 'twoFactorOnLogin' ? params.value === true : String(params.value);
      const { [params.field]: _cleared, ...formErrors } = context.formErrors;
      void _cleared;
      return { form: { ...context.form, [params.field]: value }, formErrors };
    }),
    setRole: assign(({ context }, params: { area: AreaName; level: AccessLevel | 'none' }) => {
      const { [params.area]: _old, ...rest } = context.form.roles;
      void _old;
      const roles: Roles = params.level === 'none' ? rest : { ...rest, [params.area]: params.level };
      return { form: { ...context.form, roles } };
    }),
    showFormErrors: assign(({ context }) => ({ formErrors: formErrorsOf(context.form, context.smsRequiredBySite) })),
    storeFormError: assign((_, params: { error: unknown }) => ({ formError: failureMessage(params.error, ADMIN_MESSAGES.saveFailed) })),
    endSaved: assign((_, params: { result: StaffChangeResponse }) => ({ outcome: { kind: 'saved' as const, result: params.result } })),
    endReload: assign({ outcome: { kind: 'reload' } }),
    endCancelled: assign({ outcome: { kind: 'cancelled' } }),
    /** Keeps the typed form as the tab's draft (provided: src/adapters/staff-dialog-draft.ts). */
    keepDraft: (_, _params: { draft: StaffDraft }) => undefined,
    /** Drops the tab's staff draft (provided). */
    forgetDraft: () => undefined,
  },
  guards: {
    /** The grant cap (issue 25, common/grant-cap.ts): only levels the signed-in user may hand out. */
    canGrant: ({ context }, params: { area: AreaName; level: AccessLevel | 'none' }) =>
      canSetLevel(context.grantable, params.area, context.formInitial.roles[params.area], params.level),
    formValid: ({ context }) => Object.keys(formErrorsOf(context.form, context.smsRequiredBySite)).length === 0,
    formDirty: ({ context }) => !sameForm(context.form, context.formInitial),
    /** A stale version; other 409s (last Admin, e-mail taken) are messages for the form. */
    isConflict: (_, params: { error: unknown }) =>
      statusOf(params.error) === 409 && params.error instanceof Error && params.error.message === ADMIN_MESSAGES.conflict,
  },
}).createMachine({
  id: 'staffDialog',
  description: 'The create/edit dialog of one staff account: fields, the role grid, save, discard and conflict.',
  context: ({ input }) => {
    const formInitial = formFor(input.member);
    const form = { ...formInitial, ...input.keptDraft };
    return {
      form, formInitial, grantable: input.grantable, smsRequiredBySite: input.smsRequiredBySite === true,
      formErrors: {}, formError: null, outcome: { kind: 'cancelled' },
    };
  },
  // The account's History (closed until opened; none for a new account).
  invoke: { id: 'history', src: 'history', input: ({ context }) => ({ kind: 'staff' as const, objectId: context.form.id }) },
  initial: 'editing',
  output: ({ context }) => context.outcome,
  states: {
    editing: {
      description: 'The operator edits; field errors show after a save attempt.',
      on: {
        'editor.field': {
          actions: [{ type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) }, { type: 'keepDraft', params: draftOf }],
        },
        'editor.role': {
          guard: { type: 'canGrant', params: ({ event }) => ({ area: event.area, level: event.level }) },
          actions: [{ type: 'setRole', params: ({ event }) => ({ area: event.area, level: event.level }) }, { type: 'keepDraft', params: draftOf }],
        },
        // A navigation the dialog did not start (a link, Back): asks first when something was typed.
        'editor.navigate': { guard: 'formDirty', target: 'confirmingNavigation' },
        'editor.save': [
          { guard: 'formValid', target: 'saving' },
          { actions: 'showFormErrors' },
        ],
        'editor.cancel': [
          { guard: 'formDirty', target: 'discarding' },
          { target: 'closed', actions: 'endCancelled' },
        ],
      },
    },
    discarding: {
      description: 'Unsaved changes: the dialog asks before throwing them away.',
      on: {
        'editor.discard': { target: 'closed', actions: 'endCancelled' },
        'editor.keep': 'editing',
      },
    },
    confirmingNavigation: {
      description: 'A navigation away with unsaved changes: the dialog asks (Stay or Leave) before they are lost.',
      on: {
        'editor.leave': { target: 'closed', actions: 'endCancelled' },
        'editor.stay': 'editing',
      },
    },
    saving: {
      description: 'The form is with the server.',
      tags: ['saving'],
      invoke: {
        id: 'saveStaff',
        src: 'saveStaff',
        input: ({ context }) => ({ form: context.form }),
        onDone: { target: 'closed', actions: { type: 'endSaved', params: ({ event }) => ({ result: event.output }) } },
        onError: [
          { guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) }, target: 'conflict' },
          { target: 'editing', actions: { type: 'storeFormError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    conflict: {
      description: 'Someone else changed the account first: reload to see their values, or close.',
      tags: ['error'],
      on: {
        'editor.reload': { target: 'closed', actions: 'endReload' },
        'editor.cancel': { target: 'closed', actions: 'endCancelled' },
      },
    },
    closed: {
      description: 'The dialog is done; its outcome (saved, reload or cancelled) goes to the page; its draft is dropped.',
      type: 'final',
      entry: 'forgetDraft',
    },
  },
});

export type StaffDialogMachine = typeof staffDialogMachine;
export type StaffDialogSnapshot = SnapshotFrom<StaffDialogMachine>;

export const selectForm = (s: StaffDialogSnapshot | undefined) => (s && !s.matches('closed') ? s.context.form : null);
export const selectFormErrors = (s: StaffDialogSnapshot | undefined) => s?.context.formErrors ?? {};
export const selectFormError = (s: StaffDialogSnapshot | undefined) => s?.context.formError ?? null;
/** Whether the form must hold a mobile number: the SMS second factor applies to the account (issue 30). */
export const selectPhoneRequired = (s: StaffDialogSnapshot | undefined) =>
  s !== undefined && smsApplies(s.context.form, s.context.smsRequiredBySite);
/** The site's rule keeps the SMS code on: the form shows it on and locked (issue 30). */
export const selectSmsLocked = (s: StaffDialogSnapshot | undefined) => s?.context.smsRequiredBySite === true;
export const selectIsSaving = (s: StaffDialogSnapshot | undefined) => s?.hasTag('saving') === true;
export const selectIsDiscarding = (s: StaffDialogSnapshot | undefined) => s?.matches('discarding') === true;
export const selectIsConfirmingNavigation = (s: StaffDialogSnapshot | undefined) => s?.matches('confirmingNavigation') === true;
/** The one beforeunload guard's question (src/unsaved-edits.ts): would leaving now lose typed input? */
export const selectStaffGuardsLeaving = (s: StaffDialogSnapshot) => staffGuardsLeaving(s);
export const selectIsConflict = (s: StaffDialogSnapshot | undefined) => s?.matches('conflict') === true;
/** Whether the role grid offers `level` in `area` (the grant cap, issue 25). */
export const selectCanGrant = (s: StaffDialogSnapshot | undefined, area: AreaName, level: AccessLevel | 'none'): boolean =>
  s !== undefined && canSetLevel(s.context.grantable, area, s.context.formInitial.roles[area], level);
/** The account's History disclosure (undefined while no dialog is open). */
export const selectDialogHistory = (s: StaffDialogSnapshot | undefined): HistoryDisclosureRef | undefined => s?.children.history;
