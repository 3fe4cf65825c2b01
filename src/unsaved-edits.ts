/**
 * The one guard of unsaved edits against a reload or a closed tab (issue 28): every page actor's
 * system is inspected (src/page-actors.tsx passes `trackUnsavedEdits` to each page machine it
 * starts), so every editor machine any page runs — a list page's editor, an editor page's, the
 * content detail — is known here; one `beforeunload` listener, installed once by src/main.tsx, asks
 * the browser to confirm while any of them says leaving would lose changes (`editorGuardsLeaving`, machines/editor-leaving.ts:
 * active and dirty). The decision is the editor machine's; this only reads it. In-app navigations are
 * the router's leave guard (src/views/shared/use-editor-leave-guard.ts).
 */
import type { AnyActorRef, InspectionEvent } from 'xstate';
// Not the form's machine: this module is part of the sign-in page's first load (bench/budget.json).
import { createGuardsLeaving } from '../machines/content-create-leaving';
import { editorGuardsLeaving } from '../machines/editor-leaving';
import { passwordGuardsLeaving } from '../machines/password-leaving';
import { staffGuardsLeaving } from '../machines/staff-dialog-leaving';
import { supportGuardsLeaving } from '../machines/support-subscriber-leaving';

/**
 * Each form machine the guard knows, by its machine id (every provided variant keeps it), with its
 * machine's own answer to "would leaving now lose typed input?".
 */
const GUARDS_LEAVING: Readonly<Record<string, (snapshot: never) => boolean>> = {
  editor: editorGuardsLeaving,
  // Create New (issue 38): its own form machine, not an editor over a stored record.
  contentCreate: createGuardsLeaving,
  // The Admin area's staff dialog (issue 38).
  staffDialog: staffGuardsLeaving,
  // A Customer Support action's dialog on the subscriber page (issue 38).
  subscriber: supportGuardsLeaving,
  // The password flows' new-password form: Change Password and the reset link's page (issue 38). They run
  // at the root, not on a page: src/main.tsx hands them to `installUnsavedEditsGuard`.
  forgotPassword: passwordGuardsLeaving,
};

const editors = new Map<AnyActorRef, (snapshot: never) => boolean>();

function guardOf(actor: AnyActorRef): ((snapshot: never) => boolean) | undefined {
  const logic = (actor as { logic?: { id?: unknown; config?: unknown } }).logic;
  if (!logic || typeof logic !== 'object' || !('config' in logic) || typeof logic.id !== 'string') return undefined;
  return Object.hasOwn(GUARDS_LEAVING, logic.id) ? GUARDS_LEAVING[logic.id] : undefined;
}

/** An inspection callback: remembers every form machine started in the inspected system. */
export function trackUnsavedEdits(event: InspectionEvent): void {
  const actor = event.actorRef as AnyActorRef;
  if (event.type !== '@xstate.actor') return;
  const guard = guardOf(actor);
  if (guard) editors.set(actor, guard);
}

/** Remembers form machines that run outside a page (the root's password flows). */
export function trackFormActors(actors: readonly AnyActorRef[]): void {
  for (const actor of actors) {
    const guard = guardOf(actor);
    if (guard) editors.set(actor, guard);
  }
}

/** Whether any live form holds changes that leaving would lose (stopped forms are forgotten). */
export function hasUnsavedEdits(): boolean {
  let unsaved = false;
  for (const [editor, guardsLeaving] of editors) {
    const snapshot = editor.getSnapshot() as { status: string };
    if (snapshot.status !== 'active') editors.delete(editor);
    else if (guardsLeaving(snapshot as never)) unsaved = true;
  }
  return unsaved;
}

/** Forgets every editor (tests). */
export function forgetEditors(): void {
  editors.clear();
}

/** Installs the one `beforeunload` listener: the browser asks first while an editor has unsaved changes. */
export function installUnsavedEditsGuard(target: Pick<Window, 'addEventListener' | 'removeEventListener'>, rootForms: readonly AnyActorRef[] = []): () => void {
  trackFormActors(rootForms);
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!hasUnsavedEdits()) return;
    event.preventDefault();
    // Older browsers ask only when returnValue is set.
    event.returnValue = '';
  };
  target.addEventListener('beforeunload', onBeforeUnload);
  return () => target.removeEventListener('beforeunload', onBeforeUnload);
}
