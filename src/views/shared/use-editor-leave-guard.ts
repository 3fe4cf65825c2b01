/**
 * The router side of the editor machine's leave guard, for every page with an editor: navigations the
 * editor did not start (a tab link, the browser's back button, another row) ask
 * first while the editor says leaving would lose changes. The decision is the machine's
 * (`editor.navigate` → `confirmingNavigation`); the router only waits for its answer.
 */
import { useBlocker } from '@tanstack/react-router';
import { differsOnlyInListQuery } from '../../../common/list-search';
import type { ActorRefFrom, AnyActorRef, EventFrom, SnapshotFrom } from 'xstate';
import { selectIsConfirmingLeave, type EditorMachine } from '../../../machines/editor.machine';

/** How a form machine speaks the leave guard: the event that asks it, and the selector of its question. */
export interface LeaveProtocol<A extends AnyActorRef> {
  navigate: EventFrom<A>;
  isConfirming: (snapshot: SnapshotFrom<A>) => boolean;
  /**
   * For a form that keeps running after it is left (a page machine's dialog, a system actor's form): whether
   * the answer was Leave. Without it, a form that has left is one that is done.
   */
  hasLeft?: (snapshot: SnapshotFrom<A>) => boolean;
}

/**
 * The one leave guard (issue 38): for any form machine that answers a navigation it did not start by
 * asking (the editor's `editor.navigate`, Create New's `create.navigate`) and says when its question is
 * answered. The decision is the machine's; the router only waits for its answer.
 */
export function useLeaveGuard<A extends AnyActorRef>(actor: A, protocol: LeaveProtocol<A>, options: { samePage?: 'lets-through' } = {}): void {
  useBlocker({
    shouldBlockFn: ({ current, next }) => {
      // A page whose form stays on screen across its own address changes (Coupons' `?history=`)
      // lets those through: nothing is left.
      if (options.samePage === 'lets-through' && current.pathname === next.pathname) return false;
      // A list's query written into the address (its search, status or page; issue 38) leaves no form.
      if (current.pathname === next.pathname && differsOnlyInListQuery(current.search as Record<string, unknown>, next.search as Record<string, unknown>)) return false;
      // A form that has left (its own Close, Back or Cancel) no longer holds anything.
      if (actor.getSnapshot().status !== 'active') return false;
      actor.send(protocol.navigate);
      if (!protocol.isConfirming(actor.getSnapshot())) return false;
      return new Promise<boolean>((resolve) => {
        const subscription = actor.subscribe((snapshot: SnapshotFrom<A>) => {
          if (protocol.isConfirming(snapshot)) return;
          subscription.unsubscribe();
          // Stayed (still active): the navigation is blocked; left (done): it goes on.
          resolve(protocol.hasLeft ? !protocol.hasLeft(snapshot) : (snapshot as { status: string }).status === 'active');
        });
      });
    },
    // Reload and closing the tab: the one guard of src/unsaved-edits.ts, for every form of every page.
    enableBeforeUnload: false,
  });
}

export function useEditorLeaveGuard(editor: ActorRefFrom<EditorMachine>, options: { samePage?: 'lets-through' } = {}): void {
  useLeaveGuard(editor, { navigate: { type: 'editor.navigate' }, isConfirming: selectIsConfirmingLeave }, options);
}
