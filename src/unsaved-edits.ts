/**
 * The one guard of unsaved edits against a reload or a closed tab (issue 28): every page actor's
 * system is inspected (src/page-actors.tsx passes `trackUnsavedEdits` to each page machine it
 * starts), so every editor machine any page runs — a list page's editor, an editor page's, the
 * content detail — is known here; one `beforeunload` listener, installed once by src/main.tsx, asks
 * the browser to confirm while any of them says leaving would lose changes (`selectGuardsLeaving`:
 * active and dirty). The decision is the editor machine's; this only reads it. In-app navigations are
 * the router's leave guard (src/views/shared/use-editor-leave-guard.ts).
 */
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { selectGuardsLeaving, type EditorSnapshot } from '../machines/editor.machine';

/** The machine id of machines/editor.machine.ts (every provided variant keeps it). */
const EDITOR_MACHINE_ID = 'editor';

const editors = new Set<AnyActorRef>();

function isEditor(actor: AnyActorRef): boolean {
  const logic = (actor as { logic?: { id?: unknown; config?: unknown } }).logic;
  return !!logic && typeof logic === 'object' && 'config' in logic && logic.id === EDITOR_MACHINE_ID;
}

/** An inspection callback: remembers every editor machine started in the inspected system. */
export function trackUnsavedEdits(event: InspectionEvent): void {
  const actor = event.actorRef as AnyActorRef;
  if (event.type !== '@xstate.actor' || !isEditor(actor)) return;
  editors.add(actor);
}

/** Whether any live editor holds changes that leaving would lose (stopped editors are forgotten). */
export function hasUnsavedEdits(): boolean {
  let unsaved = false;
  for (const editor of editors) {
    const snapshot = editor.getSnapshot() as EditorSnapshot;
    if (snapshot.status !== 'active') editors.delete(editor);
    else if (selectGuardsLeaving(snapshot)) unsaved = true;
  }
  return unsaved;
}

/** Forgets every editor (tests). */
export function forgetEditors(): void {
  editors.clear();
}

/** Installs the one `beforeunload` listener: the browser asks first while an editor has unsaved changes. */
export function installUnsavedEditsGuard(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void {
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!hasUnsavedEdits()) return;
    event.preventDefault();
    // Older browsers ask only when returnValue is set.
    event.returnValue = '';
  };
  target.addEventListener('beforeunload', onBeforeUnload);
  return () => target.removeEventListener('beforeunload', onBeforeUnload);
}
