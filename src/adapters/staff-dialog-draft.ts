/**
 * The staff dialog's draft I/O (issue 38): one draft per tab (one staff dialog is open at a time), in the
 * one draft store (./form-drafts.ts, session storage; any secret field is dropped there). The staff dialog
 * machine says when to keep and forget it; the Staff page machine reads it at start and decides whether
 * its dialog opens again.
 */
import { fromPromise } from 'xstate';
import type { StaffDraft, StaffDraftValues } from '../../machines/staff-dialog.machine';
import { forgetFormDraft, keepFormDraft, readFormDraft } from './form-drafts';

const KEY = 'staffDialog';
/** The account's id as a stored value: `new` for an account being created. */
const NEW = 'new';

export function keepStaffDraft(draft: StaffDraft): void {
  const { roles, ...fields } = draft.values;
  keepFormDraft(KEY, {
    version: draft.version,
    values: { ...fields, memberId: draft.memberId ?? NEW, roles: JSON.stringify(roles ?? {}) },
  });
}

export function readStaffDraft(): StaffDraft | null {
  const kept = readFormDraft(KEY);
  if (!kept || typeof kept.values.memberId !== 'string') return null;
  const { memberId, roles, email, displayName, phoneNumber, twoFactorOnLogin } = kept.values;
  const values: StaffDraftValues = {};
  if (typeof email === 'string') values.email = email;
  if (typeof displayName === 'string') values.displayName = displayName;
  if (typeof phoneNumber === 'string') values.phoneNumber = phoneNumber;
  if (typeof twoFactorOnLogin === 'boolean') values.twoFactorOnLogin = twoFactorOnLogin;
  if (typeof roles === 'string') {
    try {
      const parsed: unknown = JSON.parse(roles);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        values.roles = Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      }
    } catch {
      // An unreadable roles value: the draft opens with the account's roles.
    }
  }
  return { memberId: memberId === NEW ? null : memberId, version: kept.version, values };
}

export function forgetStaffDraft(): void {
  forgetFormDraft(KEY);
}

/** The staff machines' draft implementations (the Admin wiring file provides them). */
export const staffDraftActors = { readStaffDraft: fromPromise<StaffDraft | null>(async () => readStaffDraft()) };
export const staffDraftActions = {
  keepDraft: (_: unknown, params: { draft: StaffDraft }) => keepStaffDraft(params.draft),
  forgetDraft: () => forgetStaffDraft(),
};
