/**
 * Issue 28 in Chromium, the History panel: monetization@demo.test changes a plan's price, opens the
 * plan's History, restores the previous price (the editor shows it, History shows the change and the
 * restore); monetization-reader@demo.test (Subscriptions & Offers read only) sees the same History
 * without Restore, and the restore call with its own token is refused (403). Screenshots at 1440 and
 * 390 px go to /tmp/shots/history/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblems, launchBrowser, newPage, signIn, startServer, type RunningServer } from './harness';

const SHOTS = '/tmp/shots/history';
const RUN = Date.now().toString(36).toUpperCase();
const PLAN = `History Plan ${RUN}`;

let server: RunningServer;
let browser: Browser;
let page: Page;
/** The plan's id and the seq of the price change, for the read-only journey. */
let planId = '';
let priceChangeSeq = 0;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([
    startServer({ SEED_SCALE: '0', SKIP_BUILD: '1', LOG_LEVEL: 'warn', ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1' }),
    launchBrowser(),
  ]);
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

describe('history', () => {
  it('changes a plan\'s price, restores the previous one from History: the editor shows it and History shows both revisions', async () => {
    await page.goto(`${server.url}/monetization/plans`);
    await page.getByRole('link', { name: 'New plan' }).click();
    await page.getByRole('heading', { level: 2, name: 'New plan' }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(PLAN);
    await page.getByLabel('Amount 1').fill('9.99');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);
    await page.waitForURL((url) => (url.searchParams.get('edit') ?? 'new') !== 'new');
    planId = new URL(page.url()).searchParams.get('edit')!;

    const history = page.getByTestId('history-panel');
    const created = history.locator('[data-testid^="revision-"]').filter({ hasText: 'Created with:' });
    await created.getByText('Price: 9.99 USD').waitFor();
    expect(await created.textContent()).not.toContain('Description');
    await page.getByLabel('Amount 1').fill('12.99');
    await page.getByRole('button', { name: 'Save' }).click();
    await saved(page);

    const change = history.locator('[data-testid^="revision-"]').filter({ hasText: 'Price: 9.99 USD → 12.99 USD' });
    await change.waitFor();
    priceChangeSeq = Number((await change.getAttribute('data-testid'))!.replace('revision-', ''));
    expect(await change.textContent()).toContain('by monetization@demo.test');
    await change.getByRole('button', { name: 'Compare with now' }).click();
    const diff = page.getByTestId('revision-diff');
    expect(await diff.getByRole('row', { name: /Price/ }).textContent()).toBe('Price9.99 USD12.99 USD12.99 USD');
    await diff.getByRole('button', { name: `Restore the values before #${priceChangeSeq}` }).click();
    const dialog = page.getByRole('dialog', { name: `Restore revision #${priceChangeSeq}?` });
    expect(await dialog.textContent()).toContain('Price: 12.99 USD → 9.99 USD');
    await shots(page, 'plan-restore-confirm');
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await history.getByRole('status').filter({ hasText: `Revision #${priceChangeSeq} restored` }).waitFor();

    // The editor opened afresh on the restored plan; History has the change and the restore.
    await expect.poll(() => page.getByLabel('Amount 1').inputValue()).toBe('9.99');
    const restore = history.locator('[data-testid^="revision-"]').filter({ hasText: `Restore of revision #${priceChangeSeq}` });
    await restore.waitFor();
    expect(await restore.textContent()).toContain('Price: 12.99 USD → 9.99 USD');
    const seqs = await history.locator('[data-testid^="revision-"]').evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-testid')!.slice(9))));
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(seqs).toContain(priceChangeSeq);
    expect(seqs[0]).toBeGreaterThan(priceChangeSeq);
    // The list beside it shows the restored price too.
    await page.getByRole('table', { name: 'Plans' }).getByRole('row').filter({ hasText: PLAN }).getByText('USD 9.99').waitFor();
    await shots(page, 'plan-history-restored');
  });

  it('a read-only account sees History without Restore, and its restore call is refused (403)', async () => {
    expect(planId).not.toBe('');
    const reader = await newPage(browser);
    await signIn(reader.page, server.url, 'monetization-reader@demo.test');
    await reader.page.waitForURL(`${server.url}/monetization/models`);
    await reader.page.goto(`${server.url}/monetization/plans?edit=${encodeURIComponent(planId)}`);
    await reader.page.getByRole('heading', { name: 'Edit plan' }).waitFor();
    const history = reader.page.getByTestId('history-panel');
    const change = history.getByTestId(`revision-${priceChangeSeq}`);
    await change.waitFor();
    expect(await change.textContent()).toContain('Price: 9.99 USD → 12.99 USD');
    await history.getByText('Your role can read this history but not restore it.').waitFor();
    await change.getByRole('button', { name: 'Compare with now' }).click();
    await reader.page.getByTestId('revision-diff').waitFor();
    expect(await reader.page.getByRole('button', { name: /Restore/ }).count()).toBe(0);
    await shots(reader.page, 'plan-history-read-only');

    expectProblems(reader.context, /403.*\/v1\/revisions\/\d+\/restore/);
    const answer = await reader.page.evaluate(async (seq) => {
      const cookie = (name: string) => decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith(`${name}=`))?.split('=')[1] ?? '');
      const res = await fetch(`/v1/revisions/${seq}/restore`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${cookie('accessToken')}`, xapikey: cookie('xApiKey') },
        body: JSON.stringify({ version: 99 }),
      });
      return { status: res.status, body: await res.json() as { success?: boolean } };
    }, priceChangeSeq);
    expect(answer.status).toBe(403);
    expect(answer.body.success).toBe(false);
    // Nothing was restored: the writer's plan still has the restored price and no new revision.
    await reader.page.reload();
    await reader.page.getByTestId('history-panel').getByTestId(`revision-${priceChangeSeq}`).waitFor();
    await expect.poll(() => reader.page.getByLabel('Amount 1').inputValue()).toBe('9.99');
    await reader.context.close();
  });
});
