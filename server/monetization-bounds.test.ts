/**
 * Issue 37, item 3: one bound for every amount of money (MONEY_MINOR_MAX, common/monetization-rules.ts).
 * Every money input of the management GraphQL endpoint (plan prices at create, a new price version
 * at update, fixed offer discounts at create and update, refunds; subscriptionChangePlan takes a
 * plan's price) is walked with the largest amount each kind of currency takes (0, 2 and 3 decimals):
 * accepted, and the plan list, the subscriber page and a plan change NOW still answer; and with one
 * minor unit more: a 400 BAD_USER_INPUT naming the field, and nothing stored.
 * Issue 37, item 8 (monetization side): offer and coupon dates outside the one range are refused the same way.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { INSTANT_MESSAGES } from '../common/instant-bounds';
import { MONETIZATION_MESSAGES, MONEY_MINOR_MAX, parseMoney } from '../common/monetization-rules';
import { DEMO_SITES } from './db/demo-accounts';
import { networks, payments, planPriceVersions, plans, subscribers, subscriptions } from './db/schema';
import { queryRows } from './db/seed-world';
import { createBareSite, createTestApp, type Session, type TestApp } from './test/kit';

interface GraphqlBody {
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary answer shapes
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string> } }[];
}

let t: TestApp;
let writer: Session;
let siteId: string;

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: writer.headers, payload: { query, variables } });
  return { status: res.statusCode, body: res.json<GraphqlBody>() };
}

/** The largest amount of each kind of currency, and one minor unit more. */
const BOUNDS = [
  { currency: 'USD', max: '21474836.47', over: '21474836.48' },
  { currency: 'JPY', max: '2147483647', over: '2147483648' },
  { currency: 'KWD', max: '2147483.647', over: '2147483.648' },
] as const;

const tag = () => randomUUID().slice(0, 8);
const planInput = (name: string, currency: string, amount: string) => ({
  name, description: '', prices: [{ currency, amount }], billingPeriod: 'month', trialDays: 0, deviceLimit: 2, status: 'active',
});
const offerInput = (name: string, planId: string, currency: string, discountValue: string, dates: { startsAt?: string; endsAt?: string } = {}) => ({
  name, discountType: 'fixed', discountValue, currency, planIds: [planId], startsAt: dates.startsAt ?? '2030-01-01T00:00:00.000Z', endsAt: dates.endsAt ?? '',
  eligibility: 'everyone', status: 'active',
});

const Q = {
  planCreate: 'mutation($input: PlanInput!) { planCreate(input: $input) { id version priceVersion prices { currency amount } } }',
  planUpdate: 'mutation($id: ID!, $version: Int!, $input: PlanInput!) { planUpdate(id: $id, version: $version, input: $input) { id version priceVersion prices { currency amount } } }',
  offerCreate: 'mutation($input: OfferInput!) { offerCreate(input: $input) { id version discountValue currency } }',
  offerUpdate: 'mutation($id: ID!, $version: Int!, $input: OfferInput!) { offerUpdate(id: $id, version: $version, input: $input) { id version discountValue } }',
  couponCreate: 'mutation($input: CouponInput!) { couponCreate(input: $input) { id expiresAt } }',
  refund: 'mutation($id: ID!, $amount: Int!, $version: Int!) { paymentRefund(paymentId: $id, amount: $amount, reason: "Bound test", version: $version) { payments { id amount refundedAmount } } }',
  changePlan: 'mutation($id: ID!, $planId: ID!, $version: Int!) { subscriptionChangePlan(subscriptionId: $id, planId: $planId, when: "NOW", reason: "Bound test", version: $version) { subscriptions { id amount nextPaymentAdjustment } } }',
  plans: '{ plans(limit: 100) { items { id prices { currency amount } } total } }',
  subscriber: 'query($id: ID!) { subscriber(id: $id) { planOptions { id prices { currency amount } } subscriptions { id amount } payments { id amount refundedAmount } } }',
};

async function count(table: string, where: ReturnType<typeof sql>): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.raw(`"${table}"`)} WHERE ${where}`);
  return Number(row!.n);
}

/** A refusal in the project's usual validation shape: 400, BAD_USER_INPUT, the field's message. */
function expectRefused(answer: { status: number; body: GraphqlBody }, fields: Record<string, string>) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.data).toBeNull();
  expect(answer.body.errors![0]!.extensions?.code).toBe('BAD_USER_INPUT');
  expect(answer.body.errors![0]!.extensions?.fields).toEqual(fields);
}

/** A subscriber of the demo site with a live USD subscription and a payment of the largest amount. */
async function subscriberWithPayment() {
  const [net] = await t.db.select().from(networks).where(and(eq(networks.siteId, siteId), eq(networks.isDefault, true)));
  const plan = await gql(Q.planCreate, { input: planInput(`Bound base ${tag()}`, 'USD', '9.99') });
  const [subscriber] = await t.db.insert(subscribers).values({
    siteId, networkId: net!.id, email: `bound-${tag()}@example.com`, name: `Bound ${tag()}`, phone: '+1 555 010 1234', country: 'US', status: 'active',
  }).returning();
  const now = Date.now();
  const [subscription] = await t.db.insert(subscriptions).values({
    siteId, networkId: net!.id, subscriberId: subscriber!.id, planId: plan.body.data!.planCreate.id, status: 'active', startedAt: new Date(now - 30 * 86_400_000),
    currentPeriodStart: new Date(now - 5 * 86_400_000), currentPeriodEnd: new Date(now + 25 * 86_400_000), amount: 999, currency: 'USD',
  }).returning();
  const [payment] = await t.db.insert(payments).values({
    siteId, networkId: net!.id, subscriberId: subscriber!.id, subscriptionId: subscription!.id, planId: subscription!.planId,
    amount: MONEY_MINOR_MAX, currency: 'USD', status: 'succeeded', method: 'card', at: new Date(now - 86_400_000),
  }).returning();
  return { subscriber: subscriber!, subscription: subscription!, payment: payment! };
}

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  const user = await t.createUser({ roles: { 'Subscriptions & Offers': 'write', 'Customer Support': 'write' }, prefix: 'bound-writer' });
  writer = await t.login(user.username);
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
});

afterAll(async () => {
  await t?.close();
});

describe('every money input at MONEY_MINOR_MAX and one more', () => {
  it.each(BOUNDS)('plan prices in $currency: created and re-priced at the bound; one more is refused naming the field, nothing stored', async ({ currency, max, over }) => {
    const refusedName = `Bound over ${tag()}`;
    expectRefused(await gql(Q.planCreate, { input: planInput(refusedName, currency, over) }), { 'prices.0.amount': MONETIZATION_MESSAGES.priceTooLarge(currency) });
    expect(await count('plans', sql`name = ${refusedName}`)).toBe(0);

    const created = await gql(Q.planCreate, { input: planInput(`Bound ${tag()}`, currency, max) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const plan = created.body.data!.planCreate as { id: string; version: number; priceVersion: number; prices: unknown[] };
    expect(plan.prices).toEqual([{ currency, amount: MONEY_MINOR_MAX }]);

    // A new price version (issue 30): another price, then the bound again; one more leaves plan and versions as they were.
    const cheaper = await gql(Q.planUpdate, { id: plan.id, version: plan.version, input: planInput(`Bound ${tag()}`, currency, '1') });
    const updated = cheaper.body.data!.planUpdate as { version: number; priceVersion: number };
    const versionsBefore = await count('plan_price_versions', sql`plan_id = ${plan.id}`);
    expectRefused(await gql(Q.planUpdate, { id: plan.id, version: updated.version, input: planInput('Renamed', currency, over) }), { 'prices.0.amount': MONETIZATION_MESSAGES.priceTooLarge(currency) });
    expect(await count('plan_price_versions', sql`plan_id = ${plan.id}`)).toBe(versionsBefore);
    expect(await count('plans', sql`id = ${plan.id} AND version = ${updated.version}`)).toBe(1);
    const repriced = await gql(Q.planUpdate, { id: plan.id, version: updated.version, input: planInput(`Bound ${tag()}`, currency, max) });
    expect(repriced.body.data!.planUpdate).toMatchObject({ priceVersion: updated.priceVersion + 1, prices: [{ currency, amount: MONEY_MINOR_MAX }] });
  });

  it.each(BOUNDS)('fixed offer discounts in $currency: created and updated at the bound; one more is refused naming the field, nothing stored', async ({ currency, max, over }) => {
    const plan = (await gql(Q.planCreate, { input: planInput(`Offer plan ${tag()}`, currency, max) })).body.data!.planCreate as { id: string };
    const refusedName = `Bound offer over ${tag()}`;
    expectRefused(await gql(Q.offerCreate, { input: offerInput(refusedName, plan.id, currency, over) }), { discountValue: MONETIZATION_MESSAGES.discountTooLarge(currency) });
    expect(await count('offers', sql`name = ${refusedName}`)).toBe(0);

    const created = await gql(Q.offerCreate, { input: offerInput(`Bound offer ${tag()}`, plan.id, currency, max) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const offer = created.body.data!.offerCreate as { id: string; version: number; discountValue: number };
    expect(offer.discountValue).toBe(MONEY_MINOR_MAX);
    const lower = await gql(Q.offerUpdate, { id: offer.id, version: offer.version, input: offerInput(`Bound offer ${tag()}`, plan.id, currency, '1') });
    const version = (lower.body.data!.offerUpdate as { version: number }).version;
    expectRefused(await gql(Q.offerUpdate, { id: offer.id, version, input: offerInput('Renamed', plan.id, currency, over) }), { discountValue: MONETIZATION_MESSAGES.discountTooLarge(currency) });
    expect(await count('offers', sql`id = ${offer.id} AND version = ${version} AND discount_value = ${parseMoney('1', currency)!}`)).toBe(1);
    const back = await gql(Q.offerUpdate, { id: offer.id, version, input: offerInput(`Bound offer ${tag()}`, plan.id, currency, max) });
    expect(back.body.data!.offerUpdate).toMatchObject({ discountValue: MONEY_MINOR_MAX });
  });

  it('refunds: the largest amount is refunded; one more is a 400 naming the amount, nothing written', async () => {
    const { subscriber, payment } = await subscriberWithPayment();
    const over = await gql(Q.refund, { id: payment.id, amount: MONEY_MINOR_MAX + 1, version: payment.version });
    expect(over.status).toBe(400);
    expect(over.body.errors![0]!.message).toMatch(/\$amount/);
    expect(await count('payment_refunds', sql`payment_id = ${payment.id}`)).toBe(0);
    const refunded = await gql(Q.refund, { id: payment.id, amount: MONEY_MINOR_MAX, version: payment.version });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.data!.paymentRefund.payments).toContainEqual({ id: payment.id, amount: MONEY_MINOR_MAX, refundedAmount: MONEY_MINOR_MAX });
    const page = await gql(Q.subscriber, { id: subscriber.id });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.errors).toBeUndefined();
  });

  it('with plans at the bound in every currency, the plan list and the subscriber page answer, and a plan change NOW to one succeeds', async () => {
    const top = await gql(Q.planCreate, { input: planInput(`Bound top ${tag()}`, 'USD', '21474836.47') });
    const topId = (top.body.data!.planCreate as { id: string }).id;
    const list = await gql(Q.plans);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.errors).toBeUndefined();
    const amounts = (list.body.data!.plans.items as { prices: { amount: number }[] }[]).flatMap((p) => p.prices.map((x) => x.amount));
    expect(amounts).toContain(MONEY_MINOR_MAX);

    const { subscriber, subscription } = await subscriberWithPayment();
    const page = await gql(Q.subscriber, { id: subscriber.id });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data!.subscriber.planOptions).toContainEqual({ id: topId, prices: [{ currency: 'USD', amount: MONEY_MINOR_MAX }] });

    const changed = await gql(Q.changePlan, { id: subscription.id, planId: topId, version: subscription.version });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const after = (changed.body.data!.subscriptionChangePlan.subscriptions as { id: string; amount: number; nextPaymentAdjustment: number }[]).find((s) => s.id === subscription.id)!;
    expect(after.amount).toBe(MONEY_MINOR_MAX);
    expect(after.nextPaymentAdjustment).toBeGreaterThan(0);
    expect(after.nextPaymentAdjustment).toBeLessThanOrEqual(MONEY_MINOR_MAX);
  });
});

describe('migration 0029: a price stored past the bound before issue 37', () => {
  it('is brought down to the bound, so the plan list answers again; other prices are kept', async () => {
    // A site of its own: the broken plan must not break another test's plan list meanwhile (the PostgreSQL pass shares one database).
    const siteName = `bound-legacy-${tag()}`;
    const legacySite = await createBareSite(t.db, siteName);
    const user = await t.createUser({ site: siteName, roles: { 'Subscriptions & Offers': 'read' }, prefix: 'bound-legacy' });
    const session = await t.login(user.username);
    const list = async () => {
      const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session.headers, payload: { query: Q.plans } });
      return { status: res.statusCode, body: res.json<GraphqlBody>() };
    };
    const [plan] = await t.db.insert(plans).values({
      siteId: legacySite, name: `Bound legacy ${tag()}`, prices: [{ currency: 'USD', amount: MONEY_MINOR_MAX + 1 }, { currency: 'EUR', amount: 999 }], billingPeriod: 'month', status: 'draft',
    }).returning();
    await t.db.insert(planPriceVersions).values({ planId: plan!.id, siteId: legacySite, version: 2, prices: [{ currency: 'USD', amount: 99_999_999_999 }] });
    expect((await list()).status).toBe(500);
    const migration = readFileSync(new URL('./db/migrations/0029_money_bounds.sql', import.meta.url), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) await t.db.execute(sql.raw(statement));
    const after = await list();
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect((after.body.data!.plans.items as { id: string; prices: unknown[] }[]).find((p) => p.id === plan!.id)!.prices)
      .toEqual([{ currency: 'USD', amount: MONEY_MINOR_MAX }, { currency: 'EUR', amount: 999 }]);
    const [version] = await t.db.select().from(planPriceVersions).where(and(eq(planPriceVersions.planId, plan!.id), eq(planPriceVersions.version, 2)));
    expect(version!.prices).toEqual([{ currency: 'USD', amount: MONEY_MINOR_MAX }]);
  });
});

describe('offer and coupon dates outside the one range (issue 37, item 8)', () => {
  const OUTSIDE = ['0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '9999-12-31T23:00:00-05:00'];

  it.each(OUTSIDE)('%s: offerCreate startsAt / endsAt and couponCreate expiresAt are refused naming the field, nothing stored', async (when) => {
    const plan = (await gql(Q.planCreate, { input: planInput(`Dates ${tag()}`, 'USD', '1') })).body.data!.planCreate as { id: string };
    const name = `Dates offer ${tag()}`;
    expectRefused(await gql(Q.offerCreate, { input: offerInput(name, plan.id, 'USD', '1', { startsAt: when }) }), { startsAt: INSTANT_MESSAGES.dateOutOfRange });
    expectRefused(await gql(Q.offerCreate, { input: offerInput(name, plan.id, 'USD', '1', { endsAt: when }) }), { endsAt: INSTANT_MESSAGES.dateOutOfRange });
    expect(await count('offers', sql`name = ${name}`)).toBe(0);
    const offer = (await gql(Q.offerCreate, { input: offerInput(name, plan.id, 'USD', '1') })).body.data!.offerCreate as { id: string };
    const code = `DATES${tag().toUpperCase()}`;
    const coupon = (expiresAt: string) => gql(Q.couponCreate, { input: { offerId: offer.id, code, maxRedemptions: '', maxPerSubscriber: '1', expiresAt, status: 'active' } });
    expectRefused(await coupon(when), { expiresAt: INSTANT_MESSAGES.dateOutOfRange });
    expect(await count('coupons', sql`code = ${code}`)).toBe(0);
  });

  it('the last instant of the range is accepted', async () => {
    const plan = (await gql(Q.planCreate, { input: planInput(`Dates ${tag()}`, 'USD', '1') })).body.data!.planCreate as { id: string };
    const offer = await gql(Q.offerCreate, { input: offerInput(`Dates ${tag()}`, plan.id, 'USD', '1', { startsAt: '1970-01-01T00:00:00Z', endsAt: '9999-12-31T23:59:59Z' }) });
    expect(offer.status, JSON.stringify(offer.body)).toBe(200);
    const coupon = await gql(Q.couponCreate, { input: { offerId: offer.body.data!.offerCreate.id, code: `LAST${tag().toUpperCase()}`, maxRedemptions: '', maxPerSubscriber: '1', expiresAt: '9999-12-31T18:59:59-05:00', status: 'active' } });
    expect(coupon.body.data!.couponCreate.expiresAt).toBe('9999-12-31T23:59:59.000Z');
  });
});
