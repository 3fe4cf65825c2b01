/**
 * Issue 38: after "Move existing subscribers at their next renewal", a moved subscriber's page shows
 * the next payment at the plan's current price (in the subscription's currency), and each moved
 * subscription's History shows the move in words. The move of 420 subscriptions writes its 420
 * revisions in the move's transaction, in bulk. Own database: the file writes subscriptions of the
 * demo site.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { MONETIZATION_MESSAGES, type PlanInput } from '../common/monetization-rules';
import type { RevisionHistoryResponse } from '../common/revisions';
import { nextPaymentOf, type SubscriberDetail } from '../common/support';
import { supportRevisionInWords } from '../common/support-revision-words';
import { DEMO_SITES } from './db/demo-accounts';
import { networks, planPriceVersions, plans, revisions, subscribers, subscriptions } from './db/schema';
import { applyRenewalMoves } from './domain/monetization';
import { createMonetizationStore } from './db/stores';
import { injectRevisionFault } from './domain/revisions';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

interface GraphqlBody<T = Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary answer shapes
  data: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

const PLAN = 'id name version priceVersion prices { currency amount } oldPriceSubscriptionCount movingAtRenewalCount';
const DETAIL = 'subscriptions { id status amount currency nextPaymentAdjustment renewalAmount cancelAtPeriodEnd }';
const MOVED = 420;

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let t: TestApp;
let writer: Session;
let support: Session;
let siteId: string;
let networkId: string;

async function gql<T = Record<string, any>>(session: Session, query: string, variables: Record<string, unknown> = {}) { // eslint-disable-line @typescript-eslint/no-explicit-any -- see GraphqlBody
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session.headers, payload: { query, variables } });
  return res.json<GraphqlBody<T>>();
}

function planInput(name: string, usd: string, eur: string): PlanInput {
  return { name, description: '', prices: [{ currency: 'USD', amount: usd }, { currency: 'EUR', amount: eur }], billingPeriod: 'month', trialDays: 0, deviceLimit: 2, status: 'active' };
}

const moveAtRenewal = (id: string, version: number) =>
  gql(writer, `mutation($id: ID!, $version: Int!) { planMoveSubscribersAtRenewal(id: $id, version: $version) { moved plan { ${PLAN} } } }`, { id, version });

/** `n` subscribers, each with one subscription of the plan (every third in EUR), in one insert each. */
async function subscribeMany(planId: string, n: number, status = 'active') {
  const viewers = await t.db.insert(subscribers).values(Array.from({ length: n }, (_, i) => ({
    siteId, networkId, email: `move-${i}-${randomUUID()}@test.local`, name: `Mover ${i}`, country: 'US',
  }))).returning({ id: subscribers.id });
  const start = new Date(Date.now() - 10 * 86_400_000);
  const end = new Date(Date.now() + 20 * 86_400_000);
  return t.db.insert(subscriptions).values(viewers.map((v, i) => ({
    siteId, networkId, subscriberId: v.id, planId, status, startedAt: start, currentPeriodStart: start, currentPeriodEnd: end,
    currency: i % 3 === 0 ? 'EUR' : 'USD', amount: i % 3 === 0 ? 1199 : 1299,
  }))).returning();
}

async function repricedPlan() {
  const created = (await gql(writer, `mutation($input: PlanInput!) { planCreate(input: $input) { ${PLAN} } }`, { input: planInput(`Move ${randomUUID().slice(0, 8)}`, '12.99', '11.99') })).data!.planCreate;
  const subs = await subscribeMany(created.id, MOVED);
  const saved = (await gql(writer, `mutation($id: ID!, $version: Int!, $input: PlanInput!) { planUpdate(id: $id, version: $version, input: $input) { ${PLAN} } }`,
    { id: created.id, version: created.version, input: planInput(created.name, '14.49', '12.49') })).data!.planUpdate;
  return { plan: saved as { id: string; name: string; version: number; priceVersion: number }, subs };
}

beforeAll(async () => {
  own = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: own.handle });
  const w = await t.createUser({ roles: { 'Subscriptions & Offers': 'write' }, prefix: 'move-writer' });
  const s = await t.createUser({ roles: { 'Customer Support': 'read' }, prefix: 'move-support' });
  [writer, support] = await Promise.all([t.login(w.username), t.login(s.username)]);
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
  const [network] = await t.db.select().from(networks).where(and(eq(networks.siteId, siteId), eq(networks.isDefault, true)));
  networkId = network!.id;
}, 180_000);

afterAll(async () => {
  injectRevisionFault(null);
  await t?.close();
  await own?.drop();
});

describe('a subscription moved to the current price at its next renewal', () => {
  it('shows its next payment at the plan\'s current price in its currency, and its History shows the move in words', async () => {
    const { plan, subs } = await repricedPlan();
    const started = Date.now();
    const moved = await moveAtRenewal(plan.id, plan.version);
    const moveMs = Date.now() - started;
    expect(moved.data!.planMoveSubscribersAtRenewal).toMatchObject({ moved: MOVED, plan: { oldPriceSubscriptionCount: 0, movingAtRenewalCount: MOVED } });
    // 420 subscriptions and their revisions in one transaction stay quick (bulk inserts, not one per row).
    expect(moveMs).toBeLessThan(5_000);

    // One revision per moved subscription, in the move's request (the plan's own revision included).
    const revs = await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'subscription'), inArray(revisions.objectId, subs.map((s) => s.id))));
    expect(revs).toHaveLength(MOVED);
    const [planRevision] = await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'planPriceMove'), eq(revisions.objectId, plan.id)));
    expect(new Set(revs.map((r) => r.requestId))).toEqual(new Set([planRevision!.requestId]));

    // Recomputed from the raw rows: the plan's current price version, in each subscription's currency.
    const [current] = await t.db.select({ version: plans.priceVersion }).from(plans).where(eq(plans.id, plan.id));
    const [version] = await t.db.select().from(planPriceVersions).where(and(eq(planPriceVersions.planId, plan.id), eq(planPriceVersions.version, current!.version)));
    const priceIn = (currency: string) => version!.prices.find((p) => p.currency === currency)!.amount;
    expect([priceIn('USD'), priceIn('EUR')]).toEqual([1449, 1249]);
    for (const sub of [subs[0]!, subs[1]!, subs[MOVED - 1]!]) {
      const detail = (await gql<{ subscriber: SubscriberDetail }>(support, `query($id: ID!) { subscriber(id: $id) { ${DETAIL} } }`, { id: sub.subscriberId })).data!.subscriber;
      const row = detail.subscriptions.find((s) => s.id === sub.id)!;
      expect(row).toMatchObject({ amount: sub.amount, renewalAmount: priceIn(sub.currency), nextPaymentAdjustment: 0 });
      expect(nextPaymentOf(row)).toBe(priceIn(sub.currency));

      const res = await t.inject({ method: 'GET', url: `/v1/revisions/subscription/${sub.id}`, headers: support.headers });
      expect(res.statusCode).toBe(200);
      const history = res.json<RevisionHistoryResponse>();
      expect(history.items).toHaveLength(1);
      const words = supportRevisionInWords(history.items[0]!, sub.currency);
      expect(words.reason).toBe(MONETIZATION_MESSAGES.movedAtRenewalReason(plan.name));
      expect(words.changes).toEqual([{
        field: 'Price at next renewal',
        before: sub.currency === 'EUR' ? '11.99 EUR' : '12.99 USD',
        after: sub.currency === 'EUR' ? '12.49 EUR' : '14.49 USD',
      }]);
    }
  });

  it('at its renewal the subscription takes the new price, and its History says so without an actor', async () => {
    const { plan, subs } = await repricedPlan();
    await moveAtRenewal(plan.id, plan.version);
    const usd = subs.find((s) => s.currency === 'USD')!;
    await t.db.update(subscriptions).set({ currentPeriodEnd: new Date(Date.now() - 60_000) }).where(eq(subscriptions.id, usd.id));
    const applied = await applyRenewalMoves(createMonetizationStore(t.db), new Date());
    expect(applied.map((m) => m.id)).toEqual([usd.id]);

    const row = (await gql<{ subscriber: SubscriberDetail }>(support, `query($id: ID!) { subscriber(id: $id) { ${DETAIL} } }`, { id: usd.subscriberId })).data!.subscriber.subscriptions[0]!;
    expect(row).toMatchObject({ amount: 1449, renewalAmount: null });
    expect(nextPaymentOf(row)).toBe(1449);
    const history = (await t.inject({ method: 'GET', url: `/v1/revisions/subscription/${usd.id}`, headers: support.headers })).json<RevisionHistoryResponse>();
    expect(history.items).toHaveLength(2);
    const renewed = supportRevisionInWords(history.items[0]!, 'USD');
    expect(renewed).toMatchObject({ actor: null, reason: MONETIZATION_MESSAGES.renewedAtNewPrice, changes: [{ field: 'Price', before: '12.99 USD', after: '14.49 USD' }] });
  });

  it('a subscription not moved keeps its next payment at its own price and no renewal price', async () => {
    const { plan, subs } = await repricedPlan();
    const row = (await gql<{ subscriber: SubscriberDetail }>(support, `query($id: ID!) { subscriber(id: $id) { ${DETAIL} } }`, { id: subs[1]!.subscriberId })).data!.subscriber.subscriptions[0]!;
    expect(row).toMatchObject({ amount: 1299, renewalAmount: null });
    expect(nextPaymentOf(row)).toBe(1299);
    expect((await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'subscription'), eq(revisions.objectId, subs[1]!.id))))).toEqual([]);
    expect(plan.priceVersion).toBe(2);
  });

  it('a revision that cannot be written leaves no move: no subscription scheduled, no revision', async () => {
    const { plan, subs } = await repricedPlan();
    injectRevisionFault(() => { throw new Error('injected'); });
    try {
      const refused = await moveAtRenewal(plan.id, plan.version);
      expect(refused.errors).toBeDefined();
    } finally {
      injectRevisionFault(null);
    }
    const rows = await t.db.select().from(subscriptions).where(eq(subscriptions.planId, plan.id));
    expect(rows.every((s) => s.renewalPriceVersion === null && s.version === 1)).toBe(true);
    expect(await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'subscription'), inArray(revisions.objectId, subs.map((s) => s.id))))).toEqual([]);
  });
});
