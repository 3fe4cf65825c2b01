/**
 * Issue 37: the one bound of every amount (MONEY_MINOR_MAX) and the one range of every date input
 * (common/instant-bounds.ts), as the shared rules apply them in the browser and on the server.
 */
import { describe, expect, it } from 'vitest';
import { INSTANT_MAX_MS, INSTANT_MESSAGES, INSTANT_MIN_MS, readInstant } from './instant-bounds';
import {
  MONETIZATION_MESSAGES, MONEY_MINOR_MAX, formatMoney, moneyTextOverBound, parseInstant, parseMoney, validateCoupon, validateOffer, validatePlan,
} from './monetization-rules';

/** The largest amount each kind of currency takes, and one minor unit more. */
const AT_BOUND = [
  { currency: 'USD', max: '21474836.47', over: '21474836.48' },
  { currency: 'JPY', max: '2147483647', over: '2147483648' },
  { currency: 'KWD', max: '2147483.647', over: '2147483.648' },
] as const;

const plan = (currency: string, amount: string) => ({
  name: 'Plan', description: '', prices: [{ currency, amount }], billingPeriod: 'month', trialDays: 0, deviceLimit: 1, status: 'active',
});
const offer = (overrides: Record<string, string> = {}) => ({
  name: 'Offer', discountType: 'fixed', discountValue: '1', currency: 'USD', planIds: ['p'], startsAt: '2030-01-01T00:00:00Z', endsAt: '',
  eligibility: 'new', status: 'active', ...overrides,
});
const coupon = (expiresAt: string) => ({ offerId: 'o', code: 'SAVE10', maxRedemptions: '', maxPerSubscriber: '1', expiresAt, status: 'active' });

describe('MONEY_MINOR_MAX: the one bound of every amount', () => {
  it('is the largest signed 32-bit number: a GraphQL Int and a PostgreSQL integer hold it', () => {
    expect(MONEY_MINOR_MAX).toBe(2 ** 31 - 1);
  });

  it.each(AT_BOUND)('parses the largest $currency amount and refuses one minor unit more, with its own message', ({ currency, max, over }) => {
    expect(parseMoney(max, currency)).toBe(MONEY_MINOR_MAX);
    expect(formatMoney(MONEY_MINOR_MAX, currency)).toBe(max);
    expect(parseMoney(over, currency)).toBeNull();
    expect(moneyTextOverBound(over, currency)).toBe(true);
    expect(moneyTextOverBound(max, currency)).toBe(false);
    expect(validatePlan(plan(currency, max))).toEqual({});
    expect(validatePlan(plan(currency, over))).toEqual({ 'prices.0.amount': MONETIZATION_MESSAGES.priceTooLarge(currency) });
    expect(MONETIZATION_MESSAGES.priceTooLarge(currency)).toBe(`Enter an amount of at most ${max} ${currency}.`);
    expect(validateOffer(offer({ currency, discountValue: max }))).toEqual({});
    expect(validateOffer(offer({ currency, discountValue: over }))).toEqual({ discountValue: MONETIZATION_MESSAGES.discountTooLarge(currency) });
  });

  it('keeps the format message for text that is not an amount, however long', () => {
    expect(validatePlan(plan('USD', '9.999'))).toEqual({ 'prices.0.amount': MONETIZATION_MESSAGES.priceFormat('USD', 2) });
    expect(validatePlan(plan('USD', '1'.repeat(13)))).toEqual({ 'prices.0.amount': MONETIZATION_MESSAGES.priceFormat('USD', 2) });
    expect(validatePlan(plan('USD', '999999999999.99'))).toEqual({ 'prices.0.amount': MONETIZATION_MESSAGES.priceTooLarge('USD') });
  });
});

describe('the one range of date inputs', () => {
  it('is 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z', () => {
    expect(new Date(INSTANT_MIN_MS).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(new Date(INSTANT_MAX_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });

  it.each([
    ['0000-01-01T00:00:00Z', 'out_of_range'],
    ['-000001-01-01T00:00:00Z', 'out_of_range'],
    ['+275760-09-13T00:00:00Z', 'out_of_range'],
    ['9999-12-31T23:00:00-05:00', 'out_of_range'],
    ['1969-12-31T23:59:59.999Z', 'out_of_range'],
    ['tomorrow', 'invalid'],
  ])('refuses %s (%s)', (text, why) => {
    expect(readInstant(text)).toBe(why);
    expect(parseInstant(text)).toBeNull();
  });

  it.each(['1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '9999-12-31T18:59:59-05:00', '2026-06-01T12:00:00+02:00'])('accepts %s', (text) => {
    expect(readInstant(text)).toBe(Date.parse(text));
  });

  it('names the field in the offer and coupon forms, apart from a text that is not a date', () => {
    expect(validateOffer(offer({ startsAt: '0000-01-01T00:00:00Z', endsAt: '+275760-09-13T00:00:00Z' }))).toEqual({
      startsAt: INSTANT_MESSAGES.dateOutOfRange, endsAt: INSTANT_MESSAGES.dateOutOfRange,
    });
    expect(validateOffer(offer({ startsAt: 'soon' }))).toEqual({ startsAt: MONETIZATION_MESSAGES.dateFormat });
    expect(validateCoupon(coupon('9999-12-31T23:00:00-05:00'))).toEqual({ expiresAt: INSTANT_MESSAGES.dateOutOfRange });
    expect(validateCoupon(coupon('9999-12-31T23:59:59Z'))).toEqual({});
  });
});
