/**
 * Whether the staff dialog would lose typed input if it were left now (issue 38). Kept apart from
 * machines/staff-dialog.machine.ts (which uses `sameStaffForm` and re-exports the answer as
 * `selectStaffGuardsLeaving`) so the reload guard (src/unsaved-edits.ts, part of the sign-in page's first
 * load) does not load the dialog's machine.
 */
import { AREA_NAMES } from '../common/constants';
import type { Roles } from '../common/contract';

/** The part of a staff form the answer compares. */
export interface StaffFormValues {
  email: string;
  displayName: string;
  phoneNumber: string;
  twoFactorOnLogin: boolean;
  roles: Roles;
}

export function sameStaffForm(a: StaffFormValues, b: StaffFormValues): boolean {
  const rolesEqual = AREA_NAMES.every((area) => a.roles[area] === b.roles[area]);
  return rolesEqual && a.email === b.email && a.displayName === b.displayName && a.phoneNumber === b.phoneNumber && a.twoFactorOnLogin === b.twoFactorOnLogin;
}

/** Open (not closed) and its form differs from how it opened. */
export function staffGuardsLeaving(snapshot: { value: unknown; context: { form: StaffFormValues; formInitial: StaffFormValues } }): boolean {
  return snapshot.value !== 'closed' && !sameStaffForm(snapshot.context.form, snapshot.context.formInitial);
}
