/**
 * The demo staff accounts the seed creates (docs/demo-accounts.md and the README list them from
 * here; tests log in with them). Landing routes follow spec §2.3.
 */
import type { Roles } from '../../common/contract';

export const DEMO_SITES = {
  viewlift: 'viewlift-demo',
  northwind: 'northwind-tv',
} as const;

export interface DemoAccount {
  username: string;
  site: string;
  displayName: string;
  roles: Roles;
  twoFactorOnLogin: boolean;
  phoneNumber: string;
  /** What the account demonstrates. */
  covers: string;
  /** Where the console lands after sign-in (spec §2.3). */
  landingRoute: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    username: 'admin@demo.test', site: DEMO_SITES.viewlift, displayName: 'Ada Admin',
    roles: { 'Dashboard 360': 'write', Content: 'write', 'Subscriptions & Offers': 'write', 'Customer Support': 'write', 'App CMS': 'write', Admin: 'write' },
    twoFactorOnLogin: false, phoneNumber: '+15550100001',
    covers: 'All six areas with write access (App CMS write: launch and copy networks); Admin menu item', landingRoute: '/analytics',
  },
  {
    username: 'content@demo.test', site: DEMO_SITES.viewlift, displayName: 'Connie Content',
    roles: { Content: 'write' }, twoFactorOnLogin: false, phoneNumber: '+15550100002',
    covers: 'Content only, write access: edits items and publishes / unpublishes them in bulk', landingRoute: '/content',
  },
  {
    username: 'content-reader@demo.test', site: DEMO_SITES.viewlift, displayName: 'Casey Content-Reader',
    roles: { Content: 'read' }, twoFactorOnLogin: false, phoneNumber: '+15550100010',
    covers: 'Content read only: searches and opens items, no edit form, no selection or bulk actions', landingRoute: '/content',
  },
  {
    username: 'monetization@demo.test', site: DEMO_SITES.viewlift, displayName: 'Monty Offers',
    roles: { 'Subscriptions & Offers': 'contributor' }, twoFactorOnLogin: false, phoneNumber: '+15550100003',
    covers: 'Subscriptions & Offers only, contributor access', landingRoute: '/monetization/models',
  },
  {
    username: 'monetization-reader@demo.test', site: DEMO_SITES.viewlift, displayName: 'Morgan Offers-Reader',
    roles: { 'Subscriptions & Offers': 'read' }, twoFactorOnLogin: false, phoneNumber: '+15550100009',
    covers: 'Subscriptions & Offers read only: sees models, plans, groups, offers and coupons with forms disabled and no create buttons; the server refuses changes', landingRoute: '/monetization/models',
  },
  {
    username: 'support@demo.test', site: DEMO_SITES.viewlift, displayName: 'Sam Support',
    roles: { 'Customer Support': 'write' }, twoFactorOnLogin: false, phoneNumber: '+15550100004',
    covers: 'Customer Support only, write access', landingRoute: '/users',
  },
  {
    username: 'support-reader@demo.test', site: DEMO_SITES.viewlift, displayName: 'Rowan Support-Reader',
    roles: { 'Customer Support': 'read' }, twoFactorOnLogin: false, phoneNumber: '+15550100008',
    covers: 'Customer Support read only: may search and open subscribers, no actions (cancel, grant days, sign out, notes)', landingRoute: '/users',
  },
  {
    username: 'appcms-reader@demo.test', site: DEMO_SITES.viewlift, displayName: 'Riley Reader',
    roles: { 'App CMS': 'read' }, twoFactorOnLogin: false, phoneNumber: '+15550100005',
    covers: 'App CMS read only: may view networks and per-network data, may not launch or copy', landingRoute: '/appcms',
  },
  {
    username: 'siteadmin@demo.test', site: DEMO_SITES.viewlift, displayName: 'Alex Admin-only',
    roles: { Admin: 'read' }, twoFactorOnLogin: false, phoneNumber: '+15550100006',
    covers: 'Admin only, read access', landingRoute: '/admin',
  },
  {
    username: 'noaccess@demo.test', site: DEMO_SITES.viewlift, displayName: 'Nora Noaccess',
    roles: {}, twoFactorOnLogin: false, phoneNumber: '+15550100007',
    covers: 'No role in any area', landingRoute: '/forbidden',
  },
  {
    username: 'twofa@demo.test', site: DEMO_SITES.viewlift, displayName: 'Tess Twofactor',
    roles: { 'Dashboard 360': 'read', Content: 'write' }, twoFactorOnLogin: true, phoneNumber: '+15555554321',
    covers: 'SMS second factor on login (code in the dev outbox at the /__dev/outbox?token=… address npm start prints); Dashboard 360 read, Content write', landingRoute: '/analytics',
  },
  {
    username: 'admin@northwind.test', site: DEMO_SITES.northwind, displayName: 'Nick Northwind',
    roles: { 'App CMS': 'write', Admin: 'write' }, twoFactorOnLogin: false, phoneNumber: '+15550200001',
    covers: 'Second site (tenant isolation): App CMS write and Admin on northwind-tv only', landingRoute: '/appcms',
  },
];

export function demoAccount(username: string): DemoAccount {
  const account = DEMO_ACCOUNTS.find((a) => a.username === username);
  if (!account) throw new Error(`no demo account ${username}`);
  return account;
}
