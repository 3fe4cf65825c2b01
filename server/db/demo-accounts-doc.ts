/** Renders docs/demo-accounts.md from DEMO_ACCOUNTS (kept in sync by demo-accounts.test.ts). */
import { DEFAULT_SEED_PASSWORD } from '../env';
import { DEMO_ACCOUNTS, DEMO_SITES } from './demo-accounts';

export function renderDemoAccountsDoc(): string {
  const roles = (r: Record<string, string>) => Object.entries(r).map(([a, l]) => `${a}: ${l}`).join(', ') || '(none)';
  const rows = DEMO_ACCOUNTS.map((a) =>
    `| \`${a.username}\` | ${a.site} | ${roles(a.roles as Record<string, string>)} | ${a.twoFactorOnLogin ? `yes (${a.phoneNumber})` : 'no'} | \`${a.landingRoute}\` | ${a.covers} |`);
  return [
    '# Demo accounts',
    '',
    '<!-- Generated from server/db/demo-accounts.ts by `npx tsx scripts/gen-demo-accounts-doc.ts`; a test keeps it in sync. -->',
    '',
    `The server seeds these on first start when the database has no sites (sites \`${DEMO_SITES.viewlift}\` and \`${DEMO_SITES.northwind}\`).`,
    '',
    `Password of every demo account: the \`SEED_PASSWORD\` environment variable, by default \`${DEFAULT_SEED_PASSWORD}\` outside production.`,
    'With `NODE_ENV=production` the default is never used: the seed runs only when `SEED_PASSWORD` is set (and meets the',
    'complexity rule), otherwise it is skipped with a log line. Set `SEED=0` to never seed.',
    '',
    '| Username | Site | Roles | SMS second factor | Lands on | Covers |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'Two-factor sign-in: the code goes to the development SMS outbox; read it at the address `npm start` prints',
    '(`/__dev/outbox?token=…`: the route answers only with its token, from this machine; newest first, `&to=%2B15555554321`',
    'filters by number). The outbox route does not exist when `NODE_ENV=production`.',
    '',
    'Each site has a default network and others, one launched and one not; brand, settings and devices of the',
    'non-default networks differ from the default, so copying from the default network is visible.',
    '',
  ].join('\n');
}
