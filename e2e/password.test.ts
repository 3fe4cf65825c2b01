/**
 * Issue 4 in Chromium: forgot password → code → reset → sign in with the new password; the form's
 * validation messages and live rule checklist; used and expired reset tokens; Change Password from the
 * header of a signed-in session. Each flow uses its own demo account (this file has its own server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { expectProblems, launchBrowser, newPage } from './harness';
import {
  cookie, demoAccount, nextOtp, openUserMenu, outboxIds, pathOf, SEED_PASSWORD, shot, startRestartableServer,
  submitCredentials, verifyStatus, type RestartableServer,
} from './auth-harness';

const MISMATCH = 'New Password and Confirm Password must match.';
const COMPLEXITY = 'Password should be of minimum 8 characters, must include 1 special character, 1 lowercase and uppercase character, and 1 number.';
const RESET_FAILED = 'Password reset failed!';
const RESET_DONE = 'Password has been reset. Please sign in with your new password.';

// Restartable: the expired-token test ages the token in the database while the server is down.
let server: RestartableServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startRestartableServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The two records of a refusal the journey provokes on purpose: its HTTP answer and Chromium's console line. */
function refusal(status: number, reason: string, path: string): RegExp[] {
  const where = path.replace(/[.]/g, '\\.');
  return [new RegExp(`^HTTP ${status}: POST \\S+${where}$`), new RegExp(`status of ${status} \\(${reason}\\) \\(at \\S+${where}\\)$`)];
}
const RESET_REFUSED = refusal(400, 'Bad Request', '/v3.0/user/auth/reset-password');

/** Signs in from a fresh context; resolves where the browser ended up ('/' when refused). */
async function trySignIn(username: string, password: string): Promise<{ path: string; error: string | null }> {
  const { context, page } = await newPage(browser);
  // Probing a password that may no longer be valid: its 400 is the answer being tested.
  expectProblems(page, ...refusal(400, 'Bad Request', '/v3.0/user/auth/login'));
  await page.goto(`${server.url}/`);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/v3.0/user/auth/login')),
    submitCredentials(page, username, password),
  ]);
  let error: string | null = null;
  if (response.status() === 200) {
    await page.waitForURL((url) => url.pathname !== '/');
  } else {
    error = await page.locator('form [role="alert"]').textContent();
  }
  const path = pathOf(page);
  await context.close();
  return { path, error };
}

/** The forgot flow from the sign-in page up to the new-password form; resolves the reset URL. */
async function forgotToResetForm(page: Page, username: string, phone: string): Promise<string> {
  await page.goto(`${server.url}/`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL(`${server.url}/forgot-password`);
  // The URL changes before the page's chunk has loaded, and the sign-in form still on screen has a
  // Username field too: filling that one and then submitting the empty forgot form was a flake.
  await page.getByRole('heading', { name: 'Forgot password' }).waitFor();
  const seen = await outboxIds(server.url, phone);
  await page.getByLabel('Username').fill(username);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.waitForURL(`${server.url}/verify-number?forgot=true`);
  await page.getByRole('heading', { name: 'Verify OTP' }).waitFor();
  const code = await nextOtp(server.url, phone, seen);
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL((url) => url.pathname === '/reset-password' && url.searchParams.has('token'));
  await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
  return page.url();
}

async function fillNewPassword(page: Page, newPassword: string, confirmPassword = newPassword): Promise<void> {
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm Password', { exact: true }).fill(confirmPassword);
}

/** Submits the new-password form and resolves the status of the reset call it makes. */
async function submitToServer(page: Page): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/v3.0/user/auth/reset-password')),
    page.getByRole('button', { name: 'Reset password' }).click(),
  ]);
  return response.status();
}

/** Submits the new-password form, which must refuse it without calling the server; resolves its message. */
async function submitRefusedLocally(page: Page): Promise<string | null> {
  let called = false;
  const listener = (r: { url(): string }) => {
    if (r.url().endsWith('/v3.0/user/auth/reset-password')) called = true;
  };
  page.on('request', listener);
  await page.getByRole('button', { name: 'Reset password' }).click();
  const message = await alertText(page);
  await page.waitForTimeout(200);
  page.off('request', listener);
  expect(called).toBe(false);
  return message;
}

async function alertText(page: Page): Promise<string | null> {
  const alert = page.locator('form [role="alert"]');
  await alert.waitFor();
  return alert.textContent();
}

/** data-met of each rule in the live checklist. */
async function checklist(page: Page): Promise<Record<string, boolean>> {
  const items = page.getByRole('list', { name: 'Password rules' }).getByRole('listitem');
  const result: Record<string, boolean> = {};
  for (const item of await items.all()) {
    result[(await item.getAttribute('data-rule')) ?? ''] = (await item.getAttribute('data-met')) === 'true';
  }
  return result;
}

describe('forgot password', () => {
  it('forgot → code from the outbox → reset → the new password signs in, the old one no longer does; the used link then fails', async () => {
    const account = demoAccount('support@demo.test');
    const newPassword = 'Fresh!Pass456';
    const { context, page } = await newPage(browser);
    const resetUrl = await forgotToResetForm(page, account.username, account.phoneNumber);
    // ASVS 6.2.4: one of the 10,000 most common passwords is refused by the server, and the form says why.
    await fillNewPassword(page, 'Password123!');
    expectProblems(page, ...RESET_REFUSED);
    expect(await submitToServer(page)).toBe(400);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This password is one of the most commonly used passwords. Choose a less predictable one.');
    await fillNewPassword(page, newPassword);
    await shot(page, 'reset-password-form');
    expect(await submitToServer(page)).toBe(200);
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.getByTestId('snackbar').textContent()).toContain(RESET_DONE);
    await shot(page, 'reset-password-done');
    await context.close();

    expect(await trySignIn(account.username, SEED_PASSWORD)).toEqual({ path: '/', error: 'Invalid username or password.' });
    expect((await trySignIn(account.username, newPassword)).path).toBe(account.landingRoute);

    // The same link again: the token was single use. Nothing changes.
    const again = await newPage(browser);
    await again.page.goto(resetUrl);
    await again.page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await fillNewPassword(again.page, 'Other!Pass789');
    expectProblems(again.page, ...RESET_REFUSED);
    expect(await submitToServer(again.page)).toBe(400);
    expect(await alertText(again.page)).toBe(RESET_FAILED);
    await expect.poll(() => again.page.getByTestId('snackbar').textContent()).toContain(RESET_FAILED);
    expect(pathOf(again.page)).toBe('/reset-password');
    await shot(again.page, 'reset-password-used-token');
    await again.context.close();
    expect((await trySignIn(account.username, 'Other!Pass789')).path).toBe('/');
    expect((await trySignIn(account.username, newPassword)).path).toBe(account.landingRoute);
  });

  it('the new-password form shows each validation message, the live rule checklist and show/hide toggles', async () => {
    const { context, page } = await newPage(browser);
    // Client-side validation needs no valid token; the server is asked only for a complete, matching password.
    await page.goto(`${server.url}/reset-password?token=not-a-real-token`);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();

    expect(await checklist(page)).toEqual({ length: false, lowercase: false, uppercase: false, digit: false, special: false });
    await page.getByLabel('New Password', { exact: true }).pressSequentially('ab');
    expect(await checklist(page)).toEqual({ length: false, lowercase: true, uppercase: false, digit: false, special: false });
    await page.getByLabel('New Password', { exact: true }).pressSequentially('C1');
    expect(await checklist(page)).toEqual({ length: false, lowercase: true, uppercase: true, digit: true, special: false });
    await page.getByLabel('New Password', { exact: true }).pressSequentially('!xyz');
    expect(await checklist(page)).toEqual({ length: true, lowercase: true, uppercase: true, digit: true, special: true });

    // Show / hide.
    const input = page.getByLabel('New Password', { exact: true });
    expect(await input.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show new password' }).click();
    expect(await input.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Hide new password' }).click();
    expect(await input.getAttribute('type')).toBe('password');

    await fillNewPassword(page, 'abC1!xyz', 'abC1!xyZ');
    expect(await submitRefusedLocally(page)).toBe(MISMATCH);
    await shot(page, 'reset-password-mismatch');

    await fillNewPassword(page, 'weakpass');
    expect(await checklist(page)).toEqual({ length: true, lowercase: true, uppercase: false, digit: false, special: false });
    expect(await submitRefusedLocally(page)).toBe(COMPLEXITY);
    await shot(page, 'reset-password-complexity');

    // Valid and matching: now the server decides, and an unknown token fails.
    await fillNewPassword(page, 'Valid!Pass123');
    expectProblems(page, ...RESET_REFUSED);
    expect(await submitToServer(page)).toBe(400);
    expect(await alertText(page)).toBe(RESET_FAILED);
    await context.close();
  });

  // Restarts the server in place to age the token (15 minutes) in its database.
  it('an expired reset token gets "Password reset failed!" and changes nothing', async () => {
    const account = demoAccount('admin@northwind.test');
    const { context, page } = await newPage(browser);
    await forgotToResetForm(page, account.username, account.phoneNumber);
    const aged = await server.restartWith(`update reset_tokens set expires_at = now() - interval '1 second'
       where expires_at > now() and used_at is null and user_id = (select id from staff_users where username = '${account.username}')`);
    expect(aged).toBe(1);
    await fillNewPassword(page, 'Late!Pass1234');
    expectProblems(page, ...RESET_REFUSED);
    expect(await submitToServer(page)).toBe(400);
    expect(await alertText(page)).toBe(RESET_FAILED);
    expect(pathOf(page)).toBe('/reset-password');
    await context.close();
    expect((await trySignIn(account.username, 'Late!Pass1234')).path).toBe('/');
    expect((await trySignIn(account.username, SEED_PASSWORD)).path).toBe(account.landingRoute);
  });
});

describe('Change Password from the header', () => {
  it('user menu → Verify OTP modal (code from the outbox) → new password → signed out → the new password signs in', async () => {
    const account = demoAccount('monetization@demo.test');
    const newPassword = 'Changed!Pass42';
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/`);
    await submitCredentials(page, account.username);
    await page.waitForURL(`${server.url}${account.landingRoute}`);
    const token = (await cookie(context, 'accessToken'))!;
    const apiKey = (await cookie(context, 'xApiKey'))!;

    const seen = await outboxIds(server.url, account.phoneNumber);
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    const modal = page.getByRole('dialog', { name: 'Verify OTP' });
    await modal.getByText('Enter the 6-digit code sent to your mobile phone').waitFor();
    expect(await modal.getByTestId('otp-phone').textContent()).toBe(`•••• ${account.phoneNumber.slice(-4)}`);
    expect(await modal.getByText('Messages and data rates may apply.').isVisible()).toBe(true);
    expect(await modal.getByRole('button', { name: 'Wrong Number?' }).isDisabled()).toBe(true);
    expect(await modal.getByRole('button', { name: /^Resend in \d+s$/ }).isDisabled()).toBe(true);
    await expect.poll(() => page.getByTestId('snackbar').textContent()).toContain('OTP sent successfully!');
    await shot(page, 'change-password-otp-modal');

    const code = await nextOtp(server.url, account.phoneNumber, seen);
    // Issue 38: Cancel with part of the code typed asks first (the forms' "Unsaved changes"); Stay keeps it.
    // (Escape does the same once the snackbar is gone: while it shows, Escape closes the snackbar first.)
    await modal.getByLabel('Verification code').fill(code.slice(0, 2));
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Stay' }).click();
    expect(await modal.getByLabel('Verification code').inputValue()).toBe(code.slice(0, 2));
    await modal.getByLabel('Verification code').fill(code);
    await modal.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password' && url.searchParams.has('token'));
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    // ASVS 6.2.3: the change flow asks for the current password too; a wrong one is refused and shown.
    await page.getByLabel('Current Password', { exact: true }).fill('Not!MyPass123');
    expectProblems(page, ...RESET_REFUSED);
    await fillNewPassword(page, newPassword);
    expect(await submitToServer(page)).toBe(400);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The current password is not correct.');
    await shot(page, 'change-password-current-wrong');
    await page.getByLabel('Current Password', { exact: true }).fill(SEED_PASSWORD);
    expect(await submitToServer(page)).toBe(200);

    await page.waitForURL(`${server.url}/`);
    await page.getByLabel('Username').waitFor();
    await expect.poll(() => page.getByTestId('snackbar').textContent()).toContain(RESET_DONE);
    await shot(page, 'change-password-done');
    // The reset ended every session of the user, this one included, and the browser forgot it.
    expect(await verifyStatus(server.url, token, apiKey)).toBe(401);
    expect(await cookie(context, 'accessToken')).toBeUndefined();
    await context.close();

    expect((await trySignIn(account.username, SEED_PASSWORD)).path).toBe('/');
    expect((await trySignIn(account.username, newPassword)).path).toBe(account.landingRoute);
  });
});
