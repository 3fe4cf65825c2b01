/**
 * Issue 28 in Chromium, the audit log journey: an AppCMS writer (an account with App CMS write only,
 * made by admin@demo.test through the Admin API) saves the brand of the network Sports Plus; with a change left unsaved, a reload asks first (the one
 * unsaved-edits guard). admin@demo.test, in another browser session on no particular network, opens
 * Admin › Audit filtered to AppCMS: the brand save reads "Brand saved", names "brand of network
 * Sports Plus" and the changed colour as before → after; its link opens that brand page on Sports
 * Plus; Export CSV downloads exactly the filtered rows. Screenshots at 1440 and 390 px:
 * /tmp/shots/audit-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../common/constants';
import { expectProblems, launchBrowser, newPage, SEED_PASSWORD, signIn, startServer, type RunningServer } from './harness';

const SPORTS = { identifier: 'sports-plus', name: 'Sports Plus' };
const SHOTS = '/tmp/shots';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r\n/).filter(Boolean)) {
    const cells: string[] = [];
    for (const match of line.matchAll(/("((?:[^"]|"")*)"|[^,]*)(,|$)/g)) {
      cells.push(match[2] !== undefined ? match[2].replace(/""/g, '"') : match[1]!);
      if (match[3] === '') break;
    }
    rows.push(cells);
  }
  return rows;
}

async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/audit-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function signedIn(username: string, password = SEED_PASSWORD, landing = '/analytics'): Promise<Page> {
  const { page } = await newPage(browser);
  // The seeded brands' logo and icon point at the demo site's CDN, which does not resolve here.
  expectProblems(page, /cdn\.demo\.viewlift\.test/);
  await signIn(page, server.url, username, password);
  await page.waitForURL(`${server.url}${landing}`);
  return page;
}

/** An AppCMS writer of the demo site (App CMS write only), made by admin@demo.test through the Admin API. */
async function appcmsWriter(): Promise<{ username: string; password: string }> {
  const login = await fetch(`${server.url}${API_PATHS.login}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin@demo.test', password: SEED_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const info = await fetch(`${server.url}${API_PATHS.loginInfo}`, { headers: { authorization: `Bearer ${accessToken}` } });
  const { managementXApiKey } = (await info.json()) as { managementXApiKey: string };
  const headers = { authorization: `Bearer ${accessToken}`, xapikey: managementXApiKey, 'content-type': 'application/json' };
  const username = `brand-editor-${Date.now()}@demo.test`;
  const created = await fetch(`${server.url}${API_PATHS.admin}/staff`, {
    method: 'POST', headers,
    body: JSON.stringify({ email: username, displayName: 'Brenda Brand', phoneNumber: '+15550109999', twoFactorOnLogin: false, roles: { 'App CMS': 'write' } }),
  });
  expect(created.status).toBe(201);
  const { link } = (await created.json()) as { link: { url: string } };
  const password = 'Brand!Pass123';
  const token = new URL(link.url).searchParams.get('token');
  const set = await fetch(`${server.url}${API_PATHS.admin}/set-password`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, newPassword: password, confirmPassword: password }),
  });
  expect(set.status).toBe(200);
  return { username, password };
}

describe('the audit log names what changed', () => {
  it('a brand save shows in the log filtered to AppCMS naming its network; its link opens that brand page; the CSV equals the rows', async () => {
    // The AppCMS writer saves Sports Plus's brand.
    const account = await appcmsWriter();
    const writer = await signedIn(account.username, account.password, '/appcms');
    await writer.evaluate((id) => sessionStorage.setItem('selectedNetwork', id), SPORTS.identifier);
    await writer.goto(`${server.url}/appcms/brand`);
    await writer.getByTestId('appcms-network').getByText(SPORTS.name).waitFor();
    const primary = writer.getByRole('textbox', { name: 'Web primary colour', exact: true });
    await expect.poll(() => primary.inputValue()).toBe('#D62828');
    await primary.fill('#2A6F97');
    await writer.getByRole('button', { name: 'Save' }).click();
    await writer.getByText('Saved.').waitFor();

    // A change left unsaved: a reload asks first and keeps it as a draft; once nothing is unsaved, it does not ask.
    await primary.click();
    await primary.fill('#112233');
    const asked = new Promise<string>((resolve) => writer.once('dialog', (dialog) => { resolve(dialog.type()); void dialog.accept(); }));
    await writer.reload();
    expect(await asked).toBe('beforeunload');
    await writer.getByTestId('appcms-network').getByText(SPORTS.name).waitFor();
    // The typed change survived the reload as a draft (issue 38), still unsaved.
    await expect.poll(() => primary.inputValue()).toBe('#112233');
    // Typed back to the stored value nothing is unsaved: a reload no longer asks, and the stored value stays.
    await primary.fill('#2A6F97');
    let askedAgain = false;
    writer.once('dialog', (dialog) => { askedAgain = true; void dialog.dismiss(); });
    await writer.reload();
    await writer.getByTestId('appcms-network').getByText(SPORTS.name).waitFor();
    await expect.poll(() => primary.inputValue()).toBe('#2A6F97');
    expect(askedAgain).toBe(false);

    // The admin, in a session of their own that has chosen no network, reads the audit log.
    const admin = await signedIn('admin@demo.test');
    await admin.goto(`${server.url}/admin/audit`);
    await admin.getByRole('table', { name: 'Audit entries' }).waitFor();
    await admin.getByRole('combobox', { name: 'Area' }).selectOption({ label: 'AppCMS' });
    await admin.getByRole('button', { name: 'Apply' }).click();
    const table = admin.getByRole('table', { name: 'Audit entries' });
    const save = table.getByRole('row').filter({ hasText: 'Brand saved' });
    await save.first().waitFor();
    await expect.poll(() => save.count()).toBe(1);
    expect(await save.getByRole('cell').nth(1).innerText()).toBe(account.username);
    await save.getByRole('link', { name: `brand of network ${SPORTS.name}` }).waitFor();
    expect(await save.innerText()).toContain('Web primary colour: #D62828 → #2A6F97');
    expect(await save.innerText()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    await admin.getByText('Entries are kept for 400 days, then deleted.').waitFor();
    await shots(admin, 'appcms');

    // The CSV export carries exactly the rows the filter shows.
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td as HTMLElement).innerText.trim())));
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('audit-log.csv');
    const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
    expect(csv[0]).toEqual(['When (ISO 8601 UTC)', 'Who', 'Area', 'Action', 'Object', 'Changes']);
    expect(await admin.getByText(/^Exported \d+ entr(y|ies) to audit-log\.csv\.$/).innerText()).toBe(`Exported ${csv.length - 1} ${csv.length === 2 ? 'entry' : 'entries'} to audit-log.csv.`);
    const pagerTotal = Number(/· (\d+) entr/.exec(await admin.getByText(/^Page \d+ of \d+ ·/).innerText())?.[1]);
    expect(csv.length - 1).toBe(pagerTotal);
    expect(rows.length).toBe(Math.min(pagerTotal, 25));
    // Each shown row, cell by cell: Who, Action (label, then area), Object, What changed (one change a line).
    const shown = rows.map(([, who, action, object, what]) => [who, action!.replace('\n', ' | '), object, what!.split('\n').join('; ')]);
    const exported = csv.slice(1, rows.length + 1).map(([, who, area, action, object, changes]) => [who, `${action} | ${area}`, object, changes]);
    expect(exported).toEqual(shown);

    // The row's link opens that brand page, on Sports Plus.
    await save.getByRole('link', { name: `brand of network ${SPORTS.name}` }).click();
    await admin.waitForURL(`${server.url}/appcms/brand?network=${SPORTS.identifier}`);
    await admin.getByTestId('appcms-network').getByText(SPORTS.name).waitFor();
    await expect.poll(() => admin.getByRole('textbox', { name: 'Web primary colour', exact: true }).inputValue()).toBe('#2A6F97');

    // Back shows the same filtered entries (issue 38: the applied filters live in the address).
    await admin.goBack();
    await admin.waitForURL(`${server.url}/admin/audit?area=appcms`);
    expect(await admin.getByRole('combobox', { name: 'Area' }).inputValue()).toBe('appcms');
    await expect.poll(() => save.count()).toBe(1);
    expect(Number(/· (\d+) entr/.exec(await admin.getByText(/^Page \d+ of \d+ ·/).innerText())?.[1])).toBe(pagerTotal);
  });
});
