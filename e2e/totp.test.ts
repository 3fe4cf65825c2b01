/**
 * Issue 19 in Chromium: the authenticator app. content-reader@demo.test (no other browser test signs
 * it in) sets it up on /account/security from the user menu, reading the secret off the page; the
 * test computes the codes with the server's own RFC 6238 helper. Signed out, it signs in with the
 * app's code, then (signed out again) with a recovery code. Screenshots of the page at 1440 and 390 px.
 * Then an Admin editor requires the app for the site, and content@demo.test (without one) is sent to
 * set it up before any area opens.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { API_PATHS } from '../common/constants';
import { SECOND_FACTOR_RULE_PATH, SECOND_FACTOR_TEXT } from '../common/second-factor-rule';
import { totpCode } from '../server/domain/totp';
import { launchBrowser, newPage, type RunningServer } from './harness';
import { openUserMenu, pathOf, shot, startAuthServer, submitCredentials } from './auth-harness';

const USER = 'content-reader@demo.test';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAuthServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signOut(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, Logout' }).click();
  await page.waitForURL(`${server.url}/`);
}

/** A code of the next 30-second step: later than any step used so far, and within the ±1 window. */
const nextCode = (secret: string) => totpCode(secret, new Date(Date.now() + 30_000));

describe('authenticator app', () => {
  it('enrols on the account page, then signs in with the app\'s code and with a recovery code', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.url}/`);
    await submitCredentials(page, USER);
    await page.waitForURL(`${server.url}/content`);

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Two-factor authentication' }).click();
    await page.waitForURL(`${server.url}/account/security`);
    expect(await page.getByTestId('totp-status').textContent()).toBe('Authenticator app: off');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await page.getByTestId('totp-secret').getAttribute('data-secret'))!;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await page.getByTestId('totp-secret').textContent())?.replace(/\s/g, '')).toBe(secret);
    await page.getByRole('img', { name: 'QR code of the authenticator set-up link' }).locator('svg').waitFor();
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await shot(page, `account-security-setup-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const list = page.getByRole('list', { name: 'Your recovery codes' });
    await list.waitFor();
    const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await shot(page, `account-security-codes-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByTestId('totp-status').textContent()).toBe('Authenticator app: on');

    // Signed out, the sign-in asks for the app's code (no SMS step).
    await signOut(page);
    await submitCredentials(page, USER);
    await page.waitForURL(`${server.url}/verify-number`);
    await page.getByRole('heading', { name: 'Authenticator code' }).waitFor();
    await page.getByLabel('Authenticator code').fill(nextCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${server.url}/content`);

    // And once with a recovery code.
    await signOut(page);
    await submitCredentials(page, USER);
    await page.waitForURL(`${server.url}/verify-number`);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel('Recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${server.url}/content`);
    expect(pathOf(page)).toBe('/content');
  });

  it('a site that requires the app sends a user without one to set it up first; the areas open once it is', async () => {
    const { context: adminContext, page: admin } = await newPage(browser);
    await admin.goto(`${server.url}/`);
    await submitCredentials(admin, 'admin@demo.test');
    await admin.waitForURL(`${server.url}/analytics`);
    await admin.goto(`${server.url}/admin`);
    // 'An authenticator app' is offered only to an editor who has one (else it would lock them out at once).
    const offered = admin.getByRole('radio', { name: SECOND_FACTOR_TEXT.options.authenticator.label });
    await expect.poll(() => offered.isDisabled()).toBe(true);
    await admin.getByRole('link', { name: SECOND_FACTOR_TEXT.enrolLink }).click();
    await admin.waitForURL(`${server.url}/account/security`);
    await admin.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const adminSecret = (await admin.getByTestId('totp-secret').getAttribute('data-secret'))!;
    await admin.getByLabel('Code from the app').fill(totpCode(adminSecret));
    await admin.getByRole('button', { name: 'Confirm' }).click();
    await admin.getByRole('list', { name: 'Your recovery codes' }).waitFor();
    await admin.getByRole('button', { name: 'Done' }).click();
    await admin.goto(`${server.url}/admin`);
    // The site's one second-factor rule (issue 30): 'an authenticator app', confirmed with what it will do.
    const choice = admin.getByRole('radio', { name: SECOND_FACTOR_TEXT.options.authenticator.label });
    await choice.click();
    const dialog = admin.getByRole('dialog', { name: SECOND_FACTOR_TEXT.confirmTitle });
    expect(await dialog.textContent()).toMatch(/Every one of the \d+ accounts will need an authenticator app at next sign-in/);
    await Promise.all([
      admin.waitForResponse((r) => r.url().endsWith(`${API_PATHS.admin}${SECOND_FACTOR_RULE_PATH}`) && r.request().method() === 'PUT' && r.status() === 200),
      dialog.getByRole('button', { name: SECOND_FACTOR_TEXT.confirmButton }).click(),
    ]);
    // The choice follows the server's answer (the staff list read again), not the click.
    await expect.poll(() => choice.isChecked()).toBe(true);
    await adminContext.close();

    const { page } = await newPage(browser);
    await page.goto(`${server.url}/`);
    await submitCredentials(page, 'content@demo.test');
    await page.waitForURL(`${server.url}/account/security`);
    await page.getByText("This site requires an authenticator app").first().waitFor();
    // No area is open yet: no tabs, and a deep link comes back here.
    expect(await page.getByRole('navigation', { name: 'Areas' }).getByRole('link').count()).toBe(0);
    await page.goto(`${server.url}/content`);
    await page.waitForURL(`${server.url}/account/security`);

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = (await page.getByTestId('totp-secret').getAttribute('data-secret'))!;
    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('list', { name: 'Your recovery codes' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL(`${server.url}/content`);
    expect(await page.getByRole('navigation', { name: 'Areas' }).getByRole('link').allTextContents()).toEqual(['Content']);
  });
});
