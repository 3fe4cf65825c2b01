/**
 * Issue 42, in Chromium on one server with the demo world: Dashboard 360 › Alerts shows "Player events
 * not placed". A fresh site has none (the empty state); heartbeats of a session no player started are
 * accepted (202), the consumer keeps them in the dead letters once the start's grace has passed
 * (INGEST_START_GRACE_MS, 200 ms here), and Refresh shows them under "Session start never arrived"
 * with the newest one's time, the other reasons at 0. Screenshots and the axe sweep at 1440 and 390 px, light and dark.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_DEAD_LETTERS_PATH, INGEST_KEY_HEADER, INGEST_PATH, type IngestDeadLetterCounts, type PlayerEvent } from '../common/ingest-contract';
import { INGEST_DEAD_LETTER_MESSAGES as M, INGEST_DEAD_LETTER_REASON_WORDS as WORDS } from '../common/messages/ingest-dead-letters';
import { QOE_ALERT_MESSAGES } from '../common/messages/qoe-alerts';
import { everyLook } from './accessibility-sweep';
import { shot } from './auth-harness';
import { launchBrowser, newPage, signIn, startServer, type RunningServer } from './harness';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { demoIngestionKey } from '../server/db/seed-world';

// The demo site's ingestion key, as the seed makes it.
const INGEST_KEY = demoIngestionKey(DEMO_SITES.viewlift);

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ SEED_SCALE: '0.25', SKIP_BUILD: '1', LOG_LEVEL: 'warn', ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1', INGEST_START_GRACE_MS: '200' }),
    launchBrowser(),
  ]);
  ({ context, page } = await newPage(browser));
  await signIn(page, server.url, 'admin@demo.test');
  await page.waitForURL(`${server.url}/analytics`);
}, 240_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function deadLetters(): Promise<IngestDeadLetterCounts> {
  const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  const response = await fetch(`${server.url}${INGEST_DEAD_LETTERS_PATH}`, { headers: { Authorization: `Bearer ${cookies.accessToken}`, xApiKey: cookies.xApiKey ?? '' } });
  return (await response.json()) as IngestDeadLetterCounts;
}

async function screenshots(p: Page, name: string): Promise<void> {
  for (const [width, height] of [[1440, 900], [390, 844]] as const) {
    await p.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      await p.evaluate((t) => document.documentElement.setAttribute('data-theme', t), scheme);
      await p.getByRole('region', { name: M.title }).scrollIntoViewIfNeeded();
      await shot(p, `${name}-${width}-${scheme}`);
    }
  }
  await p.setViewportSize({ width: 1280, height: 800 });
  await p.emulateMedia({ colorScheme: 'light' });
  await p.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
}

describe('Player events not placed (issue 42)', { timeout: 300_000 }, () => {
  it('shows none on a fresh site, then the heartbeats of a session never started under their reason', async () => {
    await page.goto(`${server.url}/analytics/alerts`);
    await page.getByRole('heading', { level: 1, name: QOE_ALERT_MESSAGES.pageTitle }).waitFor();
    const panel = page.getByRole('region', { name: M.title });
    await panel.getByText(M.empty).waitFor();
    await screenshots(page, 'dead-letters-empty');

    const sessionId = randomUUID();
    const at = new Date().toISOString();
    const events: PlayerEvent[] = [1, 2].map((n) => ({
      type: 'heartbeat', eventId: randomUUID(), sessionId, at, playheadSeconds: 5 * n, watchedSeconds: 5 * n, bitrateKbps: 2500, rebufferCount: 0, rebufferMs: 0,
    }));
    const sent = await fetch(`${server.url}${INGEST_PATH}`, {
      method: 'POST', headers: { [INGEST_KEY_HEADER]: INGEST_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ events }),
    });
    expect(sent.status).toBe(202);
    await expect.poll(async () => (await deadLetters()).total, { timeout: 60_000, interval: 500 }).toBe(2);

    await panel.getByRole('button', { name: M.refresh }).click();
    await panel.getByText(M.total(2)).waitFor();
    const start = panel.getByTestId('dead-letters-session-start-missing');
    expect(await start.textContent()).toContain(WORDS['session-start-missing'].label);
    expect(await start.textContent()).toContain(M.count(2));
    expect(await start.textContent()).toMatch(/Last: \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
    for (const reason of ['subscriber-missing', 'content-missing', 'network-missing', 'unreadable-message'] as const) {
      const row = panel.getByTestId(`dead-letters-${reason}`);
      expect(await row.textContent()).toContain(M.count(0));
      expect(await row.textContent()).toContain(`Last: ${M.never}`);
    }
    await screenshots(page, 'dead-letters-counted');
    // No serious or critical axe finding on the page with the panel filled, at both widths in both themes.
    expect(await everyLook(page, '/analytics/alerts (events not placed)')).toEqual([]);
  });
});
