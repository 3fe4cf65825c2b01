/**
 * The rule for what an audit row's detail may hold: never a secret. Used by the rules
 * (server/domain/audit.ts) and by every audit write (server/db/audit-repository.ts).
 */
const SECRET_KEY = /pass|otp|code|token|secret|key|hash/i;

/** An audit detail without the keys that look like a secret (every audit write passes through it). */
export function scrubDetail(detail: Record<string, unknown> = {}): Record<string, unknown> {
  return Object.fromEntries(Object.entries(detail).filter(([k]) => !SECRET_KEY.test(k)));
}
