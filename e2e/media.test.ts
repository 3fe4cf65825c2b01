/**
 * Issue 40's browser journeys.
 * - The "Done when" journey: content@demo.test creates a NEW episode (Create New), uploads an
 *   ffmpeg-generated clip to it with a visible progress bar, the page is reloaded halfway (the upload's
 *   second chunk held in the network), the item lists the interrupted upload and asks for the same file
 *   again, which continues from the server's offset (a tus HEAD, then a PATCH from Upload-Offset > 0, no
 *   new upload created) into one asset; Preparing → Ready; the preview plays (its current time advances)
 *   and switches rendition; the episode is published. content-reader@demo.test sees the episode's player
 *   and no upload control.
 * - Content › Media: an upload from the list, followed to Ready on the video's page, played; a reader
 *   sees the list and the video's page but no upload.
 * Screenshots at 1440 and 390 px, light and dark, go to e2e/screenshots/media-*.png.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Dialog, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, SCREENSHOT_DIR, signIn, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let clip: string;
/** Larger than two tus chunks (MEDIA_CHUNK_BYTES, 2 MB): the reload falls between the first and the second. */
let bigClip: string;
let assetPath = '';
let episodeUrl = '';
const EPISODE = `Harbour clip ${Date.now().toString(36)}`;

beforeAll(async () => {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  clip = join(mkdtempSync(join(tmpdir(), 'media-e2e-')), 'clip.mp4');
  // 6 s of a test picture with a tone, 640×360: two renditions (240p, 360p); no committed media.
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-t', '6', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-y', clip]);
  // 4 s at 640×360 with noise (hard to compress): ~4.4 MB, three chunks.
  bigClip = join(mkdtempSync(join(tmpdir(), 'media-e2e-')), 'harbour.mp4');
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25,noise=alls=30:allf=t', '-f', 'lavfi', '-i', 'sine=frequency=330',
    '-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '36', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-y', bigClip]);
  [server, browser] = await Promise.all([startServer({ SEED_SCALE: '1' }), launchBrowser()]);
  ({ context, page } = await newPage(browser));
  await signIn(page, server.url, 'content@demo.test');
  await page.waitForURL(/\/content(\?|$)/);
}, 240_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function shoot(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `media-${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

const video = (target: Page) => target.getByTestId('preview-video');

/** The preview plays (its current time advances) and switches to its highest rendition. */
async function playAndSwitch(target: Page, highest: string): Promise<void> {
  const video = target.getByTestId('preview-video');
  await target.getByLabel('Rendition').locator('option').nth(2).waitFor({ state: 'attached', timeout: 30_000 });
  await video.evaluate((v) => (v instanceof HTMLVideoElement ? v.play() : undefined));
  await target.waitForFunction(() => {
    const v = document.querySelector('[data-testid="preview-video"]');
    return v instanceof HTMLVideoElement && v.currentTime > 1;
  }, undefined, { timeout: 60_000 });
  await target.getByLabel('Rendition').selectOption({ index: 2 });
  await target.getByTestId('preview-level').filter({ hasText: `Playing: ${highest}` }).waitFor({ timeout: 60_000 });
}

describe('a new episode with its video (issue 40\'s journey)', () => {
  it('content@demo.test creates an episode, uploads a clip (reloaded halfway, resumed), sees it Ready, previews it and publishes it', async () => {
    // Its series first (one season), then the episode from the series' "Add episode" (Create New, kind and series set).
    await page.getByRole('navigation', { name: 'Content menu' }).getByRole('link', { name: 'Create New' }).click();
    await page.waitForURL(/\/content\/new/);
    await page.getByRole('radio', { name: 'Series' }).check();
    await page.getByLabel('Title', { exact: true }).fill(`${EPISODE} series`);
    await page.getByLabel('Genre', { exact: true }).fill('Drama');
    await page.getByLabel('Number of seasons', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Create series' }).click();
    await page.waitForURL(/\/content\/series\/[0-9a-f-]{36}$/);
    await page.getByRole('region', { name: 'Season 1' }).getByRole('link', { name: 'Add episode' }).click();
    await page.waitForURL(/\/content\/new\?/);
    expect(await page.getByRole('radio', { name: 'Episode' }).isChecked()).toBe(true);
    await expect.poll(() => page.getByRole('combobox', { name: 'Series' }).locator('option:checked').textContent()).toBe(`${EPISODE} series`);
    await page.getByLabel('Episode number', { exact: true }).fill('1');
    await page.getByLabel('Title', { exact: true }).fill(EPISODE);
    await page.getByLabel('Genre', { exact: true }).fill('Drama');
    await page.getByLabel('Duration (minutes)', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Create episode' }).click();
    await page.waitForURL(/\/content\/episode\/[0-9a-f-]{36}$/);
    episodeUrl = page.url();
    const panel = page.getByRole('region', { name: 'Video' });
    await panel.getByText('No video yet.').waitFor();

    // The second chunk is held in the network: the server has the first (2 MB) when the page is reloaded.
    let patches = 0;
    let passThrough = false;
    const held: Route[] = [];
    let secondHeld: () => void = () => {};
    const secondChunk = new Promise<void>((resolve) => { secondHeld = resolve; });
    await page.route('**/v2.0/media/uploads/**', async (route) => {
      if (passThrough || route.request().method() !== 'PATCH') return route.continue();
      patches += 1;
      if (patches === 1) return route.continue();
      held.push(route);
      secondHeld();
      return undefined;
    });
    await panel.getByLabel('Upload a video').setInputFiles(bigClip);
    await secondChunk;
    const bar = panel.getByRole('progressbar', { name: 'Upload progress' });
    expect(await bar.isVisible()).toBe(true);
    await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThanOrEqual(40);
    await shoot('episode-uploading');

    const afterReload: { method: string; url: string; offset: string | null }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v2.0/media/uploads')) afterReload.push({ method: request.method(), url: request.url(), offset: request.headers()['upload-offset'] ?? null });
    });
    // Still held while the page reloads (the browser drops it with the page); the new page's requests go through.
    const leaveSite = (dialog: Dialog) => void dialog.accept();
    page.on('dialog', leaveSite);
    await page.reload();
    page.off('dialog', leaveSite);
    afterReload.length = 0;
    passThrough = true;
    for (const route of held) await route.abort().catch(() => undefined);
    // Listed as interrupted, in words, with what the server kept.
    const interrupted = panel.getByTestId('upload-interrupted');
    await interrupted.waitFor({ timeout: 30_000 });
    const stoppedAt = Number(/stopped at (\d+) %/.exec(await interrupted.textContent() ?? '')?.[1]);
    expect(stoppedAt).toBeGreaterThanOrEqual(40);
    expect(stoppedAt).toBeLessThan(100);
    expect(await interrupted.textContent()).toContain('Choose the same file again to continue from there');
    await shoot('episode-interrupted');
    await panel.getByLabel('Choose the same file again').setInputFiles(bigClip);
    await panel.getByTestId('video-status').filter({ hasText: /Preparing|Viewable|Ready/ }).waitFor({ timeout: 60_000 });
    // Continued from the server's offset: no new upload created, the first PATCH starts at the 2 MB the server kept.
    expect(afterReload.filter((r) => r.method === 'POST')).toEqual([]);
    expect(afterReload.some((r) => r.method === 'HEAD')).toBe(true);
    const firstPatch = afterReload.find((r) => r.method === 'PATCH');
    expect(firstPatch?.offset).toBe(String(2 * 1024 * 1024));
    expect(new Set(afterReload.map((r) => new URL(r.url).pathname)).size).toBe(1);

    // Preparing → Ready (the item's panel reads the video again every 2 s), then the preview.
    await panel.getByTestId('video-status').filter({ hasText: /^Ready/ }).waitFor({ timeout: 300_000 });
    await playAndSwitch(page, '360p');
    // Scrubbing shows the storyboard's thumbnail of that time (its sprite served with the playback token).
    await video(page).evaluate((v) => (v instanceof HTMLVideoElement ? v.pause() : undefined));
    await panel.getByRole('slider', { name: 'Position' }).fill('2');
    const thumbnail = panel.getByRole('img', { name: 'Picture at 0:02' });
    await thumbnail.waitFor({ timeout: 30_000 });
    const sprite = /url\("(.+)"\)/.exec(await thumbnail.evaluate((el) => (el instanceof HTMLElement ? el.style.backgroundImage : '')))?.[1] ?? '';
    expect(await page.evaluate(async (url) => { const r = await fetch(url); return [r.status, r.headers.get('content-type')]; }, sprite)).toEqual([200, 'image/jpeg']);
    await shoot('episode-ready');

    // Published: the item's Status saved as Published (the server checks its video is ready).
    const status = page.getByRole('combobox', { name: /^Status/ });
    await status.selectOption('published');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /^Changes saved\./ }).first().waitFor({ timeout: 30_000 });
    await page.reload();
    await expect.poll(() => status.inputValue()).toBe('published');
  }, 480_000);

  it('content-reader@demo.test sees the episode\'s player and no upload control', async () => {
    const reader = await newPage(browser);
    try {
      await signIn(reader.page, server.url, 'content-reader@demo.test');
      await reader.page.waitForURL(/\/content(\?|$)/);
      await reader.page.goto(episodeUrl);
      const panel = reader.page.getByRole('region', { name: 'Video' });
      await panel.getByTestId('preview-video').waitFor();
      await panel.getByTestId('video-status').filter({ hasText: /^Ready/ }).waitFor();
      expect(await panel.getByLabel('Upload a video').count()).toBe(0);
      expect(await panel.getByLabel('Replace the video').count()).toBe(0);
      expect(await panel.getByRole('button', { name: 'Choose from Media' }).count()).toBe(0);
    } finally {
      await reader.context.close();
    }
  }, 60_000);
});

describe('Content › Media (issue 40)', () => {
  it('a writer uploads a clip, follows it to Ready and previews it (plays, switches rendition)', async () => {
    await page.goto(`${server.url}/content`);
    // The library settled first (its list loaded and its query written to the address): under load a
    // click made while it still loaded was followed by the list's own address write, and the Media page
    // never opened (a fresh-clone run at load 9).
    await page.locator('[aria-busy="false"]').first().waitFor();
    await page.getByRole('navigation', { name: 'Content menu' }).getByRole('link', { name: 'Media' }).click();
    await page.waitForURL(/\/content\/media$/);
    await page.getByLabel('Upload a video').setInputFiles(clip);
    // A visible progress while it uploads, then the server's check and encoding.
    await page.getByTestId('video-status').filter({ hasText: /Uploading|Preparing|Viewable|Ready/ }).first().waitFor({ timeout: 30_000 });
    await page.getByTestId('video-status').filter({ hasText: /Preparing|Viewable|Ready/ }).first().waitFor({ timeout: 60_000 });
    const open = page.getByRole('link', { name: /Open the video/ });
    assetPath = new URL(await open.evaluate((a) => (a instanceof HTMLAnchorElement ? a.href : '')) || server.url).pathname;
    await open.click();
    await page.waitForURL(/\/content\/media\/[0-9a-f-]+$/);
    // Followed on its page until every rendition is done (the machine reads the video again every 2 s).
    await page.getByTestId('video-status').filter({ hasText: /^Ready/ }).waitFor({ timeout: 300_000 });
    expect(await page.getByText('640 × 360').count()).toBe(1);
    // The preview plays: its current time advances.
    // A rendition switch: the highest one chosen, the player says it plays it.
    await playAndSwitch(page, '360p');
    await shoot('video');
    await page.goto(`${server.url}/content/media`);
    await page.getByRole('link', { name: 'clip' }).first().waitFor();
    await shoot('list');
  }, 480_000);

  it('a reader sees the videos and a video\'s page, and no upload', async () => {
    const reader = await newPage(browser);
    try {
      await signIn(reader.page, server.url, 'content-reader@demo.test');
      await reader.page.waitForURL(/\/content(\?|$)/);
      await reader.page.goto(`${server.url}/content/media`);
      await reader.page.getByRole('link', { name: 'clip' }).first().waitFor();
      expect(await reader.page.getByLabel('Upload a video').count()).toBe(0);
      await reader.page.goto(`${server.url}${assetPath}`);
      await reader.page.getByRole('heading', { name: 'clip' }).waitFor();
      expect(await reader.page.getByLabel('Upload a video').count()).toBe(0);
      expect(await reader.page.getByLabel('Replace the video').count()).toBe(0);
    } finally {
      await reader.context.close();
    }
  }, 60_000);
});
