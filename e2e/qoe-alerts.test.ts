/**
 * Issue 41, browser journey part 2, in Chromium on one server with the demo world: admin@demo.test
 * creates an alert rule on a metric for a filter set (an ISP only these sessions have), simulated bad
 * player events are sent to POST /v1/events with the site's ingestion key (the players keep sending
 * heartbeats every 5 s), the incident opens (the header's count shows it), and once the players stop it
 * resolves by itself within about the rule's duration; the Dashboard 360 reader (twofa@demo.test)
 * sees the incident but cannot edit the rule; a saved view is reopened from its address in a new
 * browser context. The server evaluates rules every 2 s here (QOE_ALERT_EVAL_MS; 15 s by default);
 * the rule's shortest duration (1 minute) is the journey's longest wait.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INGEST_KEY_HEADER, INGEST_PATH, INGEST_ROSTER_PATH, type IngestRoster, type PlayerEvent } from '../common/ingest-contract';
import { QOE_INCIDENT_COUNT_PATH, QOE_INCIDENTS_PATH, type QoeIncidentCountAnswer, type QoeIncidentsAnswer } from '../common/qoe';
import { QOE_ALERT_MESSAGES as M, QOE_SAVED_VIEW_MESSAGES as S } from '../common/messages/qoe-alerts';
import { QOE_PAGE_MESSAGES as Q } from '../common/messages/qoe';
import { demoAccount, nextOtp, outboxIds, shot, submitCredentials } from './auth-harness';
import { launchBrowser, newPage, signIn, startServer, type RunningServer } from './harness';
import { DEMO_SITES } from '../server/db/demo-accounts';
import { demoIngestionKey } from '../server/db/seed-world';

// The demo site's ingestion key, as the seed makes it.
const INGEST_KEY = demoIngestionKey(DEMO_SITES.viewlift);
const ISP = `E2E Slow Net ${randomUUID().slice(0, 6)}`;
const RULE = 'E2E slow startup';
const READER = demoAccount('twofa@demo.test');

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let roster: IngestRoster;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ SEED_SCALE: '0.25', SKIP_BUILD: '1', LOG_LEVEL: 'warn', ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1', QOE_ALERT_EVAL_MS: '2000' }),
    launchBrowser(),
  ]);
  ({ context, page } = await newPage(browser));
  await signIn(page, server.url, 'admin@demo.test');
  await page.waitForURL(`${server.url}/analytics`);
  roster = (await (await fetch(`${server.url}${INGEST_ROSTER_PATH}?limit=50`, { headers: { [INGEST_KEY_HEADER]: INGEST_KEY } })).json()) as IngestRoster;
}, 240_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function api<T>(ctx: BrowserContext, path: string): Promise<T> {
  const cookies = Object.fromEntries((await ctx.cookies()).map((c) => [c.name, c.value]));
  const response = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${cookies.accessToken}`, xApiKey: cookies.xApiKey ?? '' } });
  return (await response.json()) as T;
}

async function sendEvents(events: PlayerEvent[]): Promise<void> {
  const sent = await fetch(`${server.url}${INGEST_PATH}`, {
    method: 'POST', headers: { [INGEST_KEY_HEADER]: INGEST_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ events }),
  });
  expect(sent.status).toBe(202);
}

/** The players of `sessionIds` keep playing: a heartbeat each every 5 s until the answer is called. */
function keepPlaying(sessionIds: string[]): () => Promise<void> {
  let watched = 0;
  let last: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    watched += 5;
    const at = new Date().toISOString();
    last = sendEvents(sessionIds.map((sessionId): PlayerEvent => ({
      type: 'heartbeat', eventId: randomUUID(), sessionId, at, playheadSeconds: watched, watchedSeconds: watched, bitrateKbps: 2500, rebufferCount: 0, rebufferMs: 0,
    }))).catch(() => undefined);
  }, 5_000);
  return async () => {
    clearInterval(timer);
    await last;
  };
}

/** `count` sessions on the rule's ISP, each starting after `startupMs`; answers their ids. */
async function sendSessions(count: number, startupMs: number): Promise<string[]> {
  const at = new Date().toISOString();
  const content = roster.content[0]!;
  const events: PlayerEvent[] = Array.from({ length: count }, (_, i) => {
    const viewer = roster.subscribers[i % roster.subscribers.length]!;
    return {
      type: 'session.start', eventId: randomUUID(), sessionId: randomUUID(), at, subscriberId: viewer.id, contentId: content.id,
      deviceType: 'web', country: viewer.country, isp: ISP, cdn: 'Fastly', startupMs,
    };
  });
  await sendEvents(events);
  return events.map((e) => e.sessionId);
}

async function screenshots(p: Page, name: string): Promise<void> {
  await p.setViewportSize({ width: 1440, height: 900 });
  await p.emulateMedia({ colorScheme: 'light' });
  await shot(p, `${name}-1440-light`);
  await p.emulateMedia({ colorScheme: 'dark' });
  await shot(p, `${name}-1440-dark`);
  await p.setViewportSize({ width: 390, height: 844 });
  await shot(p, `${name}-390-dark`);
  await p.emulateMedia({ colorScheme: 'light' });
  await shot(p, `${name}-390-light`);
  await p.setViewportSize({ width: 1280, height: 800 });
}

describe('QoE alerts and saved views (issue 41, part 2)', { timeout: 300_000 }, () => {
  it('admin creates a rule; bad events open an incident (the header counts it); a reader sees it but cannot edit; it resolves when they stop', async () => {
    await page.goto(`${server.url}/analytics/alerts`);
    await page.getByRole('heading', { level: 1, name: M.pageTitle }).waitFor();
    await page.getByRole('button', { name: M.newRule }).click();
    const form = page.getByRole('form', { name: M.editorNewTitle });
    await form.getByLabel(M.name, { exact: true }).fill(RULE);
    await form.getByLabel(/^Metric/).selectOption('startupP50Ms');
    await form.getByLabel(/^Threshold/).fill('5000');
    await form.getByLabel(new RegExp(`^${M.duration}`)).selectOption('1');
    // The report pages' chips and picker: the ISP has no session yet, so it is typed in Search and picked.
    await form.getByRole('button', { name: Q.addFilter }).click();
    const picker = form.getByRole('group', { name: Q.addFilter });
    await picker.getByLabel(Q.dimension).selectOption('isp');
    await picker.getByLabel(Q.search).fill(ISP);
    await picker.getByRole('checkbox', { name: Q.typedValue(ISP) }).click();
    await picker.getByRole('checkbox', { name: ISP, checked: true }).waitFor();
    await picker.getByRole('button', { name: Q.apply }).click();
    await form.getByTestId('qoe-chip').getByText(`ISP is ${ISP}`).waitFor();
    await shot(page, 'qoe-alert-editor-1280-light');
    await form.getByRole('button', { name: M.save }).click();
    await page.getByRole('status').getByText(M.created(RULE)).waitFor();
    await page.getByRole('list', { name: M.rulesTitle }).getByText(RULE).waitFor();
    // Its History: the creation, by its author.
    await page.getByRole('button', { name: `${M.historyOf}: ${RULE}` }).click();
    await page.getByTestId('revision-1').getByText('by admin@demo.test').waitFor();
    await page.getByRole('button', { name: M.closeHistory }).click();

    const stopPlaying = keepPlaying(await sendSessions(12, 9000));
    await expect.poll(async () => (await api<QoeIncidentCountAnswer>(context, QOE_INCIDENT_COUNT_PATH)).open, { timeout: 150_000, interval: 2_000 }).toBe(1);
    await page.reload();
    const count = page.getByTestId('open-incidents-count');
    await count.waitFor({ timeout: 40_000 });
    expect(await count.textContent()).toContain(M.headerCount(1));
    const open = page.getByRole('list', { name: M.openTitle });
    await open.getByText(RULE).waitFor();
    expect(await open.textContent()).toContain(`ISP is ${ISP}`);
    await screenshots(page, 'qoe-alerts');

    // The Dashboard lists it too.
    await count.click();
    await page.waitForURL(`${server.url}/analytics/alerts`);
    await page.goto(`${server.url}/analytics`);
    await page.getByRole('list', { name: M.overviewTitle }).getByText(RULE).waitFor();
    await screenshots(page, 'qoe-dashboard-incidents');

    // The Dashboard 360 reader sees the incident and the rule, and nothing to change them with.
    const reader = await newPage(browser);
    try {
      const seen = await outboxIds(server.url, READER.phoneNumber);
      await reader.page.goto(`${server.url}/`);
      await submitCredentials(reader.page, READER.username);
      await reader.page.waitForURL(`${server.url}/verify-number`);
      await reader.page.getByLabel('Verification code').fill(await nextOtp(server.url, READER.phoneNumber, seen));
      await reader.page.getByRole('button', { name: 'Confirm' }).click();
      await reader.page.waitForURL(`${server.url}/analytics`);
      await reader.page.getByTestId('open-incidents-count').waitFor({ timeout: 40_000 });
      await reader.page.goto(`${server.url}/analytics/alerts`);
      await reader.page.getByRole('list', { name: M.openTitle }).getByText(RULE).waitFor();
      await reader.page.getByRole('list', { name: M.rulesTitle }).getByText(RULE).waitFor();
      expect(await reader.page.getByRole('button', { name: M.newRule }).count()).toBe(0);
      expect(await reader.page.getByRole('button', { name: `${M.editRule}: ${RULE}` }).count()).toBe(0);
      expect(await reader.page.getByRole('button', { name: `${M.deleteRule}: ${RULE}` }).count()).toBe(0);
      await shot(reader.page, 'qoe-alerts-reader');
    } finally {
      await reader.context.close();
    }

    // The bad players stop: once their sessions leave the rule's 1-minute window the incident resolves by itself
    // (the window, plus one evaluation every 2 s here, plus the fold's delay).
    await stopPlaying();
    const stopped = Date.now();
    await expect.poll(async () => (await api<QoeIncidentCountAnswer>(context, QOE_INCIDENT_COUNT_PATH)).open, { timeout: 90_000, interval: 1_000 }).toBe(0);
    const clearedInMs = Date.now() - stopped;
    console.log(`qoe-alerts e2e: players stopped → incident resolved in ${(clearedInMs / 1000).toFixed(1)} s`);
    expect(clearedInMs).toBeGreaterThan(50_000); // not before the window has passed
    const all = await api<QoeIncidentsAnswer>(context, `${QOE_INCIDENTS_PATH}?state=resolved`);
    const mine = all.incidents.find((i) => i.ruleName === RULE);
    expect(mine).toMatchObject({ state: 'resolved', resolvedReason: 'recovered' });
    expect(mine!.peakValue).toBeGreaterThan(5000);
    await page.goto(`${server.url}/analytics/alerts`);
    await page.getByRole('list', { name: M.resolvedTitle }).getByText(RULE).waitFor();
  });

  it('a saved view reopens from its address in a new browser context', async () => {
    await page.goto(`${server.url}/analytics/qos-overall?days=7`);
    await page.getByRole('button', { name: S.save }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(S.name).fill('E2E week');
    await dialog.getByRole('button', { name: S.confirmSave }).click();
    const link = page.getByRole('status').getByRole('link', { name: S.open });
    await link.waitFor();
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/analytics\/saved\/[0-9a-f-]{36}$/);

    const other = await newPage(browser);
    try {
      await signIn(other.page, server.url, 'admin@demo.test');
      await other.page.waitForURL(`${server.url}/analytics`);
      await other.page.goto(`${server.url}${href}`);
      await other.page.waitForURL((url) => url.pathname === '/analytics/qos-overall' && url.searchParams.get('days') === '7');
      await other.page.getByRole('heading', { level: 1, name: 'QoS Overall' }).waitFor();
      await other.page.goto(`${server.url}/analytics/saved`);
      await other.page.getByRole('list', { name: S.listTitle }).getByText('E2E week').waitFor();
      await screenshots(other.page, 'qoe-saved-views');
    } finally {
      await other.context.close();
    }
  });
});
