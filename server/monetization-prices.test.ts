/**
 * Issue 30, Monetization: price versions (a new price is a new version for new subscriptions; the
 * paying subscribers stay on theirs until "Move existing subscribers at their next renewal", which
 * applies at their renewal), one code disabled and enabled, the apps' redemption endpoint (a disabled,
 * expired or used-up code is refused and nothing is written), offers' discount duration and archived
 * plans kept out of offers. Roles, site isolation and refusals that write nothing for each write.
 * Own database: the file writes subscriptions and redemptions of the demo site.
 */
import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { INGEST_KEY_HEADER } from '../common/ingest-contract';
import { COUPON_REDEEM_PATH } from '../common/monetization-contract';
import { MONETIZATION_MESSAGES, type PlanInput } from '../common/monetization-rules';
import { DEMO_SITES } from './db/demo-accounts';
import { applyRenewalMoves } from './db/monetization-repository';
import { auditEvents, couponRedemptions, networks, planPriceVersions, revisions, subscribers, subscriptions } from './db/schema';
import { demoIngestionKey, seedSmallWorld } from './db/seed-world';
import { MONETIZATION_AUDIT } from './domain/monetization';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

interface GraphqlBody<T = Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary answer shapes
  data: T | null;
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string> } }[];
}

const PLAN = 'id name version status prices { currency amount } priceVersion subscriptionCount payingSubscriptionCount oldPriceSubscriptionCount movingAtRenewalCount';
const COUPON = 'id code status version redemptionCount lastRedeemedAt';
const OFFER = 'id version planIds duration durationMonths';

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let t: TestApp;
let writer: Session;
let reader: Session;
let northwind: Session;
let siteId: string;
let networkId: string;
const appKey = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };

async function gql<T = Record<string, any>>(session: Session, query: string, variables: Record<string, unknown> = {}) { // eslint-disable-line @typescript-eslint/no-explicit-any -- see GraphqlBody
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session.headers, payload: { query, variables } });
  return res.json<GraphqlBody<T>>();
}

function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    name: `Priced ${randomUUID().slice(0, 8)}`, description: '', prices: [{ currency: 'USD', amount: '9.99' }, { currency: 'EUR', amount: '8.99' }],
    billingPeriod: 'month', trialDays: 0, deviceLimit: 2, status: 'active', ...overrides,
  };
}

async function createPlan(overrides: Partial<PlanInput> = {}) {
  const body = await gql(writer, `mutation($input: PlanInput!) { planCreate(input: $input) { ${PLAN} } }`, { input: planInput(overrides) });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.planCreate as { id: string; version: number; name: string; priceVersion: number };
}

const updatePlan = (session: Session, id: string, version: number, input: PlanInput) =>
  gql(session, `mutation($id: ID!, $version: Int!, $input: PlanInput!) { planUpdate(id: $id, version: $version, input: $input) { ${PLAN} } }`, { id, version, input });
const getPlan = async (id: string) => (await gql(writer, `query($id: ID!) { plan(id: $id) { ${PLAN} } }`, { id })).data!.plan;
const moveAtRenewal = (session: Session, id: string, version: number) =>
  gql(session, `mutation($id: ID!, $version: Int!) { planMoveSubscribersAtRenewal(id: $id, version: $version) { moved plan { ${PLAN} } } }`, { id, version });

async function subscriber() {
  const [row] = await t.db.insert(subscribers).values({ siteId, networkId, email: `p-${randomUUID()}@test.local`, name: 'Payer', country: 'US' }).returning();
  return row!;
}

async function subscribe(planId: string, status: string, periodEnd: Date, currency = 'USD', amount = 999) {
  const viewer = await subscriber();
  const started = new Date(periodEnd.getTime() - 30 * 86_400_000);
  const [row] = await t.db.insert(subscriptions).values({
    siteId, networkId, subscriberId: viewer.id, planId, status, startedAt: started, currentPeriodStart: started, currentPeriodEnd: periodEnd,
    amount, currency,
  }).returning();
  return row!;
}

async function auditCount(action: string) {
  const [row] = await t.db.select({ n: count() }).from(auditEvents).where(eq(auditEvents.action, action));
  return row!.n;
}

beforeAll(async () => {
  own = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: own.handle });
  await seedSmallWorld(t.db);
  const w = await t.createUser({ roles: { 'Subscriptions & Offers': 'write' }, prefix: 'price-writer' });
  const r = await t.createUser({ roles: { 'Subscriptions & Offers': 'read' }, prefix: 'price-reader' });
  const n = await t.createUser({ site: DEMO_SITES.northwind, roles: { 'Subscriptions & Offers': 'write' }, prefix: 'price-north' });
  [writer, reader, northwind] = await Promise.all([t.login(w.username), t.login(r.username), t.login(n.username)]);
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
  const [network] = await t.db.select().from(networks).where(and(eq(networks.siteId, siteId), eq(networks.isDefault, true)));
  networkId = network!.id;
}, 180_000);

afterAll(async () => {
  await t?.close();
  await own?.drop();
});

describe('price versions', () => {
  it('a new price is a new version; the paying subscribers stay on theirs and are counted', async () => {
    const plan = await createPlan();
    expect(plan.priceVersion).toBe(1);
    const soon = new Date(Date.now() + 5 * 86_400_000);
    await subscribe(plan.id, 'active', soon);
    await subscribe(plan.id, 'trialing', soon);
    await subscribe(plan.id, 'cancelled', soon);
    expect(await getPlan(plan.id)).toMatchObject({ subscriptionCount: 3, payingSubscriptionCount: 2, oldPriceSubscriptionCount: 0 });

    // Same amounts in another order: no new price.
    const reordered = await updatePlan(writer, plan.id, plan.version, planInput({ name: plan.name, prices: [{ currency: 'EUR', amount: '8.99' }, { currency: 'USD', amount: '9.99' }] }));
    expect(reordered.data!.planUpdate).toMatchObject({ priceVersion: 1, oldPriceSubscriptionCount: 0 });

    const repriced = await updatePlan(writer, plan.id, reordered.data!.planUpdate.version, planInput({ name: plan.name, prices: [{ currency: 'USD', amount: '12.99' }, { currency: 'EUR', amount: '8.99' }] }));
    expect(repriced.data!.planUpdate).toMatchObject({ priceVersion: 2, payingSubscriptionCount: 2, oldPriceSubscriptionCount: 2, movingAtRenewalCount: 0 });
    const kept = await t.db.select().from(planPriceVersions).where(eq(planPriceVersions.planId, plan.id)).orderBy(planPriceVersions.version);
    expect(kept.map((v) => [v.version, v.prices.find((p) => p.currency === 'USD')!.amount])).toEqual([[1, 999], [2, 1299]]);
    const subs = await t.db.select().from(subscriptions).where(eq(subscriptions.planId, plan.id));
    expect(subs.map((s) => [s.priceVersion, s.amount])).toEqual([[1, 999], [1, 999], [1, 999]]);
  });

  it('moves the subscribers on an earlier price at their next renewal: audited with a revision, applied when the period ends', async () => {
    const plan = await createPlan();
    const ended = new Date(Date.now() - 60_000);
    const later = new Date(Date.now() + 20 * 86_400_000);
    const due = await subscribe(plan.id, 'active', ended);
    const notYet = await subscribe(plan.id, 'past_due', later, 'EUR', 899);
    const gone = await subscribe(plan.id, 'expired', ended);
    const saved = (await updatePlan(writer, plan.id, plan.version, planInput({ name: plan.name, prices: [{ currency: 'USD', amount: '12.99' }, { currency: 'EUR', amount: '10.99' }] }))).data!.planUpdate;

    // Refusals write nothing: a read role, a stale version, another site's plan.
    const audits = await auditCount(MONETIZATION_AUDIT.planMoveAtRenewal);
    expect((await moveAtRenewal(reader, plan.id, saved.version)).errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect((await moveAtRenewal(writer, plan.id, plan.version)).errors![0]!.extensions!.code).toBe('CONFLICT');
    expect((await moveAtRenewal(northwind, plan.id, saved.version)).errors![0]!.extensions!.code).toBe('NOT_FOUND');
    expect(await auditCount(MONETIZATION_AUDIT.planMoveAtRenewal)).toBe(audits);
    expect((await t.db.select().from(subscriptions).where(eq(subscriptions.planId, plan.id))).every((s) => s.renewalPriceVersion === null)).toBe(true);

    const moved = await moveAtRenewal(writer, plan.id, saved.version);
    expect(moved.data!.planMoveSubscribersAtRenewal).toMatchObject({ moved: 2, plan: { oldPriceSubscriptionCount: 0, movingAtRenewalCount: 2 } });
    const [audit] = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, MONETIZATION_AUDIT.planMoveAtRenewal), eq(auditEvents.objectId, plan.id)));
    expect(audit).toMatchObject({ objectKind: 'planPriceMove', objectName: plan.name, detail: { id: plan.id, priceVersion: 2, subscriptions: 2 } });
    const revs = await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'planPriceMove'), eq(revisions.objectId, plan.id)));
    expect(revs).toHaveLength(1);
    expect(revs[0]!.changes).toEqual([{ field: 'movingAtRenewal', before: 0, after: 2 }]);

    // Nobody left on an earlier price: refused, nothing written.
    const again = await moveAtRenewal(writer, plan.id, saved.version);
    expect(again.errors![0]!.message).toBe(MONETIZATION_MESSAGES.moveAtRenewalNone);
    expect(await auditCount(MONETIZATION_AUDIT.planMoveAtRenewal)).toBe(audits + 1);

    // The renewal: the ended period takes the new price in its currency; the other waits for its end.
    const applied = await applyRenewalMoves(t.db, new Date(), siteId);
    expect(applied.filter((m) => m.planId === plan.id)).toEqual([{
      id: due.id, planId: plan.id, amount: 1299, priceVersion: 2, before: { siteId, currency: 'USD', amount: 999, priceVersion: 1, version: 3 },
    }]);
    const rows = new Map((await t.db.select().from(subscriptions).where(eq(subscriptions.planId, plan.id))).map((s) => [s.id, s]));
    expect(rows.get(due.id)).toMatchObject({ priceVersion: 2, renewalPriceVersion: null, amount: 1299 });
    expect(rows.get(notYet.id)).toMatchObject({ priceVersion: 1, renewalPriceVersion: 2, amount: 899 });
    expect(rows.get(gone.id)).toMatchObject({ priceVersion: 1, renewalPriceVersion: null, amount: 999 });
    const afterEnd = await applyRenewalMoves(t.db, new Date(later.getTime() + 1000), siteId);
    expect(afterEnd.filter((m) => m.planId === plan.id)).toEqual([{
      id: notYet.id, planId: plan.id, amount: 1099, priceVersion: 2, before: { siteId, currency: 'EUR', amount: 899, priceVersion: 1, version: 3 },
    }]);
  });
});

describe('offers: discount duration and archived plans', () => {
  const offerInput = (planIds: string[], extra: Record<string, unknown> = {}) => ({
    name: `Dur ${randomUUID().slice(0, 6)}`, discountType: 'percent', discountValue: '25', currency: '', planIds,
    startsAt: '2026-01-01T00:00:00.000Z', endsAt: '', eligibility: 'everyone', status: 'active', ...extra,
  });
  const create = (input: Record<string, unknown>) => gql(writer, `mutation($input: OfferInput!) { offerCreate(input: $input) { ${OFFER} } }`, { input });

  it('stores once (the default), N months and forever; a repeating discount needs its months', async () => {
    const plan = await createPlan();
    expect((await create(offerInput([plan.id]))).data!.offerCreate).toMatchObject({ duration: 'once', durationMonths: null });
    expect((await create(offerInput([plan.id], { duration: 'repeating', durationMonths: '3' }))).data!.offerCreate).toMatchObject({ duration: 'repeating', durationMonths: 3 });
    expect((await create(offerInput([plan.id], { duration: 'forever', durationMonths: '3' }))).data!.offerCreate).toMatchObject({ duration: 'forever', durationMonths: null });
    const bad = await create(offerInput([plan.id], { duration: 'repeating', durationMonths: '0' }));
    expect(bad.errors![0]!.extensions!.fields).toEqual({ durationMonths: MONETIZATION_MESSAGES.durationMonths });
    expect((await create(offerInput([plan.id], { duration: 'weekly' }))).errors![0]!.extensions!.fields).toEqual({ duration: MONETIZATION_MESSAGES.discountDuration });
  });

  it('refuses an archived plan in a new offer; an offer that had the plan before it was archived still saves', async () => {
    const active = await createPlan();
    const archived = await createPlan({ status: 'archived' });
    const refused = await create(offerInput([active.id, archived.id]));
    expect(refused.errors![0]!.extensions!.fields).toEqual({ planIds: MONETIZATION_MESSAGES.offerPlanArchived });
    const offer = (await create(offerInput([active.id]))).data!.offerCreate;
    await updatePlan(writer, active.id, active.version, planInput({ name: active.name, status: 'archived' }));
    const kept = await gql(writer, `mutation($id: ID!, $version: Int!, $input: OfferInput!) { offerUpdate(id: $id, version: $version, input: $input) { ${OFFER} } }`,
      { id: offer.id, version: offer.version, input: offerInput([active.id], { duration: 'forever' }) });
    expect(kept.data!.offerUpdate).toMatchObject({ planIds: [active.id], duration: 'forever' });
    const added = await gql(writer, `mutation($id: ID!, $version: Int!, $input: OfferInput!) { offerUpdate(id: $id, version: $version, input: $input) { ${OFFER} } }`,
      { id: offer.id, version: kept.data!.offerUpdate.version, input: offerInput([active.id, archived.id]) });
    expect(added.errors![0]!.extensions!.fields).toEqual({ planIds: MONETIZATION_MESSAGES.offerPlanArchived });
  });
});

describe('coupons: one named code, disable and enable, redemption', () => {
  async function namedCode(code: string, limits: { maxRedemptions?: string; maxPerSubscriber?: string; expiresAt?: string } = {}, session = writer) {
    const plan = (await gql(session, `mutation($input: PlanInput!) { planCreate(input: $input) { id } }`, { input: planInput() })).data!.planCreate;
    const offer = (await gql(session, `mutation($input: OfferInput!) { offerCreate(input: $input) { id } }`, {
      input: { name: `For ${code}`, discountType: 'percent', discountValue: '25', currency: '', planIds: [plan.id], startsAt: '2026-01-01T00:00:00.000Z', endsAt: '', eligibility: 'everyone', status: 'active', duration: 'repeating', durationMonths: '3' },
    })).data!.offerCreate;
    const body = await gql(session, `mutation($input: CouponInput!) { couponCreate(input: $input) { ${COUPON} } }`, {
      input: { offerId: offer.id, code, maxRedemptions: limits.maxRedemptions ?? '', maxPerSubscriber: limits.maxPerSubscriber ?? '1', expiresAt: limits.expiresAt ?? '', status: 'active' },
    });
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return { ...(body.data.couponCreate as { id: string; code: string; version: number }), offerId: offer.id as string };
  }
  const setStatus = (session: Session, id: string, version: number, status: string) =>
    gql(session, `mutation($id: ID!, $version: Int!, $status: String!) { couponSetStatus(id: $id, version: $version, status: $status) { ${COUPON} } }`, { id, version, status });
  const redeem = (body: unknown, headers: Record<string, string> = appKey) => t.post(COUPON_REDEEM_PATH, body, headers);
  const redemptions = async (couponId: string) => (await t.db.select({ n: count() }).from(couponRedemptions).where(eq(couponRedemptions.couponId, couponId)))[0]!.n;

  it('disables and enables one code (audited, with a revision); read roles, other sites and bad statuses are refused and write nothing', async () => {
    const code = await namedCode(`SUMMER${randomUUID().slice(0, 4).toUpperCase()}`);
    const disables = await auditCount(MONETIZATION_AUDIT.couponDisable);
    expect((await setStatus(reader, code.id, code.version, 'disabled')).errors![0]!.extensions!.code).toBe('FORBIDDEN');
    expect((await setStatus(northwind, code.id, code.version, 'disabled')).errors![0]!.extensions!.code).toBe('NOT_FOUND');
    expect((await setStatus(writer, code.id, code.version, 'gone')).errors![0]!.extensions!.fields).toEqual({ status: MONETIZATION_MESSAGES.status });
    expect((await setStatus(writer, code.id, code.version + 5, 'disabled')).errors![0]!.extensions!.code).toBe('CONFLICT');
    expect(await auditCount(MONETIZATION_AUDIT.couponDisable)).toBe(disables);

    const disabled = (await setStatus(writer, code.id, code.version, 'disabled')).data!.couponSetStatus;
    expect(disabled).toMatchObject({ status: 'disabled', version: code.version + 1 });
    const enabled = (await setStatus(writer, code.id, disabled.version, 'active')).data!.couponSetStatus;
    expect(enabled).toMatchObject({ status: 'active' });
    const rows = await t.db.select().from(auditEvents).where(eq(auditEvents.objectId, code.id));
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining([MONETIZATION_AUDIT.couponCreate, MONETIZATION_AUDIT.couponDisable, MONETIZATION_AUDIT.couponEnable]));
    expect(rows.find((r) => r.action === MONETIZATION_AUDIT.couponDisable)).toMatchObject({ objectKind: 'coupon', objectName: code.code });
    const revs = await t.db.select().from(revisions).where(and(eq(revisions.objectKind, 'coupon'), eq(revisions.objectId, code.id)));
    expect(revs.map((r) => r.changes)).toContainEqual([{ field: 'status', before: 'active', after: 'disabled' }]);
  });

  it('redeems an active code for the apps and counts it (redemptions, last redeemed); a disabled code is refused and nothing is written', async () => {
    const code = await namedCode(`SUMMER${randomUUID().slice(0, 4).toUpperCase()}`);
    const viewer = await subscriber();
    const ok = await redeem({ code: code.code.toLowerCase(), subscriberId: viewer.id });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, redemption: { code: code.code, offerId: code.offerId, discountType: 'percent', discountValue: 25, duration: 'repeating', durationMonths: 3 } });
    const listed = (await gql(reader, `query($id: ID!) { coupon(id: $id) { ${COUPON} } }`, { id: code.id })).data!.coupon;
    expect(listed).toMatchObject({ redemptionCount: 1 });
    expect(Date.parse(listed.lastRedeemedAt)).toBeGreaterThan(Date.now() - 60_000);

    await setStatus(writer, code.id, code.version, 'disabled');
    const other = await subscriber();
    const refused = await redeem({ code: code.code, subscriberId: other.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ success: false, message: MONETIZATION_MESSAGES.redeemDisabled });
    expect(await redemptions(code.id)).toBe(1);
  });

  it('keeps max redemptions, one per customer and the expiry', async () => {
    const once = await namedCode(`ONCE${randomUUID().slice(0, 4).toUpperCase()}`, { maxRedemptions: '2', maxPerSubscriber: '1' });
    const [a, b, c] = [await subscriber(), await subscriber(), await subscriber()];
    expect((await redeem({ code: once.code, subscriberId: a.id })).statusCode).toBe(200);
    const twice = await redeem({ code: once.code, subscriberId: a.id });
    expect([twice.statusCode, twice.json().message]).toEqual([409, MONETIZATION_MESSAGES.redeemPerCustomer]);
    expect((await redeem({ code: once.code, subscriberId: b.id })).statusCode).toBe(200);
    const full = await redeem({ code: once.code, subscriberId: c.id });
    expect([full.statusCode, full.json().message]).toEqual([409, MONETIZATION_MESSAGES.redeemExhausted]);
    expect(await redemptions(once.id)).toBe(2);

    const expired = await namedCode(`OLD${randomUUID().slice(0, 4).toUpperCase()}`, { expiresAt: '2026-02-01T00:00:00.000Z' });
    const late = await redeem({ code: expired.code, subscriberId: a.id });
    expect([late.statusCode, late.json().message]).toEqual([409, MONETIZATION_MESSAGES.redeemExpired]);
    expect(await redemptions(expired.id)).toBe(0);
  });

  it('answers unknown codes, other sites, unknown customers, bad bodies and missing or wrong keys without writing', async () => {
    const code = await namedCode(`NORTH${randomUUID().slice(0, 4).toUpperCase()}`, {}, northwind);
    const viewer = await subscriber();
    const fromViewlift = await redeem({ code: code.code, subscriberId: viewer.id });
    expect([fromViewlift.statusCode, fromViewlift.json().message]).toEqual([404, MONETIZATION_MESSAGES.redeemUnknown]);
    const ours = await namedCode(`MINE${randomUUID().slice(0, 4).toUpperCase()}`);
    const stranger = await redeem({ code: ours.code, subscriberId: randomUUID() });
    expect([stranger.statusCode, stranger.json().message]).toEqual([404, MONETIZATION_MESSAGES.redeemSubscriberUnknown]);
    expect((await redeem({ code: ours.code })).statusCode).toBe(400);
    expect((await redeem({ code: ours.code, subscriberId: 'not-a-uuid' })).statusCode).toBe(400);
    expect((await redeem({ code: ours.code, subscriberId: viewer.id }, {})).statusCode).toBe(401);
    expect((await redeem({ code: ours.code, subscriberId: viewer.id }, { [INGEST_KEY_HEADER]: 'wrong' })).statusCode).toBe(401);
    expect((await redeem({ code: ours.code, subscriberId: viewer.id }, { authorization: writer.headers.authorization! })).statusCode).toBe(401);
    expect(await redemptions(ours.id)).toBe(0);
    expect(await redemptions(code.id)).toBe(0);
  });
});
