/**
 * Redaction for everything sent to the Stately inspector: passwords, OTPs and tokens never leave the
 * page. Pure: works on any value and returns a redacted copy.
 */
export const REDACTED = '[redacted]';

const SECRET_KEYS = /(password|token|apikey|secret|authorization)$|^(otp|code)$/i;

export const CIRCULAR = '[circular]';

/** `ancestors` holds the objects on the current path only, so a shared (non-cyclic) object is redacted each time it appears. */
export function redactForInspector<T>(value: T, ancestors: WeakSet<object> = new WeakSet()): T {
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return CIRCULAR as T;
  ancestors.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((item) => redactForInspector(item, ancestors));
  } else {
    const record: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      record[key] = SECRET_KEYS.test(key) && inner !== undefined && inner !== null && inner !== ''
        ? REDACTED
        : redactForInspector(inner, ancestors);
    }
    out = record;
  }
  ancestors.delete(value);
  return out as T;
}
