import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, SCREENSHOT_DIR, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('foundation in Chromium', () => {
  it('serves the app titled "CMS Tools" (its sign-in page "Sign in | CMS Tools") with the spec theme colour', async () => {
    // The app's own title is the spec's; each page then names itself before it ("Sign in | CMS Tools").
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain('<title>CMS Tools</title>');
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/`);
    await page.getByLabel('Username').waitFor();
    await expect.poll(() => page.title()).toBe('Sign in | CMS Tools');
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#1370B3');
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe('CMS Tools');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'sign-in.png'), fullPage: true });
    await context.close();
  });

  it('shows the not-found page with a way back for an unknown URL', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/no/such/page`);
    await page.getByTestId('not-found').waitFor();
    expect(await page.getByRole('heading', { name: 'Page not found' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Back to CMS Tools' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'not-found.png') });
    await context.close();
  });

  it('sends a visitor without a session from a protected route to the sign-in page', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/analytics/qos-isp`);
    await page.waitForURL(`${server.url}/`);
    await page.getByLabel('Username').waitFor();
    await context.close();
  });
});
