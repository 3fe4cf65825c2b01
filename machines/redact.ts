/**
 * Redaction for everything sent to the Stately inspector: passwords, OTPs and tokens never leave the
 * page. Pure: works on any value and returns a redacted copy.
 */
export const REDACTED = '[redacted]';

const SECRET_KEYS = /^(password|newPassword|confirmPassword|currentPassword|otp|code|accessToken|refreshToken|token|resetToken|idToken|apiKey|xApiKey|managementXApiKey|authorization|secret)$/i;

export function redactForInspector<T>(value: T, seen: WeakSet<object> = new WeakSet()): T {
  if (Array.isArray(value)) return value.map((item) => redactForInspector(item, seen)) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return value;
  seen.add(value);
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (SECRET_KEYS.test(key) && inner !== undefined && inner !== null && inner !== '') {
      out[key] = REDACTED;
    } else {
      out[key] = redactForInspector(inner, seen);
    }
  }
  return out as T;
}
