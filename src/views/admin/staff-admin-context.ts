/** The staff page's actor, reachable from every part of the page (table, dialogs) by context. */
import { createActorContext } from '@xstate/react';
import { staffAdminMachine } from '../../../machines/staff-admin.machine';
import { staffAdminAuditMachine } from '../../../machines/staff-admin-audit.machine';
import { setPasswordMachine } from '../../../machines/set-password.machine';

export const StaffAdminContext = createActorContext(staffAdminMachine);
export const AuditContext = createActorContext(staffAdminAuditMachine);
export const SetPasswordContext = createActorContext(setPasswordMachine);
