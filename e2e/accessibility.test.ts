/**
 * Issue 30: axe (axe-core, the WCAG 2.x A/AA rules) on every page of every area, as admin@demo.test
 * (every area's role), in the light and the dark theme (the colour scheme the browser reports; the
 * console follows it by default). A serious or critical violation fails the sweep, listed with its
 * rule, page, theme and the first elements it names. One server, one tab, one sign-in.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../common/constants';
import { TOTP_ROUTES } from '../common/totp';
import { ANALYTICS_GROUPS, APPCMS_PAGES, MONETIZATION_TABS } from '../src/config';
import { launchBrowser, newPage, signIn, startServer, type RunningServer } from './support';

// Injected through the DevTools protocol (page.evaluate), which the console's CSP does not govern.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Every page of every area the header and the side navigations lead to. */
const PAGES: readonly string[] = [
  ROUTES.analytics,
  ...ANALYTICS_GROUPS.flatMap((g) => g.pages.map((p) => p.path)),
  ROUTES.content,
  ...MONETIZATION_TABS.map((t) => t.route),
  ROUTES.users,
  ROUTES.appcms,
  ...APPCMS_PAGES.map((p) => p.path),
  ROUTES.admin,
  ROUTES.adminAudit,
  ROUTES.accountSessions,
  TOTP_ROUTES.accountSecurity,
];

interface Violation { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ SEED_SCALE: '0.1' }), launchBrowser()]);
  ({ context, page } = await newPage(browser));
  await signIn(page, server.url, 'admin@demo.test');
  await page.waitForURL(`${server.url}/analytics`);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

async function seriousViolations(path: string): Promise<string[]> {
  await page.goto(`${server.url}${path}`);
  await page.locator('main h1, main h2').first().waitFor();
  // Let the page's reads settle (tables, charts) before judging it.
  await page.waitForLoadState('networkidle');
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${path}: ${v.impact} ${v.id} (${v.help}) at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

describe('accessibility of every page (axe, issue 30)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`finds no serious or critical violation on ${PAGES.length} pages in the ${scheme} theme`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      const found: string[] = [];
      for (const path of PAGES) found.push(...(await seriousViolations(path)).map((line) => `[${scheme}] ${line}`));
      expect(found).toEqual([]);
    }, 600_000);
  }
});
