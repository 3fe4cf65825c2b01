/** SQL of the audit_events table: one row per recorded event. What is recorded (and scrubbed) is server/domain/audit.ts. */
import { scrubDetail } from '../../common/audit-detail';
import type { Db } from './client';
import { RESTORE_ACTION_OF, RESTORED_REVISION_KEY } from '../../common/audit-actions';
import { currentRequestId, currentRestoreOf } from '../request-scope';
import { auditEvents } from './schema';

export type AuditEventValues = Pick<typeof auditEvents.$inferInsert, 'at' | 'action' | 'actorUserId' | 'siteId' | 'networkIdentifier' | 'detail'>
  /** The object the event touched (issue 28): kind, id and its name in words. */
  & Partial<Pick<typeof auditEvents.$inferInsert, 'objectKind' | 'objectId' | 'objectName' | 'requestId'>>;

/** Inserts one audit row, stamped with the current request's id; `db` may be a transaction, so the record commits with the change it describes. */
export async function insertAuditEvent(db: Pick<Db, 'insert'>, values: AuditEventValues): Promise<void> {
  await db.insert(auditEvents).values({ ...values, ...asRestore(values.action, values.detail), requestId: values.requestId ?? currentRequestId() });
}

/**
 * A save written by a restore from a History is audited as the restore (issue 38): the save's action
 * becomes its restore action (RESTORE_ACTION_OF, "Settings restored") and the detail names the revision
 * written back, so the row reads "Settings restored from #23". Anything else is kept as given.
 */
export function asRestore(action: string, detail: Record<string, unknown> | undefined): { action: string; detail: Record<string, unknown> } {
  const seq = currentRestoreOf();
  const restore = seq === null ? undefined : RESTORE_ACTION_OF[action];
  return restore ? { action: restore, detail: { ...detail, [RESTORED_REVISION_KEY]: seq } } : { action, detail: detail ?? {} };
}

/** The secret-dropping rule of audit details (common/audit-detail.ts), for the repositories that write audit rows. */
export { scrubDetail };
