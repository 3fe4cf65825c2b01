/**
 * Issue 17 in Chromium: the AppCMS editors on the seeded site viewlift-demo, on the non-default
 * network Sports Plus. admin@demo.test changes a brand colour and the logo (the preview shows them,
 * and the Brand page after a reload); saves settings twice, opens the versions, sees the diff and
 * restores the first save; appcms-reader@demo.test sees the same pages with every control disabled,
 * no Launch or Copy, and the server refuses the writes. Screenshots at 1440 and 390 px:
 * /tmp/shots/appcms-*.png.
 */
import { mkdirSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, signIn, startServer, type RunningServer } from './harness';

const SITE = 'viewlift-demo';
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

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real PNG: `width` × `height` of one colour. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function signedIn(username: string, landing: string): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser);
  await signIn(opened.page, server.url, username);
  await opened.page.waitForURL(`${server.url}${landing}`);
  // The network chosen in this tab (session storage), as the header's switcher saves it.
  await opened.page.evaluate((id) => sessionStorage.setItem('selectedNetwork', id), SPORTS.identifier);
  return opened;
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${server.url}${path}`);
  await page.getByTestId('appcms-network').getByText(SPORTS.name).waitFor();
}

async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/appcms-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function credentials(context: BrowserContext): Promise<Record<string, string>> {
  const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
  return { Authorization: `Bearer ${cookies.accessToken}`, xApiKey: cookies.xApiKey ?? '', 'Content-Type': 'application/json' };
}

describe('AppCMS editors in Chromium', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await signedIn('admin@demo.test', '/analytics'));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('changes a brand colour and the logo on Sports Plus: the preview shows them, and the Brand page after a reload', async () => {
    await open(page, '/appcms/brand');
    const primary = page.getByRole('textbox', { name: 'Web primary colour', exact: true });
    await expect.poll(() => primary.inputValue()).toBe('#D62828');
    await primary.fill('#2A6F97');
    await expect.poll(() => page.getByTestId('sample-theme').locator('div').first().evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(42, 111, 151)');
    await page.getByLabel('Upload logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: solidPng(64, 32, [42, 111, 151]) });
    await page.getByText('Logo uploaded. Save to use it.').waitFor();
    const logo = page.getByRole('img', { name: 'Logo at 160 px' });
    const url = await logo.getAttribute('src');
    // Issue 37: under the site's own address (uploaded files are scoped to their site).
    expect(url).toMatch(/^\/v2\.0\/appcms\/files\/[0-9a-f-]{36}\/[0-9a-f]{64}\.png$/);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    expect(await page.getByTestId('sample-theme').locator('img').getAttribute('src')).toBe(url);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    // What Copy from default would change now includes the new colour (the default's is #1370B3).
    await page.getByTestId('copy-preview-brand').getByRole('row', { name: 'Web primary colour #2A6F97 #1370B3' }).waitFor();
    await shots(page, 'brand');

    await page.reload();
    await page.getByTestId('appcms-network').getByText(SPORTS.name).waitFor();
    await expect.poll(() => page.getByRole('textbox', { name: 'Web primary colour', exact: true }).inputValue()).toBe('#2A6F97');
    expect(await page.getByRole('img', { name: 'Logo at 160 px' }).getAttribute('src')).toBe(url);
    const served = await fetch(`${server.url}${url}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toContain('immutable');
  });

  it('warns when the text colour is below 4.5:1 against the background', async () => {
    await open(page, '/appcms/brand');
    await page.getByRole('textbox', { name: 'Web text colour', exact: true }).fill('#222222');
    await page.getByTestId('contrast-theme-text').getByText(/below the WCAG AA minimum of 4.5:1/).waitFor();
    await page.getByRole('textbox', { name: 'Web text colour', exact: true }).fill('#F8F8F8');
  });

  it('saves settings twice, opens the History, sees a revision against now, restores the first save, and the form shows it', async () => {
    await open(page, '/appcms/settings');
    const streams = page.getByRole('spinbutton', { name: 'Simultaneous streams' });
    await expect.poll(() => streams.inputValue()).toBe('2');
    await streams.fill('5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const history = page.getByTestId('history-panel');
    const revisionsOf = history.locator('[data-testid^="revision-"]');
    await revisionsOf.filter({ hasText: 'Simultaneous streams: 2 → 5' }).waitFor();
    await streams.fill('6');
    await page.getByRole('button', { name: 'Save' }).click();
    const second = revisionsOf.filter({ hasText: 'Simultaneous streams: 5 → 6' });
    await second.waitFor();
    expect(await second.textContent()).toContain('admin@demo.test');
    const seq = Number((await second.getAttribute('data-testid'))!.replace('revision-', ''));

    await second.getByRole('button', { name: 'Compare with now' }).click();
    const diff = page.getByTestId('revision-diff');
    await diff.getByRole('row', { name: 'Simultaneous streams 5 6 6' }).waitFor();
    await shots(page, 'settings');
    await page.getByRole('button', { name: `Restore the values before #${seq}` }).click();
    await page.getByRole('dialog', { name: `Restore revision #${seq}?` }).getByRole('button', { name: 'Restore' }).click();
    await history.getByText(`Revision #${seq} restored`).waitFor();
    await revisionsOf.filter({ hasText: `Restore of revision #${seq}` }).waitFor();
    await expect.poll(() => page.getByRole('spinbutton', { name: 'Simultaneous streams' }).inputValue()).toBe('5');
  });

  it('edits the devices, the service and the template', async () => {
    await open(page, '/appcms/devices');
    await page.getByRole('checkbox', { name: 'Roku' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await shots(page, 'devices');

    await page.goto(`${server.url}/appcms/service`);
    await page.getByTestId('signing-key').getByText(/^•{12}[0-9a-f]{4}$/).waitFor();
    const before = await page.getByTestId('signing-key').textContent();
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByRole('dialog', { name: 'Rotate signing key' }).getByRole('button', { name: 'Rotate' }).click();
    await page.getByText('Signing key rotated. The old key no longer works.').waitFor();
    await expect.poll(() => page.getByTestId('signing-key').textContent()).not.toBe(before);
    await shots(page, 'service');

    await page.goto(`${server.url}/appcms/template`);
    await page.getByRole('radio', { name: /Sports Template/ }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    await shots(page, 'template');
  });
});

describe('App CMS read in Chromium', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await signedIn('appcms-reader@demo.test', '/appcms'));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('sees every editor with every control disabled, no Save, Restore, Launch or Copy; the server refuses the writes', async () => {
    for (const path of ['/appcms/brand', '/appcms/devices', '/appcms/settings']) {
      await open(page, path);
      await page.getByTestId('appcms-read-only').waitFor();
      await page.locator('main form').waitFor();
      const enabled = await page.locator('main form').locator('input:enabled, select:enabled, textarea:enabled').count();
      expect(enabled, path).toBe(0);
      expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    }
    await page.getByTestId('history-panel').locator('[data-testid^="revision-"]').first().getByRole('button', { name: 'Compare with now' }).click();
    await page.getByTestId('revision-diff').waitFor();
    expect(await page.getByRole('button', { name: /Restore/ }).count()).toBe(0);
    await shots(page, 'reader-settings');
    for (const path of ['/appcms/service', '/appcms/template']) {
      await page.goto(`${server.url}${path}`);
      await page.locator('main form').waitFor();
      expect(await page.locator('main').locator('input:enabled, select:enabled, textarea:enabled').count(), path).toBe(0);
    }
    await page.goto(`${server.url}/appcms/service`);
    await page.getByTestId('signing-key').filter({ hasText: '•' }).waitFor();
    expect(await page.getByRole('button', { name: 'Rotate key' }).count()).toBe(0);
    expect(await page.getByTestId('network-launch').count()).toBe(0);
    expect(await page.getByTestId('network-copy-brand').count()).toBe(0);

    const headers = await credentials(context);
    const brand = await fetch(`${server.url}/v2.0/appcms/brand/${SITE}/${SPORTS.identifier}`, { headers });
    expect(brand.status).toBe(200);
    const body = await brand.json() as Record<string, unknown>;
    const refused = await Promise.all([
      fetch(`${server.url}/v2.0/appcms/brand/${SITE}/${SPORTS.identifier}`, { method: 'PUT', headers, body: JSON.stringify(body) }),
      fetch(`${server.url}/v2.0/appcms/settings/${SITE}/${SPORTS.identifier}`, { method: 'PUT', headers, body: JSON.stringify({ version: 1, values: { maxStreams: 3 } }) }),
      fetch(`${server.url}/v2.0/appcms/settings/restore/${SITE}/${SPORTS.identifier}`, { method: 'POST', headers, body: JSON.stringify({ version: 4, restore: 1 }) }),
      fetch(`${server.url}/v2.0/appcms/signingkey/${SITE}`, { method: 'POST', headers, body: JSON.stringify({ confirm: true }) }),
      fetch(`${server.url}/v2.0/appcms/uploads/${SITE}/${SPORTS.identifier}/logo`, { method: 'POST', headers: { ...headers, 'Content-Type': 'image/png' }, body: new Uint8Array(solidPng(32, 32, [0, 0, 0])) }),
    ]);
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
  });
});
