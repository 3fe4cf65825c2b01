/**
 * Monetization over the management GraphQL endpoint (issue 15): field validation with the shared
 * rules, roles (read sees, write edits, none is refused), site isolation, optimistic concurrency,
 * archive instead of delete, coupon uniqueness under concurrent batches, the CSV export and the audit
 * trail. Every test creates its own plans, offers and coupons, so the shared PostgreSQL run stays clean.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { MONETIZATION_MESSAGES, type PlanInput } from '../common/monetization-rules';
import { OWN_MESSAGES } from '../common/messages';
import { DEMO_SITES } from './db/demo-accounts';
import { auditEvents, couponRedemptions, coupons, networks, offers, subscribers, subscriptions } from './db/schema';
import { generateCouponBatch, MONETIZATION_AUDIT, type MonetizationCaller } from './domain/monetization';
import { createMonetizationStore } from './db/stores';
import { createTestApp, type Session, type TestApp } from './test/kit';

interface GraphqlBody<T = Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary answer shapes
  data: T | null;
  errors?: { message: string; extensions?: { code?: string; param?: string; fields?: Record<string, string> } }[];
}

const PLAN_FIELDS = 'id name description prices { currency amount } billingPeriod trialDays deviceLimit status version subscriptionCount';
const COUPON_FIELDS = 'id code offerId offerName maxRedemptions maxPerSubscriber expiresAt status version redemptionCount';

let t: TestApp;
let writer: Session;
let reader: Session;
let outsider: Session;
let northwind: Session;
let writerCaller: MonetizationCaller;

async function gql<T = Record<string, any>>(session: Session | null, query: string, variables: Record<string, unknown> = {}) { // eslint-disable-line @typescript-eslint/no-explicit-any -- see GraphqlBody
  const res = await t.inject({ method: 'POST', url: API_PATHS.graphql, headers: session?.headers ?? {}, payload: { query, variables } });
  return { status: res.statusCode, body: res.json<GraphqlBody<T>>() };
}

function planInput(overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    name: `Plan ${randomUUID().slice(0, 8)}`, description: 'Monthly access', prices: [{ currency: 'USD', amount: '9.99' }],
    billingPeriod: 'month', trialDays: 7, deviceLimit: 4, status: 'active', ...overrides,
  };
}

async function createPlan(session: Session = writer, overrides: Partial<PlanInput> = {}) {
  const { body } = await gql(session, `mutation($input: PlanInput!) { planCreate(input: $input) { ${PLAN_FIELDS} } }`, { input: planInput(overrides) });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.planCreate as { id: string; version: number; name: string; status: string };
}

function offerInput(planIds: string[], overrides: Record<string, unknown> = {}) {
  return {
    name: `Offer ${randomUUID().slice(0, 8)}`, discountType: 'percent', discountValue: '20', currency: '', planIds,
    startsAt: '2030-01-01T00:00:00.000Z', endsAt: '2030-02-01T00:00:00.000Z', eligibility: 'new', status: 'active', ...overrides,
  };
}

async function createOffer(session: Session = writer) {
  const plan = await createPlan(session);
  const { body } = await gql(session, 'mutation($input: OfferInput!) { offerCreate(input: $input) { id version } }', { input: offerInput([plan.id]) });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.offerCreate as { id: string; version: number };
}

const BATCH = 'mutation($input: CouponBatchInput!) { couponBatchGenerate(input: $input) { batchId count } }';
const batchInput = (offerId: string, count: number, prefix = '') => ({ offerId, count: String(count), prefix, maxRedemptions: '', maxPerSubscriber: '1', expiresAt: '' });

beforeAll(async () => {
  t = await createTestApp({ demo: true });
  const w = await t.createUser({ roles: { 'Subscriptions & Offers': 'write' }, prefix: 'mon-writer' });
  const r = await t.createUser({ roles: { 'Subscriptions & Offers': 'read' }, prefix: 'mon-reader' });
  const o = await t.createUser({ roles: { Content: 'write' }, prefix: 'mon-outsider' });
  const n = await t.createUser({ site: DEMO_SITES.northwind, roles: { 'Subscriptions & Offers': 'contributor' }, prefix: 'mon-north' });
  [writer, reader, outsider, northwind] = await Promise.all([t.login(w.username), t.login(r.username), t.login(o.username), t.login(n.username)]);
  writerCaller = { userId: w.id, siteId: (await t.siteByName(DEMO_SITES.viewlift)).id, roles: { 'Subscriptions & Offers': 'write' } };
});

afterAll(async () => {
  await t?.close();
});

describe('validation: the shared rules, one message per field', () => {
  it('refuses a plan with a field message for each bad field', async () => {
    const { status, body } = await gql(writer, `mutation($input: PlanInput!) { planCreate(input: $input) { id } }`, {
      input: planInput({
        name: ' ', prices: [{ currency: 'USD', amount: '9.999' }, { currency: 'JPY', amount: '100.5' }, { currency: 'XXX', amount: '1' }],
        billingPeriod: 'week', trialDays: 366, deviceLimit: 0, status: 'gone',
      }),
    });
    expect(status).toBe(400);
    const error = body.errors![0]!;
    expect(error.message).toBe(MONETIZATION_MESSAGES.invalid);
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.extensions?.fields).toEqual({
      name: MONETIZATION_MESSAGES.required,
      'prices.0.amount': MONETIZATION_MESSAGES.priceFormat('USD', 2),
      'prices.1.amount': MONETIZATION_MESSAGES.priceFormat('JPY', 0),
      'prices.2.currency': MONETIZATION_MESSAGES.currencyUnknown,
      billingPeriod: MONETIZATION_MESSAGES.billingPeriod,
      trialDays: MONETIZATION_MESSAGES.trialDays,
      deviceLimit: MONETIZATION_MESSAGES.deviceLimit,
      status: MONETIZATION_MESSAGES.status,
    });
  });

  it('refuses a negative price and accepts the bounds (0 and 365 trial days, 0 JPY)', async () => {
    const negative = await gql(writer, `mutation($input: PlanInput!) { planCreate(input: $input) { id } }`, {
      input: planInput({ prices: [{ currency: 'EUR', amount: '-1' }] }),
    });
    expect(negative.body.errors![0]!.extensions?.fields).toEqual({ 'prices.0.amount': MONETIZATION_MESSAGES.priceFormat('EUR', 2) });
    const plan = await createPlan(writer, { trialDays: 365, prices: [{ currency: 'JPY', amount: '0' }, { currency: 'KWD', amount: '1.250' }] });
    const { body } = await gql(writer, `query($id: ID!) { plan(id: $id) { prices { currency amount } trialDays } }`, { id: plan.id });
    expect(body.data!.plan).toEqual({ prices: [{ currency: 'JPY', amount: 0 }, { currency: 'KWD', amount: 1250 }], trialDays: 365 });
  });

  it('refuses an offer whose percentage is out of 1–100 and whose end is not after its start', async () => {
    const plan = await createPlan();
    const { body } = await gql(writer, 'mutation($input: OfferInput!) { offerCreate(input: $input) { id } }', {
      input: offerInput([plan.id], { discountValue: '101', endsAt: '2029-12-31T00:00:00.000Z' }),
    });
    expect(body.errors![0]!.extensions?.fields).toEqual({
      discountValue: MONETIZATION_MESSAGES.percentage, endsAt: MONETIZATION_MESSAGES.endAfterStart,
    });
    const zero = await gql(writer, 'mutation($input: OfferInput!) { offerCreate(input: $input) { id } }', {
      input: offerInput([plan.id], { discountValue: '0' }),
    });
    expect(zero.body.errors![0]!.extensions?.fields).toEqual({ discountValue: MONETIZATION_MESSAGES.percentage });
  });

  it('refuses a coupon code that is not 4–32 letters and digits, and a taken code in any case', async () => {
    const offer = await createOffer();
    const input = (code: string) => ({ offerId: offer.id, code, maxRedemptions: '', maxPerSubscriber: '1', expiresAt: '', status: 'active' });
    const create = (code: string) => gql(writer, `mutation($input: CouponInput!) { couponCreate(input: $input) { ${COUPON_FIELDS} } }`, { input: input(code) });
    for (const bad of ['ABC', 'A'.repeat(33), 'SAVE-10', 'SAVE 10']) {
      expect((await create(bad)).body.errors![0]!.extensions?.fields).toEqual({ code: MONETIZATION_MESSAGES.couponCode });
    }
    const code = `Save${randomUUID().slice(0, 6).replace(/-/g, '')}`;
    expect((await create(code)).body.data!.couponCreate).toMatchObject({ code, redemptionCount: 0, maxRedemptions: null });
    expect((await create(code.toUpperCase())).body.errors![0]!.extensions?.fields).toEqual({ code: MONETIZATION_MESSAGES.couponCodeTaken });
  });

  it('refuses a new code for an archived offer or one that has ended, naming it; a code it already has can still be edited (issue 38)', async () => {
    const offer = await createOffer();
    const input = (code: string, status = 'active') => ({ offerId: offer.id, code, maxRedemptions: '', maxPerSubscriber: '1', expiresAt: '', status });
    const create = (code: string) => gql(writer, `mutation($input: CouponInput!) { couponCreate(input: $input) { ${COUPON_FIELDS} } }`, { input: input(code) });
    const kept = `Kept${randomUUID().slice(0, 6).replace(/-/g, '')}`;
    const existing = (await create(kept)).body.data!.couponCreate as { id: string; version: number };
    const name = (await t.db.select().from(offers).where(eq(offers.id, offer.id)))[0]!.name;
    for (const closed of [{ endsAt: new Date(Date.now() - 60_000) }, { status: 'archived' as const, endsAt: null }]) {
      await t.db.update(offers).set(closed).where(eq(offers.id, offer.id));
      const refused = await create(`Late${randomUUID().slice(0, 6).replace(/-/g, '')}`);
      expect(refused.body.errors![0]!.extensions?.fields).toEqual({ offerId: MONETIZATION_MESSAGES.couponOfferClosed(name) });
    }
    const edited = await gql(writer, `mutation($id: ID!, $version: Int!, $input: CouponInput!) { couponUpdate(id: $id, version: $version, input: $input) { status } }`, {
      id: existing.id, version: existing.version, input: input(kept, 'disabled'),
    });
    expect(edited.body.errors).toBeUndefined();
    expect(edited.body.data!.couponUpdate).toMatchObject({ status: 'disabled' });
  });
});

describe('roles', () => {
  it('lets a read level list and read, and refuses its writes with 403', async () => {
    const plan = await createPlan();
    const list = await gql(reader, `query { plans(search: ${JSON.stringify(plan.name)}) { total items { id } } }`);
    expect(list.body.data!.plans).toEqual({ total: 1, items: [{ id: plan.id }] });
    const refused = await gql(reader, `mutation($input: PlanInput!) { planCreate(input: $input) { id } }`, { input: planInput() });
    expect(refused.status).toBe(403);
    expect(refused.body.errors![0]).toMatchObject({ message: OWN_MESSAGES.forbidden, extensions: { code: 'FORBIDDEN' } });
    const update = await gql(reader, `mutation($id: ID!, $input: PlanInput!) { planUpdate(id: $id, version: 1, input: $input) { id } }`, { id: plan.id, input: planInput() });
    expect(update.status).toBe(403);
    const batch = await gql(reader, BATCH, { input: batchInput(randomUUID(), 5) });
    expect(batch.status).toBe(403);
  });

  it('refuses every monetization read to a user without the permission', async () => {
    const res = await gql(outsider, 'query { monetizationSettings { models } }');
    expect(res.status).toBe(403);
    const anonymous = await gql(null, 'query { plans { total } }');
    expect(anonymous.status).toBe(401);
  });
});

describe('site isolation', () => {
  it('never shows or changes another site\'s plans, offers or coupons', async () => {
    const plan = await createPlan();
    const offer = await createOffer();
    const theirs = await gql(northwind, `query($id: ID!) { plan(id: $id) { id } }`, { id: plan.id });
    expect(theirs.status).toBe(404);
    expect(theirs.body.errors![0]).toMatchObject({ message: MONETIZATION_MESSAGES.notFound, extensions: { code: 'NOT_FOUND' } });
    const list = await gql(northwind, `query($s: String) { plans(search: $s) { total } offers(search: $s) { total } }`, { s: plan.name });
    expect(list.body.data).toEqual({ plans: { total: 0 }, offers: { total: 0 } });
    const update = await gql(northwind, `mutation($id: ID!, $input: PlanInput!) { planUpdate(id: $id, version: ${plan.version}, input: $input) { id } }`, { id: plan.id, input: planInput() });
    expect(update.status).toBe(404);
    // Another site's plan in an offer or a group is an unknown plan; another site's offer for coupons too.
    const foreignOffer = await gql(northwind, 'mutation($input: OfferInput!) { offerCreate(input: $input) { id } }', { input: offerInput([plan.id]) });
    expect(foreignOffer.body.errors![0]!.extensions?.fields).toEqual({ planIds: MONETIZATION_MESSAGES.offerPlanUnknown });
    const foreignGroup = await gql(northwind, 'mutation($input: PlanGroupInput!) { planGroupCreate(input: $input) { id } }', { input: { name: 'G', description: '', planIds: [plan.id] } });
    expect(foreignGroup.body.errors![0]!.extensions?.fields).toEqual({ planIds: MONETIZATION_MESSAGES.groupPlanUnknown });
    const foreignBatch = await gql(northwind, BATCH, { input: batchInput(offer.id, 3) });
    expect(foreignBatch.body.errors![0]!.extensions?.fields).toEqual({ offerId: MONETIZATION_MESSAGES.couponOffer });
    const csv = await gql(northwind, 'query { couponsCsv }');
    expect(csv.body.data!.couponsCsv).not.toContain(offer.id);
  });

  it('keeps coupon codes unique per site only: the same code may exist on two sites', async () => {
    const code = `Both${randomUUID().slice(0, 8).replace(/-/g, '')}`;
    const mine = await createOffer(writer);
    const theirs = await createOffer(northwind);
    const input = (offerId: string) => ({ offerId, code, maxRedemptions: '10', maxPerSubscriber: '1', expiresAt: '', status: 'active' });
    expect((await gql(writer, 'mutation($input: CouponInput!) { couponCreate(input: $input) { code } }', { input: input(mine.id) })).body.data).toBeTruthy();
    expect((await gql(northwind, 'mutation($input: CouponInput!) { couponCreate(input: $input) { code } }', { input: input(theirs.id) })).body.data).toBeTruthy();
  });
});

describe('optimistic concurrency', () => {
  it('answers CONFLICT (409) to a save over a newer version, and never overwrites', async () => {
    const plan = await createPlan();
    const update = (name: string, version: number) => gql(writer, `mutation($id: ID!, $v: Int!, $input: PlanInput!) { planUpdate(id: $id, version: $v, input: $input) { name version } }`,
      { id: plan.id, v: version, input: planInput({ name }) });
    expect((await update('First editor', plan.version)).body.data!.planUpdate).toEqual({ name: 'First editor', version: plan.version + 1 });
    const second = await update('Second editor', plan.version);
    expect(second.status).toBe(409);
    expect(second.body.errors![0]).toMatchObject({ message: MONETIZATION_MESSAGES.conflict, extensions: { code: 'CONFLICT' } });
    const { body } = await gql(writer, `query($id: ID!) { plan(id: $id) { name } }`, { id: plan.id });
    expect(body.data!.plan.name).toBe('First editor');
  });

  it('versions the Models settings too (their models are the site\'s service types, issue 27)', async () => {
    const { body } = await gql(writer, 'query { monetizationSettings { isMonetizationModelEnabled models serviceType version } }');
    const { version, models, serviceType } = body.data!.monetizationSettings;
    expect(models).toContain(serviceType);
    const save = (v: number, list: string[]) => gql(writer, 'mutation($v: Int!, $input: MonetizationSettingsInput!) { monetizationSettingsSave(version: $v, input: $input) { models serviceType version } }',
      { v, input: { isMonetizationModelEnabled: true, models: list } });
    // The demo site's own list saved again, so other tests of this file still see the seeded site.
    expect((await save(version, models)).body.data!.monetizationSettingsSave).toEqual({ models, serviceType, version: version + 1 });
    expect((await save(version, ['FAST'])).status).toBe(409);
    expect((await save(version + 1, [])).body.errors![0]!.extensions?.fields).toEqual({ models: MONETIZATION_MESSAGES.modelsRequired });
    expect((await save(version + 1, ['subscription'])).body.errors![0]!.extensions?.fields).toEqual({ models: MONETIZATION_MESSAGES.modelUnknown });
  });
});

describe('plans: archive instead of delete, duplicate', () => {
  it('archives a plan that subscriptions hold and deletes one nothing refers to', async () => {
    const held = await createPlan();
    const site = await t.siteByName(DEMO_SITES.viewlift);
    const [network] = await t.db.select().from(networks).where(and(eq(networks.siteId, site.id), eq(networks.isDefault, true)));
    const [viewer] = await t.db.insert(subscribers).values({ siteId: site.id, networkId: network!.id, email: `v-${randomUUID()}@test.local`, name: 'Viewer', country: 'US' }).returning();
    const now = new Date();
    await t.db.insert(subscriptions).values({
      siteId: site.id, networkId: network!.id, subscriberId: viewer!.id, planId: held.id, status: 'active', startedAt: now,
      currentPeriodStart: now, currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000), amount: 999, currency: 'USD',
    });
    const del = (id: string, v: number) => gql(writer, `mutation($id: ID!, $v: Int!) { planDelete(id: $id, version: $v) { deleted plan { status subscriptionCount } } }`, { id, v });
    expect((await del(held.id, held.version)).body.data!.planDelete).toEqual({ deleted: false, plan: { status: 'archived', subscriptionCount: 1 } });
    const free = await createPlan();
    expect((await del(free.id, free.version)).body.data!.planDelete).toEqual({ deleted: true, plan: null });
    expect((await gql(writer, `query($id: ID!) { plan(id: $id) { id } }`, { id: free.id })).status).toBe(404);
    const audits = await t.db.select().from(auditEvents).where(sql`${auditEvents.detail}->>'id' in (${held.id}, ${free.id})`);
    expect(audits.map((a) => a.action).sort()).toEqual([
      MONETIZATION_AUDIT.planArchive, MONETIZATION_AUDIT.planCreate, MONETIZATION_AUDIT.planCreate, MONETIZATION_AUDIT.planDelete,
    ].sort());
  });

  it('duplicates a plan as a draft copy with the same prices', async () => {
    const plan = await createPlan(writer, { prices: [{ currency: 'GBP', amount: '5.50' }] });
    const { body } = await gql(writer, `mutation($id: ID!) { planDuplicate(id: $id) { ${PLAN_FIELDS} } }`, { id: plan.id });
    expect(body.data!.planDuplicate).toMatchObject({ name: `${plan.name} (copy)`, status: 'draft', prices: [{ currency: 'GBP', amount: 550 }], version: 1 });
  });
});

describe('plan groups', () => {
  it('keeps the plans in the order given and reorders groups with their versions', async () => {
    const [a, b] = [await createPlan(), await createPlan()];
    const create = (name: string, planIds: string[]) => gql(writer, 'mutation($input: PlanGroupInput!) { planGroupCreate(input: $input) { id version planIds } }', { input: { name, description: '', planIds } });
    const g1 = (await create('Group one', [b.id, a.id])).body.data!.planGroupCreate;
    expect(g1.planIds).toEqual([b.id, a.id]);
    const g2 = (await create('Group two', [a.id])).body.data!.planGroupCreate;
    const { body } = await gql(writer, 'query { planGroups { id version } }');
    const order = (body.data!.planGroups as { id: string; version: number }[]).reverse();
    const reordered = await gql(writer, 'mutation($order: [PlanGroupOrderEntry!]!) { planGroupsReorder(order: $order) { id } }', { order });
    expect((reordered.body.data!.planGroupsReorder as { id: string }[]).map((g) => g.id)).toEqual(order.map((g) => g.id));
    const stale = await gql(writer, 'mutation($order: [PlanGroupOrderEntry!]!) { planGroupsReorder(order: $order) { id } }', { order });
    expect(stale.status).toBe(409);
    expect([g1.id, g2.id].every((id) => order.some((o) => o.id === id))).toBe(true);
  });
});

describe('coupons: batches, uniqueness, CSV', () => {
  it('generates 50 codes in one action, audited once, and exports them with redemption counts', async () => {
    const offer = await createOffer();
    const { body } = await gql(writer, BATCH, { input: batchInput(offer.id, 50, 'spring') });
    expect(body.data!.couponBatchGenerate.count).toBe(50);
    const list = await gql(writer, `query($o: ID) { coupons(offerId: $o, limit: 100) { total items { code } } }`, { o: offer.id });
    expect(list.body.data!.coupons.total).toBe(50);
    const codes = (list.body.data!.coupons.items as { code: string }[]).map((c) => c.code);
    expect(codes.every((c) => /^SPRING[A-Z0-9]{10}$/.test(c))).toBe(true);

    const [first] = await t.db.select().from(coupons).where(eq(coupons.code, codes[0]!));
    const site = await t.siteByName(DEMO_SITES.viewlift);
    const [network] = await t.db.select().from(networks).where(and(eq(networks.siteId, site.id), eq(networks.isDefault, true)));
    const [viewer] = await t.db.insert(subscribers).values({ siteId: site.id, networkId: network!.id, email: `r-${randomUUID()}@test.local`, name: 'Redeemer', country: 'DE' }).returning();
    await t.db.insert(couponRedemptions).values([{ siteId: site.id, couponId: first!.id, subscriberId: viewer!.id }, { siteId: site.id, couponId: first!.id, subscriberId: viewer!.id }]);

    const csv = (await gql(writer, `query($o: ID) { couponsCsv(offerId: $o) }`, { o: offer.id })).body.data!.couponsCsv as string;
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('code,offer,status,redemptions,max_redemptions,max_per_subscriber,expires_at,created_at');
    expect(lines).toHaveLength(51);
    expect(lines.find((l) => l.startsWith(`${first!.code},`))).toMatch(new RegExp(`^${first!.code},Offer [^,]+,active,2,,1,,`));

    const audits = await t.db.select().from(auditEvents).where(and(eq(auditEvents.action, MONETIZATION_AUDIT.couponBatch), sql`${auditEvents.detail}->>'offerId' = ${offer.id}`));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.detail).toMatchObject({ count: 50, prefix: 'SPRING' });
    expect(audits[0]!.actorUserId).toBe(writerCaller.userId);
  });

  it('never duplicates a code when batches run at the same time and draw the same candidates', async () => {
    const offer = await createOffer();
    // Every batch draws from one shared, small candidate pool, so they collide on purpose.
    const pool = Array.from({ length: 400 }, (_, i) => `RACE${offer.id.slice(0, 4)}${String(i).padStart(4, '0')}`.toUpperCase());
    const drawer = () => {
      let next = Math.floor(Math.random() * 40);
      return () => pool[(next++) % pool.length]!;
    };
    const input = batchInput(offer.id, 60);
    const results = await Promise.all(Array.from({ length: 4 }, () => generateCouponBatch(createMonetizationStore(t.db), writerCaller, input, drawer())));
    expect(results.map((r) => r.count)).toEqual([60, 60, 60, 60]);
    const rows = await t.db.select({ code: coupons.code }).from(coupons).where(eq(coupons.offerId, offer.id));
    expect(rows).toHaveLength(240);
    expect(new Set(rows.map((r) => r.code.toLowerCase())).size).toBe(240);
  });

  it('keeps random batches unique when four run concurrently over GraphQL', async () => {
    const offer = await createOffer();
    const answers = await Promise.all(Array.from({ length: 4 }, () => gql(writer, BATCH, { input: batchInput(offer.id, 50) })));
    expect(answers.map((a) => a.body.data?.couponBatchGenerate.count)).toEqual([50, 50, 50, 50]);
    const rows = await t.db.select({ code: coupons.code }).from(coupons).where(eq(coupons.offerId, offer.id));
    expect(new Set(rows.map((r) => r.code.toLowerCase())).size).toBe(200);
  });

  it('refuses a batch of 0 or over 1000 codes and a prefix with symbols, per field', async () => {
    const offer = await createOffer();
    const { body } = await gql(writer, BATCH, { input: { ...batchInput(offer.id, 0, 'no-dash'), maxRedemptions: '1', maxPerSubscriber: '2' } });
    expect(body.errors![0]!.extensions?.fields).toEqual({
      count: MONETIZATION_MESSAGES.batchCount, prefix: MONETIZATION_MESSAGES.couponPrefix, maxPerSubscriber: MONETIZATION_MESSAGES.perSubscriberOverLimit,
    });
    expect((await gql(writer, BATCH, { input: batchInput(offer.id, 1001) })).body.errors![0]!.extensions?.fields).toEqual({ count: MONETIZATION_MESSAGES.batchCount });
  });
});

describe('bad input', () => {
  it('answers a malformed id with NOT_FOUND and an over-large page with BAD_USER_INPUT, never a 500', async () => {
    expect((await gql(writer, 'query { plan(id: "not-a-uuid") { id } }')).status).toBe(404);
    const page = await gql(writer, 'query { plans(limit: 1000) { total } }');
    expect(page.status).toBe(400);
    expect(page.body.errors![0]!.extensions?.code).toBe('BAD_USER_INPUT');
    expect(page.body.errors![0]!.extensions?.param).toBe('limit');
    expect(page.body.errors![0]!.message).toBe('limit must be a whole number from 1 to 100');
  });
});
