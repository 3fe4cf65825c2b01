/**
 * The router side of the editor machine's leave guard, for every page with an editor: navigations the
 * editor did not start (a tab link, the browser's back button, another row) ask
 * first while the editor says leaving would lose changes. The decision is the machine's
 * (`editor.navigate` → `confirmingNavigation`); the router only waits for its answer.
 */
import { useBlocker } from '@tanstack/react-router';
import type { ActorRefFrom } from 'xstate';
import { selectIsConfirmingLeave, type EditorMachine } from '../../../machines/editor.machine';

export function useEditorLeaveGuard(editor: ActorRefFrom<EditorMachine>, options: { samePage?: 'lets-through' } = {}): void {
  useBlocker({
    shouldBlockFn: ({ current, next }) => {
      // A page whose editor stays on screen across its own address changes (Coupons' `?history=`)
      // lets those through: nothing is left.
      if (options.samePage === 'lets-through' && current.pathname === next.pathname) return false;
      // An editor that has left (its own Close or Back) no longer holds anything.
      if (editor.getSnapshot().status !== 'active') return false;
      editor.send({ type: 'editor.navigate' });
      if (!selectIsConfirmingLeave(editor.getSnapshot())) return false;
      return new Promise<boolean>((resolve) => {
        const subscription = editor.subscribe((snapshot) => {
          if (selectIsConfirmingLeave(snapshot)) return;
          subscription.unsubscribe();
          resolve(snapshot.status === 'active');
        });
      });
    },
    // Reload and closing the tab: the one guard of src/unsaved-edits.ts, for every editor of every page.
    enableBeforeUnload: false,
  });
}
