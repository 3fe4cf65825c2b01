/**
 * Issue 29, a support agent's day in Chromium on the seeded viewers' world: support@demo.test finds a
 * subscriber by the last name alone, resumes their subscription that was set to cancel at period end,
 * refunds half of a payment; the Payments report (Dashboard 360, read as admin@demo.test, since
 * support@demo.test has no Dashboard 360 role) for today shows the refund. At 390 px every action of
 * the subscriber page is on screen; an unknown or malformed id is a not-found page with a way back.
 * History: the subscription's History shows the cancel at period end in words, and the resume at once
 * while open; the refunded payment's History shows the refund; support-reader@demo.test (Customer
 * Support: read) sees both, read-only.
 * Screenshots at 1440 and 390 px: /tmp/shots/support-day/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { formatMoney as moneyText } from '../common/monetization-rules';
import { REPORTS_PATH, type ReportAnswer } from '../common/reports';
import { siteDayOf } from '../common/site-day';
import { SUPPORT_MESSAGES, type SubscriberDetail, type SubscriberSearchPage } from '../common/support';
import { formatCell } from '../src/views/analytics/format';
import { formatDateTime } from '../common/display-format';
import { expectProblems, launchBrowser, SEED_PASSWORD, signIn, startServer, type RunningServer } from './harness';

const SHOTS = process.env.SUPPORT_DAY_SHOTS_DIR ?? '/tmp/shots/support-day';

let server: RunningServer;
let browser: Browser;

interface ApiSession { headers: Record<string, string>; /** The site's zone: the console writes its dates in it (common/display-format.ts). */ timeZone: string }

async function apiLogin(username: string): Promise<ApiSession> {
  const login = await fetch(`${server.url}${API_PATHS.login}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: SEED_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const info = await fetch(`${server.url}${API_PATHS.loginInfo}`, { headers: { authorization: `Bearer ${accessToken}` } });
  const { managementXApiKey, defaultTimezone } = (await info.json()) as { managementXApiKey: string; defaultTimezone: string };
  return { headers: { authorization: `Bearer ${accessToken}`, xapikey: managementXApiKey, 'content-type': 'application/json' }, timeZone: defaultTimezone };
}

async function graphql<T>(session: ApiSession, query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${server.url}${API_PATHS.graphql}`, { method: 'POST', headers: session.headers, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data: T | null; errors?: { message: string }[] };
  if (!body.data) throw new Error(`GraphQL ${res.status}: ${body.errors?.[0]?.message}`);
  return body.data;
}

interface Target {
  id: string;
  name: string;
  lastName: string;
  subscriptionId: string;
  planName: string;
  paymentId: string;
  paymentAt: string;
  amount: number;
  currency: string;
}

/**
 * A seeded subscriber whose last name alone finds them on the first page of results, with one live
 * subscription and a succeeded payment; the subscription is then set to cancel at period end (as an
 * agent did yesterday), so the journey can resume it.
 */
async function pickSubscriber(agent: ApiSession): Promise<Target> {
  const listing = await graphql<{ subscriberSearch: SubscriberSearchPage }>(agent,
    'query($q: String!) { subscriberSearch(query: $q, state: "paying", page: 3, pageSize: 40) { items { id name } } }', { q: '' });
  for (const item of listing.subscriberSearch.items) {
    const lastName = item.name.split(' ').at(-1)!;
    const found = await graphql<{ subscriberSearch: SubscriberSearchPage }>(agent,
      'query($q: String!) { subscriberSearch(query: $q) { total items { id } } }', { q: lastName });
    if (!found.subscriberSearch.items.some((i) => i.id === item.id)) continue;
    const { subscriber } = await graphql<{ subscriber: SubscriberDetail }>(agent,
      'query($id: ID!) { subscriber(id: $id) { subscriptions { id planName status cancelAtPeriodEnd endedAt version } payments { id at amount currency status } } }', { id: item.id });
    const live = subscriber.subscriptions.filter((s) => s.status === 'active' && !s.endedAt && !s.cancelAtPeriodEnd);
    const payment = subscriber.payments.find((p) => p.status === 'succeeded' && p.amount >= 2);
    if (live.length !== 1 || !payment) continue;
    await graphql(agent, 'mutation($id: ID!, $v: Int!) { subscriptionCancel(subscriptionId: $id, mode: "AT_PERIOD_END", reason: "Viewer asked to stop renewing", version: $v) { profile { id } } }',
      { id: live[0]!.id, v: live[0]!.version });
    return {
      id: item.id, name: item.name, lastName, subscriptionId: live[0]!.id, planName: live[0]!.planName,
      paymentId: payment.id, paymentAt: payment.at, amount: payment.amount, currency: payment.currency,
    };
  }
  throw new Error('no seeded paying subscriber found by last name with a succeeded payment');
}

async function paymentsToday(admin: ApiSession, currency: string): Promise<ReportAnswer> {
  // The site's day (Dashboard 360's days are the site's, issue 38), not the test process's UTC day.
  const today = siteDayOf(Date.now(), admin.timeZone);
  const res = await fetch(`${server.url}${REPORTS_PATH}/payment_summary_report?from=${today}&to=${today}&currency=${currency}`, { headers: admin.headers });
  expect(res.status).toBe(200);
  return (await res.json()) as ReportAnswer;
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** The element lies inside the viewport's width (reachable without a sideways scroll). */
async function onScreen(page: Page, locator: ReturnType<Page['getByRole']>): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

let target: Target;
let admin: ApiSession;
let refundsBefore: number;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([startServer({ SEED_SCALE: '1', LOG_LEVEL: 'warn' }), launchBrowser()]);
  target = await pickSubscriber(await apiLogin('support@demo.test'));
  admin = await apiLogin('admin@demo.test');
  refundsBefore = Number((await paymentsToday(admin, target.currency)).totals.refunds ?? 0);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a support day (issue 29)', () => {
  it('support@demo.test finds a subscriber by last name, resumes the subscription cancelling at period end, refunds half a payment; the Payments report shows the refund today', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, server.url, 'support@demo.test');
    await page.waitForURL(`${server.url}/users`);
    await page.getByRole('table').waitFor();

    await page.getByLabel('Search subscribers').fill(target.lastName.toLowerCase());
    const link = page.locator(`a[href="/users/${target.id}"]`);
    await link.waitFor();
    const row = page.getByRole('row').filter({ has: link });
    expect(await row.textContent()).toContain('Cancelling at period end');
    await shoot(page, 'search-by-last-name-1440');
    await link.click();
    await page.waitForURL(`${server.url}/users/${target.id}`);
    await page.getByRole('heading', { name: target.name }).waitFor();

    // Resume: the button is there now (it was only "Cancel subscription" before issue 29).
    const subscription = page.getByRole('table', { name: 'Subscriptions' }).getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'Resume subscription' }) });

    // Its History (the row under it) says yesterday's cancel at period end in words.
    const history = page.locator('tr:has(button:text-is("Resume subscription")) + tr').getByRole('region', { name: `History of the ${target.planName} subscription` });
    const historyNode = (await history.elementHandle())!;
    await history.getByRole('button', { name: `Show history of the ${target.planName} subscription` }).click();
    await history.getByText('Cancels at period end: No → Yes').waitFor();
    await history.getByText('Reason: Viewer asked to stop renewing').waitFor();
    expect(await history.getByRole('button', { name: /Restore/ }).count()).toBe(0);
    await shoot(page, 'subscription-history-1440');
    await subscription.getByRole('button', { name: 'Resume subscription' }).click();
    const resume = page.getByRole('dialog', { name: 'Resume subscription' });
    await resume.getByText('will renew at the end of its period').waitFor();
    await resume.getByLabel('Reason (kept in the audit log)').fill('Viewer changed their mind on the phone');
    await shoot(page, 'resume-dialog-1440');
    await resume.getByRole('button', { name: 'Resume subscription' }).click();
    await page.getByRole('status').filter({ hasText: SUPPORT_MESSAGES.resumed }).waitFor();
    expect(await page.getByRole('button', { name: 'Resume subscription' }).count()).toBe(0);
    // The open History shows the resume at once, newest first.
    await expect.poll(async () => (await historyNode.$$eval('[data-testid^="revision-"] li', (items) => items.map((i) => i.textContent))).slice(0, 1), { timeout: 10_000 })
      .toEqual(['Cancels at period end: Yes → No']);
    expect(await historyNode.$$eval('[data-testid^="revision-"]', (items) => items.length)).toBe(2);

    // Refund half of the payment.
    const half = Math.floor(target.amount / 2);
    const payments = page.getByRole('table', { name: 'Payments' });
    await payments.getByRole('button', { name: `Refund the payment of ${formatDateTime(target.paymentAt, admin.timeZone)}` }).first().click();
    const refund = page.getByRole('dialog', { name: 'Refund payment' });
    const amountField = refund.getByLabel(`Amount to refund (${target.currency})`);
    expect(await amountField.inputValue()).toBe(moneyText(target.amount, target.currency));
    await amountField.fill(moneyText(half, target.currency));
    await refund.getByLabel('Reason (kept in the audit log)').fill('Outage for half the month');
    await refund.getByText('part of the payment').waitFor();
    await shoot(page, 'refund-dialog-1440');
    await refund.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByRole('status').filter({ hasText: SUPPORT_MESSAGES.partlyRefunded }).waitFor();
    await payments.getByText('Partly refunded').first().waitFor();
    // The refunded payment now has its History: the refund in words.
    const paymentHistory = payments.getByRole('region', { name: `History of the payment of ${formatDateTime(target.paymentAt, admin.timeZone)}` }).first();
    await paymentHistory.getByRole('button', { name: /^Show history of the payment/ }).click();
    await paymentHistory.getByText('Status: Succeeded → Partly refunded').waitFor();
    await paymentHistory.getByText(`Refunded: ${moneyText(0, target.currency)} ${target.currency} → ${moneyText(half, target.currency)} ${target.currency}`).waitFor();
    await paymentHistory.getByText('Reason: Outage for half the month').waitFor();
    await shoot(page, 'subscriber-after-1440');
    await context.close();

    // The Payments report of today counts the refund (API and the page as admin@demo.test).
    const after = await paymentsToday(admin, target.currency);
    expect(Number(after.totals.refunds) - refundsBefore).toBe(half);
    const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, server.url, 'admin@demo.test');
    await adminPage.waitForURL(`${server.url}/analytics`);
    const today = siteDayOf(Date.now(), admin.timeZone);
    await adminPage.goto(`${server.url}/analytics/payments?from=${today}&to=${today}&granularity=day&currency=${target.currency}`);
    const refunds = adminPage.getByTestId('total-refunds');
    await expect.poll(() => refunds.textContent(), { timeout: 15_000 }).toBe(formatCell(after.totals.refunds ?? null, 'money', target.currency));
    await shoot(adminPage, 'payments-today-1440');
    await adminContext.close();
  });

  it('at 390 px every action of the subscriber page is on screen; an unknown or malformed id is a not-found page with a way back', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, server.url, 'support@demo.test');
    await page.waitForURL(`${server.url}/users`);
    await page.getByRole('table').waitFor();
    await shoot(page, 'search-390');
    await page.goto(`${server.url}/users/${target.id}`);
    await page.getByRole('heading', { name: target.name }).waitFor();
    for (const name of ['Change plan', 'Grant days', 'Cancel subscription', 'Sign out of all devices', 'Add note', 'Show full e-mail and phone']) {
      const button = page.getByRole('button', { name, exact: true }).first();
      await button.scrollIntoViewIfNeeded();
      expect(await onScreen(page, button), name).toBe(true);
    }
    const refundButton = page.getByRole('button', { name: /^Refund the payment/ }).first();
    await refundButton.scrollIntoViewIfNeeded();
    expect(await onScreen(page, refundButton), 'Refund').toBe(true);
    await shoot(page, 'subscriber-390');

    // The GraphQL answers of the two bad ids (a 400 naming the id, a 404) are what the page turns into "not found".
    expectProblems(page, /HTTP (400|404): POST .*\/management\/graphql/, /status of (400|404) \(.*\/management\/graphql/);
    for (const id of ['not-an-id', '00000000-0000-4000-8000-000000000000']) {
      await page.goto(`${server.url}/users/${id}`);
      await page.getByRole('heading', { name: SUPPORT_MESSAGES.subscriberNotFound }).waitFor();
      expect(await page.getByText('id is not a valid id.').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    }
    await shoot(page, 'not-found-390');
    await page.getByRole('link', { name: 'Back to search' }).click();
    await page.waitForURL(`${server.url}/users`);
    await context.close();
  });

  it('support-reader@demo.test (Customer Support: read) sees the subscription\'s and the payment\'s History, read-only, at 390 px', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, server.url, 'support-reader@demo.test');
    await page.waitForURL(`${server.url}/users`);
    await page.goto(`${server.url}/users/${target.id}`);
    await page.getByRole('heading', { name: target.name }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel subscription' }).count()).toBe(0);
    const payment = page.getByRole('region', { name: `History of the payment of ${formatDateTime(target.paymentAt, admin.timeZone)}` }).first();
    const toggle = payment.getByRole('button', { name: /^Show history of the payment/ });
    await toggle.scrollIntoViewIfNeeded();
    expect(await onScreen(page, toggle), 'Show history').toBe(true);
    await toggle.click();
    await payment.getByText('Status: Succeeded → Partly refunded').waitFor();
    expect(await payment.getByRole('button', { name: /Restore/ }).count()).toBe(0);
    const subscriptions = page.getByRole('region', { name: `History of the ${target.planName} subscription` });
    for (const region of await subscriptions.all()) await region.getByRole('button', { name: /^Show history/ }).click();
    await subscriptions.getByText('Cancels at period end: Yes → No').first().waitFor();
    await shoot(page, 'history-reader-390');
    await context.close();
  });
});
