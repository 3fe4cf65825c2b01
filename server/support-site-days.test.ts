/**
 * Issue 38: the days a support write moves are the SITE's days. The domain names them from the instants
 * the write touches and the site's zone (`siteDaysMoved`, server/domain/support.ts); the repository
 * recomputes exactly the days it is given (server/db/support-repository.ts widens nothing). Runs on the
 * embedded PGlite and, in the PostgreSQL stage, on PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteDayOf } from '../common/site-day';
import { REFUND_STATUS } from './db/rollups';
import { dailyPaymentRollups, networks, paymentRefunds, payments, plans, sites, subscribers, subscriptions } from './db/schema';
import { createSubscriberRepository } from './db/support-repository';
import { refundPayment, siteDaysMoved, type SupportDeps } from './domain/support';
import { createBareSite, createTestApp, type TestApp } from './test/kit';

/** UTC+14: its day starts ten hours before UTC's; at 12:00 UTC it is already tomorrow there. */
const AHEAD = 'Pacific/Kiritimati';
/** UTC−11: at 05:00 UTC it is still yesterday there. */
const BEHIND = 'Pacific/Pago_Pago';

describe('the site\'s days a write moves (pure)', () => {
  it('are the site\'s days of the instants, in order, not their UTC days', () => {
    const noon = new Date('2026-11-30T12:00:00.000Z');
    expect(siteDaysMoved(AHEAD, { from: noon, to: noon })).toEqual({ from: '2026-12-01', to: '2026-12-01' });
    const early = new Date('2026-12-01T05:00:00.000Z');
    expect(siteDaysMoved(BEHIND, { from: early, to: early })).toEqual({ from: '2026-11-30', to: '2026-11-30' });
    expect(siteDaysMoved('UTC', { from: early, to: early })).toEqual({ from: '2026-12-01', to: '2026-12-01' });
    // A plan change from the subscription's start to now; a span given backwards is put in order.
    const start = new Date('2026-10-31T23:30:00.000Z');
    expect(siteDaysMoved(BEHIND, { from: start, to: early })).toEqual({ from: '2026-10-31', to: '2026-11-30' });
    expect(siteDaysMoved(AHEAD, { from: early, to: start })).toEqual({ from: '2026-11-01', to: '2026-12-01' });
  });
});

let t: TestApp;
let siteId: string;
let networkId: string;
beforeAll(async () => {
  t = await createTestApp();
  siteId = await createBareSite(t.db, `sitedays-${randomUUID().slice(0, 8)}`);
  await t.db.update(sites).set({ defaultTimezone: AHEAD }).where(eq(sites.id, siteId));
  const [network] = await t.db.insert(networks).values({ siteId, identifier: 'main', name: 'Main', image: '', isDefault: true }).returning();
  networkId = network!.id;
});
afterAll(async () => {
  await t?.close();
});

/** A subscriber with a paid charge on the bare site; returns the ids a refund needs. */
async function paidCharge(at: Date) {
  const [plan] = await t.db.insert(plans).values({ siteId, name: `Plan ${randomUUID().slice(0, 6)}`, prices: [{ currency: 'USD', amount: 1000 }], billingPeriod: 'month', status: 'active' }).returning();
  const [subscriber] = await t.db.insert(subscribers).values({
    siteId, networkId: networkId, email: `v-${randomUUID().slice(0, 8)}@example.com`, name: 'Site Days', phone: '', country: 'US', createdAt: new Date(at.getTime() - 40 * 86_400_000),
  }).returning();
  const [subscription] = await t.db.insert(subscriptions).values({
    siteId, networkId: networkId, subscriberId: subscriber!.id, planId: plan!.id, status: 'active', startedAt: new Date(at.getTime() - 40 * 86_400_000),
    currentPeriodStart: new Date(at.getTime() - 10 * 86_400_000), currentPeriodEnd: new Date(at.getTime() + 20 * 86_400_000), amount: 1000, currency: 'USD',
  }).returning();
  const [payment] = await t.db.insert(payments).values({
    siteId, networkId: networkId, subscriberId: subscriber!.id, subscriptionId: subscription!.id, planId: plan!.id,
    amount: 1000, currency: 'USD', status: 'succeeded', method: 'card', at: new Date(at.getTime() - 10 * 86_400_000),
  }).returning();
  return { networkId, planId: plan!.id, subscriberId: subscriber!.id, paymentId: payment!.id };
}

const refundRows = (planId: string) => t.db.select({ day: dailyPaymentRollups.day, amount: dailyPaymentRollups.amount }).from(dailyPaymentRollups)
  .where(and(eq(dailyPaymentRollups.siteId, siteId), eq(dailyPaymentRollups.planId, planId), eq(dailyPaymentRollups.status, REFUND_STATUS)));

describe('a refund on a site ahead of UTC (both databases)', () => {
  it('counts on the site\'s day, which the domain names; the repository refreshes that day only', async () => {
    // 12:00 UTC on 30 November is 02:00 on 1 December on the site.
    const now = new Date(Date.UTC(2026, 10, 30, 12, 0, 0));
    const siteToday = siteDayOf(now, AHEAD);
    expect(siteToday).toBe('2026-12-01');
    const f = await paidCharge(now);
    const store = createSubscriberRepository(t.db);
    const refreshed: string[][] = [];
    const spying: SupportDeps['store'] = {
      ...store,
      transaction: (work) => store.transaction((tx) => work({
        ...tx,
        refreshRollups: (site: string, day: string, lastDay?: string) => {
          refreshed.push([day, lastDay ?? day]);
          return tx.refreshRollups(site, day, lastDay);
        },
      })),
    };
    const deps: SupportDeps = { ...t.app.services.support, store: spying, now: () => now };
    await refundPayment(deps, { userId: randomUUID(), siteId, roles: { 'Customer Support': 'write' } }, { paymentId: f.paymentId, amount: 400, reason: 'Site days', version: 1 });
    expect(refreshed).toEqual([[siteToday, siteToday]]);
    expect(await refundRows(f.planId)).toEqual([{ day: siteToday, amount: 400 }]);
  });

  it('the repository recomputes exactly the days it is given: a stale neighbour stays as it was', async () => {
    const now = new Date(Date.UTC(2026, 10, 20, 12, 0, 0));
    const f = await paidCharge(now);
    // Two refunds written straight to the table (no refresh): one on the site's 20 November, one on its 21st.
    await t.db.insert(paymentRefunds).values([
      { siteId, networkId: f.networkId, subscriberId: f.subscriberId, paymentId: f.paymentId, planId: f.planId, amount: 100, currency: 'USD', reason: 'a', at: new Date(Date.UTC(2026, 10, 19, 12, 0, 0)) },
      { siteId, networkId: f.networkId, subscriberId: f.subscriberId, paymentId: f.paymentId, planId: f.planId, amount: 200, currency: 'USD', reason: 'b', at: now },
    ]);
    expect([siteDayOf(new Date(Date.UTC(2026, 10, 19, 12, 0, 0)), AHEAD), siteDayOf(now, AHEAD)]).toEqual(['2026-11-20', '2026-11-21']);
    const store = createSubscriberRepository(t.db);
    await store.transaction(async (tx) => {
      expect(await tx.siteTimeZone(siteId)).toBe(AHEAD);
      await tx.refreshRollups(siteId, '2026-11-21');
    });
    expect(await refundRows(f.planId)).toEqual([{ day: '2026-11-21', amount: 200 }]);
    await store.transaction((tx) => tx.refreshRollups(siteId, '2026-11-20', '2026-11-21'));
    expect((await refundRows(f.planId)).sort((a, b) => a.day.localeCompare(b.day))).toEqual([{ day: '2026-11-20', amount: 100 }, { day: '2026-11-21', amount: 200 }]);
  });
});
