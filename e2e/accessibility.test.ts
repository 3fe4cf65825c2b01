/**
 * Issues 30 and 38: axe on every analytics page as admin, at 1440 and 390 px, light and dark. The
 * sweep's other pages are in e2e/accessibility-areas.test.ts and e2e/accessibility-roles.test.ts;
 * what is judged and how: e2e/accessibility-sweep.ts.
 */
import { describe, it } from 'vitest';
import { ANALYTICS_PAGES, sweepPages, startSweep, WIDTHS } from './accessibility-sweep';

const sweep = startSweep('analytics');

describe('accessibility of every page (axe, issues 30 and 38): analytics', () => {
  it(`finds no serious or critical violation on the ${ANALYTICS_PAGES.length} analytics pages as admin, at ${WIDTHS.join(' and ')} px, light and dark`, async () => {
    await sweepPages(sweep, 'admin@demo.test', ANALYTICS_PAGES);
  }, 600_000);
});
