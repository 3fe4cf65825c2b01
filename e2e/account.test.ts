/**
 * Issue 19 in Chromium: "My sessions" from the user menu lists the user's sessions (two browsers),
 * ends the other one at once (its token is refused), and ending this one signs this browser out.
 * Screenshots at 1440 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectProblems, launchBrowser, newPage, type RunningServer } from './harness';
import { cookie, openUserMenu, pathOf, shot, startAuthServer, submitCredentials, verifyStatus } from './auth-harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAuthServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(username: string): Promise<{ context: BrowserContext; page: Page; token: string; apiKey: string }> {
  const { context, page } = await newPage(browser);
  await page.goto(`${server.url}/`);
  await submitCredentials(page, username);
  await page.waitForURL((url) => url.pathname !== '/');
  await page.getByTestId('header').waitFor();
  return { context, page, token: (await cookie(context, 'accessToken'))!, apiKey: (await cookie(context, 'xApiKey'))! };
}

describe('My sessions', () => {
  it('lists both browsers, ends the other at once, and ending this one signs out here', async () => {
    const other = await signedIn('content@demo.test');
    const here = await signedIn('content@demo.test');
    await openUserMenu(here.page);
    await here.page.getByRole('menuitem', { name: 'My sessions' }).click();
    await here.page.waitForURL(`${server.url}/account/sessions`);
    const list = here.page.getByRole('list', { name: 'Active sessions' });
    await expect.poll(() => list.getByRole('listitem').count()).toBeGreaterThanOrEqual(2);
    const current = list.locator('li[data-current="true"]');
    expect(await current.count()).toBe(1);
    expect(await current.textContent()).toContain('This session');
    expect(await current.textContent()).toContain('Chrome on Linux');
    expect(await current.textContent()).toContain('Address 127.0.0.1');
    await here.page.setViewportSize({ width: 1440, height: 900 });
    await shot(here.page, 'account-sessions-1440');
    await here.page.setViewportSize({ width: 390, height: 844 });
    await shot(here.page, 'account-sessions-390');
    await here.page.setViewportSize({ width: 1280, height: 800 });

    // End every other session of the account (the other browser among them).
    expect(await verifyStatus(server.url, other.token, other.apiKey)).toBe(200);
    while (await list.locator('li[data-current="false"]').count() > 0) {
      const before = await list.getByRole('listitem').count();
      await list.locator('li[data-current="false"]').first().getByRole('button').click();
      await expect.poll(() => list.getByRole('listitem').count()).toBe(before - 1);
    }
    expect(await here.page.getByRole('status').textContent()).toBe('The session was ended.');
    expect(await verifyStatus(server.url, other.token, other.apiKey)).toBe(401);
    expect(await verifyStatus(server.url, here.token, here.apiKey)).toBe(200);

    // This one: asks first, then the browser is signed out.
    await current.getByRole('button').click();
    const dialog = here.page.getByRole('dialog');
    await dialog.getByText('ending it signs you out here').waitFor();
    await shot(here.page, 'account-sessions-end-this');
    // The session is ended at the server first; the sign-out that follows is then refused (401) on purpose.
    expectProblems(here.page, /^HTTP 401: POST \S+\/v3\.0\/user\/auth\/logout$/, /status of 401 \(Unauthorized\) \(at \S+\/v3\.0\/user\/auth\/logout\)$/);
    await dialog.getByRole('button', { name: 'End session' }).click();
    await here.page.waitForURL(`${server.url}/`);
    expect(pathOf(here.page)).toBe('/');
    expect(await verifyStatus(server.url, here.token, here.apiKey)).toBe(401);
    expect(await cookie(here.context, 'accessToken')).toBeUndefined();
    await Promise.all([here.context.close(), other.context.close()]);
  });
});
