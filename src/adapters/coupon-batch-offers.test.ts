/**
 * Issue 38: a new coupon code is refused for an archived offer or one that has ended (the server's rule,
 * server/monetization.test.ts). The coupon form offers only the offers that take a new code, so an
 * operator is not led to that refusal: the rule (common/monetization-rules.ts offerTakesNewCodes) and the
 * form's record (batchRecord, the first open offer chosen).
 */
import { describe, expect, it } from 'vitest';
import type { Offer } from '../../common/monetization-contract';
import { offerTakesNewCodes } from '../../common/monetization-rules';
import { batchRecord } from './monetization-actors';

const NOW = Date.UTC(2026, 11, 6, 12);
const offer = (name: string, over: Partial<Offer>): Offer => ({
  id: `id-${name}`, name, discountType: 'percent', discountValue: 10, currency: null, planIds: [], startsAt: '2026-01-01T00:00:00.000Z',
  endsAt: null, eligibility: 'all', status: 'active', version: 1, duration: 'once', durationMonths: null, ...over,
});
const ENDED_IN_APRIL = offer('Spring', { endsAt: '2026-04-30T00:00:00.000Z' });
const ARCHIVED = offer('Old', { status: 'archived' });
const ARCHIVED_ENDED = offer('Old spring', { status: 'archived', endsAt: '2026-04-30T00:00:00.000Z' });
const OPEN = offer('Winter', { endsAt: '2027-01-31T00:00:00.000Z' });
const NO_END = offer('Always', {});
const DRAFT = offer('Next', { status: 'draft' });

describe('offers that take a new coupon code (issue 38)', () => {
  it('is every offer not archived and not ended, a draft included (as the server decides)', () => {
    expect(offerTakesNewCodes(OPEN, NOW)).toBe(true);
    expect(offerTakesNewCodes(NO_END, NOW)).toBe(true);
    expect(offerTakesNewCodes(DRAFT, NOW)).toBe(true);
    expect(offerTakesNewCodes(ENDED_IN_APRIL, NOW)).toBe(false);
    expect(offerTakesNewCodes(ARCHIVED, NOW)).toBe(false);
    expect(offerTakesNewCodes(ARCHIVED_ENDED, NOW)).toBe(false);
    // An offer ending at this very moment has ended.
    expect(offerTakesNewCodes(offer('Now', { endsAt: new Date(NOW).toISOString() }), NOW)).toBe(false);
  });

  it('the coupon form offers only those, the first of them chosen; none open: nothing chosen', () => {
    const record = batchRecord([ARCHIVED_ENDED, ENDED_IN_APRIL, OPEN, ARCHIVED, NO_END], null, null, NOW);
    expect((record.data as { offers: Offer[] }).offers.map((o) => o.name)).toEqual(['Winter', 'Always']);
    expect(record.values.offerId).toBe(OPEN.id);
    const none = batchRecord([ARCHIVED, ENDED_IN_APRIL], 3, null, NOW);
    expect(none.data).toEqual({ offers: [], generated: 3, created: null });
    expect(none.values.offerId).toBe('');
  });
});
