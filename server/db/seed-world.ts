/**
 * The viewers' world of the demo sites, generated (not listed) from a fixed-seed PRNG, so the same
 * seed, scale and clock give the same rows. SEED_SCALE / `--scale` multiplies subscribers and
 * playback (content grows with the square root). At scale 1 (SITE_PROFILES): viewlift-demo 2,000
 * sign-ups and 120 sessions a day (about 290 content items), northwind-tv 1,000 and 50 a day
 * (about 190 items): sized so the first `npm start` stays within its time budget (README).
 *
 * Distributions
 * - Content: `contentItems` titles from word lists; kinds: series with 1–3 seasons of 6–10 episodes,
 *   films ('video'), short clips ('video' under 15 min) and live events. Status: 86 % published,
 *   5 % draft, 4 % scheduled (in the next 30 days), 5 % unpublished. Published at: uniform over the
 *   last 3 years, squared toward today (newer items are commoner). Popularity: Zipf, weight
 *   1/rank^1.05 over a shuffled order, so a few titles take most plays and the rest form a long tail.
 * - Sign-ups: over the last 365 days; daily weight rises linearly 0.6 → 1.4 (growth), ×1.2 on
 *   weekends, ×2.5 for a week of a spring campaign (≈ day −250) and ×3 for a week in November
 *   (≈ day −40). Country mix per site (SITE_PROFILES). Emails are name-based at reserved example
 *   domains; phones in the fictional 555-01xx (US/CA) and 07700 900xxx (UK) ranges.
 * - Devices: 1 (55 %), 2 (30 %) or 3 (15 %) per viewer; type mix web 28, ios 20, android 20,
 *   roku 12, firetv 8, appletv 6, smarttv 6.
 * - Subscriptions (SVOD site): at sign-up 55 % start a trial, 25 % pay at once, 20 % only register.
 *   Plan mix Basic 35, Standard 40, Premium 15, Annual 7, Sports 3. Trials convert at 58 %; of the
 *   rest 70 % cancel during the trial and 30 % fail the first charge. Per renewal churn: monthly
 *   8 % in the first 3 months then 4.5 %, quarterly 10 %, annual 30 %; 70 % of churn is a
 *   cancellation at period end, 30 % a failed payment (past_due 7 days, then 50 % recover,
 *   50 % expire). 12 % of churned viewers come back 20–120 days later. 10 % of new subscriptions
 *   redeem a coupon of an offer running at that time (discount on the first charge).
 * - Payments: one per charged period; method card 70, paypal 15, apple_pay 9, google_pay 6; 1.5 %
 *   of succeeded charges are refunded later; the currency follows the country (GBP, EUR, CAD, USD).
 * - Playback: the last 90 days. Sessions per day = base × weekday factor (Mon–Thu 0.9, Fri 1.05,
 *   Sat 1.25, Sun 1.2) × growth; each session picks an entitled viewer by engagement weight
 *   (log-normal, σ 0.9), a start hour by the local evening-peak curve HOUR_WEIGHTS, a device of the
 *   viewer, an ISP of the viewer's country and a CDN (Akamai 45, CloudFront 35, Fastly 20).
 *   QoS: startup ms log-normal around the CDN median × ISP × device factors; rebuffers Poisson in
 *   watched minutes × ISP × CDN rate, 2.5 s mean each; bitrate by device × ISP; errors 1.2 % ×
 *   factors. Watched time: a power-law share of the item's duration (live: 20–150 min).
 * - Session dimensions of issue 41 (server/demo/player-dimensions.ts, from a PRNG stream of their
 *   own, so every figure above is drawn as before): each device's system and player by its type (its
 *   device row shows the same system and its current app), the app version by each platform's
 *   releases as of the session (one bad Android release, more likely on sessions that failed or
 *   rebuffered, and with errors of its own), a CDN's bad evenings (errors of their own: the only
 *   figures this stream adds to), the viewer's region in their country, 'live' for live events, the CDN's source
 *   host, and the title's series.
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from './client';
import { DEMO_SITES } from './demo-accounts';
import { COUPON_CODE_ALPHABET } from '../../common/monetization-rules';
import { rebuildRollups } from './rollups';
import { ingestionKeys, networks, sites, staffUsers } from './schema';
import { addSeedArtwork, recordSeededArtwork } from '../demo/seed-artwork';
import { appVersionAt, deviceSystemLabel, playerSetupOf, regionOf, sourceHostOf, troubleOf, webDeviceName, type PlayerSetup } from '../demo/player-dimensions';
import type { UploadStorage } from '../storage/upload-storage';

/* ------------------------------------------------------------------------------------------- */
/* Fixed-seed PRNG (sfc32) and the distributions drawn from it.                                 */
/* ------------------------------------------------------------------------------------------- */

class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    const h = createHash('sha256').update(String(seed)).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0; this.b >>>= 0; this.c >>>= 0; this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** An item by weight: entries are [item, weight]. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [item, w] of entries) {
      r -= w;
      if (r < 0) return item;
    }
    return entries[entries.length - 1]![0];
  }

  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  poisson(lambda: number): number {
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const l = Math.exp(-lambda);
    let k = 0;
    let p = 1;
    do { k++; p *= this.next(); } while (p > l);
    return k - 1;
  }

  /** A version-4-shaped uuid drawn from this generator. */
  uuid(): string {
    const hex = Array.from({ length: 4 }, () => Math.floor(this.next() * 2 ** 32).toString(16).padStart(8, '0')).join('');
    const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}

/* ------------------------------------------------------------------------------------------- */
/* Vocabulary                                                                                   */
/* ------------------------------------------------------------------------------------------- */

const FIRST_NAMES = ['Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Oliver', 'Sophia', 'Elijah', 'Isabella', 'Lucas', 'Mia', 'Mateo',
  'Amelia', 'Ethan', 'Harper', 'James', 'Evelyn', 'Benjamin', 'Camila', 'Henry', 'Aria', 'Leo', 'Chloe', 'Jack', 'Priya',
  'Arjun', 'Aisha', 'Omar', 'Yuki', 'Hiro', 'Mei', 'Wei', 'Sofia', 'Diego', 'Valentina', 'Santiago', 'Lucía', 'Martina',
  'Hannah', 'Finn', 'Lena', 'Jonas', 'Chiara', 'Luca', 'Chloé', 'Hugo', 'Zoe', 'Ravi', 'Ananya', 'Kwame', 'Amara', 'Niamh',
  'Declan', 'Freya', 'Callum', 'Isla', 'Thiago', 'Beatriz', 'Gabriel', 'Maya', 'Samuel', 'Nora', 'Daniel', 'Grace', 'Ibrahim',
  'Fatima', 'Sean', 'Ciara', 'Lars', 'Ingrid', 'Marco', 'Giulia', 'Tomás', 'Inés', 'Ryan', 'Jasmine', 'Aaron', 'Naomi'];
const LAST_NAMES = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Thompson',
  'White', 'Harris', 'Clark', 'Lewis', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Patel', 'Sharma', 'Singh',
  'Khan', 'Nguyen', 'Chen', 'Wang', 'Kim', 'Tanaka', 'Sato', 'Silva', 'Santos', 'Oliveira', 'Costa', 'Müller', 'Schmidt',
  'Schneider', 'Fischer', 'Rossi', 'Russo', 'Dubois', 'Moreau', 'Laurent', 'Fernández', 'Ruiz', 'Murphy', "O'Brien", 'Kelly',
  'Walsh', 'Byrne', 'Evans', 'Roberts', 'Hughes', 'Edwards', 'Campbell', 'Stewart', 'Morris', 'Okafor', 'Mensah', 'de Vries',
  'Jansen', 'Bakker', 'Novak', 'Kowalski', 'Andersson', 'Nielsen', 'Cohen', 'Reyes'];
const EMAIL_DOMAINS = ['example.com', 'example.net', 'example.org', 'mail.example', 'inbox.example'];

const ADJECTIVES = ['Silent', 'Crimson', 'Last', 'Hidden', 'Broken', 'Golden', 'Northern', 'Distant', 'Electric', 'Wild',
  'Midnight', 'Lost', 'Burning', 'Frozen', 'Restless', 'Hollow', 'Bright', 'Secret', 'Endless', 'Savage', 'Quiet', 'Iron',
  'Velvet', 'Paper', 'Glass', 'Salt', 'Second', 'Open', 'Fallen', 'Little'];
const NOUNS = ['Harbor', 'Signal', 'Orchard', 'Frontier', 'Empire', 'Tide', 'Garden', 'Circuit', 'Valley', 'Witness',
  'Lantern', 'Kingdom', 'Horizon', 'River', 'Mirror', 'Season', 'Station', 'Compass', 'Archive', 'Summit', 'Island', 'Border',
  'Winter', 'Sparrow', 'Engine', 'Canyon', 'Verdict', 'Tower', 'Ledger', 'Coast'];
const PLACES = ['Lisbon', 'Brooklyn', 'Kyoto', 'Havana', 'Glasgow', 'Nairobi', 'Reykjavik', 'Marseille', 'Yukon', 'Patagonia',
  'Bombay', 'Galway', 'Detroit', 'Sicily', 'Oaxaca', 'Tasmania', 'Berlin', 'Montana', 'Cornwall', 'Seoul'];
const TEAMS = ['Harbor City FC', 'Northside Rovers', 'Valley United', 'Riverside Athletic', 'Capital Lions', 'Coastal Sharks',
  'Mountain Eagles', 'Metro Stars', 'Union Rangers', 'Bayview Wolves'];
const EPISODE_WORDS = ['Pilot', 'Homecoming', 'The Offer', 'Crossroads', 'Aftermath', 'Old Friends', 'The Long Night',
  'Breaking Point', 'Undertow', 'Echoes', 'Reckoning', 'New Blood', 'The Deal', 'Fault Lines', 'Open Water', 'Full Circle'];

interface GenreMix { genre: string; weight: number }
const VIEWLIFT_GENRES: GenreMix[] = [
  { genre: 'Drama', weight: 20 }, { genre: 'Comedy', weight: 14 }, { genre: 'Thriller', weight: 12 }, { genre: 'Documentary', weight: 10 },
  { genre: 'Sci-Fi', weight: 8 }, { genre: 'Action', weight: 10 }, { genre: 'Kids', weight: 9 }, { genre: 'Sports', weight: 10 },
  { genre: 'Reality', weight: 4 }, { genre: 'Romance', weight: 3 },
];
const NORTHWIND_GENRES: GenreMix[] = [
  { genre: 'News', weight: 34 }, { genre: 'Documentary', weight: 22 }, { genre: 'Drama', weight: 12 }, { genre: 'Comedy', weight: 8 },
  { genre: 'Lifestyle', weight: 10 }, { genre: 'Classic Film', weight: 14 },
];

/** ISP name and QoS factors: startup multiplier, rebuffer-rate multiplier, bitrate multiplier. */
type Isp = readonly [name: string, weight: number, startup: number, rebuffer: number, bitrate: number];
const ISPS: Record<string, readonly Isp[]> = {
  US: [['Comcast Xfinity', 30, 1, 1, 1], ['Charter Spectrum', 22, 1.05, 1.1, 0.95], ['AT&T Fiber', 16, 0.85, 0.7, 1.1],
    ['Verizon Fios', 14, 0.8, 0.6, 1.15], ['T-Mobile Home Internet', 10, 1.5, 2.2, 0.7], ['Cox', 8, 1.1, 1.2, 0.95]],
  CA: [['Rogers', 40, 1, 1, 1], ['Bell Canada', 40, 0.95, 0.9, 1.05], ['Telus', 20, 1, 1, 1]],
  GB: [['BT', 32, 0.95, 0.9, 1], ['Sky Broadband', 24, 1, 1, 1], ['Virgin Media', 22, 0.9, 0.8, 1.1], ['TalkTalk', 12, 1.3, 1.7, 0.85], ['Vodafone UK', 10, 1.2, 1.5, 0.9]],
  MX: [['Telmex Infinitum', 55, 1.4, 1.9, 0.8], ['Totalplay', 25, 1.2, 1.5, 0.85], ['Izzi', 20, 1.3, 1.6, 0.85]],
  BR: [['Claro', 45, 1.3, 1.6, 0.85], ['Vivo', 40, 1.2, 1.4, 0.9], ['Oi', 15, 1.6, 2.4, 0.75]],
  DE: [['Deutsche Telekom', 50, 0.9, 0.8, 1.05], ['Vodafone DE', 35, 1, 1.1, 1], ['1&1', 15, 1.05, 1.1, 0.95]],
  ES: [['Movistar', 60, 0.9, 0.8, 1.05], ['Orange ES', 40, 1, 1, 1]],
  IN: [['Jio', 55, 1.7, 2.5, 0.65], ['Airtel', 35, 1.5, 2, 0.7], ['ACT Fibernet', 10, 1.1, 1.1, 0.95]],
  AU: [['Telstra', 50, 1, 1, 1], ['Optus', 30, 1.15, 1.3, 0.95], ['TPG', 20, 1.1, 1.2, 0.95]],
  FR: [['Orange', 45, 0.85, 0.7, 1.1], ['Free', 35, 0.9, 0.8, 1.05], ['SFR', 20, 1.05, 1.2, 0.95]],
  PH: [['PLDT', 55, 1.5, 2.2, 0.75], ['Globe', 45, 1.6, 2.4, 0.7]],
  IE: [['Eir', 50, 1.05, 1.1, 1], ['Virgin Media IE', 50, 0.95, 0.9, 1.05]],
  NL: [['KPN', 50, 0.85, 0.7, 1.1], ['Ziggo', 50, 0.95, 0.9, 1.05]],
};
/** Local-time offset (hours from UTC) used for the evening peak. */
const UTC_OFFSET: Record<string, number> = { US: -5, CA: -5, GB: 0, MX: -6, BR: -3, DE: 1, ES: 1, IN: 5, AU: 10, FR: 1, PH: 8, IE: 0, NL: 1 };
const CURRENCY_OF: Record<string, string> = { GB: 'GBP', DE: 'EUR', ES: 'EUR', FR: 'EUR', IE: 'EUR', NL: 'EUR', CA: 'CAD' };

/** CDN name, weight, median startup ms, rebuffer-rate multiplier, error multiplier. */
const CDNS: readonly (readonly [string, number, number, number, number])[] = [
  ['Akamai', 45, 950, 1, 1], ['Amazon CloudFront', 35, 1100, 1.15, 1.1], ['Fastly', 20, 850, 0.9, 0.9],
];
/** Device type, weight, startup multiplier, base bitrate kbps (the system, player and app: server/demo/player-dimensions.ts). */
const DEVICES: readonly (readonly [string, number, number, number])[] = [
  ['web', 28, 0.9, 4200], ['ios', 20, 0.85, 2800], ['android', 20, 1, 2400], ['roku', 12, 1.35, 5600],
  ['firetv', 8, 1.2, 5200], ['appletv', 6, 0.9, 6500], ['smarttv', 6, 1.4, 6000],
];
const DEVICE_NAMES: Record<string, string[]> = {
  web: ['Chrome on Windows', 'Safari on Mac', 'Firefox on Linux', 'Edge on Windows'], ios: ['iPhone 15', 'iPhone 13', 'iPad Air'],
  android: ['Pixel 8', 'Galaxy S23', 'Galaxy Tab S9', 'Moto G'], roku: ['Living Room Roku', 'Bedroom Roku'],
  firetv: ['Fire TV Stick 4K', 'Fire TV Cube'], appletv: ['Apple TV 4K'], smarttv: ['Samsung Smart TV', 'LG OLED TV'],
};
const ERROR_CODES: readonly (readonly [string, number])[] = [
  ['NETWORK_ERROR', 40], ['MANIFEST_LOAD_TIMEOUT', 25], ['MEDIA_DECODE_ERROR', 15], ['DRM_LICENSE_FAILED', 12], ['SEGMENT_404', 8],
];
/** Relative chance of starting a session in each local hour 0–23: low overnight, peak 19–22. */
const HOUR_WEIGHTS = [0.6, 0.35, 0.2, 0.15, 0.12, 0.15, 0.3, 0.55, 0.6, 0.6, 0.6, 0.65, 0.8, 0.75, 0.7, 0.75, 0.9, 1.1, 1.4, 1.9, 2.2, 2.1, 1.6, 1];
/** Sunday..Saturday. */
const WEEKDAY_FACTOR = [1.2, 0.9, 0.9, 0.9, 0.9, 1.05, 1.25];
const PAYMENT_METHODS: readonly (readonly [string, number])[] = [['card', 70], ['paypal', 15], ['apple_pay', 9], ['google_pay', 6]];
const SUPPORT_NOTES = [
  'Asked why they were charged twice this month; the second charge was a failed retry that never settled.',
  'Could not sign in on their Roku after the app update; walked them through signing out all devices.',
  'Requested a refund for the last renewal; explained the refund policy and sent it for approval.',
  'Reported buffering every evening on the living-room TV; suggested a wired connection, they will try it.',
  'Wants to switch from monthly to the annual plan at the next renewal.',
  'Changed their email address after losing access to the old mailbox.',
  'Asked whether downloads work on the iPad; confirmed they do on the Standard plan and above.',
  'Coupon code was rejected at checkout; it had expired the day before, offered the current welcome offer.',
];

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/* ------------------------------------------------------------------------------------------- */
/* Per-site profiles                                                                            */
/* ------------------------------------------------------------------------------------------- */

interface PlanSeed {
  key: string;
  name: string;
  description: string;
  prices: { currency: string; amount: number }[];
  billingPeriod: 'month' | 'quarter' | 'year';
  trialDays: number;
  deviceLimit: number;
  status: 'active' | 'archived' | 'draft';
  /** Share of new subscriptions (0 for plans nobody can buy now). */
  mix: number;
  /** Only viewers of this network buy it (identifier). */
  network?: string;
}

interface SiteProfile {
  subscribers: number;
  sessionsPerDay: number;
  contentSeries: number;
  contentFilms: number;
  contentClips: number;
  contentLive: number;
  genres: GenreMix[];
  countries: readonly (readonly [string, number])[];
  /** Share of sign-ups that start a trial / pay at once (the rest only register). */
  trialShare: number;
  paidShare: number;
  /** Playback needs an entitlement (SVOD) rather than a registration (AVOD). */
  entitlementRequired: boolean;
  plans: PlanSeed[];
  groups: { name: string; description: string; plans: string[] }[];
  offers: { name: string; discountType: 'percent' | 'fixed'; discountValue: number; currency: string | null; plans: string[];
    startDay: number; endDay: number | null; eligibility: 'new' | 'everyone'; status: 'active' | 'archived' | 'draft';
    codes: string[]; batch: number }[];
}

const price = (usd: number, gbp: number, eur: number, cad: number) => [
  { currency: 'USD', amount: usd }, { currency: 'GBP', amount: gbp }, { currency: 'EUR', amount: eur }, { currency: 'CAD', amount: cad },
];

const SITE_PROFILES: Record<string, SiteProfile> = {
  [DEMO_SITES.viewlift]: {
    subscribers: 2000,
    sessionsPerDay: 120,
    contentSeries: 10, contentFilms: 70, contentClips: 40, contentLive: 14,
    genres: VIEWLIFT_GENRES,
    countries: [['US', 48], ['CA', 9], ['GB', 10], ['MX', 6], ['BR', 5], ['DE', 4], ['ES', 3], ['IN', 5], ['AU', 4], ['FR', 3], ['PH', 3]],
    trialShare: 0.55, paidShare: 0.25, entitlementRequired: true,
    plans: [
      { key: 'basic', name: 'Basic Monthly', description: 'HD on one screen at a time, with ads on live events.', prices: price(799, 699, 749, 999), billingPeriod: 'month', trialDays: 7, deviceLimit: 1, status: 'active', mix: 35 },
      { key: 'standard', name: 'Standard Monthly', description: 'Full HD on two screens, downloads on phones and tablets.', prices: price(1299, 1099, 1199, 1599), billingPeriod: 'month', trialDays: 7, deviceLimit: 2, status: 'active', mix: 40 },
      { key: 'premium', name: 'Premium Monthly', description: '4K HDR on four screens, downloads on six devices.', prices: price(1799, 1599, 1699, 2299), billingPeriod: 'month', trialDays: 14, deviceLimit: 4, status: 'active', mix: 15 },
      { key: 'annual', name: 'Standard Annual', description: 'Standard for a year, two months free.', prices: price(11999, 9999, 10999, 14999), billingPeriod: 'year', trialDays: 0, deviceLimit: 2, status: 'active', mix: 7 },
      { key: 'sports', name: 'Sports Plus Quarterly', description: 'Every live match on Sports Plus, billed every three months.', prices: price(2999, 2499, 2799, 3799), billingPeriod: 'quarter', trialDays: 0, deviceLimit: 2, status: 'active', mix: 3, network: 'sports-plus' },
      { key: 'legacy', name: 'Legacy Monthly (2022)', description: 'The launch price, closed to new subscribers.', prices: price(599, 499, 549, 749), billingPeriod: 'month', trialDays: 0, deviceLimit: 1, status: 'archived', mix: 0 },
      { key: 'student', name: 'Student Monthly', description: 'Standard at half price with a verified student email.', prices: price(649, 549, 599, 799), billingPeriod: 'month', trialDays: 7, deviceLimit: 1, status: 'draft', mix: 0 },
    ],
    groups: [
      { name: 'Main paywall', description: 'The plans shown on the sign-up page.', plans: ['basic', 'standard', 'premium'] },
      { name: 'Annual upsell', description: 'Shown to monthly subscribers after three renewals.', plans: ['annual', 'premium'] },
      { name: 'Sports Plus', description: 'Paywall of the Sports Plus network.', plans: ['sports'] },
    ],
    offers: [
      { name: 'Welcome: 50% off the first month', discountType: 'percent', discountValue: 50, currency: null, plans: ['basic', 'standard', 'premium'], startDay: -365, endDay: null, eligibility: 'new', status: 'active', codes: ['WELCOME50'], batch: 0 },
      { name: 'Spring sale', discountType: 'percent', discountValue: 30, currency: null, plans: ['standard', 'premium'], startDay: -260, endDay: -230, eligibility: 'everyone', status: 'archived', codes: ['SPRING30'], batch: 0 },
      { name: 'Black Friday $5 off', discountType: 'fixed', discountValue: 500, currency: 'USD', plans: ['standard', 'premium', 'annual'], startDay: -45, endDay: -35, eligibility: 'everyone', status: 'archived', codes: ['BLACKFRIDAY'], batch: 0 },
      { name: 'Partner codes: 3 months of Sports Plus at 25% off', discountType: 'percent', discountValue: 25, currency: null, plans: ['sports'], startDay: -120, endDay: 60, eligibility: 'new', status: 'active', codes: [], batch: 40 },
      { name: 'Holiday bundle (planned)', discountType: 'percent', discountValue: 20, currency: null, plans: ['annual'], startDay: 20, endDay: 50, eligibility: 'everyone', status: 'draft', codes: ['HOLIDAY20'], batch: 0 },
    ],
  },
  [DEMO_SITES.northwind]: {
    subscribers: 1000,
    sessionsPerDay: 50,
    contentSeries: 6, contentFilms: 40, contentClips: 50, contentLive: 6,
    genres: NORTHWIND_GENRES,
    countries: [['GB', 62], ['IE', 8], ['US', 10], ['DE', 5], ['FR', 4], ['NL', 4], ['ES', 3], ['AU', 4]],
    trialShare: 0, paidShare: 0.1, entitlementRequired: false,
    plans: [
      { key: 'adfree', name: 'Northwind Ad-Free', description: 'Every programme without adverts.', prices: price(499, 399, 449, 599), billingPeriod: 'month', trialDays: 0, deviceLimit: 3, status: 'active', mix: 100 },
    ],
    groups: [{ name: 'Ad-free upgrade', description: 'Offered from the player after the second advert break.', plans: ['adfree'] }],
    offers: [
      { name: 'First month £1', discountType: 'fixed', discountValue: 299, currency: 'GBP', plans: ['adfree'], startDay: -200, endDay: null, eligibility: 'new', status: 'active', codes: ['NORTHWIND1'], batch: 0 },
    ],
  },
};

/* ------------------------------------------------------------------------------------------- */
/* Generation                                                                                   */
/* ------------------------------------------------------------------------------------------- */

interface WorldOptions {
  /** PRNG seed (default 20240601). The same seed, scale and `now` give the same world. */
  seed?: number;
  /** Volume multiplier of subscribers and playback (default 1; content grows with its square root). */
  scale?: number;
  /** The clock the world is built around (default: now, to the minute). */
  now?: Date;
  /** Days of playback history (default 90). */
  playbackDays?: number;
  /** Days of sign-up history (default 365). */
  signupDays?: number;
}

export interface SiteContext {
  id: string;
  internalName: string;
  networks: { id: string; identifier: string; isDefault: boolean; isActive: boolean }[];
  /** Staff user who writes support notes (optional). */
  supportAuthorId?: string | null;
  /** Lower-cased emails and coupon codes already taken on the site (adding a world to a world). */
  takenEmails?: Set<string>;
  takenCodes?: Set<string>;
}

type Row = Record<string, unknown>;

export interface WorldRows {
  content_items: Row[];
  subscribers: Row[];
  subscriber_devices: Row[];
  support_notes: Row[];
  plans: Row[];
  plan_groups: Row[];
  plan_group_plans: Row[];
  offers: Row[];
  coupons: Row[];
  subscriptions: Row[];
  coupon_redemptions: Row[];
  payments: Row[];
  playback_sessions: Row[];
}

/** Insert order (foreign keys first). */
const WORLD_TABLES: readonly (keyof WorldRows)[] = [
  'content_items', 'subscribers', 'subscriber_devices', 'support_notes', 'plans', 'plan_groups', 'plan_group_plans',
  'offers', 'coupons', 'subscriptions', 'coupon_redemptions', 'payments', 'playback_sessions',
];

const iso = (ms: number) => new Date(ms).toISOString();
const addMonths = (ms: number, months: number) => {
  const d = new Date(ms);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime();
};
const PERIOD_MONTHS = { month: 1, quarter: 3, year: 12 } as const;

function foldTitle(title: string): string {
  return title.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

function scaled(n: number, scale: number): number {
  return Math.max(1, Math.round(n * scale));
}

interface Watchable { weight: number; plans: [start: number, planId: string][]; from: number; to: number; country: string; region: string; devices: string[]; deviceTypes: string[]; networkId: string; subscriberId: string }

/** Generates one site's world in memory. Pure: the same inputs give the same rows. */
export function generateSiteWorld(site: SiteContext, options: WorldOptions = {}): WorldRows {
  // Sites other than the demo ones (tests) get the first demo site's profile.
  const profileKey = SITE_PROFILES[site.internalName] ? site.internalName : DEMO_SITES.viewlift;
  const profile = SITE_PROFILES[profileKey]!;
  // Adding a world to a site that has one (npm run seed): a different draw, and ids that cannot collide.
  const seed = (options.seed ?? 20240601) + (site.takenEmails?.size ?? 0);
  const scale = options.scale ?? 1;
  const now = worldClock(options.now).getTime();
  const playbackDays = options.playbackDays ?? 90;
  const signupDays = options.signupDays ?? 365;
  // Values from `rng`; ids from `ids`, which also depends on the site so two sites never share ids.
  const rng = new Rng(`${seed}:${profileKey}:${scale}`);
  const ids = new Rng(`${seed}:${site.id}:${scale}:ids`);
  // The session dimensions of issue 41 (server/demo/player-dimensions.ts) from a stream of their own:
  // the values drawn from `rng` (and so every figure of the world) are those of before.
  const dims = new Rng(`${seed}:${profileKey}:${scale}:dimensions`);
  const dimsRandom = () => dims.next();
  const setups = new Map<string, PlayerSetup>();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const rows: WorldRows = {
    content_items: [], subscribers: [], subscriber_devices: [], support_notes: [], plans: [], plan_groups: [], plan_group_plans: [],
    offers: [], coupons: [], subscriptions: [], coupon_redemptions: [], payments: [], playback_sessions: [],
  };
  const networkByIdentifier = new Map(site.networks.map((n) => [n.identifier, n]));
  const defaultNetwork = site.networks.find((n) => n.isDefault) ?? site.networks[0];
  if (!defaultNetwork) throw new Error(`site ${site.internalName} has no network`);
  const launched = site.networks.filter((n) => n.isActive);
  const signupNetworks: (readonly [string, number])[] = launched.map((n) => [n.id, n.isDefault ? 80 : 20 / Math.max(1, launched.length - 1)]);

  /* Content ------------------------------------------------------------------------------- */
  const contentScale = Math.sqrt(scale);
  const playable: { id: string; duration: number; live: boolean; publishedAt: number; networkId: string | null; seriesId: string | null; rank: number }[] = [];
  const genreEntries = profile.genres.map((g) => [g.genre, g.weight] as const);
  const pickStatus = (): string => rng.weighted([['published', 86], ['draft', 5], ['scheduled', 4], ['unpublished', 5]] as const);
  const publishedAgo = () => Math.floor(rng.next() ** 2 * 3 * 365 * DAY_MS);
  const addContent = (item: { kind: string; title: string; genre: string; duration: number; status?: string; publishedAt?: number; seriesId?: string; season?: number; episode?: number; networkId?: string | null; description: string }) => {
    const id = ids.uuid();
    const status = item.status ?? pickStatus();
    const publishedAt = status === 'draft' || status === 'scheduled' ? null : (item.publishedAt ?? now - publishedAgo());
    const scheduledAt = status === 'scheduled' ? now + rng.int(1, 30) * DAY_MS + rng.int(17, 21) * HOUR_MS : null;
    const created = (publishedAt ?? now) - rng.int(2, 40) * DAY_MS;
    rows.content_items.push({
      id, site_id: site.id, network_id: item.networkId ?? null, kind: item.kind, title: item.title, title_search: foldTitle(item.title),
      description: item.description, genre: item.genre, tags: [item.genre.toLowerCase(), item.kind],
      duration_seconds: item.duration, status, scheduled_at: scheduledAt === null ? null : iso(scheduledAt),
      published_at: publishedAt === null ? null : iso(publishedAt), series_id: item.seriesId ?? null,
      season_number: item.season ?? null, episode_number: item.episode ?? null,
      // No artwork address of a host that does not exist (issue 29); the seed stores drawn posters (issue 38, seedWorld's artworkStorage).
      artwork_url: '', version: 1,
      created_at: iso(created), updated_at: iso(Math.max(created, publishedAt ?? created)),
    });
    if (item.kind !== 'series' && status === 'published' && publishedAt !== null) {
      playable.push({ id, duration: item.duration, live: item.kind === 'live', publishedAt, networkId: item.networkId ?? null, seriesId: item.seriesId ?? null, rank: 0 });
    }
    return { id, status, publishedAt };
  };
  const sportsNetwork = networkByIdentifier.get('sports-plus')?.id ?? null;
  for (let s = 0; s < scaled(profile.contentSeries, contentScale); s++) {
    const genre = rng.weighted(genreEntries);
    const title = rng.chance(0.5) ? `${rng.pick(PLACES)} ${rng.pick(NOUNS)}` : `The ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
    const series = addContent({ kind: 'series', title, genre, duration: 0, description: `A ${genre.toLowerCase()} series set in ${rng.pick(PLACES)}.` });
    const seasons = rng.int(1, 3);
    let released = series.publishedAt ?? now;
    for (let season = 1; season <= seasons; season++) {
      const episodes = rng.int(6, 10);
      for (let e = 1; e <= episodes; e++) {
        const episodeStatus = series.status === 'published' ? (rng.chance(0.95) ? 'published' : 'draft') : series.status;
        addContent({
          kind: 'episode', title: `${title} S${season} E${e}: ${rng.pick(EPISODE_WORDS)}`, genre, duration: rng.int(22, 60) * 60,
          status: episodeStatus, publishedAt: Math.min(now - HOUR_MS, released), seriesId: series.id, season, episode: e,
          description: `Season ${season}, episode ${e} of ${title}.`,
        });
        released += 7 * DAY_MS;
      }
      released += rng.int(90, 300) * DAY_MS;
    }
  }
  for (let f = 0; f < scaled(profile.contentFilms, contentScale); f++) {
    const genre = rng.weighted(genreEntries);
    const title = rng.weighted([[`The ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`, 4], [`${rng.pick(NOUNS)} of ${rng.pick(PLACES)}`, 3], [`${rng.pick(ADJECTIVES)} ${rng.pick(PLACES)}`, 2]] as const);
    addContent({ kind: 'video', title, genre, duration: rng.int(80, 150) * 60, description: `A ${genre.toLowerCase()} feature film.` });
  }
  for (let c = 0; c < scaled(profile.contentClips, contentScale); c++) {
    const genre = rng.weighted(genreEntries);
    addContent({ kind: 'video', title: `${rng.pick(PLACES)}: ${rng.pick(ADJECTIVES).toLowerCase()} ${rng.pick(NOUNS).toLowerCase()} explained`, genre, duration: rng.int(2, 14) * 60 + rng.int(0, 59), description: `A short ${genre.toLowerCase()} clip.` });
  }
  for (let l = 0; l < scaled(profile.contentLive, contentScale); l++) {
    const sports = profile.genres.some((g) => g.genre === 'Sports') && rng.chance(0.7);
    const start = now - rng.int(1, playbackDays) * DAY_MS;
    const [home, away] = [rng.pick(TEAMS), rng.pick(TEAMS)];
    addContent({
      kind: 'live', title: sports ? `${home} vs ${away === home ? TEAMS[(TEAMS.indexOf(home) + 1) % TEAMS.length] : away}` : `${rng.pick(['Evening News', 'Morning Briefing', 'Election Night', 'Town Hall'])} Live`,
      genre: sports ? 'Sports' : profile.genres[0]!.genre, duration: rng.int(90, 180) * 60, status: 'published', publishedAt: start,
      networkId: sports ? sportsNetwork : null, description: sports ? 'Live match with studio build-up and highlights.' : 'Live broadcast.',
    });
  }
  // Zipf popularity over a shuffled order of the playable items.
  const order = playable.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  order.forEach((item, rank) => { playable[item]!.rank = rank; });

  /* Catalog: plans, groups, offers, coupons ------------------------------------------------ */
  const planIds = new Map<string, string>();
  for (const plan of profile.plans) {
    const id = ids.uuid();
    planIds.set(plan.key, id);
    const created = now - (plan.key === 'legacy' ? 900 : signupDays + 30) * DAY_MS;
    rows.plans.push({
      id, site_id: site.id, name: plan.name, description: plan.description, prices: plan.prices, billing_period: plan.billingPeriod,
      trial_days: plan.trialDays, device_limit: plan.deviceLimit, status: plan.status, version: 1, created_at: iso(created), updated_at: iso(created),
    });
  }
  profile.groups.forEach((group, position) => {
    const id = ids.uuid();
    const created = now - (signupDays + 20) * DAY_MS;
    rows.plan_groups.push({ id, site_id: site.id, name: group.name, description: group.description, position, version: 1, created_at: iso(created), updated_at: iso(created) });
    group.plans.forEach((key, i) => rows.plan_group_plans.push({ group_id: id, plan_id: planIds.get(key), position: i }));
  });
  const takenCodes = site.takenCodes ?? new Set<string>();
  const uniqueCode = (code: string) => {
    let candidate = code;
    for (let n = 2; takenCodes.has(candidate.toLowerCase()); n++) candidate = `${code}${n}`;
    takenCodes.add(candidate.toLowerCase());
    return candidate;
  };
  const liveCoupons: { id: string; offer: SiteProfile['offers'][number]; from: number; to: number }[] = [];
  for (const offer of profile.offers) {
    const id = ids.uuid();
    const from = today + offer.startDay * DAY_MS;
    const to = offer.endDay === null ? null : today + offer.endDay * DAY_MS;
    rows.offers.push({
      id, site_id: site.id, name: offer.name, discount_type: offer.discountType, discount_value: offer.discountValue, currency: offer.currency,
      plan_ids: offer.plans.map((k) => planIds.get(k)), starts_at: iso(from), ends_at: to === null ? null : iso(to), eligibility: offer.eligibility,
      status: offer.status, version: 1, created_at: iso(from - 14 * DAY_MS), updated_at: iso(from - 14 * DAY_MS),
    });
    const batchId = offer.batch > 0 ? ids.uuid() : null;
    const codes = [...offer.codes];
    // Like a generated batch (server/domain/monetization.ts): a prefix and letters and digits only, so
    // every seeded code passes the write rule of a coupon (issue 25: `SPORTS-…` could not be disabled).
    for (let b = 0; b < offer.batch; b++) codes.push(`SPORTS${Array.from({ length: 6 }, () => rng.pick([...COUPON_CODE_ALPHABET])).join('')}`);
    for (const raw of codes) {
      const couponId = ids.uuid();
      const code = uniqueCode(raw);
      rows.coupons.push({
        id: couponId, site_id: site.id, offer_id: id, code, max_redemptions: batchId ? 1 : null, max_per_subscriber: 1,
        expires_at: to === null ? null : iso(to), status: offer.status === 'archived' && rng.chance(0.5) ? 'disabled' : 'active', batch_id: batchId, version: 1,
        created_at: iso(from - 7 * DAY_MS),
      });
      if (offer.status !== 'draft') liveCoupons.push({ id: couponId, offer, from, to: to ?? Number.POSITIVE_INFINITY });
    }
  }
  const couponUses = new Map<string, number>();

  /* Subscribers, devices, subscriptions, payments ------------------------------------------ */
  const nSubscribers = scaled(profile.subscribers, scale);
  const signupWeights: number[] = [];
  for (let d = 0; d < signupDays; d++) {
    const dayMs = today - (signupDays - 1 - d) * DAY_MS;
    const dow = new Date(dayMs).getUTCDay();
    const daysAgo = signupDays - 1 - d;
    let w = 0.6 + 0.8 * (d / Math.max(1, signupDays - 1));
    if (dow === 0 || dow === 6) w *= 1.2;
    if (daysAgo >= 247 && daysAgo < 254) w *= 2.5;
    if (daysAgo >= 38 && daysAgo < 45) w *= 3;
    signupWeights.push(w);
  }
  const cumulative: number[] = [];
  signupWeights.reduce((acc, w, i) => (cumulative[i] = acc + w), 0);
  const totalSignupWeight = cumulative[cumulative.length - 1] ?? 1;
  const pickSignupDay = () => {
    const r = rng.next() * totalSignupWeight;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < r) lo = mid + 1; else hi = mid;
    }
    return today - (signupDays - 1 - lo) * DAY_MS;
  };
  const takenEmails = site.takenEmails ?? new Set<string>();
  const buyable = profile.plans.filter((p) => p.mix > 0);
  const watchables: Watchable[] = [];

  const charge = (sub: { id: string; subscriberId: string; networkId: string; planId: string; currency: string }, amount: number, at: number, status: string) => {
    if (at > now) return;
    rows.payments.push({
      id: ids.uuid(), site_id: site.id, network_id: sub.networkId, subscriber_id: sub.subscriberId, subscription_id: sub.id, plan_id: sub.planId,
      amount, currency: sub.currency, status, method: rng.weighted(PAYMENT_METHODS), at: iso(at),
    });
  };

  /** Plays one subscription from `start` to now or its end; returns when it ended (or null). */
  const subscribe = (subscriberId: string, networkId: string, country: string, start: number, allowTrial: boolean, intervals: [number, number][], plans: [number, string][]): number | null => {
    const networkIdentifier = site.networks.find((n) => n.id === networkId)?.identifier;
    const candidates = buyable.filter((p) => !p.network || p.network === networkIdentifier);
    const plan = rng.weighted(candidates.map((p) => [p, p.mix] as const));
    const currency = CURRENCY_OF[country] ?? 'USD';
    const fullPrice = plan.prices.find((p) => p.currency === currency)?.amount ?? plan.prices[0]!.amount;
    const id = ids.uuid();
    const planId = planIds.get(plan.key)!;
    const sub = { id, subscriberId, networkId, planId, currency };
    const trial = allowTrial && plan.trialDays > 0;
    const trialEnds = trial ? start + plan.trialDays * DAY_MS : null;
    // A coupon of an offer running at the start, for this plan, with uses left.
    let couponId: string | null = null;
    let firstAmount = fullPrice;
    if (rng.chance(0.1)) {
      const usable = liveCoupons.filter((c) => c.from <= start && start < c.to && c.offer.plans.includes(plan.key)
        && (c.offer.discountType === 'percent' || c.offer.currency === currency) && !(rows.coupons.find((r) => r.id === c.id)?.max_redemptions === 1 && couponUses.get(c.id)));
      if (usable.length > 0) {
        const coupon = rng.pick(usable);
        couponId = coupon.id;
        couponUses.set(coupon.id, (couponUses.get(coupon.id) ?? 0) + 1);
        firstAmount = coupon.offer.discountType === 'percent'
          ? Math.round(fullPrice * (100 - coupon.offer.discountValue) / 100)
          : Math.max(0, fullPrice - coupon.offer.discountValue);
        rows.coupon_redemptions.push({ id: ids.uuid(), site_id: site.id, coupon_id: coupon.id, subscriber_id: subscriberId, subscription_id: id, redeemed_at: iso(start) });
      }
    }
    let status = 'active';
    let cancelledAt: number | null = null;
    let endedAt: number | null = null;
    let cancelAtPeriodEnd = false;
    let periodStart = trialEnds ?? start;
    let periodEnd = trialEnds ?? addMonths(start, PERIOD_MONTHS[plan.billingPeriod]);
    if (trialEnds !== null) {
      if (trialEnds > now) {
        status = 'trialing';
        periodStart = start;
        if (rng.chance(0.15)) { cancelAtPeriodEnd = true; cancelledAt = start + Math.floor(rng.next() * (now - start)); }
      } else if (!rng.chance(0.58)) {
        if (rng.chance(0.7)) {
          status = 'cancelled';
          cancelledAt = start + Math.floor(rng.next() * (trialEnds - start));
          endedAt = trialEnds;
        } else {
          charge(sub, firstAmount, trialEnds, 'failed');
          if (trialEnds + 7 * DAY_MS > now) status = 'past_due';
          else { status = 'expired'; endedAt = trialEnds + 7 * DAY_MS; }
        }
        periodStart = start;
        periodEnd = trialEnds;
      }
    }
    if (status === 'active') {
      // Charged periods from the first charge until churn or now.
      const months = PERIOD_MONTHS[plan.billingPeriod];
      let chargeAt = trialEnds ?? start;
      let renewals = 0;
      while (chargeAt <= now) {
        const nextEnd = addMonths(chargeAt, months);
        const amount = renewals === 0 ? firstAmount : fullPrice;
        const hazard = plan.billingPeriod === 'month' ? (renewals < 3 ? 0.08 : 0.045) : plan.billingPeriod === 'quarter' ? 0.1 : 0.3;
        if (renewals > 0 && rng.chance(hazard)) {
          if (rng.chance(0.7)) {
            status = 'cancelled';
            cancelAtPeriodEnd = true;
            cancelledAt = periodStart + Math.floor(rng.next() * (chargeAt - periodStart));
            endedAt = chargeAt;
            break;
          }
          charge(sub, amount, chargeAt, 'failed');
          if (rng.chance(0.5) && chargeAt + 6 * DAY_MS <= now) {
            charge(sub, amount, chargeAt + rng.int(1, 6) * DAY_MS, 'succeeded');
          } else if (chargeAt + 7 * DAY_MS > now) {
            status = 'past_due';
            periodStart = chargeAt;
            periodEnd = nextEnd;
            break;
          } else {
            status = 'expired';
            endedAt = chargeAt + 7 * DAY_MS;
            break;
          }
        } else {
          charge(sub, amount, chargeAt, rng.chance(0.985) ? 'succeeded' : 'refunded');
        }
        periodStart = chargeAt;
        periodEnd = nextEnd;
        renewals++;
        chargeAt = nextEnd;
      }
      if (status === 'active' && rng.chance(0.04)) {
        cancelAtPeriodEnd = true;
        cancelledAt = periodStart + Math.floor(rng.next() * (now - periodStart));
      }
    }
    intervals.push([start, endedAt ?? Number.POSITIVE_INFINITY]);
    plans.push([start, planId]);
    rows.subscriptions.push({
      id, site_id: site.id, network_id: networkId, subscriber_id: subscriberId, plan_id: planId, status, started_at: iso(start),
      trial_ends_at: trialEnds === null ? null : iso(trialEnds), current_period_start: iso(periodStart), current_period_end: iso(periodEnd),
      cancel_at_period_end: cancelAtPeriodEnd, cancelled_at: cancelledAt === null ? null : iso(cancelledAt), ended_at: endedAt === null ? null : iso(endedAt),
      amount: fullPrice, currency, coupon_id: couponId, version: 1, updated_at: iso(Math.min(now, Math.max(cancelledAt ?? 0, endedAt ?? 0, periodStart))),
    });
    return endedAt;
  };

  for (let i = 0; i < nSubscribers; i++) {
    const id = ids.uuid();
    const createdAt = pickSignupDay() + Math.floor(rng.next() * DAY_MS);
    if (createdAt > now) continue;
    const country = rng.weighted(profile.countries);
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const local = foldTitle(`${first}.${last}`).replace(/[^a-z.]/g, '');
    let email = `${local}@${rng.pick(EMAIL_DOMAINS)}`;
    for (let n = rng.int(2, 99); takenEmails.has(email); n += rng.int(1, 50)) email = `${local}${n}@${email.split('@')[1]}`;
    takenEmails.add(email);
    const phone = country === 'GB' ? `+447700900${String(rng.int(0, 999)).padStart(3, '0')}` : country === 'US' || country === 'CA' ? `+1${rng.int(201, 989)}55501${String(rng.int(0, 99)).padStart(2, '0')}` : rng.chance(0.5) ? '' : `+1${rng.int(201, 989)}55501${String(rng.int(0, 99)).padStart(2, '0')}`;
    const networkId = rng.weighted(signupNetworks.length > 0 ? signupNetworks : [[defaultNetwork.id, 1] as const]);
    // Devices.
    const deviceCount = rng.weighted([[1, 55], [2, 30], [3, 15]] as const);
    const deviceIds: string[] = [];
    const deviceTypes: string[] = [];
    for (let d = 0; d < deviceCount; d++) {
      const [type] = rng.weighted(DEVICES.map((dv) => [dv, dv[1]] as const));
      const deviceId = ids.uuid();
      deviceIds.push(deviceId);
      deviceTypes.push(type);
      // The device's system and player (its sessions report them), and its app as of the clock.
      const setup = playerSetupOf(type, dimsRandom);
      setups.set(deviceId, setup);
      const added = createdAt + Math.floor(rng.next() * Math.max(1, now - createdAt) * (d === 0 ? 0.01 : 0.6));
      const drawnName = type === 'ios' || type === 'android' ? `${first}'s ${rng.pick(DEVICE_NAMES[type]!)}` : rng.pick(DEVICE_NAMES[type]!);
      rows.subscriber_devices.push({
        id: deviceId, site_id: site.id, subscriber_id: id, device_type: type, os: deviceSystemLabel(setup), app_version: appVersionAt(type, now, now, dimsRandom),
        name: type === 'web' ? webDeviceName(setup) : drawnName,
        created_at: iso(added), last_seen_at: iso(added), signed_out_at: rng.chance(0.03) ? iso(added + Math.floor(rng.next() * Math.max(1, now - added))) : null,
      });
    }
    // Subscriptions (and come-backs after churn).
    const intervals: [number, number][] = [];
    const plans: [number, string][] = [];
    const r = rng.next();
    if (r < profile.trialShare + profile.paidShare) {
      let ended = subscribe(id, networkId, country, createdAt + rng.int(1, 30) * 60_000, r < profile.trialShare, intervals, plans);
      while (ended !== null && rng.chance(0.12)) {
        const back = ended + rng.int(20, 120) * DAY_MS;
        if (back > now) break;
        ended = subscribe(id, networkId, country, back, false, intervals, plans);
      }
    }
    const everPaid = intervals.length > 0;
    const closed = everPaid && intervals.every(([, to]) => to < now) && rng.chance(0.15);
    const status = closed ? 'closed' : rng.chance(0.005) ? 'suspended' : 'active';
    const updated = closed ? Math.max(...intervals.map(([, to]) => to)) : createdAt;
    rows.subscribers.push({
      id, site_id: site.id, network_id: networkId, email, name: `${first} ${last}`, phone, country, status, version: 1,
      created_at: iso(createdAt), updated_at: iso(Math.min(now, updated)),
    });
    if (rng.chance(0.03)) {
      rows.support_notes.push({
        id: ids.uuid(), site_id: site.id, subscriber_id: id, author_user_id: site.supportAuthorId ?? null, body: rng.pick(SUPPORT_NOTES),
        created_at: iso(createdAt + Math.floor(rng.next() * Math.max(1, now - createdAt))),
      });
    }
    const region = regionOf(country, dimsRandom);
    const entitled = profile.entitlementRequired ? intervals : [[createdAt, closed ? updated : Number.POSITIVE_INFINITY] as [number, number]];
    for (const [from, to] of entitled) {
      watchables.push({ plans, weight: rng.logNormal(1, 0.9), from, to, country, region, devices: deviceIds, deviceTypes, networkId, subscriberId: id });
    }
  }

  /* Playback -------------------------------------------------------------------------------- */
  const lastSeen = new Map<string, number>();
  const cdnEntries = CDNS.map((c) => [c, c[1]] as const);
  const hourEntries = HOUR_WEIGHTS.map((w, h) => [h, w] as const);
  for (let d = playbackDays - 1; d >= 0; d--) {
    const dayStart = today - d * DAY_MS;
    const dow = new Date(dayStart).getUTCDay();
    const growth = 0.85 + 0.15 * ((playbackDays - d) / playbackDays);
    const target = Math.round(profile.sessionsPerDay * scale * (WEEKDAY_FACTOR[dow] ?? 1) * growth * (0.9 + 0.2 * rng.next()));
    const noon = dayStart + 12 * HOUR_MS;
    const eligible = watchables.filter((w) => w.from <= noon && noon < w.to);
    if (eligible.length === 0) continue;
    const cum: number[] = [];
    eligible.reduce((acc, w, i) => (cum[i] = acc + w.weight), 0);
    const total = cum[cum.length - 1]!;
    const items = playable.filter((p) => p.publishedAt <= noon);
    if (items.length === 0) continue;
    const itemCum: number[] = [];
    items.reduce((acc, p, i) => (itemCum[i] = acc + 1 / (p.rank + 1) ** 1.05), 0);
    const itemTotal = itemCum[itemCum.length - 1]!;
    const search = (arr: number[], r: number) => {
      let lo = 0;
      let hi = arr.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((arr[mid] ?? 0) < r) lo = mid + 1; else hi = mid;
      }
      return lo;
    };
    for (let s = 0; s < target; s++) {
      const viewer = eligible[search(cum, rng.next() * total)]!;
      const item = items[search(itemCum, rng.next() * itemTotal)]!;
      const localHour = rng.weighted(hourEntries);
      const start = dayStart + ((localHour - (UTC_OFFSET[viewer.country] ?? 0) + 24) % 24) * HOUR_MS + rng.int(0, 3599) * 1000;
      if (start > now || start < viewer.from || start >= viewer.to) continue;
      const deviceIndex = rng.int(0, viewer.devices.length - 1);
      const deviceType = viewer.deviceTypes[deviceIndex]!;
      const device = DEVICES.find((dv) => dv[0] === deviceType)!;
      const isp = rng.weighted((ISPS[viewer.country] ?? ISPS.US!).map((x) => [x, x[1]] as const));
      const [cdn, , cdnStartup, cdnRebuffer, cdnError] = rng.weighted(cdnEntries);
      const startupMs = Math.round(Math.min(30_000, rng.logNormal(cdnStartup * isp[2] * device[2], 0.45)));
      const failed = rng.chance(0.012 * Math.sqrt(isp[3]) * cdnError * (startupMs > 8000 ? 3 : 1));
      const share = failed ? rng.next() * 0.05 : startupMs > 8000 ? rng.next() * 0.2 : rng.next() ** 1.6;
      let watched = Math.round(item.live ? rng.int(20, 150) * 60 * (0.3 + 0.7 * rng.next()) : item.duration * (0.05 + 0.95 * share));
      watched = Math.max(5, Math.min(watched, item.duration));
      const rebufferCount = rng.poisson((watched / 60) * 0.02 * isp[3] * cdnRebuffer);
      const rebufferSeconds = Math.round(Array.from({ length: Math.min(rebufferCount, 50) }, () => rng.logNormal(2, 0.6)).reduce((a, b) => a + b, 0));
      const bitrate = Math.round(device[3] * isp[4] * (0.8 + 0.3 * rng.next()) / (1 + rebufferCount * 0.05));
      const endMs = start + (startupMs + (watched + rebufferSeconds) * 1000);
      const open = endMs > now;
      const deviceId = viewer.devices[deviceIndex]!;
      const setup = setups.get(deviceId)!;
      const streamType = item.live ? 'live' : 'vod';
      const appVersion = appVersionAt(deviceType, start, now, dimsRandom, { failed, rebuffers: rebufferCount });
      // The bad release's and the CDN's bad evenings' own errors (drawn from `dims`, only for sessions that ended).
      const trouble = failed || open ? null : troubleOf({ deviceType, appVersion, cdn, atMs: start }, now, dimsRandom);
      lastSeen.set(deviceId, Math.max(lastSeen.get(deviceId) ?? 0, Math.min(now, endMs)));
      rows.playback_sessions.push({
        id: ids.uuid(), site_id: site.id, network_id: item.networkId ?? viewer.networkId, subscriber_id: viewer.subscriberId, content_id: item.id,
        device_id: deviceId, device_type: deviceType, country: viewer.country, isp: isp[0], cdn, started_at: iso(start),
        last_event_at: iso(Math.min(now, endMs)), ended_at: open ? null : iso(endMs),
        watched_seconds: open ? Math.max(0, Math.floor((now - start - startupMs) / 1000)) : watched, startup_ms: startupMs,
        rebuffer_count: open ? 0 : rebufferCount, rebuffer_seconds: open ? 0 : rebufferSeconds, avg_bitrate_kbps: bitrate,
        error_code: failed ? rng.weighted(ERROR_CODES) : trouble,
        plan_id: viewer.plans.findLast(([from]) => from <= start)?.[1] ?? null,
        series_id: item.seriesId,
        os: setup.os, os_version: setup.osVersion, browser: setup.browser, player_name: setup.playerName, player_version: setup.playerVersion,
        app_version: appVersion,
        region: viewer.region, stream_type: streamType, source_host: sourceHostOf(cdn, streamType, site.internalName),
      });
    }
  }
  for (const device of rows.subscriber_devices) {
    const seen = lastSeen.get(device.id as string);
    if (seen !== undefined && seen > Date.parse(device.last_seen_at as string)) device.last_seen_at = iso(seen);
  }
  return rows;
}

/* ------------------------------------------------------------------------------------------- */
/* Writing                                                                                      */
/* ------------------------------------------------------------------------------------------- */

/** Rows per INSERT statement: one JSON parameter per chunk keeps the statement count low. */
const CHUNK = 5000;

/**
 * Inserts rows with one statement per chunk: the rows travel as one JSON parameter and
 * json_populate_recordset types them by the table's own row type (works on PGlite and PostgreSQL).
 */
async function insertJsonRows(db: Pick<Db, 'execute'>, table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const list = sql.raw(columns.map((c) => `"${c}"`).join(', '));
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = JSON.stringify(rows.slice(i, i + CHUNK));
    await db.execute(sql`INSERT INTO ${sql.raw(`"${table}"`)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${sql.raw(`"${table}"`)}, ${chunk}::json)`);
  }
}

type WorldCounts = Record<keyof WorldRows, number>;

/** The rows of a raw query: both drivers answer `{ rows }` (the shared Db type leaves it unknown). */
export async function queryRows<T>(db: Pick<Db, 'execute'>, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function siteContext(db: Db, internalName: string): Promise<SiteContext | null> {
  const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.siteInternalName, internalName)).limit(1);
  if (!site) return null;
  const nets = await db.select({ id: networks.id, identifier: networks.identifier, isDefault: networks.isDefault, isActive: networks.isActive })
    .from(networks).where(eq(networks.siteId, site.id)).orderBy(networks.identifier);
  const staff = await db.select({ id: staffUsers.id, roles: staffUsers.roles }).from(staffUsers).where(eq(staffUsers.siteId, site.id)).orderBy(staffUsers.username);
  const author = staff.find((s) => s.roles['Customer Support'] === 'write') ?? null;
  const taken = await queryRows<{ email: string }>(db, sql`SELECT lower(email) AS email FROM subscribers WHERE site_id = ${site.id}`);
  const codes = await queryRows<{ code: string }>(db, sql`SELECT lower(code) AS code FROM coupons WHERE site_id = ${site.id}`);
  return {
    id: site.id, internalName, networks: nets, supportAuthorId: author?.id ?? null,
    takenEmails: new Set(taken.map((r) => r.email)), takenCodes: new Set(codes.map((r) => r.code)),
  };
}

/** A world with this many sessions or more (a site's) gets its day partitions before it is written (ensureWorldDays) and is analyzed after (seedWorld). */
const DAYS_FIRST_FROM_SESSIONS = 100_000;

/** The advisory lock every creation or drop of a raw-history day partition takes (raw_history_ensure_day, migration 0017). */
const PARTITIONS_LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('raw-history-partitions'))`;

/**
 * Issue 41: gives every UTC day the world's sessions start on, and today and the next two days (the
 * days the ingestion maintenance creates), their raw-history partitions before the world's transaction,
 * one day per statement as the consumers do (server/db/raw-history.ts ensureRawHistoryDays). Without
 * it a seed longer than a maintenance tick deadlocked on PostgreSQL (scale 30 and up): the seed held
 * its inserts' locks on subscribers and content_items while the maintenance, attaching a day
 * partition, held the default partition (ACCESS EXCLUSIVE) and waited for SHARE ROW EXCLUSIVE on those
 * tables (the foreign keys of the attached day), and the seed's next insert into playback_sessions went
 * to that default partition (writeWorld's lock alone prevents that cycle). The rows also land in their
 * days, not in the default partition for the maintenance to move afterwards: worth it for a large world
 * only (creating 93 days took 5 s more on PGlite, more than a whole scale-1 seed, whose few rows the
 * maintenance moves later).
 */
async function ensureWorldDays(db: Pick<Db, 'execute'>, world: WorldRows, clock: Date): Promise<void> {
  if (world.playback_sessions.length < DAYS_FIRST_FROM_SESSIONS) return;
  const today = Math.floor(clock.getTime() / DAY_MS) * DAY_MS;
  const days = new Set([0, 1, 2].map((n) => new Date(today + n * DAY_MS).toISOString().slice(0, 10)));
  for (const row of world.playback_sessions) days.add(String(row.started_at).slice(0, 10));
  for (const day of [...days].sort()) await db.execute(sql`SELECT raw_history_ensure_day(${day}::date)`);
}

/**
 * Writes a generated world in one transaction (a failed seed leaves nothing behind). The transaction
 * first takes the partitions' lock, so no day partition is attached or dropped while it writes (an
 * attach waits for it before taking any table lock: no lock cycle, see ensureWorldDays).
 */
export async function writeWorld(db: Db, world: WorldRows): Promise<WorldCounts> {
  await db.transaction(async (tx) => {
    await tx.execute(PARTITIONS_LOCK);
    for (const table of WORLD_TABLES) await insertJsonRows(tx, table, world[table]);
  });
  return Object.fromEntries(WORLD_TABLES.map((t) => [t, world[t].length])) as WorldCounts;
}

/**
 * The ingestion key of a site. Outside production it is derived from the site name
 * (`ik_demo_<site>`, documented in the README) so the simulator and a developer's player can use
 * it without reading logs; in production a random key is generated and only its hash stored.
 */
export function demoIngestionKey(siteInternalName: string): string {
  return `ik_demo_${siteInternalName}`;
}

export function hashIngestionKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

interface SeedWorldResult {
  sites: { site: string; counts: WorldCounts; ingestionKey: string | null }[];
}

/** The clock a world is built around: the given moment (default now) to the minute. */
export function worldClock(now?: Date): Date {
  return new Date(Math.floor((now ?? new Date()).getTime() / 60_000) * 60_000);
}

/**
 * Seeds the world of every demo site that exists in the database, then rebuilds their rollups
 * as of the world's clock, so a subscription the seed left trialing is counted trialing.
 * Adding to a site that already has a world (npm run seed) reuses nothing but the site and its
 * networks: emails and coupon codes stay unique, ids never collide (the seed includes the run).
 * With `artworkStorage` the items' artwork is stored there (server/demo/seed-artwork.ts).
 */
export async function seedWorld(db: Db, options: WorldOptions & { production?: boolean; randomKey?: () => string; artworkStorage?: UploadStorage } = {}): Promise<SeedWorldResult> {
  const result: SeedWorldResult = { sites: [] };
  const clock = worldClock(options.now);
  for (const internalName of Object.values(DEMO_SITES)) {
    const context = await siteContext(db, internalName);
    if (!context) continue;
    const world = generateSiteWorld(context, { ...options, now: clock });
    // Issue 38: with the upload store, every item gets its drawn poster as real artwork.
    const artwork = options.artworkStorage ? await addSeedArtwork(world.content_items, options.artworkStorage) : [];
    await ensureWorldDays(db, world, clock);
    const counts = await writeWorld(db, world);
    await recordSeededArtwork(db, artwork);
    let ingestionKey: string | null = null;
    const [existing] = await db.select({ id: ingestionKeys.id }).from(ingestionKeys).where(eq(ingestionKeys.siteId, context.id)).limit(1);
    if (!existing) {
      ingestionKey = options.production && options.randomKey ? options.randomKey() : demoIngestionKey(internalName);
      await db.insert(ingestionKeys).values({ siteId: context.id, keyHash: hashIngestionKey(ingestionKey), label: 'Demo players' });
    }
    await rebuildRollups(db, { siteId: context.id, asOf: clock });
    result.sites.push({ site: internalName, counts, ingestionKey });
  }
  // Issue 41: the planner's statistics of what was just written. Without them (autovacuum analyzes
  // later, or not at all while it is busy elsewhere) a fresh day partition is estimated at one row
  // and the reports read it through the index row by row, and the cohort reads misjudge their joins:
  // at scale 100 on PostgreSQL both took two to three times as long until ANALYZE. A small world
  // is read well enough without (and its ANALYZE costs half a second on PGlite, a tenth of its seed).
  const sessions = result.sites.reduce((sum, s) => sum + s.counts.playback_sessions, 0);
  if (sessions >= DAYS_FIRST_FROM_SESSIONS) await db.execute(sql.raw(`ANALYZE ${[...WORLD_TABLES, ...ROLLUP_TABLES].map((t) => `"${t}"`).join(', ')}`));
  return result;
}

/** The rollup tables seedWorld fills (server/db/rollups.ts). */
const ROLLUP_TABLES = ['daily_playback_rollups', 'daily_subscription_rollups', 'daily_payment_rollups', 'daily_audience_rollups'];

/** The world `seedSmallWorld` writes: viewlift-demo about 120 subscribers and 200 sessions, northwind-tv 60 and 80. */
export const SMALL_WORLD: Required<Pick<WorldOptions, 'seed' | 'scale' | 'playbackDays' | 'signupDays'>> = {
  seed: 7, scale: 0.06, playbackDays: 30, signupDays: 120,
};

/**
 * A small deterministic world for server tests of other areas: the demo sites get a few dozen
 * content items, 60–120 subscribers with subscriptions and payments, 30 days of playback and their
 * rollups, plus the demo ingestion keys. Idempotent (a site that already has its demo ingestion key
 * has its world), and safe when test files run in parallel on one PostgreSQL database (advisory lock).
 */
export async function seedSmallWorld(db: Db, options: { now?: Date } = {}): Promise<void> {
  const clock = worldClock(options.now);
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7342912)`);
    const txDb = tx as unknown as Db;
    for (const internalName of Object.values(DEMO_SITES)) {
      const context = await siteContext(txDb, internalName);
      if (!context) continue;
      // The world's own mark is its demo ingestion key, written with it: a test file that added a
      // subscriber of its own to the shared database first must not leave the site without a world.
      const keyHash = hashIngestionKey(demoIngestionKey(internalName));
      const [existing] = await tx.select({ id: ingestionKeys.id }).from(ingestionKeys)
        .where(and(eq(ingestionKeys.siteId, context.id), eq(ingestionKeys.keyHash, keyHash))).limit(1);
      if (existing) continue;
      const world = generateSiteWorld(context, { ...SMALL_WORLD, now: clock });
      for (const table of WORLD_TABLES) await insertJsonRows(tx, table, world[table]);
      await tx.insert(ingestionKeys).values({ siteId: context.id, keyHash, label: 'Demo players' });
    }
  });
  const siteRows = await db.select({ id: sites.id }).from(sites).where(inArray(sites.siteInternalName, Object.values(DEMO_SITES)));
  for (const site of siteRows) await rebuildRollups(db, { siteId: site.id, asOf: clock });
}

