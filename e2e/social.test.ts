/**
 * Issue 7 in Chromium: "Sign in with Google" and "Sign in with Microsoft" against the Firebase Auth
 * emulator, which this test starts and stops itself. The real button opens the real SDK popup (the
 * emulator's account page), a fake account whose verified email is a seeded staff account is added
 * there, the ID token goes to googleLogin / microsoftLogin, and the console lands on that account's
 * route. Google's gapi loader cannot be downloaded here: e2e/gapi-shim.js stands in for it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_MESSAGES } from '../common/messages';
import { startAuthEmulator, type RunningEmulator } from './firebase-emulator';
import { expectProblems, launchBrowser, SCREENSHOT_DIR, startServer, type RunningServer } from './harness';

const PROJECT = 'demo-cms-tools';
const TENANT = 'demo-tenant';
const GAPI_SHIM = readFileSync(join(process.cwd(), 'e2e', 'gapi-shim.js'), 'utf8');

let emulator: RunningEmulator;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  emulator = await startAuthEmulator(PROJECT);
  [server, browser] = await Promise.all([
    startServer({
      SKIP_BUILD: '1', LOG_LEVEL: 'warn', ARGON2_MEMORY_COST: '1024', ARGON2_TIME_COST: '1',
      FIREBASE_PROJECT_ID: PROJECT, FIREBASE_API_KEY: 'demo-api-key', FIREBASE_MICROSOFT_TENANT: TENANT,
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await emulator?.stop();
});

/** A context in which Google's script hosts are answered offline: gapi by the shim, the rest refused. */
async function offlineContext(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route('https://apis.google.com/js/api.js**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: GAPI_SHIM }));
  await context.route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\//, (route) => route.abort());
  // Refused above on purpose: the emulator's account page asks for its styles and fonts from these hosts.
  expectProblems(context,
    /^request failed: GET https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\/\S* \(net::ERR_FAILED\)$/,
    /^console error: Failed to load resource: net::ERR_FAILED \(at https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\/\S*\)$/,
    // In this offline context (Google's script hosts answered by the shim or refused) the Firebase SDK
    // rejects a promise of its own, not one of the console's, on the console's page; the sign-in itself
    // completes, as each test checks. Only this exact SDK error is allowed.
    /^page error: Firebase: Error \(auth\/internal-error\)\. \(in http:\/\/127\.0\.0\.1:\d+\/\)$/);
  const page = await context.newPage();
  return { context, page };
}

/** Presses the provider's button on the sign-in page; answers the emulator's popup. */
async function pressSocialButton(context: BrowserContext, page: Page, label: string): Promise<Page> {
  await page.goto(`${server.url}/`);
  const button = page.getByRole('button', { name: label });
  await button.waitFor();
  const [popup] = await Promise.all([context.waitForEvent('page'), button.click()]);
  await popup.waitForLoadState('domcontentloaded');
  return popup;
}

/** The emulator's "Add new account" form: an account with this (verified) email. */
async function addAccount(popup: Page, email: string, displayName: string): Promise<void> {
  await popup.locator('#add-account-button button').click();
  await popup.locator('#email-input').fill(email);
  await popup.locator('#display-name-input').fill(displayName);
  await popup.locator('#sign-in').click();
}

function customParameters(popupUrl: string): Record<string, string> {
  return JSON.parse(new URL(popupUrl).searchParams.get('customParameters') ?? '{}') as Record<string, string>;
}

describe('social sign-in against the Firebase Auth emulator', () => {
  it('Google (account selection) signs in the staff account with that email and lands on its route', async () => {
    const { context, page } = await offlineContext();
    const popup = await pressSocialButton(context, page, 'Sign in with Google');
    expect(new URL(popup.url()).origin).toBe(emulator.url);
    expect(new URL(popup.url()).searchParams.get('providerId')).toBe('google.com');
    expect(customParameters(popup.url())).toEqual({ prompt: 'select_account' });
    await addAccount(popup, 'content@demo.test', 'Connie Content');
    await page.waitForURL(`${server.url}/content`, { timeout: 20_000 });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'social-google-landed.png') });
    const cookies = Object.fromEntries((await context.cookies(server.url)).map((c) => [c.name, c.value]));
    expect(cookies).toMatchObject({ username: 'content@demo.test', accessToken: expect.any(String), xApiKey: expect.any(String) });
    await context.close();
  });

  it('Microsoft (tenant and consent) signs in and lands on its route', async () => {
    const { context, page } = await offlineContext();
    const popup = await pressSocialButton(context, page, 'Sign in with Microsoft');
    expect(new URL(popup.url()).searchParams.get('providerId')).toBe('microsoft.com');
    expect(customParameters(popup.url())).toEqual({ prompt: 'consent', tenant: TENANT });
    await addAccount(popup, 'support@demo.test', 'Sam Support');
    await page.waitForURL(`${server.url}/users`, { timeout: 20_000 });
    await context.close();
  });

  it('a staff account with SMS second factor goes to /verify-number, as with a password', async () => {
    const { context, page } = await offlineContext();
    const popup = await pressSocialButton(context, page, 'Sign in with Google');
    await addAccount(popup, 'twofa@demo.test', 'Tess Twofactor');
    await page.waitForURL(`${server.url}/verify-number`, { timeout: 20_000 });
    await page.getByTestId('otp-phone').waitFor();
    expect(await page.getByTestId('otp-phone').textContent()).toContain('4321');
    await context.close();
  });

  it('closing the popup shows the message of the spec table', async () => {
    const { context, page } = await offlineContext();
    const popup = await pressSocialButton(context, page, 'Sign in with Google');
    await popup.close();
    await page.getByRole('alert').filter({ hasText: 'User closed the popup before completing authentication.' }).waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('refuses a person who is no staff member, with the message on the sign-in page', async () => {
    const { context, page } = await offlineContext();
    const popup = await pressSocialButton(context, page, 'Sign in with Google');
    await addAccount(popup, 'stranger@nowhere.test', 'Stranger');
    await page.getByRole('alert').filter({ hasText: OWN_MESSAGES.socialAccountNotLinked }).waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'social-refused.png') });
    await context.close();
  });
});
