/**
 * How Customer Support's revisions read in the History panel (the subscriber page): a subscription's
 * (`subscription`: cancel now / at period end, resume, plan change, days granted) and a payment's
 * (`payment`: refunds). Stored, they carry column names and minor units ({ cancelAtPeriodEnd: true,
 * refundedAmount: 499 }); here, in one place, they become an operator's words before the panel lists
 * them: each field under its label ("Cancels at period end: No → Yes", "Plan: Basic Monthly → Premium"
 * with the plan names the page passes, "Refunded: 0.00 → 4.99"). Book-keeping fields are left out.
 * Other kinds pass through unchanged.
 */
import { formatMoney } from './monetization-rules';
import type { Revision, RevisionChange } from './revisions';

/**
 * The label each support field is listed under. The label is the field name the panel receives (the
 * panel's fieldLabel reads an unknown name as words, so "Cancels at period end" stays as written);
 * `status` keeps its name so the panel reads its value as the status word.
 */
export const SUPPORT_REVISION_LABELS: Readonly<Record<string, string>> = {
  planId: 'Plan',
  pendingPlanId: 'Plan from the next period',
  amount: 'Price',
  /** Issue 38: "Move existing subscribers at their next renewal" (Monetization › Plans) moved it. */
  renewalAmount: 'Price at next renewal',
  nextPaymentAdjustment: 'Proration on the next payment',
  currentPeriodEnd: 'Period ends',
  cancelAtPeriodEnd: 'Cancels at period end',
  cancelledAt: 'Cancelled',
  endedAt: 'Ended',
  refundedAmount: 'Refunded',
};

/** Minor units, read as the currency's decimals (2 when the revision does not name its currency). */
const MONEY_FIELDS = new Set(['amount', 'renewalAmount', 'nextPaymentAdjustment', 'refundedAmount']);
/** Book-keeping; the price version a move schedules reads as its price (`renewalAmount`). */
const HIDDEN_FIELDS = new Set(['version', 'currency', 'renewalPriceVersion', 'priceVersion']);

/** "6.49 USD" (as the History writes a price), "500 JPY"; without a known currency two decimals and no code. */
function moneyWords(value: unknown, currency: string): unknown {
  if (typeof value !== 'number') return value;
  return currency ? `${formatMoney(value, currency)} ${currency}` : formatMoney(value, currency);
}

/** The currency a payment revision names (it records the payment's currency when it changes, else none). */
function currencyOf(revision: Revision): string {
  const change = revision.changes.find((c) => c.field === 'currency');
  const value = change?.after ?? change?.before;
  return typeof value === 'string' ? value : '';
}

/** One change of a support revision in words (none for book-keeping). */
export function supportChangeInWords(change: RevisionChange, currency = ''): RevisionChange[] {
  if (HIDDEN_FIELDS.has(change.field)) return [];
  const words = MONEY_FIELDS.has(change.field) ? (v: unknown) => moneyWords(v, currency) : (v: unknown) => v;
  const field = SUPPORT_REVISION_LABELS[change.field] ?? change.field;
  return [{ field, before: words(change.before), after: words(change.after) }];
}

/**
 * A revision as the subscriber page's History lists it: a subscription's or a payment's changes in
 * words; amounts in the revision's currency, else the object's as the page read it (`objectCurrency`).
 */
export function supportRevisionInWords(revision: Revision, objectCurrency = ''): Revision {
  if (revision.kind !== 'subscription' && revision.kind !== 'payment') return revision;
  const currency = currencyOf(revision) || objectCurrency;
  return { ...revision, changes: revision.changes.flatMap((c) => supportChangeInWords(c, currency)) };
}

/** What the subscriber page says around its Histories. */
export const SUPPORT_HISTORY_TEXT = {
  /** Words naming the object, after "History" (the region) and after "Show history" (the button). */
  subscription: (planName: string) => `of the ${planName} subscription`,
  payment: (when: string) => `of the payment of ${when}`,
  region: (about: string) => `History ${about}`,
} as const;
