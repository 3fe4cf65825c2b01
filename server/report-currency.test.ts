/**
 * Money per currency (issue 27): payment_summary_report answers the chosen currency's rows and the
 * totals of every currency apart (`currencyTotals`), recomputed here from the raw payments; amounts are
 * never summed across currencies. Also: the CSV a page downloads from a real answer sums to its total.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS_PATH, type ReportAnswer } from '../common/reports';
import { reportCsv } from '../common/report-csv';
import { rebuildRollups } from './db/rollups';
import { networks, payments, plans, subscribers, subscriptions } from './db/schema';
import { createBareSite, createTestApp, type Session, type TestApp } from './test/kit';

const FROM = '2024-05-01';
const TO = '2024-05-10';
const CURRENCIES = ['USD', 'GBP', 'EUR'] as const;

let t: TestApp;
let analyst: Session;
const pays: (typeof payments.$inferInsert)[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const name = `currency-${randomUUID().slice(0, 8)}`;
  const siteId = await createBareSite(t.db, name);
  const [net] = await t.db.insert(networks).values({ siteId, identifier: `${name}-main`, name: 'Main', image: '/logo.svg', isActive: true, isDefault: true }).returning();
  const [plan] = await t.db.insert(plans).values({ siteId, name: 'Monthly', prices: [{ currency: 'USD', amount: 999 }], billingPeriod: 'month', status: 'active' }).returning();
  for (let i = 0; i < 12; i++) {
    const currency = CURRENCIES[i % 3]!;
    const [viewer] = await t.db.insert(subscribers).values({ siteId, networkId: net!.id, email: `v${i}@${name}.test`, name: `Viewer ${i}`, country: 'US', createdAt: new Date(`${FROM}T08:00:00Z`) }).returning();
    const start = new Date(`2024-05-0${1 + (i % 9)}T09:00:00Z`);
    const amount = 1000 + i * 37;
    const [sub] = await t.db.insert(subscriptions).values({
      siteId, networkId: net!.id, subscriberId: viewer!.id, planId: plan!.id, status: 'active', startedAt: start,
      currentPeriodStart: start, currentPeriodEnd: new Date(start.getTime() + 30 * 86_400_000), amount, currency,
    }).returning();
    const base = { siteId, networkId: net!.id, subscriberId: viewer!.id, subscriptionId: sub!.id, planId: plan!.id, currency, method: 'card' };
    pays.push({ ...base, amount, status: 'succeeded', at: new Date(start.getTime() + 3_600_000) });
    if (i % 4 === 1) pays.push({ ...base, amount: 250, status: 'refunded', at: new Date(start.getTime() + 7_200_000) });
    if (i % 5 === 2) pays.push({ ...base, amount, status: 'failed', at: new Date(start.getTime() + 1_800_000) });
  }
  await t.db.insert(payments).values(pays);
  await rebuildRollups(t.db, { siteId });
  const user = await t.createUser({ site: name, roles: { 'Dashboard 360': 'read' }, prefix: 'analyst' });
  analyst = await t.login(user.username);
});
afterAll(async () => t?.close());

async function payments_(query: string) {
  const res = await t.get(`${REPORTS_PATH}/payment_summary_report?from=${FROM}&to=${TO}${query}`, analyst.headers);
  return { status: res.statusCode, body: res.json<ReportAnswer & { message?: string }>() };
}

const sum = <T,>(list: T[], f: (x: T) => number) => list.reduce((a, x) => a + f(x), 0);
function expected(currency: string) {
  const mine = pays.filter((p) => p.currency === currency);
  // A 'refunded' row is a charge taken and given back: in revenue, in refunds, not in net revenue.
  const refunds = sum(mine.filter((p) => p.status === 'refunded'), (p) => p.amount);
  const kept = sum(mine.filter((p) => p.status === 'succeeded'), (p) => p.amount);
  const taken = mine.filter((p) => p.status === 'succeeded' || p.status === 'refunded').length;
  const failed = mine.filter((p) => p.status === 'failed').length;
  return { payments: taken, revenue: kept + refunds, refunds, netRevenue: kept, failed, successPct: Math.round((1000 * taken) / (taken + failed)) / 10 };
}

describe('payment_summary_report per currency', () => {
  it('answers every currency the site has payments in, and each currency\'s totals apart', async () => {
    const { status, body } = await payments_('');
    expect(status).toBe(200);
    expect([...body.currencies!].sort()).toEqual(['EUR', 'GBP', 'USD']);
    expect(body.currencyTotals).toEqual({ EUR: expected('EUR'), GBP: expected('GBP'), USD: expected('USD') });
    expect(body.totals).toEqual(body.currencyTotals![body.currency!]);
  });

  it('currency=GBP answers the GBP rows only; by plan too', async () => {
    const { body } = await payments_('&currency=GBP');
    expect(body.currency).toBe('GBP');
    expect(body.totals).toEqual(expected('GBP'));
    expect(sum(body.rows, (r) => r.revenue as number)).toBe(expected('GBP').revenue);
    const byPlan = await payments_('&currency=EUR&by=plan');
    expect(byPlan.body.totals).toEqual(expected('EUR'));
    expect(byPlan.body.currencyTotals!.GBP).toEqual(expected('GBP'));
  });

  it('a currency without payments is a 400 naming the currencies there are', async () => {
    const { status, body } = await payments_('&currency=JPY');
    expect(status).toBe(400);
    expect(body.message).toMatch(/^currency: no payments in JPY; this site has (USD|GBP|EUR), (USD|GBP|EUR), (USD|GBP|EUR)$/);
  });

  it('the downloaded CSV of a real answer sums, parsed like a spreadsheet, to the page\'s totals', async () => {
    const { body } = await payments_('&currency=EUR');
    const lines = reportCsv(body, body.rows).trim().split('\r\n').map((l) => l.split(','));
    const header = lines[0]!;
    const data = lines.slice(1);
    expect(data).toHaveLength(body.rows.length);
    const column = (label: string) => data.map((l) => Number(l[header.indexOf(label)]));
    expect(header).toContain('Net revenue (EUR)');
    expect(sum(column('Net revenue (EUR)'), (v) => v)).toBeCloseTo(expected('EUR').netRevenue / 100, 2);
    expect(sum(column('Successful payments'), (v) => v)).toBe(expected('EUR').payments);
    expect(new Set(data.map((l) => l[header.indexOf('Currency')]))).toEqual(new Set(['EUR']));
    expect(data.every((l) => /^\d{4}-\d{2}-\d{2}$/.test(l[0]!))).toBe(true);
  });
});
