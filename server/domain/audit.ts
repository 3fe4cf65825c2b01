/**
 * Audit trail (audit_events). Never records secrets: detail keys that look like one are dropped.
 */
import { scrubDetail } from '../../common/audit-detail';
import type { AuditEventValues } from './rows';

export { scrubDetail };

type AuditAction =
  | 'login.success'
  | 'login.failure'
  | 'login.otp_required'
  | 'otp.issued'
  | 'otp.verify_failed'
  | 'otp.verified'
  | 'logout'
  | 'password.reset_token_issued'
  | 'password.reset'
  | 'password.reset_failed'
  | (string & {});

export interface AuditEvent {
  action: AuditAction;
  actorUserId?: string | null;
  siteId?: string | null;
  networkIdentifier?: string | null;
  detail?: Record<string, unknown>;
  /** The object the event touched (issue 28): its kind, id and name in words. */
  objectKind?: string | null;
  objectId?: string | null;
  objectName?: string | null;
}

export interface AuditLog {
  record(event: AuditEvent): Promise<void>;
}

export function createAuditLog(insert: (values: AuditEventValues) => Promise<void>, onError: (error: unknown) => void = () => undefined): AuditLog {
  return {
    async record(event) {
      try {
        await insert({
          at: new Date(),
          action: event.action,
          actorUserId: event.actorUserId ?? null,
          siteId: event.siteId ?? null,
          networkIdentifier: event.networkIdentifier ?? null,
          detail: scrubDetail(event.detail),
          objectKind: event.objectKind ?? null,
          objectId: event.objectId ?? null,
          objectName: event.objectName ?? null,
        });
      } catch (error) {
        // An audit write failure must not turn a good request into a 500.
        onError(error);
      }
    },
  };
}
