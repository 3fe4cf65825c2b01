/**
 * Issues 30 and 38: axe on every other area's pages as admin (content, monetization, customer support,
 * AppCMS, admin, the account pages), the New account dialog, a content item, a subscriber and a support
 * action's dialog, at 1440 and 390 px, light and dark. What is judged and how: e2e/accessibility-sweep.ts.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../common/constants';
import { AREA_PAGES, everyLook, startSweep, WIDTHS } from './accessibility-sweep';

const sweep = startSweep('areas');

describe('accessibility of every page (axe, issues 30 and 38): the other areas', () => {
  it(`finds no serious or critical violation on ${AREA_PAGES.length + 2} pages and 2 dialogs as admin, at ${WIDTHS.join(' and ')} px, light and dark`, async () => {
    const page = await sweep.signedIn('admin@demo.test');
    const found: string[] = [];
    for (const path of AREA_PAGES) {
      await sweep.open(page, path);
      found.push(...await everyLook(page, path));
      if (path === ROUTES.admin) {
        await page.getByRole('button', { name: 'New account' }).click();
        await page.getByRole('dialog').waitFor();
        found.push(...await everyLook(page, `${path} (New account dialog)`));
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
      }
    }
    // A content item and a subscriber: the first of each list.
    await sweep.open(page, ROUTES.content);
    const item = await page.locator('main a[href^="/content/"]').evaluateAll((links) =>
      links.map((a) => a.getAttribute('href') ?? '').find((href) => /^\/content\/\w+\/[0-9a-f-]{36}$/.test(href)) ?? null);
    expect(item).toMatch(/^\/content\/\w+\/[0-9a-f-]{36}$/);
    await sweep.open(page, item!);
    found.push(...await everyLook(page, item!));
    await sweep.open(page, ROUTES.users);
    const subscriber = await page.locator('main a[href^="/users/"]').first().getAttribute('href');
    expect(subscriber).toMatch(/^\/users\/[\w-]+$/);
    await sweep.open(page, subscriber!);
    found.push(...await everyLook(page, subscriber!));
    const action = page.locator('main button', { hasText: /^(Cancel subscription|Resume subscription|Reset password)$/ }).first();
    await action.click();
    await page.getByRole('dialog').waitFor();
    found.push(...await everyLook(page, `${subscriber} (${await page.getByRole('dialog').getByRole('heading').first().textContent()} dialog)`));
    await page.keyboard.press('Escape');
    await page.context().close();
    expect(found).toEqual([]);
  }, 600_000);
});
