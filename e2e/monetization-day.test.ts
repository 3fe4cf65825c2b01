/**
 * Issue 30 in Chromium, on a small seeded viewers' world: monetization@demo.test reprices Basic
 * Monthly, sees before saving how many paying subscribers keep the old price, moves them at their
 * next renewal (confirmed), and the audit log (read through the Admin API as admin@demo.test) has both
 * actions; creates the named code SUMMER25, disables it, and a redemption of it by the apps
 * (POST /v1/coupons/redeem with the site's app key) is refused; opens SUMMER25's History by keyboard
 * (`?history=<id>`, kept by Back/Forward and reload), sees Active → Disabled in words, restores the
 * Active code from it; monetization-reader@demo.test sees the same History without Restore. The
 * Monetization tab is marked on Plans and Coupons. Screenshots at 1440 and 390 px: /tmp/shots/monetization-day/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { INGEST_KEY_HEADER, INGEST_ROSTER_PATH } from '../common/ingest-contract';
import { COUPON_REDEEM_PATH } from '../common/monetization-contract';
import { MONETIZATION_MESSAGES } from '../common/monetization-rules';
import { HISTORY_PANEL_MESSAGES } from '../common/revisions';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { demoIngestionKey } from '../server/db/seed-world';
import { launchBrowser, newPage, SEED_PASSWORD, signIn, startServer, type RunningServer } from './harness';

const SHOTS = '/tmp/shots/monetization-day';
const PLAN = 'Basic Monthly';
const CODE = 'SUMMER25';
const APP_KEY = { [INGEST_KEY_HEADER]: demoIngestionKey(DEMO_SITES.viewlift) };

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // A small world: Basic Monthly needs paying subscribers, and the apps' key exists only with a world.
  [server, browser] = await Promise.all([
    startServer({ SEED_SCALE: '0.25', SKIP_BUILD: '1', LOG_LEVEL: 'warn', ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1' }),
    launchBrowser(),
  ]);
  ({ page } = await newPage(browser));
  await signIn(page, server.url, 'monetization@demo.test');
  await page.waitForURL(`${server.url}/monetization/models`);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function shots(name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function adminHeaders(): Promise<Record<string, string>> {
  const login = await fetch(`${server.url}${API_PATHS.login}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin@demo.test', password: SEED_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const info = await fetch(`${server.url}${API_PATHS.loginInfo}`, { headers: { authorization: `Bearer ${accessToken}` } });
  const { managementXApiKey } = (await info.json()) as { managementXApiKey: string };
  return { authorization: `Bearer ${accessToken}`, xapikey: managementXApiKey };
}

async function auditOf(action: string, headers: Record<string, string>) {
  const res = await fetch(`${server.url}${API_PATHS.admin}/audit?action=${encodeURIComponent(action)}`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: { action: string; actor: { username: string } | null; object?: { name?: string | null } | null; detail: Record<string, unknown> }[] }).items;
}

const areaTab = () => page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Monetization' });

describe('a monetization day', () => {
  it('reprices Basic Monthly, sees who keeps the old price, moves them at their next renewal; the audit log has both', async () => {
    await page.goto(`${server.url}/monetization/plans`);
    await page.getByRole('heading', { level: 1, name: 'Plans' }).waitFor();
    expect(await areaTab().getAttribute('aria-current')).toBe('page');
    await page.getByRole('table', { name: 'Plans' }).getByRole('link', { name: PLAN, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Edit plan' }).waitFor();
    const amount = page.getByLabel('Amount 1');
    await amount.waitFor();
    const before = await amount.inputValue();
    await amount.fill((Number(before) + 1).toFixed(2));
    const note = page.getByTestId('price-versions');
    const keeps = /^(\d+) live subscriptions? keeps? the current price\. The new price applies to new subscriptions only\.$/.exec((await note.getByRole('status').textContent()) ?? '');
    expect(keeps).not.toBeNull();
    const paying = Number(keeps![1]);
    expect(paying).toBeGreaterThan(0);
    await shots('reprice-before-save');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await note.getByText(MONETIZATION_MESSAGES.oldPriceSubscribers(paying)).waitFor();
    await page.getByRole('button', { name: MONETIZATION_MESSAGES.moveAtRenewalLabel }).click();
    const dialog = page.getByRole('dialog', { name: MONETIZATION_MESSAGES.moveAtRenewalLabel });
    expect(await dialog.textContent()).toContain(MONETIZATION_MESSAGES.moveAtRenewalConfirm(PLAN, paying));
    await shots('move-at-renewal-confirm');
    await dialog.getByRole('button', { name: 'Move at next renewal' }).click();
    await page.getByRole('status').filter({ hasText: MONETIZATION_MESSAGES.movedAtRenewal(paying) }).waitFor();
    await note.getByText(MONETIZATION_MESSAGES.movingAtRenewal(paying)).waitFor();
    await shots('moving-at-renewal');

    const admin = await adminHeaders();
    const saves = await auditOf('monetization.plan.update', admin);
    expect(saves.some((e) => e.actor?.username === 'monetization@demo.test' && JSON.stringify(e.detail).includes('"priceVersion"'))).toBe(true);
    const moves = await auditOf('monetization.plan.moveAtRenewal', admin);
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ actor: { username: 'monetization@demo.test' }, detail: { subscriptions: paying, priceVersion: 2 } });
  });

  it('creates SUMMER25, disables it, and the apps\' redemption of it is refused', async () => {
    await page.goto(`${server.url}/monetization/coupon`);
    await page.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();
    expect(await areaTab().getAttribute('aria-current')).toBe('page');
    await page.getByLabel('What to create').selectOption('single');
    await page.getByRole('textbox', { name: 'Code' }).fill(CODE);
    await page.getByRole('button', { name: 'Create code' }).click();
    await page.getByRole('status').filter({ hasText: MONETIZATION_MESSAGES.couponCreated(CODE) }).waitFor();
    const row = page.getByRole('table', { name: 'Coupons' }).getByRole('row', { name: new RegExp(CODE) });
    await row.waitFor();
    expect(await row.textContent()).toContain('never');
    await page.getByRole('button', { name: `Disable ${CODE}` }).click();
    await page.getByRole('status').filter({ hasText: MONETIZATION_MESSAGES.couponDisabled(CODE) }).waitFor();
    await page.getByRole('button', { name: `Enable ${CODE}` }).waitFor();
    await shots('coupon-disabled');

    const roster = await fetch(`${server.url}${INGEST_ROSTER_PATH}?limit=1`, { headers: APP_KEY });
    const { subscribers } = (await roster.json()) as { subscribers: { id: string }[] };
    const redeem = await fetch(`${server.url}${COUPON_REDEEM_PATH}`, {
      method: 'POST', headers: { ...APP_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ code: CODE, subscriberId: subscribers[0]!.id }),
    });
    expect(redeem.status).toBe(409);
    expect(await redeem.json()).toEqual({ success: false, message: MONETIZATION_MESSAGES.redeemDisabled });
    const admin = await adminHeaders();
    expect((await auditOf('monetization.coupon.disable', admin)).some((e) => e.actor?.username === 'monetization@demo.test')).toBe(true);
  });

  it('opens SUMMER25\'s History by keyboard, keeps it in the address, and restores the Active code from it; a reader sees it without Restore', async () => {
    const coupons = `${server.url}/monetization/coupon`;
    const table = page.getByRole('table', { name: 'Coupons' });
    const link = table.getByRole('link', { name: `History of ${CODE}` });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?history=/);
    const id = new URL(page.url()).searchParams.get('history')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const region = page.getByRole('region', { name: `History of ${CODE}` });
    const disabledChange = region.getByText('Status: Active → Disabled');
    await disabledChange.waitFor();
    // The batch form is set aside while the History shows; Close history is the way back.
    expect(await page.getByRole('button', { name: 'Create code' }).isVisible()).toBe(false);
    await shots('coupon-history');

    // Back and Forward move between the list and the History; a reload keeps it.
    await page.goBack();
    await page.waitForURL(coupons);
    await region.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Create code' }).waitFor();
    await page.goForward();
    await disabledChange.waitFor();
    await page.reload();
    await disabledChange.waitFor();

    // Restore the values before the Disabled revision: the code is Active again, in the list too.
    await region.getByRole('button', { name: 'Compare with now' }).first().click();
    await region.getByRole('button', { name: /^Restore the values before #\d+$/ }).click();
    const confirm = page.getByRole('dialog');
    expect(await confirm.textContent()).toContain('Status: Disabled → Active');
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await region.getByRole('status').filter({ hasText: /restored: its earlier values are back/ }).waitFor();
    await table.getByRole('button', { name: `Disable ${CODE}` }).waitFor();
    expect(await table.getByRole('row', { name: new RegExp(CODE) }).textContent()).toContain('Active');
    await region.getByText('Status: Disabled → Active').waitFor();
    await shots('coupon-history-restored');

    await region.getByRole('link', { name: 'Close history' }).click();
    await page.waitForURL(coupons);
    // The batch form is back (read afresh by the reload: a batch again).
    await page.getByRole('button', { name: 'Generate' }).waitFor();
    await region.waitFor({ state: 'detached' });

    const reader = await newPage(browser);
    try {
      await signIn(reader.page, server.url, 'monetization-reader@demo.test');
      await reader.page.waitForURL((url) => url.pathname !== '/');
      await reader.page.goto(`${coupons}?history=${id}`);
      const readerRegion = reader.page.getByRole('region', { name: `History of ${CODE}` });
      await readerRegion.getByText('Status: Active → Disabled').waitFor();
      await readerRegion.getByText(HISTORY_PANEL_MESSAGES.readOnly).waitFor();
      await readerRegion.getByRole('button', { name: 'Compare with now' }).first().click();
      await readerRegion.getByTestId('revision-diff').waitFor();
      expect(await readerRegion.getByRole('button', { name: /^Restore/ }).count()).toBe(0);
      expect(await reader.page.getByRole('button', { name: `Disable ${CODE}` }).count()).toBe(0);
    } finally {
      await reader.context.close();
    }
  });
});
