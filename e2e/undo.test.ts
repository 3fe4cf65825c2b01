/**
 * Issue 28 in Chromium, Undo and the default network's editors:
 * - content@demo.test selects two drafts, bulk-publishes them (asked first, naming 2), waits past the
 *   snackbar's 8 s and takes the page's lasting "Undo publish of 2 items" (issue 38; the snackbar keeps
 *   its message, without an Undo): both are drafts again, and each item's history holds the publish and its undo;
 *   the browser sends no request id of its own and its Undo names the one the server answered (issue 37);
 * - admin@demo.test (App CMS write) opens Kids Zone's Brand cold by its ?network= address, copies the brand from the default onto it, takes Undo:
 *   Kids Zone's colours are back in its Brand editor;
 * - then edits the default network's brand (ViewLift Main) and sees Kids Zone's copy preview name
 *   the new colour.
 * Screenshots at 1440 and 390 px go to /tmp/shots/undo/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDO_OFFER_MS } from '../common/revisions';
import { expectProblems, launchBrowser, newPage, signIn, startServer, type RunningServer } from './harness';

const SHOTS = '/tmp/shots/undo';
const KIDS = { identifier: 'kids-zone', name: 'Kids Zone', primary: '#FFB703' };
const MAIN = { identifier: 'viewlift-main', name: 'ViewLift Main', primary: '#1370B3' };
/** The seeded brands' logo and icon addresses are on a demo CDN that does not resolve here. */
const DEMO_CDN = /cdn\.demo\.viewlift\.test\/brand\//;

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([startServer({ SEED_SCALE: '1' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function headers(context: BrowserContext): Promise<Record<string, string>> {
  const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  return { Authorization: `Bearer ${cookies.accessToken}`, xApiKey: cookies.xApiKey ?? '' };
}

async function api<T>(context: BrowserContext, path: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, { headers: await headers(context) });
  expect(res.status, path).toBe(200);
  return res.json() as Promise<T>;
}

/**
 * Ticks a row's box and sees it ticked. A click that lands while the list is being read again is not
 * taken (the box is disabled for that moment): the box is then ticked once more, as an operator would.
 */
async function selectRow(page: Page, title: string): Promise<void> {
  const box = page.getByRole('checkbox', { name: `Select ${title}`, exact: true });
  try {
    await box.check({ timeout: 10_000 });
  } catch (error) {
    if (!String(error).includes('did not change its state')) throw error;
    await page.locator('[aria-busy="false"]').filter({ has: page.getByRole('table') }).waitFor();
    await box.check();
  }
  expect(await box.isChecked()).toBe(true);
}

interface Item { id: string; title: string; status: string }
interface History { items: { seq: number; restoredFrom: number | null; changes: { field: string; before: unknown; after: unknown }[] }[] }

describe('Undo of a bulk publish (content@demo.test)', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await newPage(browser));
    await signIn(page, server.url, 'content@demo.test');
    await page.waitForURL(/\/content(\?|$)/);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('asks first naming 2, publishes, and Undo makes both drafts again; each item\'s history shows both revisions', async () => {
    await page.goto(`${server.url}/content?status=draft`);
    const list = await api<{ items: Item[] }>(context, '/v2.0/content?mediaType=video&status=draft&sort=-updated&start=0&limit=2');
    expect(list.items).toHaveLength(2);
    // The draft list is read and shown (its table no longer busy) before rows are selected.
    await page.locator('[aria-busy="false"]').filter({ has: page.getByRole('table') }).waitFor();
    for (const item of list.items) await selectRow(page, item.title);

    // Issue 37: the server names the request (its answer's x-request-id); the browser sends none of its own.
    const bulkAnswer = page.waitForResponse((res) => res.url().endsWith('/v2.0/content/bulk-status') && res.request().method() === 'POST');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('heading', { name: 'Publish 2 items?' }).waitFor();
    await shots(page, 'bulk-confirm');
    await confirm.getByRole('button', { name: 'Publish 2' }).click();

    const snackbar = page.getByTestId('snackbar');
    await snackbar.getByText('2 items updated.').waitFor();
    const bulk = await bulkAnswer;
    expect(await bulk.request().headerValue('x-request-id')).toBeNull();
    const serverId = await bulk.headerValue('x-request-id');
    expect(serverId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const undoAsked = page.waitForRequest((req) => req.url().endsWith('/v1/revisions/undo') && req.method() === 'POST');
    for (const item of list.items) expect((await api<{ item: Item }>(context, `/v2.0/content/${item.id}`)).item.status).toBe('published');
    await shots(page, 'bulk-undo-offered');
    // Issue 38: the message carries no Undo; the page's lasting one outlives the message's 8 s.
    expect(await snackbar.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    await page.waitForTimeout(UNDO_OFFER_MS + 500);
    await page.getByRole('group', { name: 'Bulk actions' }).getByRole('button', { name: 'Undo publish of 2 items' }).click();
    expect((await undoAsked).postDataJSON()).toEqual({ requestId: serverId });
    await snackbar.getByText('Undone.').waitFor();

    for (const item of list.items) {
      expect((await api<{ item: Item }>(context, `/v2.0/content/${item.id}`)).item.status).toBe('draft');
      const history = await api<History>(context, `/v1/revisions/content/${item.id}`);
      expect(history.items).toHaveLength(2);
      const [undo, publish] = history.items;
      expect(publish!.changes).toContainEqual({ field: 'status', before: 'draft', after: 'published' });
      expect(undo!.changes).toContainEqual({ field: 'status', before: 'published', after: 'draft' });
      expect(undo!.restoredFrom).toBe(publish!.seq);
    }
    // The list was read again: the two rows are drafts on the draft filter.
    for (const item of list.items) await page.getByRole('checkbox', { name: `Select ${item.title}` }).waitFor();
  });
});

describe('Copy from default, Undo, and the default network\'s brand (admin@demo.test)', () => {
  let context: BrowserContext;
  let page: Page;
  const primary = () => page.getByRole('textbox', { name: 'Web primary colour', exact: true });

  beforeAll(async () => {
    ({ context, page } = await newPage(browser));
    await signIn(page, server.url, 'admin@demo.test');
    await page.waitForURL((url) => url.pathname !== '/');
  });
  afterAll(async () => {
    await context?.close();
  });

  it('copies the brand from the default onto Kids Zone, and Undo puts Kids Zone\'s colours back', async () => {
    expectProblems(page, DEMO_CDN);
    // Opened cold with ?network= (the audit log's link): the page opens on that network, not the default.
    await page.goto(`${server.url}/appcms/brand?network=${KIDS.identifier}`);
    await page.getByTestId('appcms-network').getByText(KIDS.name).waitFor();
    await expect.poll(() => primary().inputValue()).toBe(KIDS.primary);

    await page.getByTestId('network-switcher').locator('summary').click();
    await page.getByTestId('network-copy-brand').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    // Spec §4.6: the message goes after 3 seconds and carries no Undo; the switcher offers it (issue 38).
    const snackbar = page.getByTestId('snackbar');
    await snackbar.getByText(`Successfully copied brand from ${MAIN.name} to ${KIDS.name}`).waitFor();
    expect(await snackbar.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    await expect.poll(() => primary().inputValue()).toBe(MAIN.primary);
    await snackbar.waitFor({ state: 'hidden', timeout: 6_000 });
    await page.getByTestId('network-switcher').locator('summary').click();
    const offer = page.getByTestId('network-last-change');
    await offer.getByText(`The brand of ${MAIN.name} was copied to ${KIDS.name}.`).waitFor();
    await shots(page, 'copy-undo-offered');

    await offer.getByRole('button', { name: 'Undo copy' }).click();
    await snackbar.getByText('Undone.').waitFor();
    await offer.waitFor({ state: 'detached' });
    await expect.poll(() => primary().inputValue()).toBe(KIDS.primary);
    const brand = await api<{ theme: { primaryColor: string } }>(context, `/v2.0/appcms/brand/viewlift-demo/${KIDS.identifier}`);
    expect(brand.theme.primaryColor).toBe(KIDS.primary);
  });

  it('edits the default network\'s brand, and Kids Zone\'s copy preview shows the new colour', async () => {
    expectProblems(page, DEMO_CDN);
    await page.getByTestId('network-switcher').locator('summary').click();
    await page.getByTestId(`network-option-${MAIN.identifier}`).click();
    await page.getByTestId('appcms-network').getByText(MAIN.name).waitFor();
    await page.getByTestId('default-network-note').waitFor();
    await expect.poll(() => primary().inputValue()).toBe(MAIN.primary);
    await primary().fill('#2A6F97');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await shots(page, 'default-brand');

    await page.getByTestId('network-switcher').locator('summary').click();
    await page.getByTestId(`network-option-${KIDS.identifier}`).click();
    await page.getByTestId('appcms-network').getByText(KIDS.name).waitFor();
    await page.getByTestId('copy-preview-brand').getByRole('row', { name: `Web primary colour ${KIDS.primary} #2A6F97` }).waitFor();
    await shots(page, 'kids-preview');
  });
});
