/**
 * Issues 30 and 38: axe (axe-core, the WCAG 2.x A/AA rules) on every page a demo role reaches (every
 * route of src/router.tsx behind the sign-in: each area's pages, a content item, a subscriber, the
 * account pages, /forbidden) and every page a signed-out visitor reaches (forgot password, verify number,
 * reset and set password, logout), at 1440 and 390 px, in the light and the dark theme, with the dialogs
 * an operator opens most (New account, a support action). A serious or critical violation fails the
 * sweep, and so does a page without its one main landmark or with content outside a landmark
 * (landmark-one-main, region: moderate for axe, but issue 38 names them), listed with its rule, page,
 * width, theme and the first elements it names.
 *
 * Run time: one browser context per role, pages visited in sequence; each page is loaded once and
 * judged at both widths and in both themes by resizing the viewport and switching the theme attribute
 * (no new sign-in, no reload).
 *
 * Issue 39: the sweep is three files (e2e/accessibility.test.ts: the analytics pages as admin;
 * e2e/accessibility-areas.test.ts: every other area's pages, the dialogs, a content item and a
 * subscriber as admin; e2e/accessibility-roles.test.ts: the signed-out pages and the other roles),
 * each with its own server and browser (`startSweep`), so the browser stage's two workers share it
 * instead of one worker running a single 150 s test (220 s for the one file, load 3-7). What this
 * module holds is what they share: the page lists and how a page is judged.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { ROUTES } from '../common/constants';
import { TOTP_ROUTES } from '../common/totp';
import { ANALYTICS_GROUPS, APPCMS_PAGES, MONETIZATION_TABS } from '../src/config';
import { launchBrowser, newPage, signIn, startServer, type RunningServer } from './harness';

// Injected through the DevTools protocol (page.evaluate), which the console's CSP does not govern.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The analytics area's pages (admin@demo.test reaches them all): e2e/accessibility.test.ts. */
export const ANALYTICS_PAGES: readonly string[] = ANALYTICS_GROUPS.flatMap((g) => g.pages.map((p) => p.path));

/** Every other page of every area the header and the side navigations lead to, as admin: e2e/accessibility-areas.test.ts. */
export const AREA_PAGES: readonly string[] = [
  ROUTES.content,
  '/content/new',
  '/content/country-groups',
  '/content/licences',
  ...MONETIZATION_TABS.map((t) => t.route),
  ROUTES.users,
  ROUTES.appcms,
  ...APPCMS_PAGES.map((p) => p.path),
  ROUTES.admin,
  ROUTES.adminAudit,
  ROUTES.accountSessions,
  TOTP_ROUTES.accountSecurity,
];

/**
 * The pages a signed-out visitor reaches (PUBLIC_ROUTES but the sign-in page, which shell.test.ts
 * judges with every WCAG rule): as a visitor opens them, without a link's token or a flow's state.
 */
export const SIGNED_OUT_PAGES: readonly string[] = [ROUTES.forgotPassword, ROUTES.verifyNumber, ROUTES.resetPassword, ROUTES.setPassword, ROUTES.logout];

/** The other demo roles: their landing pages, where their read-only views differ from admin's. */
export const ROLE_PAGES: readonly { username: string; pages: readonly string[] }[] = [
  { username: 'content-reader@demo.test', pages: [ROUTES.content, '/content/licences'] },
  { username: 'monetization-reader@demo.test', pages: MONETIZATION_TABS.map((t) => t.route) },
  { username: 'support-reader@demo.test', pages: [ROUTES.users] },
  { username: 'appcms-reader@demo.test', pages: [ROUTES.appcms, '/appcms/devices'] },
  { username: 'noaccess@demo.test', pages: [ROUTES.forbidden] },
];

export const WIDTHS = [1440, 390] as const;
const THEMES = ['light', 'dark'] as const;
/** Moderate for axe, but issue 38 names them: every page has its main landmark and nothing outside a landmark. */
const ALSO_FAILING = new Set(['landmark-one-main', 'region']);

interface Violation { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

export interface Sweep {
  /** A page signed in as `username`, on its landing page (in a context of its own). */
  signedIn(username: string): Promise<Page>;
  /** Loads `path` at the first width and waits for its reads to settle. */
  open(page: Page, path: string): Promise<void>;
  /** The browser (for a context without a sign-in). */
  browser(): Browser;
}

/**
 * The file's server (the demo sites at SEED_SCALE 0.1) and browser, started before its tests and
 * stopped after them; `name` is printed with the file's time.
 */
export function startSweep(name: string): Sweep {
  let server: RunningServer;
  let browser: Browser;
  const started = Date.now();
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ SEED_SCALE: '0.1' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    console.info(`accessibility sweep (${name}): ${Math.round((Date.now() - started) / 1000)} s`);
  });
  return {
    browser: () => browser,
    async signedIn(username) {
      const { page } = await newPage(browser);
      await signIn(page, server.url, username);
      await page.waitForURL((url) => url.pathname !== '/');
      await page.locator('main h1, main h2').first().waitFor();
      return page;
    },
    async open(page, path) {
      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      await page.goto(`${server.url}${path}`);
      // Any heading: a page without its main landmark is reported by axe (landmark-one-main), not by a timeout here.
      await page.locator('h1, h2').first().waitFor();
      // Let the page's reads settle (tables, charts) before judging it.
      await page.waitForLoadState('networkidle');
    },
  };
}

/** The axe rules a theme changes: the light theme is judged by every rule, the dark one by these. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

async function axeViolations(page: Page, where: string, rules?: string[]): Promise<string[]> {
  // Once per page load: the script stays on the window until the next navigation.
  if (!await page.evaluate(() => 'axe' in window)) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (runOnly) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'], ...(runOnly ? { runOnly: { type: 'rule', values: runOnly } } : {}) });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
  }, rules ?? null);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || ALSO_FAILING.has(v.id))
    .map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/**
 * The page as it stands, judged at both widths in both themes (the theme attribute, as the user menu
 * sets it): every rule in the light theme, the colour rules again in the dark one (the only rules a
 * theme changes), so each page costs two full runs and two colour runs.
 */
export async function everyLook(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    // The new width's re-render (a scroll box that now overflows becomes focusable: a ResizeObserver,
    // then React) has run: the main thread has gone idle twice.
    for (let i = 0; i < 2; i += 1) await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 2000 })));
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
      // The new theme's colours (and the new width's layout) are painted before axe reads them.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));
      found.push(...await axeViolations(page, `${label} [${width} px, ${theme}]`, theme === 'light' ? undefined : COLOUR_RULES));
    }
  }
  return found;
}

/** Signs in as `username`, judges each of `pages` in every look, and expects no violation. */
export async function sweepPages(sweep: Sweep, username: string, pages: readonly string[], label: (path: string) => string = (path) => path): Promise<void> {
  const page = await sweep.signedIn(username);
  const found: string[] = [];
  for (const path of pages) {
    await sweep.open(page, path);
    found.push(...await everyLook(page, label(path)));
  }
  await page.context().close();
  expect(found).toEqual([]);
}
