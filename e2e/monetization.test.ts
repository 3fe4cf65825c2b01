/**
 * Issue 15 in Chromium: the Monetization tab bar, monetization@demo.test creating a plan, a group, an
 * offer and 50 coupons (seen in the list and the CSV), two contexts producing a conflict, the read-only
 * account without edit controls (and the server refusing it), and a user without the permission sent
 * to /forbidden. Screenshots at 1440 and 390 px go to /tmp/shots/monetization/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblems, launchBrowser, newPage, signIn, startServer, type RunningServer } from './harness';

const SHOTS = '/tmp/shots/monetization';
const TABS = [
  { route: '/monetization/models', title: 'Models', heading: 'Models' },
  { route: '/monetization/plans', title: 'Plans', heading: 'Plans' },
  { route: '/monetization/planGroups', title: 'Plan Groups', heading: 'Plan groups' },
  { route: '/monetization/offers', title: 'Offers', heading: 'Offers' },
  { route: '/monetization/coupon', title: 'Coupons', heading: 'Coupons' },
];
const PRIMARY_LIGHT = 'rgb(19, 112, 179)';
const RUN = Date.now().toString(36).toUpperCase();
const PLAN = `E2E Plan ${RUN}`;

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // A small viewers' world: these journeys need the demo accounts and sites, not volume.
  [server, browser] = await Promise.all([startServer({ SEED_SCALE: '0' }), launchBrowser()]);
  ({ page } = await newPage(browser));
  await signIn(page, server.url, 'monetization@demo.test');
  await page.waitForURL(`${server.url}/monetization/models`);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function shots(p: Page, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await p.setViewportSize({ width, height: 900 });
    await p.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await p.setViewportSize({ width: 1440, height: 900 });
}

async function saved(p: Page): Promise<void> {
  await p.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
}

describe('monetization', () => {
  it('underlines the tab of each of the five routes in the primary colour', async () => {
    for (const tab of TABS) {
      await page.goto(`${server.url}${tab.route}`);
      await page.getByRole('heading', { level: 1, name: tab.heading }).waitFor();
      const active = page.locator('nav[aria-label="Monetization"] a[data-active="true"]');
      expect(await active.textContent()).toBe(tab.title);
      expect(await active.evaluate((a) => getComputedStyle(a).borderBottomColor)).toBe(PRIMARY_LIGHT);
      expect(await page.locator('nav[aria-label="Monetization"] a[data-active="true"]').count()).toBe(1);
      await shots(page, tab.title.toLowerCase().replace(' ', '-'));
    }
  });

  it('creates a plan, puts it in a group, makes an offer for it and generates 50 coupons seen in the list and the CSV', async () => {
    await page.goto(`${server.url}/monetization/plans`);
    await page.getByRole('link', { name: 'New plan' }).click();
    await page.getByRole('heading', { level: 2, name: 'New plan' }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(PLAN);
    await page.getByLabel('Amount 1').fill('9.999');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter an amount of 0 or more with at most 2 decimals for USD.').waitFor();
    await shots(page, 'plan-form-invalid');
    await page.getByLabel('Amount 1').fill('9.99');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    await page.getByRole('table', { name: 'Plans' }).getByRole('link', { name: PLAN }).waitFor();

    await page.goto(`${server.url}/monetization/planGroups?edit=new`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`E2E Group ${RUN}`);
    await page.getByLabel('Add a plan').selectOption({ label: `${PLAN} (Draft)` });
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    await page.getByRole('table', { name: 'Plan groups' }).getByRole('link', { name: `E2E Group ${RUN}` }).waitFor();
    await shots(page, 'plan-group-form');

    await page.goto(`${server.url}/monetization/offers?edit=new`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`E2E Offer ${RUN}`);
    await page.getByRole('spinbutton', { name: 'Percent off' }).fill('20');
    await page.getByLabel(PLAN).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    await page.getByRole('table', { name: 'Offers' }).getByRole('link', { name: `E2E Offer ${RUN}` }).waitFor();
    await shots(page, 'offer-form');

    await page.goto(`${server.url}/monetization/coupon`);
    await page.getByRole('combobox', { name: 'Offer', exact: true }).selectOption({ label: `E2E Offer ${RUN}` });
    await page.getByRole('spinbutton', { name: 'How many codes' }).fill('50');
    await page.getByLabel('Prefix (optional)').fill(`E2E${RUN}`);
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('status').filter({ hasText: 'Generated 50 codes.' }).waitFor();
    await page.getByLabel('Search by code').fill(`E2E${RUN}`);
    await page.getByText('1–20 of 50').waitFor();
    await shots(page, 'coupons-generated');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
    expect(csv[0]).toBe('code,offer,status,redemptions,max_redemptions,max_per_subscriber,expires_at,created_at');
    expect(csv.slice(1).filter((line) => line.startsWith(`E2E${RUN}`) && line.includes(`,E2E Offer ${RUN},active,0,`))).toHaveLength(50);
  });

  it('shows a conflict with a reload choice to the second of two editors saving the same plan', async () => {
    await page.goto(`${server.url}/monetization/plans`);
    await page.getByLabel('Search by name').fill(PLAN);
    const link = page.getByRole('table', { name: 'Plans' }).getByRole('link', { name: PLAN });
    const href = await link.getAttribute('href');
    const second = await newPage(browser);
    await signIn(second.page, server.url, 'monetization@demo.test');
    await second.page.waitForURL(`${server.url}/monetization/models`);
    await Promise.all([page.goto(`${server.url}${href}`), second.page.goto(`${server.url}${href}`)]);
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('First editor');
    await second.page.getByRole('textbox', { name: 'Description', exact: true }).fill('Second editor');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    // The second save is refused on purpose: its version is stale (409).
    expectProblems(second.page, 'HTTP 409: POST', 'the server responded with a status of 409 (Conflict)');
    await second.page.getByRole('button', { name: 'Save' }).click();
    await second.page.getByText('Someone else saved a newer version').waitFor();
    await shots(second.page, 'plan-conflict');
    await second.page.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => second.page.getByRole('textbox', { name: 'Description', exact: true }).inputValue()).toBe('First editor');
    await second.context.close();
  });

  it('shows a read-only user no edit controls, and the server refuses their change', async () => {
    const reader = await newPage(browser);
    await signIn(reader.page, server.url, 'monetization-reader@demo.test');
    await reader.page.waitForURL(`${server.url}/monetization/models`);
    await reader.page.getByRole('heading', { name: 'Monetization models' }).waitFor();
    expect(await reader.page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await reader.page.getByLabel('Monetization enabled for this site').isDisabled()).toBe(true);
    await reader.page.goto(`${server.url}/monetization/plans`);
    await reader.page.getByLabel('Search by name').fill(PLAN);
    await reader.page.getByRole('table', { name: 'Plans' }).getByRole('link', { name: PLAN }).click();
    await reader.page.getByRole('heading', { name: 'Edit plan' }).waitFor();
    expect(await reader.page.getByRole('textbox', { name: 'Name', exact: true }).isDisabled()).toBe(true);
    expect(await reader.page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await reader.page.getByRole('link', { name: 'New plan' }).count()).toBe(0);
    expect(await reader.page.getByRole('button', { name: 'Duplicate' }).count()).toBe(0);
    await shots(reader.page, 'plans-read-only');
    await reader.page.goto(`${server.url}/monetization/coupon`);
    await reader.page.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();
    expect(await reader.page.getByRole('button', { name: 'Generate' }).count()).toBe(0);

    // The read-only account's write is refused on purpose (403).
    expectProblems(reader.page, 'HTTP 403: POST', 'the server responded with a status of 403 (Forbidden)');
    const status = await reader.page.evaluate(async () => {
      const cookie = (name: string) => decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith(`${name}=`))?.split('=')[1] ?? '');
      const res = await fetch('/management/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${cookie('accessToken')}`, xapikey: cookie('xApiKey') },
        body: JSON.stringify({ query: 'mutation { monetizationSettingsSave(version: 1, input: { isMonetizationModelEnabled: false, models: [] }) { version } }' }),
      });
      return res.status;
    });
    expect(status).toBe(403);
    await reader.context.close();
  });

  it('sends a user without the permission who types a monetization URL to /forbidden', async () => {
    const other = await newPage(browser);
    await signIn(other.page, server.url, 'content@demo.test');
    await other.page.waitForURL(`${server.url}/content`);
    await other.page.goto(`${server.url}/monetization/plans`);
    await other.page.waitForURL((url) => url.pathname === '/forbidden' && url.searchParams.get('area') === 'Subscriptions & Offers');
    await other.context.close();
  });
});
