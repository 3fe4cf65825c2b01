/**
 * Whether the password flows' new-password form would lose typed input if it were left now (issue 38):
 * the form is open and a field holds text. Kept apart from machines/forgot-password.machine.ts (whose
 * `isTyped` guard asks the same of its context) so the reload guard (src/unsaved-edits.ts) does not load
 * the flow's machine. Every field is a secret: this only asks, nothing is kept.
 */
export interface PasswordFormValues {
  draft: { newPassword: string; confirmPassword: string };
  currentPassword: string;
}

/** Any of the form's fields typed. */
export function passwordTyped(context: PasswordFormValues): boolean {
  return context.draft.newPassword !== '' || context.draft.confirmPassword !== '' || context.currentPassword !== '';
}

/** The new-password form is open (any of its sub-states) and something is typed in it. */
export function passwordGuardsLeaving(snapshot: { value: unknown; context: PasswordFormValues }): boolean {
  const { value } = snapshot;
  const open = value === 'newPassword' || (typeof value === 'object' && value !== null && 'newPassword' in value);
  return open && passwordTyped(snapshot.context);
}

/** Some of a sign-in or reset code is typed (the 'Verify OTP' step asks before closing, issue 38; a code is never kept). */
export function codeTyped(code: string): boolean {
  return code !== '';
}
