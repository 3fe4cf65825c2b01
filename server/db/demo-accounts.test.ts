import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { landingRouteFor } from '../../common/roles';
import { DEMO_ACCOUNTS } from './demo-accounts';
import { renderDemoAccountsDoc } from './demo-accounts-doc';

it('every landing route follows spec §2.3 and all seven outcomes are covered', () => {
  for (const a of DEMO_ACCOUNTS) expect(landingRouteFor(a.roles), a.username).toBe(a.landingRoute);
  expect(new Set(DEMO_ACCOUNTS.map((a) => a.landingRoute))).toEqual(
    new Set(['/analytics', '/content', '/monetization/models', '/users', '/appcms', '/admin', '/forbidden']));
});

it('docs/demo-accounts.md is in sync (regenerate: npx tsx scripts/gen-demo-accounts-doc.ts)', () => {
  expect(readFileSync(new URL('../../docs/demo-accounts.md', import.meta.url), 'utf8')).toBe(renderDemoAccountsDoc());
});
