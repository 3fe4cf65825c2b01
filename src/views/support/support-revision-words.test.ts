import { describe, expect, it } from 'vitest';
import { supportChangeInWords, supportRevisionInWords } from '../../../common/support-revision-words';
import { supportRevision } from '../../test-harness/support-fixtures';
import { describeChange } from '../shared/revision-text';

const PLAN_A = '3e9c0f4b-5d6a-4f8b-9c23-4d5e6f708192';
const PLAN_B = '4fad1a5c-6e7b-4a9c-8d34-5e6f708192a3';
const NAMES = { [PLAN_A]: 'Basic Monthly', [PLAN_B]: 'Premium' };
const lines = (changes: { field: string; before: unknown; after: unknown }[]) => changes.map((c) => describeChange(c, 'UTC', NAMES));

describe('support revisions in words', () => {
  it('a cancel at period end, a plan change and a resume read as the page says them, without book-keeping', () => {
    const revision = supportRevisionInWords(supportRevision({
      kind: 'subscription', objectId: 's1',
      changes: [
        { field: 'cancelAtPeriodEnd', before: false, after: true },
        { field: 'planId', before: PLAN_A, after: PLAN_B },
        { field: 'pendingPlanId', before: null, after: PLAN_B },
        { field: 'amount', before: 999, after: 1999 },
        { field: 'nextPaymentAdjustment', before: 0, after: -350 },
        { field: 'status', before: 'active', after: 'cancelled' },
        { field: 'endedAt', before: null, after: '2026-01-05T09:30:00.000Z' },
        { field: 'version', before: 1, after: 2 },
      ],
    }));
    expect(lines(revision.changes)).toEqual([
      'Cancels at period end: No → Yes',
      'Plan: Basic Monthly → Premium',
      'Plan from the next period: (empty) → Premium',
      'Price: 9.99 → 19.99',
      'Proration on the next payment: 0.00 → -3.50',
      'Status: Active → Cancelled',
      'Ended: (empty) → 5 Jan 2026, 09:30',
    ]);
  });

  it('a move at the next renewal reads as the price at the next renewal in the subscription\'s currency, its price version left out (issue 38)', () => {
    const revision = supportRevisionInWords(supportRevision({
      kind: 'subscription', objectId: 's1',
      changes: [{ field: 'renewalAmount', before: 1299, after: 1449 }, { field: 'renewalPriceVersion', before: null, after: 2 }],
    }), 'USD');
    expect(lines(revision.changes)).toEqual(['Price at next renewal: 12.99 USD → 14.49 USD']);
  });

  it('a refund reads its status word and the amount given back, in the payment\'s currency when named', () => {
    const revision = supportRevisionInWords(supportRevision({
      kind: 'payment', objectId: 'p1',
      changes: [{ field: 'status', before: 'succeeded', after: 'partially_refunded' }, { field: 'refundedAmount', before: 0, after: 499 }],
    }));
    expect(lines(revision.changes)).toEqual(['Status: Succeeded → Partly refunded', 'Refunded: 0.00 → 4.99']);
    expect(supportChangeInWords({ field: 'refundedAmount', before: 0, after: 500 }, 'JPY')).toEqual([{ field: 'Refunded', before: '0 JPY', after: '500 JPY' }]);
    // The payment's own currency, as the page read it, when the revision does not name one.
    const inEuro = supportRevisionInWords(supportRevision({ kind: 'payment', objectId: 'p1', changes: [{ field: 'refundedAmount', before: 0, after: 499 }] }), 'EUR');
    expect(lines(inEuro.changes)).toEqual(['Refunded: 0.00 EUR → 4.99 EUR']);
    // A currency the revision names wins over the page's.
    const named = supportRevisionInWords(supportRevision({
      kind: 'payment', objectId: 'p1', changes: [{ field: 'currency', before: 'USD', after: 'JPY' }, { field: 'refundedAmount', before: 0, after: 500 }],
    }), 'EUR');
    expect(lines(named.changes)).toEqual(['Refunded: 0 JPY → 500 JPY']);
  });

  it('leaves other kinds alone', () => {
    const staff = supportRevision({ kind: 'staff', objectId: 'u1', changes: [{ field: 'version', before: 1, after: 2 }] });
    expect(supportRevisionInWords(staff)).toBe(staff);
  });
});
