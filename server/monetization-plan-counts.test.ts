/**
 * Issue 38: a plan's counts, each with one definition (common/plan-figures.ts), recomputed here from the
 * raw subscription rows of a generated world with that definition: Plans' "Subscriptions (all time)",
 * "Live subscriptions", "Paying subscribers", "On an earlier price" (also the editor's price note) and
 * "Moving at next renewal"; and the two that another page shows agree with it: Users under a plan
 * ("Subscribers on this plan") and under a plan with Subscription: Paying ("Paying subscribers").
 * Own database: the file reprices a plan and schedules moves.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { SUBSCRIPTION_STATE_RULES } from '../common/figures';
import { LIVE_SUBSCRIPTION_STATES, formatMoney } from '../common/monetization-rules';
import type { Plan } from '../common/monetization-contract';
import { DEMO_SITES } from './db/demo-accounts';
import { plans, subscriptions } from './db/schema';
import { seedSmallWorld } from './db/seed-world';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

interface GraphqlBody<T> {
  data: T | null;
  errors?: { message: string }[];
}

const PLAN = 'id name version status billingPeriod trialDays deviceLimit description prices { currency amount } priceVersion subscriptionCount payingSubscriptionCount payingSubscriberCount oldPriceSubscriptionCount movingAtRenewalCount';

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let t: TestApp;
let monetization: Session;
let support: Session;
let siteId: string;

async function gql<T>(session: Session, query: string, variables: Record<string, unknown> = {}) {
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session.headers, payload: { query, variables } });
  const body = res.json<GraphqlBody<T>>();
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const listPlans = async () => (await gql<{ plans: { items: Plan[] } }>(monetization, `query { plans(limit: 100) { items { ${PLAN} } } }`)).plans.items;

/** Users' result count for a plan, optionally with a subscription state (what the list says above its rows). */
const usersTotal = async (plan: string, state: string | null = null) =>
  (await gql<{ subscriberSearch: { total: number } }>(support, 'query($plan: String, $state: String) { subscriberSearch(query: "", plan: $plan, state: $state) { total } }', { plan, state })).subscriberSearch.total;

beforeAll(async () => {
  own = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: own.handle });
  await seedSmallWorld(t.db);
  const m = await t.createUser({ roles: { 'Subscriptions & Offers': 'write' }, prefix: 'counts-money' });
  const s = await t.createUser({ roles: { 'Customer Support': 'read' }, prefix: 'counts-support' });
  [monetization, support] = await Promise.all([t.login(m.username), t.login(s.username)]);
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
}, 180_000);

afterAll(async () => {
  await t?.close();
  await own?.drop();
});

describe('a plan\'s counts, each recomputed from the raw rows with its definition', () => {
  it('Subscriptions (all time), Live subscriptions, Paying subscribers, On an earlier price and Moving at next renewal; Users under the plan agrees', async () => {
    // Reprice the plan with the most live subscriptions, and schedule a few of them to move, so every count is non-trivial.
    const before = await listPlans();
    const busiest = [...before].sort((a, b) => b.payingSubscriptionCount - a.payingSubscriptionCount)[0]!;
    expect(busiest.payingSubscriptionCount).toBeGreaterThan(3);
    const raised = busiest.prices.map((p) => ({ currency: p.currency, amount: formatMoney(p.amount + 100, p.currency) }));
    await gql(monetization, 'mutation($id: ID!, $version: Int!, $input: PlanInput!) { planUpdate(id: $id, version: $version, input: $input) { id } }', {
      id: busiest.id, version: busiest.version,
      input: { name: busiest.name, description: busiest.description, prices: raised, billingPeriod: busiest.billingPeriod, trialDays: busiest.trialDays, deviceLimit: busiest.deviceLimit, status: busiest.status },
    });
    const liveOfBusiest = await t.db.select().from(subscriptions)
      .where(and(eq(subscriptions.planId, busiest.id), eq(subscriptions.status, 'active'))).limit(2);
    for (const s of liveOfBusiest) await t.db.update(subscriptions).set({ renewalPriceVersion: busiest.priceVersion + 1 }).where(eq(subscriptions.id, s.id));

    const rows = await t.db.select().from(subscriptions).where(eq(subscriptions.siteId, siteId));
    const planRows = await t.db.select().from(plans).where(eq(plans.siteId, siteId));
    const shown = await listPlans();
    expect(shown.map((p) => p.id).sort()).toEqual(planRows.map((p) => p.id).sort());
    const live = (s: typeof rows[number]) => (LIVE_SUBSCRIPTION_STATES as readonly string[]).includes(s.status);
    const paying = (s: typeof rows[number]) => (SUBSCRIPTION_STATE_RULES.paying.statuses as readonly string[]).includes(s.status);
    for (const plan of planRows) {
      const of = rows.filter((s) => s.planId === plan.id);
      const counts = shown.find((p) => p.id === plan.id)!;
      // Subscriptions (all time): every subscription of the plan, whatever its state.
      expect(counts.subscriptionCount, plan.name).toBe(of.length);
      // Live subscriptions: in trial, active or past due.
      expect(counts.payingSubscriptionCount, plan.name).toBe(of.filter(live).length);
      // Paying subscribers: people (each once) with an active or past-due subscription of the plan.
      expect(counts.payingSubscriberCount, plan.name).toBe(new Set(of.filter(paying).map((s) => s.subscriberId)).size);
      // On an earlier price: live, on a price version before the plan's current one, not moving to it.
      expect(counts.oldPriceSubscriptionCount, plan.name)
        .toBe(of.filter((s) => live(s) && s.priceVersion < plan.priceVersion && (s.renewalPriceVersion ?? 0) < plan.priceVersion).length);
      // Moving at next renewal: live, scheduled to the current price version.
      expect(counts.movingAtRenewalCount, plan.name).toBe(of.filter((s) => live(s) && s.renewalPriceVersion === plan.priceVersion).length);
    }
    const repriced = shown.find((p) => p.id === busiest.id)!;
    expect(repriced.movingAtRenewalCount).toBe(liveOfBusiest.length);
    expect(repriced.oldPriceSubscriptionCount).toBe(repriced.payingSubscriptionCount - liveOfBusiest.length);
    // Live subscriptions include trials; the paying subscribers do not (the two differ on a plan with trials).
    expect(repriced.payingSubscriptionCount).toBeGreaterThanOrEqual(repriced.payingSubscriberCount);

    // Users under the plan: subscribers with any subscription of the plan; under the plan and Paying: Plans' Paying subscribers.
    for (const plan of shown.filter((p) => p.subscriptionCount > 0).slice(0, 4)) {
      const of = rows.filter((s) => s.planId === plan.id);
      expect(await usersTotal(plan.id), plan.name).toBe(new Set(of.map((s) => s.subscriberId)).size);
      expect(await usersTotal(plan.id, 'paying'), plan.name).toBe(plan.payingSubscriberCount);
    }
  });
});
