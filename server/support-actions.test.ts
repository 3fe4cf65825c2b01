/**
 * Customer Support, issue 29: the search by any word of the name, phone tail and subscription or
 * payment id, with the plan and state of each result; resume a subscription cancelling at period end;
 * change plan now (prorated onto the next payment) or at period end; refund a payment in full or in
 * part, counted on the refund's day by the Payments report. Roles, site isolation, validation, and
 * refusals that write nothing (no row, revision or audit entry).
 * Each test works on subscribers it creates (unique names and e-mails), so the shared PostgreSQL run stays clean.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { OWN_MESSAGES } from '../common/messages';
import { REPORTS_PATH, isoDay, type ReportAnswer } from '../common/reports';
import { siteDayOf } from '../common/site-day';
import {
  SUPPORT_AUDIT_ACTIONS, SUPPORT_MESSAGES, prorationOf, subscriptionStateOf, type SubscriberDetail, type SubscriberSearchPage,
} from '../common/support';
import { DEMO_SITES } from './db/demo-accounts';
import { siteTimeZone } from './db/rollups';
import {
  auditEvents, dailyPaymentRollups, networks, paymentRefunds, payments, plans, revisions, subscribers, subscriptions,
} from './db/schema';
import { createTestApp, type Session, type TestApp } from './test/kit';

interface GraphqlBody<T> {
  data: T | null;
  errors?: { message: string; extensions?: { code?: string; param?: string } }[];
}

const DETAIL = `
  profile { id name planName subscriptionState version }
  subscriptions { id planId planName status amount currency currentPeriodStart currentPeriodEnd cancelAtPeriodEnd cancelledAt pendingPlanName nextPaymentAdjustment version }
  payments { id status amount refundedAmount currency version }
  planOptions { id name billingPeriod prices { currency amount } }
`;
const SEARCH = `query subscriberSearch($query: String!, $state: String, $plan: String) {
  subscriberSearch(query: $query, state: $state, plan: $plan) { total items { id name planName subscriptionState } }
}`;
const SUBSCRIBER = `query subscriber($id: ID!) { subscriber(id: $id) { ${DETAIL} } }`;
const CANCEL = `mutation subscriptionCancel($subscriptionId: ID!, $mode: String!, $reason: String!, $version: Int!) {
  subscriptionCancel(subscriptionId: $subscriptionId, mode: $mode, reason: $reason, version: $version) { ${DETAIL} }
}`;
const RESUME = `mutation subscriptionResume($subscriptionId: ID!, $reason: String!, $version: Int!) {
  subscriptionResume(subscriptionId: $subscriptionId, reason: $reason, version: $version) { ${DETAIL} }
}`;
const CHANGE_PLAN = `mutation subscriptionChangePlan($subscriptionId: ID!, $planId: ID!, $when: String!, $reason: String!, $version: Int!) {
  subscriptionChangePlan(subscriptionId: $subscriptionId, planId: $planId, when: $when, reason: $reason, version: $version) { ${DETAIL} }
}`;
const REFUND = `mutation paymentRefund($paymentId: ID!, $amount: Int!, $reason: String!, $version: Int!) {
  paymentRefund(paymentId: $paymentId, amount: $amount, reason: $reason, version: $version) { ${DETAIL} }
}`;

const DAY_MS = 86_400_000;
const REASON = 'Viewer asked on the phone';

let t: TestApp;
let support: Session;
let reader: Session;
let contentOnly: Session;
let northwindSupport: Session;

async function graphql<T>(session: Session | null, query: string, variables: Record<string, unknown>) {
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session?.headers ?? {}, payload: { query, variables } });
  return { status: res.statusCode, body: res.json<GraphqlBody<T>>() };
}

interface Fixture {
  siteId: string;
  planId: string;
  otherPlanId: string;
  subscriberId: string;
  subscriptionId: string;
  paymentId: string;
  failedPaymentId: string;
  name: string;
  periodStart: Date;
  periodEnd: Date;
}

/** One subscriber with a live monthly subscription (USD 10.00, a 30-day period 10 days in), a succeeded and a failed payment, and a second plan (USD 20.00). */
async function createSubscriber(siteName: string, options: { name?: string; phone?: string } = {}): Promise<Fixture> {
  const site = await t.siteByName(siteName);
  const [network] = await t.db.select().from(networks).where(and(eq(networks.siteId, site.id), eq(networks.isDefault, true)));
  if (!network) throw new Error('no default network');
  const tag = randomUUID().slice(0, 8);
  const [plan, other] = await t.db.insert(plans).values([
    { siteId: site.id, name: `Basic ${tag}`, prices: [{ currency: 'USD', amount: 1000 }], billingPeriod: 'month', status: 'active' },
    { siteId: site.id, name: `Premium ${tag}`, prices: [{ currency: 'USD', amount: 2000 }, { currency: 'EUR', amount: 1900 }], billingPeriod: 'month', status: 'active' },
  ]).returning();
  const now = Date.now();
  const name = options.name ?? `Viewer ${tag}`;
  const [subscriber] = await t.db.insert(subscribers).values({
    siteId: site.id, networkId: network.id, email: `viewer-${tag}@example.com`, name, phone: options.phone ?? '+1 (555) 010-4321',
    country: 'US', createdAt: new Date(now - 40 * DAY_MS),
  }).returning();
  const periodStart = new Date(now - 10 * DAY_MS);
  const periodEnd = new Date(now + 20 * DAY_MS);
  const [subscription] = await t.db.insert(subscriptions).values({
    siteId: site.id, networkId: network.id, subscriberId: subscriber!.id, planId: plan!.id, status: 'active',
    startedAt: new Date(now - 40 * DAY_MS), currentPeriodStart: periodStart, currentPeriodEnd: periodEnd, amount: 1000, currency: 'USD',
  }).returning();
  const [paid, failed] = await t.db.insert(payments).values([
    { siteId: site.id, networkId: network.id, subscriberId: subscriber!.id, subscriptionId: subscription!.id, planId: plan!.id, amount: 1000, currency: 'USD', status: 'succeeded', method: 'card', at: periodStart },
    { siteId: site.id, networkId: network.id, subscriberId: subscriber!.id, subscriptionId: subscription!.id, planId: plan!.id, amount: 1000, currency: 'USD', status: 'failed', method: 'card', at: new Date(now - 11 * DAY_MS) },
  ]).returning();
  return {
    siteId: site.id, planId: plan!.id, otherPlanId: other!.id, subscriberId: subscriber!.id, subscriptionId: subscription!.id,
    paymentId: paid!.id, failedPaymentId: failed!.id, name, periodStart, periodEnd,
  };
}

const search = async (session: Session, variables: Record<string, unknown>) => {
  const res = await graphql<{ subscriberSearch: SubscriberSearchPage }>(session, SEARCH, variables);
  expect(res.status, JSON.stringify(variables)).toBe(200);
  return res.body.data!.subscriberSearch;
};
const ids = async (session: Session, query: string) => (await search(session, { query })).items.map((i) => i.id);
const detail = async (id: string) => (await graphql<{ subscriber: SubscriberDetail }>(support, SUBSCRIBER, { id })).body.data!.subscriber;
const auditsOf = (objectId: string) => t.db.select().from(auditEvents).where(eq(auditEvents.objectId, objectId));
const revisionsOf = (objectId: string) => t.db.select().from(revisions).where(eq(revisions.objectId, objectId));

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  const northwindAgent = await t.createUser({ site: DEMO_SITES.northwind, roles: { 'Customer Support': 'write' }, prefix: 'nw-support29' });
  [support, reader, contentOnly, northwindSupport] = await Promise.all([
    t.login('support@demo.test'),
    t.login('support-reader@demo.test'),
    t.login('content@demo.test'),
    t.login(northwindAgent.username, northwindAgent.password),
  ]);
});

afterAll(async () => {
  await t?.close();
});

describe('search by any part of the name, phone tail, subscription and payment id (issue 29)', () => {
  it('finds a customer by the last name alone, by first and last in any order, and by the start of a word', async () => {
    const tag = randomUUID().replace(/[^a-f]/g, 'x').slice(0, 6);
    const f = await createSubscriber(DEMO_SITES.viewlift, { name: `Priya${tag} Taylor${tag}` });
    for (const query of [`taylor${tag}`, `TAYLOR${tag}`, `priya${tag} taylor${tag}`, `taylor${tag} priya${tag}`, `tay`.concat('lor', tag.slice(0, 3))]) {
      expect(await ids(support, query), query).toContain(f.subscriberId);
    }
    // Every word must match: a last name with someone else's first name finds nobody.
    expect(await ids(support, `anna${tag} taylor${tag}`)).toEqual([]);
  });

  it('finds a name written with a hyphen, a dot or digits by each of its words (migration 0027)', async () => {
    const digits = String(100000 + Math.floor(Math.random() * 899999));
    const tag = randomUUID().replace(/[^a-f]/g, 'x').slice(0, 6);
    const f = await createSubscriber(DEMO_SITES.viewlift, { name: `Pager${tag}-${digits} Ann.Lee${tag}` });
    // PostgreSQL's parser alone reads '-123456' as a signed number and 'ann.lee' as a host name.
    for (const query of [digits, `pager${tag} ${digits}`, `pager${tag}-${digits}`, `${digits.slice(0, 3)}`, `lee${tag}`, `ann.lee${tag}`, `ann lee${tag}`]) {
      expect(await ids(support, query), query).toContain(f.subscriberId);
    }
    // Still every word: a word the name does not have finds nobody.
    expect(await ids(support, `pager${tag} 9${digits}`)).toEqual([]);
    // Letters of any script are words as they are.
    const g = await createSubscriber(DEMO_SITES.viewlift, { name: `José${tag} Müller${tag}-Łukasz${tag}` });
    for (const query of [`josé${tag}`, `łukasz${tag}`, `müller${tag}`]) expect(await ids(support, query), query).toContain(g.subscriberId);
  });

  it('shows the plan and the state of the current subscription on each result, and filters by state and plan', async () => {
    const tag = randomUUID().replace(/[^a-f]/g, 'x').slice(0, 6);
    const f = await createSubscriber(DEMO_SITES.viewlift, { name: `Stateful${tag} Row` });
    const [item] = (await search(support, { query: `stateful${tag}` })).items;
    expect(item).toMatchObject({ id: f.subscriberId, planName: (await detail(f.subscriberId)).subscriptions[0]!.planName, subscriptionState: 'paying' });
    expect(item!.planName).toMatch(/^Basic /);
    await graphql(support, CANCEL, { subscriptionId: f.subscriptionId, mode: 'AT_PERIOD_END', reason: REASON, version: 1 });
    expect((await search(support, { query: `stateful${tag}` })).items[0]!.subscriptionState).toBe('cancelling');
    expect((await search(support, { query: `stateful${tag}`, state: 'cancelling', plan: f.planId })).total).toBe(1);
    expect((await search(support, { query: `stateful${tag}`, state: 'paying', plan: f.otherPlanId })).total).toBe(0);
    expect(subscriptionStateOf('active', false)).toBe('paying');
    expect(subscriptionStateOf('expired', false)).toBe('expired');
  });

  it('finds by the phone\'s last four digits (the ones the mask shows) but not by a longer tail', async () => {
    const digits = String(1000 + Math.floor(Math.random() * 9000));
    const f = await createSubscriber(DEMO_SITES.viewlift, { phone: `+1 (555) 913-${digits}` });
    expect(await ids(support, digits)).toContain(f.subscriberId);
    expect(await ids(support, `3${digits}`)).not.toContain(f.subscriberId);
    expect(await ids(support, `+1 555 913 ${digits}`)).toContain(f.subscriberId);
  });

  it('finds by a whole subscription id and a whole payment id, only in the caller\'s site', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    expect(await ids(support, f.subscriptionId)).toEqual([f.subscriberId]);
    expect(await ids(support, f.paymentId.toUpperCase())).toEqual([f.subscriberId]);
    expect(await ids(northwindSupport, f.subscriptionId)).toEqual([]);
    expect(await ids(northwindSupport, f.paymentId)).toEqual([]);
  });

  it('a local part needs at least three characters', async () => {
    const site = await t.siteByName(DEMO_SITES.viewlift);
    const [network] = await t.db.select().from(networks).where(and(eq(networks.siteId, site.id), eq(networks.isDefault, true)));
    const tag = randomUUID().slice(0, 6);
    const [short] = await t.db.insert(subscribers).values({
      siteId: site.id, networkId: network!.id, email: `q@${tag}.example`, name: `Short ${tag}`, country: 'US',
    }).returning();
    expect(await ids(support, 'q')).not.toContain(short!.id);
    expect(await ids(support, `q@${tag}.example`)).toEqual([short!.id]);
  });
});

describe('resume a subscription cancelling at period end', () => {
  it('renews again: cancel flag and cancellation cleared, audited with its reason and recorded as a revision', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    await graphql(support, CANCEL, { subscriptionId: f.subscriptionId, mode: 'AT_PERIOD_END', reason: REASON, version: 1 });
    const res = await graphql<{ subscriptionResume: SubscriberDetail }>(support, RESUME, { subscriptionId: f.subscriptionId, reason: 'Changed their mind', version: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data!.subscriptionResume.subscriptions[0]).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, cancelledAt: null, version: 3 });
    const audits = (await auditsOf(f.subscriptionId)).filter((a) => a.action === SUPPORT_AUDIT_ACTIONS.resumeSubscription);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.detail).toMatchObject({ reason: 'Changed their mind', before: { cancelAtPeriodEnd: true }, after: { cancelAtPeriodEnd: false, version: 3 } });
    const revs = await revisionsOf(f.subscriptionId);
    expect(revs.map((r) => r.reason)).toContain('Changed their mind');
    const again = await graphql(support, RESUME, { subscriptionId: f.subscriptionId, reason: 'Changed their mind', version: 3 });
    expect(again.status).toBe(409);
    expect(again.body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.notCancelling);
  });

  it('is refused to the read-only agent and another site (404), with bad input named; none of these writes anything', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    await graphql(support, CANCEL, { subscriptionId: f.subscriptionId, mode: 'AT_PERIOD_END', reason: REASON, version: 1 });
    const revsBefore = (await revisionsOf(f.subscriptionId)).length;
    const auditsBefore = (await auditsOf(f.subscriptionId)).length;
    const readOnly = await graphql(reader, RESUME, { subscriptionId: f.subscriptionId, reason: REASON, version: 2 });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.errors?.[0]?.message).toBe(OWN_MESSAGES.forbidden);
    expect((await graphql(contentOnly, RESUME, { subscriptionId: f.subscriptionId, reason: REASON, version: 2 })).status).toBe(403);
    const crossSite = await graphql(northwindSupport, RESUME, { subscriptionId: f.subscriptionId, reason: REASON, version: 2 });
    expect(crossSite.status).toBe(404);
    const noReason = await graphql(support, RESUME, { subscriptionId: f.subscriptionId, reason: ' ', version: 2 });
    expect(noReason.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', param: 'reason' });
    const badId = await graphql(support, RESUME, { subscriptionId: 'nope', reason: REASON, version: 2 });
    expect(badId.body.errors?.[0]?.extensions?.param).toBe('subscriptionId');
    const stale = await graphql(support, RESUME, { subscriptionId: f.subscriptionId, reason: REASON, version: 1 });
    expect(stale.status).toBe(409);
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, f.subscriptionId));
    expect(row).toMatchObject({ cancelAtPeriodEnd: true, version: 2 });
    expect(await revisionsOf(f.subscriptionId)).toHaveLength(revsBefore);
    expect(await auditsOf(f.subscriptionId)).toHaveLength(auditsBefore);
  });
});

describe('change plan', () => {
  it('now: the new plan and price at once, the proration (new − old) × time left ÷ period added to the next payment', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const before = Date.now();
    const res = await graphql<{ subscriptionChangePlan: SubscriberDetail }>(support, CHANGE_PLAN, {
      subscriptionId: f.subscriptionId, planId: f.otherPlanId, when: 'NOW', reason: 'Wants 4K', version: 1,
    });
    const after = Date.now();
    expect(res.status).toBe(200);
    const s = res.body.data!.subscriptionChangePlan.subscriptions[0]!;
    expect(s).toMatchObject({ planId: f.otherPlanId, amount: 2000, pendingPlanName: null, version: 2 });
    // 20 of 30 days left: two thirds of the 10.00 difference, 6.67 (to the cent, whatever the test's own seconds).
    const bounds = [prorationOf(1000, 2000, f.periodStart.getTime(), f.periodEnd.getTime(), after), prorationOf(1000, 2000, f.periodStart.getTime(), f.periodEnd.getTime(), before)];
    expect(s.nextPaymentAdjustment).toBeGreaterThanOrEqual(bounds[0]!);
    expect(s.nextPaymentAdjustment).toBeLessThanOrEqual(bounds[1]!);
    expect(s.nextPaymentAdjustment).toBe(667);
    const [audit] = (await auditsOf(f.subscriptionId)).filter((a) => a.action === SUPPORT_AUDIT_ACTIONS.changePlan);
    expect(audit!.detail).toMatchObject({ when: 'NOW', planId: f.otherPlanId, proration: 667, reason: 'Wants 4K' });
    expect((await revisionsOf(f.subscriptionId)).map((r) => r.reason)).toEqual(['Wants 4K']);
    // Back down: a credit of the same size, so the next payment's adjustment is back to 0.
    const down = await graphql<{ subscriptionChangePlan: SubscriberDetail }>(support, CHANGE_PLAN, {
      subscriptionId: f.subscriptionId, planId: f.planId, when: 'NOW', reason: 'Changed their mind', version: 2,
    });
    expect(down.body.data!.subscriptionChangePlan.subscriptions[0]!.nextPaymentAdjustment).toBe(0);
  });

  it('now, in a free trial: no proration (nothing was paid for the period); the next payment is the new plan\'s price (issue 38)', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    await t.db.update(subscriptions).set({ status: 'trialing', trialEndsAt: f.periodEnd }).where(eq(subscriptions.id, f.subscriptionId));
    const res = await graphql<{ subscriptionChangePlan: SubscriberDetail }>(support, CHANGE_PLAN, {
      subscriptionId: f.subscriptionId, planId: f.otherPlanId, when: 'NOW', reason: 'Wants 4K in trial', version: 1,
    });
    expect(res.status).toBe(200);
    expect(res.body.data!.subscriptionChangePlan.subscriptions[0]).toMatchObject({ planId: f.otherPlanId, amount: 2000, nextPaymentAdjustment: 0 });
    const [audit] = (await auditsOf(f.subscriptionId)).filter((a) => a.action === SUPPORT_AUDIT_ACTIONS.changePlan);
    expect(audit!.detail).toMatchObject({ when: 'NOW', proration: 0 });
  });

  it('now: the subscription takes the new plan\'s current price version, and a renewal move pending from the old plan is dropped', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    await t.db.update(plans).set({ priceVersion: 3 }).where(eq(plans.id, f.otherPlanId));
    await t.db.update(subscriptions).set({ renewalPriceVersion: 2 }).where(eq(subscriptions.id, f.subscriptionId));
    const res = await graphql<{ subscriptionChangePlan: SubscriberDetail }>(support, CHANGE_PLAN, {
      subscriptionId: f.subscriptionId, planId: f.otherPlanId, when: 'NOW', reason: 'Wants 4K', version: 1,
    });
    expect(res.status).toBe(200);
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, f.subscriptionId));
    expect(row).toMatchObject({ planId: f.otherPlanId, priceVersion: 3, renewalPriceVersion: null, amount: 2000, version: 2 });
  });

  it('at period end: kept as the pending plan, price and plan unchanged until the renewal', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const res = await graphql<{ subscriptionChangePlan: SubscriberDetail }>(support, CHANGE_PLAN, {
      subscriptionId: f.subscriptionId, planId: f.otherPlanId, when: 'AT_PERIOD_END', reason: 'Upgrade next month', version: 1,
    });
    const s = res.body.data!.subscriptionChangePlan.subscriptions[0]!;
    expect(s).toMatchObject({ planId: f.planId, amount: 1000, nextPaymentAdjustment: 0, version: 2 });
    expect(s.pendingPlanName).toMatch(/^Premium /);
    expect(res.body.data!.subscriptionChangePlan.planOptions.map((p) => p.id)).toEqual(expect.arrayContaining([f.planId, f.otherPlanId]));
  });

  it('refuses an inactive plan, a plan without a price in the currency, the same plan, another site\'s plan and a bad `when`, writing nothing', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const [archived, euroOnly] = await t.db.insert(plans).values([
      { siteId: f.siteId, name: `Old ${f.planId.slice(0, 4)}`, prices: [{ currency: 'USD', amount: 500 }], billingPeriod: 'month', status: 'archived' },
      { siteId: f.siteId, name: `Euro ${f.planId.slice(0, 4)}`, prices: [{ currency: 'EUR', amount: 500 }], billingPeriod: 'month', status: 'active' },
    ]).returning();
    const theirs = await createSubscriber(DEMO_SITES.northwind);
    const attempt = (planId: string, when = 'NOW', session = support) =>
      graphql(session, CHANGE_PLAN, { subscriptionId: f.subscriptionId, planId, when, reason: REASON, version: 1 });
    expect((await attempt(archived!.id)).body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.planNotActive);
    expect((await attempt(euroOnly!.id)).body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.noPriceInCurrency(euroOnly!.name, 'USD'));
    expect((await attempt(f.planId)).body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.samePlan);
    const other = await attempt(theirs.otherPlanId);
    expect(other.status).toBe(404);
    expect(other.body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.planNotFound);
    expect((await attempt(f.otherPlanId, 'TOMORROW')).body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.badWhen, extensions: { param: 'when' } });
    expect((await attempt(f.otherPlanId, 'NOW', reader)).status).toBe(403);
    expect((await attempt(f.otherPlanId, 'NOW', northwindSupport)).status).toBe(404);
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, f.subscriptionId));
    expect(row).toMatchObject({ planId: f.planId, pendingPlanId: null, version: 1 });
    expect(await revisionsOf(f.subscriptionId)).toEqual([]);
    expect(await auditsOf(f.subscriptionId)).toEqual([]);
  });
});

describe('refund a payment', () => {
  /** The Payments report of one day in USD, read as admin@demo.test (support@demo.test has no Dashboard 360 role). */
  const paymentReport = async (day: string) => {
    const admin = await t.login('admin@demo.test');
    const res = await t.get(`${REPORTS_PATH}/payment_summary_report?from=${day}&to=${day}&currency=USD`, admin.headers);
    return { status: res.statusCode, body: res.json<ReportAnswer>() };
  };

  it('in part then the rest: the payment shows partly refunded then refunded, each refund its own row today, audited and recorded', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const half = await graphql<{ paymentRefund: SubscriberDetail }>(support, REFUND, { paymentId: f.paymentId, amount: 500, reason: 'Outage for a week', version: 1 });
    expect(half.status).toBe(200);
    expect(half.body.data!.paymentRefund.payments.find((p) => p.id === f.paymentId)).toMatchObject({ status: 'partially_refunded', refundedAmount: 500, version: 2 });
    const over = await graphql(support, REFUND, { paymentId: f.paymentId, amount: 501, reason: 'Outage for a week', version: 2 });
    expect(over.body.errors?.[0]).toMatchObject({ message: SUPPORT_MESSAGES.badRefundAmount(500), extensions: { param: 'amount' } });
    const rest = await graphql<{ paymentRefund: SubscriberDetail }>(support, REFUND, { paymentId: f.paymentId, amount: 500, reason: 'Cancelled for good', version: 2 });
    expect(rest.body.data!.paymentRefund.payments.find((p) => p.id === f.paymentId)).toMatchObject({ status: 'refunded', refundedAmount: 1000, version: 3 });
    const rows = await t.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, f.paymentId));
    expect(rows.map((r) => [r.amount, r.currency, isoDay(r.at)])).toEqual([[500, 'USD', isoDay(new Date())], [500, 'USD', isoDay(new Date())]]);
    const audits = (await auditsOf(f.paymentId)).filter((a) => a.action === SUPPORT_AUDIT_ACTIONS.refundPayment);
    expect(audits.map((a) => (a.detail as { amount: number }).amount).sort()).toEqual([500, 500]);
    expect((await revisionsOf(f.paymentId)).map((r) => r.objectKind)).toEqual(['payment', 'payment']);
    const done = await graphql(support, REFUND, { paymentId: f.paymentId, amount: 1, reason: 'Once more', version: 3 });
    expect(done.body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.notRefundable);
  });

  it('counts on its own day in the payment rollups and the Payments report; the charge stays taken on its day', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    // The site's today (issue 38: the rollups count the site's days, in its zone).
    const today = siteDayOf(new Date(), await siteTimeZone(t.db, f.siteId));
    const before = await paymentReport(today);
    expect(before.status).toBe(200);
    await graphql(support, REFUND, { paymentId: f.paymentId, amount: 250, reason: 'Goodwill', version: 1 });
    const [rollup] = await t.db.select().from(dailyPaymentRollups).where(and(
      eq(dailyPaymentRollups.siteId, f.siteId), eq(dailyPaymentRollups.planId, f.planId), eq(dailyPaymentRollups.day, today), eq(dailyPaymentRollups.status, 'refund')));
    expect(rollup).toMatchObject({ payments: 1, amount: 250, currency: 'USD' });
    const after = await paymentReport(today);
    const totalsBefore = before.body.totals as Record<string, number>;
    const totalsAfter = after.body.totals as Record<string, number>;
    expect(totalsAfter.refunds! - totalsBefore.refunds!).toBe(250);
    expect(totalsAfter.netRevenue! - totalsBefore.netRevenue!).toBe(-250);
    expect(totalsAfter.revenue).toBe(totalsBefore.revenue);
  });

  it('refuses a failed payment, a stale version, bad amounts, the read-only agent and another site, writing nothing', async () => {
    const f = await createSubscriber(DEMO_SITES.viewlift);
    const attempt = (variables: Record<string, unknown>, session = support) =>
      graphql(session, REFUND, { paymentId: f.paymentId, amount: 100, reason: REASON, version: 1, ...variables });
    expect((await attempt({ paymentId: f.failedPaymentId })).body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.notRefundable);
    expect((await attempt({ version: 7 })).status).toBe(409);
    for (const amount of [0, -5, 1001]) {
      expect((await attempt({ amount })).body.errors?.[0]?.extensions, String(amount)).toMatchObject({ code: 'BAD_USER_INPUT', param: 'amount' });
    }
    expect((await attempt({ paymentId: 'x' })).body.errors?.[0]?.extensions?.param).toBe('paymentId');
    expect((await attempt({ paymentId: randomUUID() })).body.errors?.[0]?.message).toBe(SUPPORT_MESSAGES.paymentNotFound);
    expect((await attempt({}, reader)).status).toBe(403);
    expect((await attempt({}, contentOnly)).status).toBe(403);
    expect((await attempt({}, northwindSupport)).status).toBe(404);
    expect((await graphql(null, REFUND, { paymentId: f.paymentId, amount: 100, reason: REASON, version: 1 })).status).toBe(401);
    const [row] = await t.db.select().from(payments).where(eq(payments.id, f.paymentId));
    expect(row).toMatchObject({ status: 'succeeded', refundedAmount: 0, version: 1 });
    expect(await t.db.select().from(paymentRefunds).where(eq(paymentRefunds.subscriberId, f.subscriberId))).toEqual([]);
    expect(await revisionsOf(f.paymentId)).toEqual([]);
    expect(await t.db.select().from(auditEvents).where(sql`${auditEvents.detail}->>'subscriberId' = ${f.subscriberId}`)).toEqual([]);
  });
});
