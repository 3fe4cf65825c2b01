/**
 * How a revision reads in words (the History panel, issue 28): field names as labels, values as an
 * operator reads them (money with its currency, dates in the console's one format in the site's zone
 * (common/display-format.ts), yes/no, counts of linked records instead of their ids), never raw ids or JSON.
 */
import { fieldLabel, IMAGE_SET_WORDS, imageChangeWords, isImageField } from '../../../common/field-labels';
import type { RevisionChange } from '../../../common/revisions';
import { formatMoney } from '../../../common/monetization-rules';
import { formatDateTime } from '../../../common/display-format';
import { STATUS_WORDS_BY_CODE } from '../../../common/status-words';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const MAX_TEXT = 160;
const numberFormat = new Intl.NumberFormat('en-GB');

/** A field's label: the one mapping the audit log shares (common/field-labels.ts). */
export { fieldLabel };

const isPrice = (v: unknown): v is { currency: string; amount: number } =>
  typeof v === 'object' && v !== null && typeof (v as { currency?: unknown }).currency === 'string' && typeof (v as { amount?: unknown }).amount === 'number';

function linkedCount(field: string, count: number): string {
  const noun = field === 'planIds' ? 'plan' : field === 'offerIds' ? 'offer' : 'linked record';
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The names of linked records the page knows (an offer's plans, a coupon's offer), by id. */
export type LinkedNames = Readonly<Record<string, string>>;

/**
 * One value as words. `field` tells linked records (ids) from plain lists; dates read in `timeZone`
 * (the site's); a linked record the page knows reads its name (`names`), else what it is.
 */
export function formatValue(value: unknown, field = '', timeZone: unknown = 'UTC', names: LinkedNames = {}): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return Number.isFinite(value) ? numberFormat.format(value) : '(empty)';
  if (typeof value === 'string') {
    if (UUID.test(value)) return names[value] ?? (field === 'offerId' ? 'another offer' : field === 'seriesId' ? 'another series' : 'another record');
    // An image reads as there being one, never as its address (issue 38).
    if (isImageField(field)) return IMAGE_SET_WORDS;
    // A status reads its word, as in the lists ("Status: Draft → Published"), common/status-words.ts.
    if (/(^|\.)status$/.test(field) && Object.prototype.hasOwnProperty.call(STATUS_WORDS_BY_CODE, value)) return STATUS_WORDS_BY_CODE[value]!;
    if (ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) return formatDateTime(value, timeZone);
    return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    if (value.every(isPrice)) return value.map((p) => `${formatMoney(p.amount, p.currency)} ${p.currency}`).join(', ');
    if (value.every((v) => typeof v === 'string' && UUID.test(v))) {
      return value.every((id: string) => id in names) ? value.map((id: string) => names[id]).join(', ') : linkedCount(field, value.length);
    }
    return value.map((v) => formatValue(v, field, timeZone, names)).join(', ');
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([k]) => !UUID.test(k));
    if (entries.length === 0) return '(empty)';
    return entries.map(([k, v]) => `${fieldLabel(k)}: ${formatValue(v, k, timeZone, names)}`).join('; ');
  }
  return String(value);
}

/** "Price: 9.99 USD → 12.99 USD"; an image's change in a word ("Poster: changed"). */
export function describeChange(change: Pick<RevisionChange, 'field' | 'before' | 'after'>, timeZone: unknown = 'UTC', names: LinkedNames = {}): string {
  if (isImageField(change.field)) return `${fieldLabel(change.field)}: ${imageChangeWords(change.before, change.after) ?? 'unchanged'}`;
  return `${fieldLabel(change.field)}: ${formatValue(change.before, change.field, timeZone, names)} → ${formatValue(change.after, change.field, timeZone, names)}`;
}
