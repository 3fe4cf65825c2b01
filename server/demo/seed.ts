/**
 * Demo data, written on first start when the database has no sites: two sites, each with a
 * default network and others (launched and not), brand/settings/devices per network that differ
 * between the default and the others, and the staff accounts of demo-accounts.ts.
 */
import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { Db } from '../db/client';
import { DEMO_ACCOUNTS, DEMO_SITES } from '../db/demo-accounts';
import { networkBrands, networkDevices, networkSettings, networks, sites, staffUsers } from '../db/schema';
import type { DeviceEntry, ThemeColors } from '../../common/contract';

interface NetworkSeed {
  identifier: string;
  name: string;
  isDefault: boolean;
  isActive: boolean;
  palette: [primary: string, secondary: string, background: string, text: string];
  settings: Record<string, string | number | boolean>;
  devices: DeviceEntry[];
}

interface SiteSeed {
  site: typeof sites.$inferInsert;
  networks: NetworkSeed[];
}

const theme = ([primaryColor, secondaryColor, backgroundColor, textColor]: NetworkSeed['palette'], fontFamily: string): ThemeColors => ({
  primaryColor, secondaryColor, backgroundColor, textColor, fontFamily,
});

const defaultDevices: DeviceEntry[] = [
  { platform: 'web', name: 'Web browser', enabled: true, minAppVersion: '1.0.0' },
  { platform: 'ios', name: 'iPhone & iPad', enabled: true, minAppVersion: '5.2.0' },
  { platform: 'android', name: 'Android phones', enabled: true, minAppVersion: '5.1.3' },
  { platform: 'roku', name: 'Roku', enabled: true, minAppVersion: '3.4.0' },
  { platform: 'firetv', name: 'Fire TV', enabled: true, minAppVersion: '3.2.1' },
  { platform: 'appletv', name: 'Apple TV', enabled: true, minAppVersion: '4.0.0' },
];

const defaultSettings = {
  defaultLanguage: 'en',
  autoplay: true,
  maxStreams: 4,
  subtitlesEnabled: true,
  downloadsEnabled: true,
  parentalControls: false,
  defaultVideoQuality: 'auto',
  playerSkipSeconds: 10,
  supportEmail: 'support@viewlift-demo.test',
};

function siteProfile(extra: Record<string, unknown>): Record<string, unknown> {
  return {
    siteType: 'OTT',
    siteMap: { home: '/', browse: '/browse', search: '/search', account: '/account' },
    gaId: '',
    desktopLogo: '/logo.svg',
    firebasePropertyId: '',
    bucket: '',
    bucketRegion: 'us-east-1',
    analyticsURL: '',
    reelybaseURL: '',
    contributorData: null,
    contentContributorData: null,
    renditionUrl: '',
    templateBuilderURL: '',
    tbHostUrl: '',
    isDRMEncryptionRequired: false,
    isVerified: true,
    settingsId: '',
    enableQOS: true,
    enableLiveStream: true,
    enableSSAISupport: false,
    isVerticleVideoEnabled: false,
    isSocialPublishAutomated: false,
    v2ManagementApiEnabled: true,
    v2VodManagementApiEnabled: false,
    ...extra,
  };
}

const newKey = () => randomBytes(24).toString('base64url');

function demoSiteSeeds(): SiteSeed[] {
  return [
    {
      site: {
        siteInternalName: DEMO_SITES.viewlift,
        serviceName: 'ViewLift Demo',
        serviceType: 'SVOD',
        serviceTypes: ['SVOD', 'AVOD', 'TVOD'],
        templateName: 'Reference Template',
        languageCode: 'en',
        forceLogin: false,
        isMonetizationModelEnabled: true,
        domainName: 'demo.viewlift.test',
        siteBaseUrl: 'https://demo.viewlift.test',
        backendUrl: 'https://api.demo.viewlift.test',
        isLaunched: true,
        managementApiKey: newKey(),
        defaultTimezone: 'America/New_York',
        cloudProvider: 'aws',
        profile: siteProfile({
          domainNames: ['demo.viewlift.test', 'www.demo.viewlift.test'],
          bucket: 'viewlift-demo-media',
          analyticsURL: 'https://analytics.demo.viewlift.test',
          reelybaseURL: 'https://reelybase.demo.viewlift.test',
          renditionUrl: 'https://renditions.demo.viewlift.test',
          templateBuilderURL: 'https://templates.demo.viewlift.test',
          tbHostUrl: 'https://tb.demo.viewlift.test',
          settingsId: 'settings-viewlift-demo',
          serviceId: 'svc-viewlift-demo',
          firebasePropertyId: 'properties/100000001',
          gaId: 'G-DEMO000001',
          contributorData: { enabled: true, maxContributors: 25 },
          contentContributorData: { defaultRole: 'contributor' },
        }),
      },
      networks: [
        {
          identifier: 'viewlift-main', name: 'ViewLift Main', isDefault: true, isActive: true,
          palette: ['#1370B3', '#0C5177', '#FFFFFF', '#111111'],
          settings: defaultSettings,
          devices: defaultDevices,
        },
        {
          identifier: 'sports-plus', name: 'Sports Plus', isDefault: false, isActive: true,
          palette: ['#D62828', '#003049', '#0B0B0B', '#F8F8F8'],
          settings: { defaultLanguage: 'en', autoplay: false, maxStreams: 2, subtitlesEnabled: false, downloadsEnabled: false, parentalControls: false, defaultVideoQuality: '1080p', playerSkipSeconds: 15, supportEmail: 'sports@viewlift-demo.test' },
          devices: [
            { platform: 'web', name: 'Web browser', enabled: true, minAppVersion: '1.0.0' },
            { platform: 'ios', name: 'iPhone & iPad', enabled: true, minAppVersion: '5.0.0' },
            { platform: 'roku', name: 'Roku', enabled: false, minAppVersion: '3.0.0' },
          ],
        },
        {
          identifier: 'kids-zone', name: 'Kids Zone', isDefault: false, isActive: false,
          palette: ['#FFB703', '#219EBC', '#FFF8E7', '#023047'],
          settings: { defaultLanguage: 'es', autoplay: true, maxStreams: 1, subtitlesEnabled: true, downloadsEnabled: true, parentalControls: true, defaultVideoQuality: '720p', playerSkipSeconds: 5, supportEmail: 'kids@viewlift-demo.test' },
          devices: [
            { platform: 'web', name: 'Web browser', enabled: true, minAppVersion: '1.0.0' },
            { platform: 'android', name: 'Android tablets', enabled: true, minAppVersion: '4.8.0' },
          ],
        },
        {
          identifier: 'docs-channel', name: 'Docs Channel', isDefault: false, isActive: false,
          palette: ['#2A9D8F', '#264653', '#F4F1DE', '#1D1D1D'],
          settings: { defaultLanguage: 'fr', autoplay: false, maxStreams: 3, subtitlesEnabled: true, downloadsEnabled: false, parentalControls: false, defaultVideoQuality: 'auto', playerSkipSeconds: 10, supportEmail: 'docs@viewlift-demo.test' },
          devices: [{ platform: 'web', name: 'Web browser', enabled: true, minAppVersion: '0.9.0' }],
        },
      ],
    },
    {
      site: {
        siteInternalName: DEMO_SITES.northwind,
        serviceName: 'Northwind TV',
        serviceType: 'AVOD',
        serviceTypes: ['AVOD'],
        templateName: 'News Template',
        languageCode: 'en-GB',
        forceLogin: true,
        isMonetizationModelEnabled: false,
        domainName: 'northwind.test',
        siteBaseUrl: 'https://northwind.test',
        backendUrl: 'https://api.northwind.test',
        isLaunched: false,
        managementApiKey: newKey(),
        defaultTimezone: 'Europe/London',
        cloudProvider: 'gcp',
        profile: siteProfile({
          domainNames: ['northwind.test'],
          bucket: 'northwind-media',
          bucketRegion: 'europe-west2',
          settingsId: 'settings-northwind-tv',
          serviceId: 'svc-northwind-tv',
          enableLiveStream: false,
          v2ManagementApiEnabled: false,
        }),
      },
      networks: [
        {
          identifier: 'northwind-main', name: 'Northwind Main', isDefault: true, isActive: true,
          palette: ['#5A189A', '#3C096C', '#FFFFFF', '#10002B'],
          settings: { ...defaultSettings, defaultLanguage: 'en-GB', maxStreams: 3, supportEmail: 'help@northwind.test' },
          devices: defaultDevices.slice(0, 4),
        },
        {
          identifier: 'northwind-news', name: 'Northwind News', isDefault: false, isActive: true,
          palette: ['#C1121F', '#003049', '#FDF0D5', '#000000'],
          settings: { defaultLanguage: 'en-GB', autoplay: true, maxStreams: 5, subtitlesEnabled: true, downloadsEnabled: false, parentalControls: false, defaultVideoQuality: 'auto', playerSkipSeconds: 30, supportEmail: 'news@northwind.test' },
          devices: [{ platform: 'web', name: 'Web browser', enabled: true, minAppVersion: '1.2.0' }],
        },
        {
          identifier: 'northwind-classics', name: 'Northwind Classics', isDefault: false, isActive: false,
          palette: ['#6B705C', '#A5A58D', '#FFE8D6', '#3F4238'],
          settings: { defaultLanguage: 'en-GB', autoplay: false, maxStreams: 2, subtitlesEnabled: true, downloadsEnabled: true, parentalControls: true, defaultVideoQuality: '480p', playerSkipSeconds: 10, supportEmail: 'classics@northwind.test' },
          devices: [{ platform: 'roku', name: 'Roku', enabled: true, minAppVersion: '2.9.0' }],
        },
      ],
    },
  ];
}

/** The demo network's own logo or icon, shipped in public/demo-brand/ and served by the server. */
export function demoBrandImage(identifier: string, slot: 'logo' | 'icon'): string {
  return `/demo-brand/${identifier}-${slot}.svg`;
}

async function hasSites(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(sites);
  return Number(row?.n ?? 0) > 0;
}

/** Inserts the demo data unless the database already has sites. Returns whether it seeded. */
export async function seedDemoData(db: Db, input: { password: string; passwords: { hash(password: string): Promise<string> } }): Promise<boolean> {
  if (await hasSites(db)) return false;
  const hashes = await Promise.all(DEMO_ACCOUNTS.map(() => input.passwords.hash(input.password)));
  await db.transaction(async (tx) => {
    const siteIds = new Map<string, string>();
    for (const seed of demoSiteSeeds()) {
      const [site] = await tx.insert(sites).values(seed.site).returning({ id: sites.id });
      if (!site) throw new Error('site insert returned nothing');
      siteIds.set(seed.site.siteInternalName, site.id);
      for (const n of seed.networks) {
        const [network] = await tx
          .insert(networks)
          .values({ siteId: site.id, identifier: n.identifier, name: n.name, image: `/logo.svg?network=${n.identifier}`, isActive: n.isActive, isDefault: n.isDefault })
          .returning({ id: networks.id });
        if (!network) throw new Error('network insert returned nothing');
        // Issue 30: the demo ships its own images (public/demo-brand/, served by this server beside the
        // console), not a host that does not resolve ("Logo not reachable", broken previews).
        await tx.insert(networkBrands).values({
          networkId: network.id,
          logoUrl: demoBrandImage(n.identifier, 'logo'),
          iconUrl: demoBrandImage(n.identifier, 'icon'),
          theme: theme(n.palette, 'Inter'),
          themeOtt: theme([n.palette[0], n.palette[1], '#000000', '#FFFFFF'], 'Roboto'),
          themeApps: theme([n.palette[1], n.palette[0], n.palette[2], n.palette[3]], 'SF Pro'),
        });
        await tx.insert(networkSettings).values({ networkId: network.id, values: n.settings });
        await tx.insert(networkDevices).values({ networkId: network.id, devices: n.devices });
      }
    }
    await tx.insert(staffUsers).values(DEMO_ACCOUNTS.map((a, i) => {
      const siteId = siteIds.get(a.site);
      if (!siteId) throw new Error(`unknown demo site ${a.site}`);
      return {
        siteId,
        username: a.username,
        email: a.username,
        displayName: a.displayName,
        passwordHash: hashes[i] ?? '',
        phoneNumber: a.phoneNumber,
        twoFactorOnLogin: a.twoFactorOnLogin,
        roles: a.roles as Record<string, string>,
      };
    }));
  });
  return true;
}
