/**
 * Issues 30 and 38: axe on the signed-out pages and on the other demo roles' landing pages, at 1440
 * and 390 px, light and dark. What is judged and how: e2e/accessibility-sweep.ts.
 */
import { describe, expect, it } from 'vitest';
import { everyLook, ROLE_PAGES, SIGNED_OUT_PAGES, sweepPages, startSweep } from './accessibility-sweep';
import { newPage } from './harness';

const sweep = startSweep('signed out and roles');

describe('accessibility of every page (axe, issues 30 and 38): signed out and the other roles', () => {
  it(`finds none on the signed-out pages ${SIGNED_OUT_PAGES.join(', ')}`, async () => {
    // One context, no sign-in: each page is loaded once and judged at both widths and in both themes.
    const { context, page } = await newPage(sweep.browser());
    const found: string[] = [];
    for (const path of SIGNED_OUT_PAGES) {
      await sweep.open(page, path);
      found.push(...await everyLook(page, `${path} (signed out)`));
    }
    await context.close();
    expect(found).toEqual([]);
  }, 300_000);

  for (const role of ROLE_PAGES) {
    it(`finds none on ${role.pages.join(', ')} as ${role.username}`, async () => {
      await sweepPages(sweep, role.username, role.pages, (path) => `${path} as ${role.username}`);
    }, 300_000);
  }
});
