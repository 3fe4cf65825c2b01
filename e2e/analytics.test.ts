/**
 * Issue 14 in Chromium, on one server with the demo world (scale 1): admin@demo.test reads the
 * Dashboard 360 overview and a series page (numbers equal the reporting service's answers, a date
 * range change moves the URL, chart and table, the CSV holds the table's rows), watches a real-time
 * page pick up player events sent to POST /v1/events, and a user without Dashboard 360 who types
 * /analytics/qos-isp is sent to their own landing page (and the server refuses the report). Issue 27:
 * long tables page (Top Content's page 2) and a title opens its content item.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_KEY_HEADER, INGEST_PATH, INGEST_ROSTER_PATH, type IngestRoster, type PlayerEvent } from '../common/ingest-contract';
import { API_PATHS } from '../common/constants';
import { REPORTS_PATH, presetRange, type ReportAnswer, type ReportName } from '../common/reports';
import { reportCsv } from '../common/report-csv';
import { formatCell, formatPeriod } from '../src/views/analytics/format';
import { launchBrowser, newPage, signIn, siteToday, startServer, type RunningServer } from './harness';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { demoIngestionKey } from '../server/db/seed-world';

// The demo site's ingestion key, as the seed makes it.
const INGEST_KEY = demoIngestionKey(DEMO_SITES.viewlift);

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  // A quarter of the demo world: every page has data, and the server starts in time on a busy machine.
  // The build is made by the command that runs this file (see the README), so the server skips it.
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
async function api<T>(ctx: BrowserContext, path: string): Promise<{ status: number; body: T }> {
  const cookies = Object.fromEntries((await ctx.cookies()).map((c) => [c.name, c.value]));
  const response = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${cookies.accessToken}`, xApiKey: cookies.xApiKey ?? '' } });
  return { status: response.status, body: (await response.json()) as T };
}

const report = (ctx: BrowserContext, name: ReportName, params: Record<string, string>) =>
  api<ReportAnswer>(ctx, `${REPORTS_PATH}/${name}?${new URLSearchParams(params)}`);

const tableRows = (p: Page) => p.getByRole('region', { name: /table$/ }).locator('tbody tr');

async function tableCells(p: Page): Promise<string[][]> {
  return tableRows(p).evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (td) => td.textContent ?? '')));
}

/** Parses our CSV (quoted fields, "" for a quote). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/).filter(Boolean)) {
    const cells: string[] = [];
    for (const match of line.matchAll(/("((?:[^"]|"")*)"|[^,]*)(,|$)/g)) {
      cells.push(match[2] !== undefined ? match[2].replace(/""/g, '"') : match[1]!);
      if (match[3] === '') break;
    }
    rows.push(cells);
  }
  return rows;
}

describe('Dashboard 360 in Chromium', () => {
  it("shows the overview's headline numbers exactly as the reporting service answers them", async () => {
    await page.getByTestId('headline-subscribers').waitFor();
    const range = presetRange(30, await siteToday(server.url, 'admin@demo.test'));
    const base = { ...range, granularity: 'day', compare: 'previous' };
    const headlines: [ReportName, Record<string, string>, string][] = [
      ['user_base', base, 'subscribers'], ['user_base', base, 'signups'],
      ['user_behavior', base, 'sessions'], ['user_behavior', base, 'watchHours'],
      ['payment_summary_report', { ...base, by: 'period' }, 'netRevenue'],
      ['qos', { ...base, by: 'period' }, 'startupP95Ms'], ['qos', { ...base, by: 'period' }, 'rebufferP95Pct'],
    ];
    for (const [name, params, key] of headlines) {
      const { status, body } = await report(context, name, params);
      expect(status).toBe(200);
      const kind = body.columns.find((c) => c.key === key)?.kind ?? 'money';
      expect(body.totals[key], `${name}.${key}`).not.toBeNull();
      expect(await page.getByTestId(`headline-${key}`).textContent(), `${name}.${key}`).toBe(formatCell(body.totals[key] ?? null, kind, body.currency));
    }
  });

  it('follows a date-range change in the URL, the chart and the table, and exports the table as CSV', async () => {
    await page.getByRole('link', { name: 'Video Engagement' }).first().click();
    await page.waitForURL(/\/analytics\/behaviour-video-engagement$/);
    // 30 days, 25 rows a page (issue 27).
    await expect.poll(() => tableRows(page).count()).toBe(25);
    expect(await page.getByTestId('table-range').textContent()).toBe('Rows 1–25 of 30');
    const chart = page.getByTestId('line-chart').first();
    const pathBefore = await chart.locator('path').first().getAttribute('d');

    expect(await page.getByRole('button', { name: '30 days', pressed: true }).count()).toBe(1);
    await page.getByRole('button', { name: '7 days' }).click();
    await page.waitForURL(/days=7/);
    // Issue 38: the preset the reports now cover is the pressed one.
    await page.getByRole('button', { name: '7 days', pressed: true }).waitFor();
    expect(await page.getByRole('button', { name: '30 days', pressed: false }).count()).toBe(1);
    await expect.poll(() => tableRows(page).count()).toBe(7);
    expect(await chart.locator('path').first().getAttribute('d')).not.toBe(pathBefore);

    // A custom range: the URL carries it, the table has one row per day of it.
    const today = await siteToday(server.url, 'admin@demo.test');
    const from = presetRange(10, today).from;
    await page.getByLabel('From').fill(from);
    await page.waitForURL((url) => url.searchParams.get('from') === from && url.searchParams.get('to') === today && !url.searchParams.has('days'));
    await expect.poll(() => tableRows(page).count()).toBe(10);
    const cells = await tableCells(page);
    const { body } = await report(context, 'user_behavior', { from, to: today, granularity: 'day' });
    expect(cells.map((row) => row[1])).toEqual(body.rows.map((row) => formatCell(row.sessions ?? null, 'count')));
    const headers = await page.getByRole('region', { name: /table$/ }).locator('thead th').allTextContents();
    const pageTotal = Number((await page.getByTestId('total-sessions').textContent())!.replace(/,/g, ''));

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`behaviour-video-engagement-${from}-${today}.csv`);
    const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
    // The table's rows and columns as plain values (issue 27): counts without separators, ISO dates, units in the header.
    expect(csv[0]).toHaveLength(headers.length);
    expect(csv).toEqual(parseCsv(reportCsv(body, body.rows)));
    // The same days: ISO in the CSV, the console's one date format on screen ('25 Nov 2026', issue 30).
    expect(csv.slice(1).map((row) => formatPeriod(row[0]!))).toEqual(cells.map((row) => row[0]));
    expect(csv.slice(1).every((row) => /^\d{4}-\d{2}-\d{2}$/.test(row[0]!))).toBe(true);
    expect(csv.slice(1).reduce((sum, row) => sum + Number(row[1]), 0)).toBe(pageTotal);
  });

  it('pages Top Content and opens a title of page 2 in Content (issue 27)', async () => {
    await page.goto(`${server.url}/analytics/top-content`);
    await page.getByRole('navigation', { name: 'Table pages' }).getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByTestId('table-range').textContent()).toMatch(/^Rows 26–\d+ of \d+$/);
    const link = tableRows(page).first().getByRole('link');
    const [title, href] = [await link.textContent(), await link.getAttribute('href')];
    expect(href).toMatch(/^\/content\/[a-z]+\/[0-9a-f-]{36}$/);
    await link.click();
    await page.waitForURL(`${server.url}${href}`);
    await page.getByRole('heading', { level: 1, name: title! }).waitFor();
  });

  it('updates a real-time page after player events arrive at the ingestion endpoint', async () => {
    const roster = (await (await fetch(`${server.url}${INGEST_ROSTER_PATH}?limit=50`, { headers: { [INGEST_KEY_HEADER]: INGEST_KEY } })).json()) as IngestRoster;
    const viewers = roster.subscribers.slice(0, 6);
    expect(viewers.length).toBe(6);
    // A title nobody is watching right now, so the page's row for it counts exactly our sessions.
    const live = new Set((await report(context, 'realtime_content_enhanced', {})).body.rows.map((r) => r.title));
    let title: string | undefined;
    let contentId: string | undefined;
    for (const item of roster.content) {
      const { body } = await api<{ item: { title: string } }>(context, `${API_PATHS.content}/${item.id}`);
      if (!live.has(body.item.title)) {
        [title, contentId] = [body.item.title, item.id];
        break;
      }
    }
    expect(title, 'a title without live sessions').toBeDefined();

    await page.goto(`${server.url}/analytics/real-top-content`);
    const status = page.getByTestId('live-status');
    await status.getByText(/Last updated/).waitFor();
    const updatedBefore = await status.textContent();
    expect(await tableCells(page)).not.toContainEqual(expect.arrayContaining([title]));

    const at = new Date().toISOString();
    const events: PlayerEvent[] = viewers.map((viewer) => ({
      type: 'session.start', eventId: randomUUID(), sessionId: randomUUID(), at, subscriberId: viewer.id, contentId: contentId!,
      deviceType: 'web', country: viewer.country, isp: 'Comcast', cdn: 'Fastly', startupMs: 900,
    }));
    const sent = await fetch(`${server.url}${INGEST_PATH}`, {
      method: 'POST', headers: { [INGEST_KEY_HEADER]: INGEST_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ events }),
    });
    expect(sent.status).toBe(202);

    // The page refreshes on its own (every 15 s): no reload, no click.
    await expect.poll(() => status.textContent(), { timeout: 25_000, interval: 500 }).not.toBe(updatedBefore);
    await expect.poll(async () => (await tableCells(page)).find((cells) => cells[0] === title)?.[1], { timeout: 5_000 }).toBe('6');
  });

  it('sends a user without Dashboard 360 who types /analytics/qos-isp to /forbidden naming the area, with a way to their own landing page, and the server refuses the report', async () => {
    const other = await newPage(browser);
    try {
      await signIn(other.page, server.url, 'content@demo.test');
      await other.page.waitForURL(`${server.url}/content`);
      await other.page.goto(`${server.url}/analytics/qos-isp`);
      await other.page.waitForURL((url) => url.pathname === '/forbidden' && url.searchParams.get('area') === 'Dashboard 360');
      expect(await other.page.getByTestId('analytics-page').count()).toBe(0);
      await other.page.getByTestId('forbidden').getByText('Dashboard 360').first().waitFor();
      await other.page.getByTestId('forbidden').getByRole('link', { name: /content/i }).click();
      await other.page.waitForURL(`${server.url}/content`);
      const { status, body } = await report(other.context, 'qos', { by: 'isp' });
      expect(status).toBe(403);
      expect(body).toMatchObject({ success: false });
    } finally {
      await other.context.close();
    }
  });
});
