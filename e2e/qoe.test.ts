/**
 * Issue 41, browser journey part 1, in Chromium on one server with the demo world (a quarter of it):
 * admin@demo.test filters QoS Overall by two devices and excludes one ISP (chips, the Add filter picker
 * with its counts, all in the address), breaks it down by CDN (share of sessions, sortable), opens the
 * views behind the worst cell (exactly as many sessions as the cell counts) and one view's timeline.
 * Screenshots at 1440 and 390 px, light and dark, go to e2e/screenshots/qoe-*.png.
 * (Saved views and alerts are part 2, another file.)
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QOE_PAGE_MESSAGES as M } from '../common/messages/qoe';
import { COMPARE_MESSAGES as C } from '../common/messages/analytics-compare';
import { QOE_VALUES_PATH, QOE_VIEWS_PATH, parseQoeFilters, type QoeValuesAnswer, type QoeViewsAnswer } from '../common/qoe';
import { REPORTS_PATH, presetRange, type ReportAnswer } from '../common/reports';
import { SCREENSHOT_DIR, launchBrowser, newPage, signIn, siteToday, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ SEED_SCALE: '0.25', SKIP_BUILD: '1', LOG_LEVEL: 'warn', ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1' }), launchBrowser()]);
  ({ context, page } = await newPage(browser));
  await signIn(page, server.url, 'admin@demo.test');
  await page.waitForURL(`${server.url}/analytics`);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/** A GET with the signed-in user's own credentials (the browser's cookies). */
async function api<T>(path: string): Promise<{ status: number; body: T }> {
  const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  const response = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${cookies.accessToken}`, xApiKey: cookies.xApiKey ?? '' } });
  return { status: response.status, body: (await response.json()) as T };
}

/** Screenshots of the page as it is, at 1440 and 390 px, light and dark; the viewport and scheme are put back. */
async function shots(name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `qoe-${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

const fOf = (p: Page) => new URL(p.url()).searchParams.get('f') ?? '';

/** Picks the first `count` values the picker lists for `dimension` (most sessions first), included or excluded; their labels. */
async function addFilter(dimension: string, count: number, exclude: boolean): Promise<string[]> {
  await page.getByRole('button', { name: M.addFilter }).click();
  const picker = page.getByRole('form', { name: M.addFilter });
  await picker.getByLabel(M.dimension).selectOption({ label: dimension });
  const list = picker.getByRole('list', { name: dimension });
  await list.waitFor();
  const labels = (await list.getByRole('listitem').allTextContents()).map((t) => t.replace(/[\d,]+ sessions?$/, '').trim());
  const chosen = labels.slice(0, count);
  if (exclude) await picker.getByRole('radio', { name: M.exclude }).click();
  for (let i = 0; i < count; i += 1) await list.getByRole('listitem').nth(i).getByRole('checkbox').check();
  await picker.getByRole('button', { name: M.apply }).click();
  return chosen;
}

describe('QoE journey part 1 in Chromium', () => {
  it('filters QoS Overall by two devices and excludes one ISP, breaks it down by CDN, opens the views behind the worst cell and one view', { timeout: 180_000 }, async () => {
    const range = presetRange(30, await siteToday(server.url, 'admin@demo.test'));
    await page.goto(`${server.url}/analytics/qos-overall?days=30`);
    await page.getByTestId('total-sessions').waitFor();
    expect(await page.getByText(M.noFilters).count()).toBe(1);

    // Two devices (the two most viewed: the picker lists them by sessions), then one ISP excluded.
    const devices = await addFilter('Device type', 2, false);
    await page.waitForURL((url) => (url.searchParams.get('f') ?? '').startsWith('device:'));
    await page.getByTestId('qoe-chip').first().waitFor();
    const [isp] = await addFilter('ISP', 1, true);
    await page.waitForURL((url) => (url.searchParams.get('f') ?? '').includes('!isp:'));
    const filters = parseQoeFilters(fOf(page));
    expect(filters).toEqual({ ok: true, filters: [{ dimension: 'device', exclude: false, values: expect.any(Array) }, { dimension: 'isp', exclude: true, values: [expect.any(String)] }] });
    const chips = await page.getByTestId('qoe-chip').allTextContents();
    expect(chips.map((c) => c.replace(/×$/, ''))).toEqual([`Device type is ${devices.join(', ')}`, `ISP is not ${isp}`]);

    // The headline under the filters is the server's figure for them.
    const f = fOf(page);
    const { body: overall } = await api<ReportAnswer>(`${REPORTS_PATH}/qos?${new URLSearchParams({ ...range, granularity: 'day', by: 'period', f })}`);
    await expect.poll(async () => page.getByTestId('total-sessions').textContent()).toBe(overall.totals.sessions!.toLocaleString('en-US'));
    // The picker's counts are those of the values API (the other filters applied).
    const { status: valuesStatus, body: values } = await api<QoeValuesAnswer>(`${QOE_VALUES_PATH}?${new URLSearchParams({ ...range, dimension: 'cdn', f })}`);
    expect(valuesStatus).toBe(200);
    expect(values.values.length).toBeGreaterThan(0);

    await page.getByRole('button', { name: M.addFilter }).click();
    await page.getByRole('form', { name: M.addFilter }).getByLabel(M.dimension).selectOption({ label: 'CDN' });
    await page.getByRole('form', { name: M.addFilter }).getByRole('list', { name: 'CDN' }).waitFor();
    await shots('picker');
    await page.getByRole('button', { name: M.cancel }).click();

    // Break down by CDN: the breakdown's table with each CDN's share of the sessions.
    await page.getByTestId('break-down-by').selectOption('cdn');
    await page.waitForURL((url) => url.searchParams.get('by') === 'cdn');
    const breakdown = page.getByTestId('qoe-breakdown');
    const table = breakdown.getByRole('table');
    await table.waitFor();
    const headers = await table.locator('thead th').allTextContents();
    expect(headers).toContain(M.share);
    // Worst first: the rebuffer ratio p95, descending.
    const rebufferHeader = headers.findIndex((h) => h.startsWith('Rebuffer p95'));
    expect(rebufferHeader).toBeGreaterThan(0);
    await table.locator('thead th').nth(rebufferHeader).getByRole('button').click();
    await expect.poll(async () => table.locator('thead th').nth(rebufferHeader).getAttribute('aria-sort')).toBe('descending');
    const worst = table.locator('tbody tr').first();
    const worstCells = await worst.locator('td').allTextContents();
    const sessionsAt = headers.findIndex((h) => h.startsWith('Sessions'));
    const worstSessions = Number(worstCells[sessionsAt]!.replace(/,/g, ''));
    await shots('breakdown');

    // The views behind the worst cell: exactly the sessions it counts.
    await worst.getByRole('link', { name: /^Views/ }).click();
    await page.waitForURL((url) => url.pathname === '/analytics/views');
    const viewsF = fOf(page);
    expect(viewsF.startsWith(f)).toBe(true);
    expect(viewsF).toMatch(/;cdn:[^;]*$/);
    await page.getByTestId('views-range').waitFor();
    expect(await page.getByTestId('views-range').textContent()).toMatch(new RegExp(`of ${worstSessions.toLocaleString('en-US')}$`));
    const { body: views } = await api<QoeViewsAnswer>(`${QOE_VIEWS_PATH}?${new URLSearchParams({ ...range, f: viewsF })}`);
    expect(views.total).toBe(worstSessions);
    expect(await page.getByTestId('qoe-chip').count()).toBe(3);
    await shots('views');

    // One view that has ended (the newest may still be playing: its timeline ends with its last heartbeat):
    // its dimensions and its timeline from start to end.
    const ended = views.rows.find((row) => row.endedAt !== null);
    expect(ended, 'page 1 of the views holds a session that has ended').toBeDefined();
    await page.getByTestId('view-row').locator(`a[href^="/analytics/views/${ended!.sessionId}"]`).click();
    await page.waitForURL((url) => url.pathname === `/analytics/views/${ended!.sessionId}`);
    await page.getByRole('heading', { name: M.dimensions }).waitFor();
    const timeline = await page.getByTestId('timeline').getByRole('listitem').allTextContents();
    expect(timeline[0]).toMatch(/Start/);
    expect(timeline.at(-1)).toMatch(/End|Error/);
    await shots('view');

    // Compare with the previous period: drawn beside this one on the charts of the periods and of the breakdown.
    await page.goto(`${server.url}/analytics/qos-overall?days=30&by=cdn&f=${encodeURIComponent(f)}`);
    // "Compare with" beside the range (toggle buttons, aria-pressed).
    await page.getByRole('group', { name: C.control }).getByRole('button', { name: C.previous, exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('compare') === 'previous');
    expect(await page.getByRole('group', { name: C.control }).getByRole('button', { name: C.previous, exact: true }).getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('qoe-breakdown').getByText(M.previous('Startup p95 (ms)')).waitFor();
    expect(await page.getByText(M.previous('Startup p95 (ms)')).count()).toBe(2);
    await shots('compare');
  });
});
