/**
 * Whether a support action's dialog would lose typed input if it were left now (issue 38). Kept apart from
 * machines/support-subscriber.machine.ts (whose states ask with it and re-export it) so the reload guard
 * (src/unsaved-edits.ts, part of the sign-in page's first load) does not load the subscriber page's machine.
 */

/** The typed part of an open action's form (reason, mode, days, note, plan, when, amount). */
export interface ActionFormValues {
  reason: string;
  mode: string;
  days: string;
  note: string;
  planId: string;
  when: string;
  amount: string;
}

export function sameActionForm(a: ActionFormValues, b: ActionFormValues): boolean {
  return a.reason === b.reason && a.mode === b.mode && a.days === b.days && a.note === b.note
    && a.planId === b.planId && a.when === b.when && a.amount === b.amount;
}

/** An action's form is open and differs from how it opened. */
export function supportGuardsLeaving(snapshot: { context: { draft: ActionFormValues | null; draftStart: ActionFormValues | null } }): boolean {
  const { draft, draftStart } = snapshot.context;
  return draft !== null && draftStart !== null && !sameActionForm(draft, draftStart);
}
