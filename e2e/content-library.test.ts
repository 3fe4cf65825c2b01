/**
 * Issue 29 in Chromium, on the seeded viewers' world: content@demo.test schedules a draft to publish
 * two minutes ahead (the item page's editor) and, without touching it again, sees it published after
 * that time: the pg-boss job runs for real on the server's embedded PGlite (its poll interval
 * shortened with CONTENT_JOBS_POLL_SECONDS). Meanwhile: the library's search for a word in the middle
 * of a title finds it; reload and Back keep tab, search and status (the address holds them); "Select
 * all N matching" → Unpublish asks, names the count, then applies, and the empty result offers
 * "Clear filters". Screenshots at 1440 and 390 px: e2e/screenshots/content-library-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblems, launchBrowser, newPage, SCREENSHOT_DIR, signIn, startServer, type RunningServer } from './harness';
import { AVAILABILITY_MESSAGES } from '../common/content-availability';
import { CONTENT_STATUS_WORDS } from '../common/status-words';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  [server, browser] = await Promise.all([startServer({ SEED_SCALE: '1', CONTENT_JOBS_POLL_SECONDS: '1' }), launchBrowser()]);
  ({ context, page } = await newPage(browser));
  await signIn(page, server.url, 'content@demo.test');
  await page.waitForURL(/\/content(\?|$)/);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** The seeded world's artwork lives on a demo host that does not resolve here (the rows show their placeholder). */
function allowDemoArtwork(): void {
  expectProblems(page, /images\.viewlift-demo\.test/);
}

const rowLinks = () => page.locator('tbody tr td a[href^="/content/"]');
const rangeText = () => page.getByRole('navigation', { name: 'Pages' }).locator('span').first().textContent();
const searchBox = () => page.getByLabel('Search titles');
/** The status select (a filter chip's remove button also names the status). */
const statusSelect = () => page.locator('select').and(page.getByLabel('Status'));
const totalShown = async () => Number(/of ([\d,]+)/.exec((await rangeText()) ?? '')?.[1]?.replace(/,/g, '') ?? '0');

async function settled(): Promise<void> {
  await page.locator('[aria-busy="false"]').waitFor();
}

async function titles(): Promise<string[]> {
  await settled();
  return rowLinks().allTextContents();
}

async function shoot(name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `content-library-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('content library and availability (content@demo.test)', () => {
  let title = '';
  let itemUrl = '';
  let publishAt = 0;
  let shown: string[] = [];

  it('schedules a draft to publish two minutes ahead from its page, in its one place: Availability', async () => {
    allowDemoArtwork();
    await statusSelect().selectOption('draft');
    await expect.poll(() => page.url()).toContain('status=draft');
    // The filtered list, not the one before it (aria-busy may not have turned true yet when the URL changes):
    // rows there, and every row's status is Draft.
    const rowStatuses = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.textContent ?? ''));
    await expect.poll(async () => { await settled(); const rows = await rowStatuses(); return rows.length > 0 && rows.every((text) => text.includes(CONTENT_STATUS_WORDS.draft)); }).toBe(true);
    // A title of at least two words, so one word is in its middle.
    const candidates = await titles();
    title = candidates.find((t) => t.trim().split(/\s+/).length >= 2) ?? candidates[0]!;
    await rowLinks().filter({ hasText: title }).first().click();
    await page.waitForURL(/\/content\/video\//);
    itemUrl = page.url();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    // The status offers no "Scheduled" (issue 38): the Availability panel's "Publish at" schedules.
    expect(await statusSelect().locator('option').allTextContents()).not.toContain('Scheduled');
    // Two minutes ahead, up to the next whole minute (the field has minutes), in the site's time zone
    // (the page states it once, above the page: issue 38).
    const zone = /^Dates and times in (.+), the site's time zone\.$/.exec(await page.getByTestId('site-zone').innerText())![1]!;
    const wall = await page.evaluate((timeZone) => {
      const at = new Date(Math.ceil((Date.now() + 2 * 60_000) / 60_000) * 60_000);
      const text = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
      return { at: at.getTime(), text: text.replace(' ', 'T') };
    }, zone);
    publishAt = wall.at;
    const availability = page.getByRole('region', { name: 'Availability' });
    await availability.getByLabel('Publish at', { exact: true }).fill(wall.text);
    await availability.getByRole('button', { name: 'Update availability' }).click();
    await availability.getByText(AVAILABILITY_MESSAGES.availabilitySaved).waitFor();
    await expect.poll(() => statusSelect().inputValue()).toBe('scheduled');
  });

  it('finds the item by a word in the middle of its title', async () => {
    allowDemoArtwork();
    await page.goto(`${server.url}/content`);
    const words = title.split(/\s+/).filter((w) => /\p{L}{3,}/u.test(w));
    const middle = (words[1] ?? words[0])!.replace(/[^\p{L}\p{N}]/gu, '');
    await searchBox().fill(middle);
    await expect.poll(() => page.url()).toContain(`q=${encodeURIComponent(middle)}`);
    await expect.poll(titles).toContain(title);
    await statusSelect().selectOption('scheduled');
    await expect.poll(() => page.url()).toContain('status=scheduled');
    await expect.poll(titles).toContain(title);
    shown = await titles();
    await shoot('search');
  });

  it('keeps tab, search and status on reload and on Back', async () => {
    allowDemoArtwork();
    const address = page.url();
    await page.reload();
    await expect.poll(titles).toEqual(shown);
    expect(await searchBox().inputValue()).not.toBe('');
    expect(await statusSelect().inputValue()).toBe('scheduled');
    expect(page.url()).toBe(address);
    const chips = page.getByRole('list', { name: 'Filters' });
    expect(await chips.getByRole('listitem').count()).toBe(2);

    await page.getByRole('tab', { name: 'Series' }).click();
    await expect.poll(() => page.url()).toContain('tab=series');
    await page.goBack();
    await expect.poll(() => page.url()).toBe(address);
    await expect.poll(titles).toEqual(shown);
    expect(await page.getByRole('tab', { name: 'Video' }).getAttribute('aria-selected')).toBe('true');

    await rowLinks().filter({ hasText: title }).first().click();
    await page.waitForURL(itemUrl);
    await page.goBack();
    await expect.poll(() => page.url()).toBe(address);
    await expect.poll(titles).toEqual(shown);
    expect(await statusSelect().inputValue()).toBe('scheduled');
  });

  it('selects all items matching the filters and unpublishes them after confirming the count', async () => {
    allowDemoArtwork();
    await page.goto(`${server.url}/content?tab=episode&status=published`);
    await expect.poll(async () => (await titles()).length).toBe(20);
    const total = await totalShown();
    expect(total).toBeGreaterThan(20);
    await page.getByRole('checkbox', { name: 'Select all rows of this page' }).check();
    await page.getByRole('button', { name: `Select all ${total.toLocaleString('en-US')} matching` }).click();
    const bulk = page.getByRole('group', { name: 'Bulk actions' });
    await bulk.getByText(`All ${total.toLocaleString('en-US')} matching selected`).waitFor();
    await bulk.getByRole('button', { name: 'Unpublish' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Unpublish ${total.toLocaleString('en-US')} items?` });
    await dialog.waitFor();
    await shoot('confirm');
    await dialog.getByRole('button', { name: `Unpublish ${total.toLocaleString('en-US')}` }).click();
    await page.getByTestId('snackbar').filter({ hasText: `${total} items updated.` }).waitFor();
    await page.getByText('No content matches these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.url()).toMatch(/\/content\?tab=episode$/);
    await expect.poll(async () => (await titles()).length).toBe(20);
  });

  it("a click on a row while the library writes its search into the address opens the row (the click is not lost)", async () => {
    // A page of its own (no page code in its cache): the item page's code answers 1.5 s late, so the
    // search's address write (300 ms after typing) comes while the click's navigation is still loading.
    const own = await newPage(browser);
    try {
      expectProblems(own.page, /images\.viewlift-demo\.test/);
      await signIn(own.page, server.url, 'content@demo.test');
      await own.page.waitForURL(/\/content(\?|$)/);
      await own.page.locator('[aria-busy="false"]').first().waitFor();
      await own.page.waitForLoadState('networkidle');
      await own.page.route('**/assets/**', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      const row = own.page.locator('tbody tr td a[href^="/content/"]').first();
      const href = (await row.getAttribute('href'))!;
      await own.page.getByLabel('Search titles').fill('e');
      await row.click();
      await own.page.waitForURL((url) => url.pathname === href, { timeout: 15_000 });
      await own.page.getByRole('heading', { level: 1 }).waitFor();
      // It stays there: the library's write did not come back after the click.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(new URL(own.page.url()).pathname).toBe(href);
    } finally {
      await own.context.close();
    }
  });

  it('sees the scheduled item published after its time, carried out by the job', async () => {
    allowDemoArtwork();
    const wait = publishAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await expect.poll(async () => {
      await page.goto(itemUrl);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      return statusSelect().inputValue();
    }, { timeout: 60_000, interval: 3_000 }).toBe('published');
    await shoot('published');
  }, 300_000);
});
