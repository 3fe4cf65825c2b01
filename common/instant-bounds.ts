/**
 * Issue 37 (item 8): the one range of instants every date input of the product accepts, in the browser
 * and on the server alike. A date outside it is refused with a message naming the field (a 400), never
 * sent to PostgreSQL (whose timestamptz cannot hold year 0, negative years or JavaScript's
 * +275760, and whose text output past 9999 does not read back as ISO 8601).
 *
 * The range: 1970-01-01T00:00:00Z ≤ t ≤ 9999-12-31T23:59:59.999Z, compared after conversion to UTC
 * (so `9999-12-31T23:00:00-05:00`, which is 10000-01-01T04:00Z, is outside). 1970 is the earliest
 * date any schedule, licence, offer or coupon of a streaming service needs; 9999 is the last year
 * ISO 8601 writes with four digits, the form every date of the product is shown and sent in.
 */

/** The earliest instant a date input may hold (epoch ms): 1970-01-01T00:00:00Z. */
export const INSTANT_MIN_MS = Date.UTC(1970, 0, 1, 0, 0, 0, 0);
/** The latest instant a date input may hold (epoch ms): 9999-12-31T23:59:59.999Z. */
export const INSTANT_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** How the range reads in a message. */
export const INSTANT_RANGE_TEXT = 'between 1970-01-01 and 9999-12-31 (UTC)';

export const INSTANT_MESSAGES = {
  /** `label`: the field's name as the form shows it ("Publish at", "Start"). */
  outOfRange: (label: string) => `${label} must be a date ${INSTANT_RANGE_TEXT}.`,
  /** The same, for a form whose date field has no label of its own in the message. */
  dateOutOfRange: `Enter a date ${INSTANT_RANGE_TEXT}.`,
} as const;

/** True when `ms` (epoch milliseconds) is a number inside the range. */
export function isInstantInRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= INSTANT_MIN_MS && ms <= INSTANT_MAX_MS;
}

/**
 * Reads a date text: 'invalid' when JavaScript cannot read it as a date, 'out_of_range' when it can
 * but the instant is outside the range, else the instant in epoch ms.
 */
export function readInstant(text: string): number | 'invalid' | 'out_of_range' {
  const ms = Date.parse(text.trim());
  if (Number.isNaN(ms)) return 'invalid';
  return isInstantInRange(ms) ? ms : 'out_of_range';
}
