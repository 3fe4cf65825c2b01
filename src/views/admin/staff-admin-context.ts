/**
 * The Staff page's actor (started by StaffPage with `usePageActor('staff')`), reachable from every part
 * of the page (table, dialogs) by context; its children (the list, the open dialog) are selected from
 * its snapshot.
 */
import { useSelector } from '@xstate/react';
import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectStaffDialog, selectStaffList, type StaffAdminMachine, type StaffAdminSnapshot } from '../../../machines/staff-admin.machine';

export type StaffPageRef = ActorRefFrom<StaffAdminMachine>;

export const StaffPageContext = createContext<StaffPageRef | null>(null);

export function useStaffPage(): StaffPageRef {
  const page = useContext(StaffPageContext);
  if (!page) throw new Error('useStaffPage must be used inside <StaffPageContext.Provider>');
  return page;
}

/** A value selected from the Staff page's own snapshot. */
export function useStaffSelector<T>(selector: (snapshot: StaffAdminSnapshot) => T): T {
  return useSelector(useStaffPage(), selector);
}

/** The table's list child and the open dialog's child (undefined while none is open). */
export function useStaffList() {
  return useStaffSelector(selectStaffList);
}
export function useStaffDialog() {
  return useStaffSelector(selectStaffDialog);
}
