/**
 * Coupons show the expiry that applies (issue 27): their own, or their offer's end when that comes
 * first ("Expires never" for a code of an offer ending 2027-01-31 was wrong). The GraphQL coupon read
 * answers the offer's end beside the coupon's own expiry; common/monetization-rules.ts picks the earlier.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { couponExpiry, couponExpiryText } from '../common/monetization-rules';
import { DEMO_SITES } from './db/demo-accounts';
import { coupons, offers } from './db/schema';
import { createTestApp, type Session, type TestApp } from './test/kit';

let t: TestApp;
let reader: Session;
let offerId: string;
const prefix = `EXP${randomUUID().slice(0, 6).toUpperCase()}`;

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  const user = await t.createUser({ roles: { 'Subscriptions & Offers': 'read' }, prefix: 'coupon-expiry' });
  reader = await t.login(user.username);
  const site = await t.siteByName(DEMO_SITES.viewlift);
  const [offer] = await t.db.insert(offers).values({
    siteId: site.id, name: `Partner ${prefix}`, discountType: 'percent', discountValue: 25, planIds: [],
    startsAt: new Date('2026-01-01T00:00:00Z'), endsAt: new Date('2027-01-31T23:59:59Z'), eligibility: 'new', status: 'active',
  }).returning();
  offerId = offer!.id;
  await t.db.insert(coupons).values([
    { siteId: site.id, offerId, code: `${prefix}A`, expiresAt: null },
    { siteId: site.id, offerId, code: `${prefix}B`, expiresAt: new Date('2026-12-24T00:00:00Z') },
    { siteId: site.id, offerId, code: `${prefix}C`, expiresAt: new Date('2027-06-30T00:00:00Z') },
  ]);
});
afterAll(async () => t?.close());

describe('coupon expiry', () => {
  it('the coupon read answers the offer end beside the coupon expiry', async () => {
    const res = await t.inject({
      method: 'POST', url: API_PATHS.graphql, headers: reader.headers,
      payload: { query: 'query($offerId: ID) { coupons(offerId: $offerId, limit: 10) { items { code expiresAt offerEndsAt } } }', variables: { offerId } },
    });
    const items = (res.json() as { data: { coupons: { items: { code: string; expiresAt: string | null; offerEndsAt: string | null }[] } } }).data.coupons.items;
    const byCode = Object.fromEntries(items.map((c) => [c.code.slice(-1), c]));
    expect(byCode.A).toEqual({ code: `${prefix}A`, expiresAt: null, offerEndsAt: '2027-01-31T23:59:59.000Z' });
    expect(couponExpiryText(byCode.A!.expiresAt, byCode.A!.offerEndsAt, 'UTC')).toBe('31 Jan 2027 (offer ends)');
    // The day in the site's zone (common/display-format.ts): 23:59:59 UTC is already the next day in Tokyo.
    expect(couponExpiryText(byCode.A!.expiresAt, byCode.A!.offerEndsAt, 'Asia/Tokyo')).toBe('1 Feb 2027 (offer ends)');
    expect(couponExpiryText(byCode.B!.expiresAt, byCode.B!.offerEndsAt, 'UTC')).toBe('24 Dec 2026');
    expect(couponExpiryText(byCode.C!.expiresAt, byCode.C!.offerEndsAt, 'UTC')).toBe('31 Jan 2027 (offer ends)');
  });

  it('picks the earlier of the two; never only when neither is set', () => {
    expect(couponExpiry(null, null)).toEqual({ at: null, source: null });
    expect(couponExpiryText(null, null, 'UTC')).toBe('never');
    expect(couponExpiry('2026-01-01T00:00:00.000Z', null)).toEqual({ at: '2026-01-01T00:00:00.000Z', source: 'coupon' });
    expect(couponExpiry('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')).toEqual({ at: '2026-01-01T00:00:00.000Z', source: 'coupon' });
  });
});
