/**
 * What players report about themselves and where they play from (issue 41's session dimensions,
 * common/qoe.ts QOE_DIMENSIONS), drawn with realistic spreads. Shared by the demo world
 * (server/db/seed-world.ts, from a stream of its own so what it drew before is drawn the same) and the
 * simulated players (scripts/player-sim.ts). Pure: every draw takes the random source it is given.
 *
 * Spreads
 * - Setup per device, consistent with its type: web → Windows / macOS / Ubuntu / ChromeOS with
 *   Chrome, Edge, Firefox or Safari (Safari only on macOS, Edge on Windows) and hls.js, Shaka Player
 *   or Video.js; iOS → iOS and AVPlayer; Android → Android and ExoPlayer; Roku → Roku OS and the Roku
 *   Video Player; Fire TV → Fire OS and ExoPlayer; Apple TV → tvOS and AVPlayer; smart TVs → Tizen
 *   (AVPlay) or webOS (Shaka Player). Native apps report no browser ('' = "not reported").
 * - App version per session: each platform's releases (APP_RELEASES, days before the clock); a
 *   release reaches devices with an exponential lag (the platform's `lagDays`: the web at once,
 *   TVs slowly). One bad release (BAD_RELEASE, Android 5.4.0, fixed by 5.4.1 a week later) carries
 *   more errors and rebuffering.
 * - Trouble: besides the bad ISPs of the world (server/db/seed-world.ts ISPS), the second CDN has
 *   bad evenings (CDN_INCIDENTS) whose sessions fail more often.
 * - Region per viewer, by the viewer's country (REGIONS, weighted by population).
 * - Stream type: live events are 'live', everything else 'vod'.
 * - Source host: the CDN's host name for the site, one for VOD and one for live.
 */

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/** What a device's player reports about itself (stable for the device). */
export interface PlayerSetup {
  os: string;
  osVersion: string;
  browser: string;
  playerName: string;
  playerVersion: string;
}

/** Every issue-41 field of a session.start, as the event carries them. */
export interface SessionDimensions extends PlayerSetup {
  appVersion: string;
  region: string;
  streamType: 'vod' | 'live';
  sourceHost: string;
}

type Weighted<T> = readonly (readonly [T, number])[];

export function weighted<T>(random: Random, entries: Weighted<T>): T {
  let total = 0;
  for (const [, w] of entries) total += w;
  let r = random() * total;
  for (const [item, w] of entries) {
    r -= w;
    if (r < 0) return item;
  }
  return entries[entries.length - 1]![0];
}

const WEB_PLAYERS: Weighted<readonly [string, Weighted<string>]> = [
  [['hls.js', [['1.5.13', 55], ['1.5.8', 30], ['1.4.14', 15]]], 55],
  [['Shaka Player', [['4.10.4', 60], ['4.9.2', 40]]], 28],
  [['Video.js', [['8.12.0', 70], ['8.6.1', 30]]], 17],
];

/** Web: operating systems and the browsers seen on each. */
const WEB_SYSTEMS: Weighted<readonly [os: string, versions: Weighted<string>, browsers: Weighted<string>]> = [
  [['Windows', [['11', 62], ['10', 38]], [['Chrome', 62], ['Edge', 26], ['Firefox', 12]]], 58],
  [['macOS', [['14.5', 50], ['13.6', 30], ['15.0', 20]], [['Safari', 52], ['Chrome', 40], ['Firefox', 8]]], 30],
  [['Ubuntu', [['24.04', 55], ['22.04', 45]], [['Chrome', 55], ['Firefox', 45]]], 4],
  [['ChromeOS', [['126', 60], ['124', 40]], [['Chrome', 1]]], 8],
];

const NATIVE: Record<string, () => Weighted<readonly [os: string, osVersion: string, player: string, playerVersion: string]>> = {
  ios: () => [
    [['iOS', '17.5', 'AVPlayer', '17.5'], 38], [['iOS', '17.4', 'AVPlayer', '17.4'], 18], [['iOS', '18.0', 'AVPlayer', '18.0'], 16],
    [['iOS', '16.7', 'AVPlayer', '16.7'], 18], [['iOS', '15.8', 'AVPlayer', '15.8'], 10],
  ],
  android: () => [
    [['Android', '14', 'ExoPlayer', '1.3.1'], 34], [['Android', '13', 'ExoPlayer', '1.3.1'], 26], [['Android', '12', 'ExoPlayer', '1.2.1'], 18],
    [['Android', '11', 'ExoPlayer', '2.19.1'], 14], [['Android', '15', 'ExoPlayer', '1.4.0'], 8],
  ],
  roku: () => [[['Roku OS', '13.0', 'Roku Video Player', '13.0'], 55], [['Roku OS', '12.5', 'Roku Video Player', '12.5'], 35], [['Roku OS', '11.5', 'Roku Video Player', '11.5'], 10]],
  firetv: () => [[['Fire OS', '8', 'ExoPlayer', '1.3.1'], 50], [['Fire OS', '7', 'ExoPlayer', '1.2.1'], 40], [['Fire OS', '6', 'ExoPlayer', '2.19.1'], 10]],
  appletv: () => [[['tvOS', '17.5', 'AVPlayer', '17.5'], 60], [['tvOS', '18.0', 'AVPlayer', '18.0'], 25], [['tvOS', '16.6', 'AVPlayer', '16.6'], 15]],
  smarttv: () => [
    [['Tizen', '7.0', 'AVPlay', '7.0'], 30], [['Tizen', '6.5', 'AVPlay', '6.5'], 20], [['Tizen', '8.0', 'AVPlay', '8.0'], 8],
    [['webOS', '23', 'Shaka Player', '4.8.1'], 24], [['webOS', '22', 'Shaka Player', '4.3.6'], 18],
  ],
};

/** A device's player and system, consistent with its type (an unknown type is taken as web). */
export function playerSetupOf(deviceType: string, random: Random): PlayerSetup {
  const native = NATIVE[deviceType];
  if (native) {
    const [os, osVersion, playerName, playerVersion] = weighted(random, native());
    return { os, osVersion, browser: '', playerName, playerVersion };
  }
  const [os, versions, browsers] = weighted(random, WEB_SYSTEMS);
  const osVersion = weighted(random, versions);
  const browser = weighted(random, browsers);
  const [playerName, playerVersions] = weighted(random, WEB_PLAYERS);
  return { os, osVersion, browser, playerName, playerVersion: weighted(random, playerVersions) };
}

/** How a web device reads in the viewer's device list ("Chrome on Windows"). */
export function webDeviceName(setup: PlayerSetup): string {
  const system = setup.os === 'macOS' ? 'Mac' : setup.os === 'Ubuntu' ? 'Linux' : setup.os === 'ChromeOS' ? 'Chromebook' : setup.os;
  return `${setup.browser} on ${system}`;
}

/** A device's system as the viewer's device list shows it ("iOS 17.5", "Chrome on Windows 11"). */
export function deviceSystemLabel(setup: PlayerSetup): string {
  return setup.browser ? `${setup.browser} on ${setup.os} ${setup.osVersion}` : `${setup.os} ${setup.osVersion}`;
}

/**
 * Each platform's app releases, oldest first, as days before the clock (the oldest is there from the
 * start), and the mean days a device takes to update (exponential).
 */
export const APP_RELEASES: Record<string, { lagDays: number; releases: readonly (readonly [version: string, daysAgo: number])[] }> = {
  web: { lagDays: 0.5, releases: [['1.7.4', 400], ['1.7.5', 62], ['1.8.0', 38], ['1.8.1', 21], ['1.8.2', 6]] },
  ios: { lagDays: 6, releases: [['5.3.2', 400], ['5.3.4', 55], ['5.4.0', 30], ['5.4.1', 12]] },
  android: { lagDays: 5, releases: [['5.3.5', 400], ['5.3.7', 40], ['5.4.0', 10], ['5.4.1', 3]] },
  roku: { lagDays: 10, releases: [['3.5.2', 400], ['3.6.0', 45]] },
  firetv: { lagDays: 8, releases: [['3.4.0', 400], ['3.4.2', 33]] },
  appletv: { lagDays: 6, releases: [['4.1.3', 400], ['4.2.0', 25]] },
  smarttv: { lagDays: 20, releases: [['2.9.1', 400], ['2.9.4', 50]] },
};

/**
 * The release that went wrong: more errors and rebuffering until its fix reached the devices
 * (`errorRate`: its sessions' own decoder failures, on top of what any session meets).
 */
export const BAD_RELEASE = { deviceType: 'android', appVersion: '5.4.0', errorFactor: 6, rebufferFactor: 2.5, errorRate: 0.06, errorCode: 'MEDIA_DECODE_ERROR' } as const;

/** Evenings a CDN went wrong (its sessions starting then fail more): the second CDN is worse at times. */
export const CDN_INCIDENTS = [
  { cdn: 'Amazon CloudFront', daysAgo: 2, fromHourUtc: 19, hours: 5, errorRate: 0.35, errorCode: 'SEGMENT_404' },
  { cdn: 'Amazon CloudFront', daysAgo: 9, fromHourUtc: 20, hours: 3, errorRate: 0.3, errorCode: 'MANIFEST_LOAD_TIMEOUT' },
] as const;

/**
 * The error a session meets because of its release or its CDN's bad evening (null: none of these):
 * drawn on top of the failures every session may meet.
 */
export function troubleOf(session: { deviceType: string; appVersion: string; cdn: string; atMs: number }, nowMs: number, random: Random): string | null {
  if (session.deviceType === BAD_RELEASE.deviceType && session.appVersion === BAD_RELEASE.appVersion && random() < BAD_RELEASE.errorRate) return BAD_RELEASE.errorCode;
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  for (const incident of CDN_INCIDENTS) {
    const from = today - incident.daysAgo * DAY_MS + incident.fromHourUtc * 3_600_000;
    if (session.cdn === incident.cdn && session.atMs >= from && session.atMs < from + incident.hours * 3_600_000 && random() < incident.errorRate) return incident.errorCode;
  }
  return null;
}

const DAY_MS = 86_400_000;

/**
 * The share of sessions at `atMs` on each app version of a platform (the world's clock `nowMs` dates
 * the releases): a release published d days before is on 1 − e^(−d/lag) of the devices, and those
 * not on it are spread over the older ones the same way.
 */
export function appVersionShares(deviceType: string, atMs: number, nowMs: number): [string, number][] {
  const platform = APP_RELEASES[deviceType] ?? APP_RELEASES.web!;
  const shares: [string, number][] = [];
  let left = 1;
  for (let i = platform.releases.length - 1; i >= 0; i--) {
    const [version, daysAgo] = platform.releases[i]!;
    const age = (atMs - (nowMs - daysAgo * DAY_MS)) / DAY_MS;
    if (age <= 0) continue;
    const reached = i === 0 ? 1 : 1 - Math.exp(-age / platform.lagDays);
    shares.push([version, left * reached]);
    left *= 1 - reached;
  }
  return shares;
}

/**
 * A session's app version. `outcome` (the demo world, whose failures and rebuffers are drawn before
 * this) weighs the bad release up for a session that failed or rebuffered, so its figures read as
 * a bad release's would without moving the world's totals.
 */
export function appVersionAt(deviceType: string, atMs: number, nowMs: number, random: Random, outcome?: { failed: boolean; rebuffers: number }): string {
  const shares = appVersionShares(deviceType, atMs, nowMs).map(([version, share]): [string, number] => {
    const bad = outcome && deviceType === BAD_RELEASE.deviceType && version === BAD_RELEASE.appVersion;
    return [version, bad ? share * (outcome.failed ? BAD_RELEASE.errorFactor : 1) * (outcome.rebuffers >= 2 ? BAD_RELEASE.rebufferFactor : 1) : share];
  });
  return weighted(random, shares);
}

/** Regions per country (ISO 3166-1 alpha-2), weighted by viewers. */
export const REGIONS: Record<string, Weighted<string>> = {
  US: [['California', 18], ['Texas', 14], ['Florida', 10], ['New York', 9], ['Illinois', 6], ['Pennsylvania', 6], ['Ohio', 5], ['Georgia', 5],
    ['Washington', 4], ['Massachusetts', 3], ['Colorado', 3], ['Arizona', 3]],
  CA: [['Ontario', 39], ['Quebec', 22], ['British Columbia', 14], ['Alberta', 12], ['Manitoba', 4], ['Nova Scotia', 3]],
  GB: [['England', 84], ['Scotland', 8], ['Wales', 5], ['Northern Ireland', 3]],
  MX: [['Ciudad de México', 28], ['Jalisco', 16], ['Nuevo León', 14], ['Estado de México', 22], ['Puebla', 8]],
  BR: [['São Paulo', 34], ['Rio de Janeiro', 18], ['Minas Gerais', 16], ['Bahia', 8], ['Paraná', 8], ['Rio Grande do Sul', 8]],
  DE: [['Bavaria', 18], ['North Rhine-Westphalia', 26], ['Baden-Württemberg', 16], ['Berlin', 10], ['Hamburg', 6], ['Hesse', 9]],
  ES: [['Madrid', 28], ['Catalonia', 26], ['Andalusia', 22], ['Valencia', 14], ['Basque Country', 6]],
  IN: [['Maharashtra', 22], ['Karnataka', 16], ['Delhi', 16], ['Tamil Nadu', 14], ['Telangana', 10], ['West Bengal', 8]],
  AU: [['New South Wales', 34], ['Victoria', 28], ['Queensland', 20], ['Western Australia', 11], ['South Australia', 7]],
  FR: [['Île-de-France', 32], ['Auvergne-Rhône-Alpes', 16], ["Provence-Alpes-Côte d'Azur", 12], ['Occitanie', 12], ['Nouvelle-Aquitaine', 10]],
  PH: [['Metro Manila', 42], ['Calabarzon', 22], ['Central Visayas', 14], ['Davao Region', 10]],
  IE: [['Leinster', 55], ['Munster', 28], ['Connacht', 10], ['Ulster', 7]],
  NL: [['North Holland', 30], ['South Holland', 30], ['Utrecht', 14], ['North Brabant', 16], ['Gelderland', 10]],
};

/** A viewer's region in their country ('' for a country without a list). */
export function regionOf(country: string, random: Random): string {
  const regions = REGIONS[country];
  return regions ? weighted(random, regions) : '';
}

/** The host a CDN serves a site's VOD or live video from (one each, so a host can be told apart from its CDN). */
export function sourceHostOf(cdn: string, streamType: 'vod' | 'live', siteName: string): string {
  const site = siteName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'site';
  const kind = streamType === 'live' ? 'live' : 'vod';
  if (cdn === 'Akamai') return `${kind}-${site}.akamaized.net`;
  if (cdn === 'Amazon CloudFront') return streamType === 'live' ? 'd3l1v3x8k2m9qp.cloudfront.net' : 'd1v0dx4k7r2w8z.cloudfront.net';
  if (cdn === 'Fastly') return `${kind}.${site}.global.ssl.fastly.net`;
  return `${kind}.${site}.example`;
}
