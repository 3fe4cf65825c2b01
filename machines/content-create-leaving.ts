/**
 * Whether Create New's form would lose typed input if it were left now (issue 38). Kept apart from
 * machines/content-create.machine.ts, which re-exports it as `hasTypedInput` / `selectCreateGuardsLeaving`,
 * so the reload guard (src/unsaved-edits.ts, part of the sign-in page's first load) does not load the
 * form's machine and its rules.
 */

/** The part of the form's context the answer reads. */
export interface CreateFormState {
  kind: string;
  openedWith: { kind: string; values: Readonly<Record<string, string>> };
  values: Readonly<Record<string, string>>;
  artwork: object;
}

/** Whether the form differs from how it opened (typed text, another kind, uploaded artwork). */
export function formHasTypedInput(context: CreateFormState): boolean {
  return context.kind !== context.openedWith.kind
    || Object.keys(context.values).some((field) => context.values[field] !== context.openedWith.values[field])
    || Object.keys(context.artwork).length > 0;
}

/** Whether leaving the page now would lose typed input (a page unload is held to ask): active, not created, typed. */
export function createGuardsLeaving(snapshot: { status: string; matches: (state: 'created') => boolean; context: CreateFormState }): boolean {
  return snapshot.status === 'active' && !snapshot.matches('created') && formHasTypedInput(snapshot.context);
}
