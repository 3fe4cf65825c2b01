/**
 * Issue 41: a generated world of playback sessions with every QoE dimension (values from small pools,
 * "not reported" included, quotes and separators inside values), and the second computation of the
 * QoE figures written in plain TypeScript straight from the rows (never from the engine's SQL or
 * common/playback-measures.ts). Shared by server/qoe-reconciliation.test.ts and server/qoe-routes.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from '../../common/constants';
import { QOE_DIMENSIONS, type QoeDimension, type QoeFilter } from '../../common/qoe';
import { rebuildRollups } from '../db/rollups';
import { contentItems, networks, playbackSessions, plans, sites, subscribers } from '../db/schema';
import { createBareSite, type TestApp } from './kit';
import { bucketCounts, bucketQuantile, div, r } from './recompute';

export { r };

export const DAY_MS = 86_400_000;
/** The generated site's zone: its report days are New York's. */
export const QOE_ZONE = 'America/New_York';
/** The clock of the generated worlds (a whole minute). */
export const NOW = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const ZONE = QOE_ZONE;

export const sum = <T,>(list: T[], f: (x: T) => number) => list.reduce((a, x) => a + f(x), 0);

// ---------- the generated world ----------

/** One stored session as this file knows it: every dimension's value as text ('' = not reported). */
export interface Row {
  id: string;
  subscriberId: string;
  startedAt: Date;
  lastEventAt: Date;
  dims: Record<QoeDimension, string>;
  watched: number;
  startup: number;
  rebuffer: number;
  rebufferCount: number;
  bitrate: number;
  error: boolean;
}

export interface World {
  siteId: string;
  site: string;
  rows: Row[];
  /** Every value each dimension takes in the world (the filters pick from these and a value no session has). */
  values: Record<QoeDimension, string[]>;
  netIdentifiers: Map<string, string>;
  /** The names of the id-valued dimensions' values (titles, plans, networks) by id. */
  names: Map<string, string>;
}

const pick = <T,>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

/** A seeded generator (mulberry32): the world is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function insertQoeWorld(t: TestApp, options: { sessions: number; days: number; seed: number }): Promise<World> {
  const rand = seeded(options.seed);
  const site = `qoe-${randomUUID().slice(0, 8)}`;
  const siteId = await createBareSite(t.db, site);
  await t.db.update(sites).set({ defaultTimezone: ZONE }).where(eq(sites.id, siteId));
  const nets = await t.db.insert(networks).values([
    { siteId, identifier: `${site}-main`, name: 'Main', image: '/logo.svg', isActive: true, isDefault: true },
    { siteId, identifier: `${site}-kids`, name: 'Kids', image: '/logo.svg', isActive: true, isDefault: false },
  ]).returning();
  const planRows = await t.db.insert(plans).values([
    { siteId, name: 'Monthly', prices: [{ currency: 'USD', amount: 999 }], billingPeriod: 'month', status: 'active' },
    { siteId, name: 'Annual', prices: [{ currency: 'USD', amount: 9999 }], billingPeriod: 'year', status: 'active' },
  ]).returning();
  const titles = await t.db.insert(contentItems).values(['Harbour Lights', 'Night Train', 'Salt Flats'].map((title) => ({
    siteId, kind: 'video', title, titleSearch: title.toLowerCase(), genre: 'Drama', durationSeconds: 1800, status: 'published',
  }))).returning();
  const seriesIds = [randomUUID(), randomUUID()];
  const people = Array.from({ length: 12 }, (_, i) => ({ id: randomUUID(), net: i % 2 }));
  await t.db.insert(subscribers).values(people.map((p, i) => ({
    id: p.id, siteId, networkId: nets[p.net]!.id, email: `v${i}@${site}.test`, name: `Viewer ${i}`, country: 'US', createdAt: new Date(NOW.getTime() - 90 * DAY_MS),
  })));
  const pools: Record<Exclude<QoeDimension, 'title' | 'series' | 'plan' | 'network'>, readonly string[]> = {
    device: ['web', 'ios', 'android', 'roku'],
    os: ['Windows', 'iOS', 'Android', ''],
    osVersion: ['10', '17.4', '14', ''],
    browser: ['Chrome', 'Safari', 'Firefox, ESR', ''],
    player: ['CMS Player', 'CMS Tools preview', ''],
    playerVersion: ['3.1.0', '3.2.0', ''],
    appVersion: ['5.0', '5.1', ''],
    country: ['US', 'GB', 'DE'],
    region: ['CA', 'NY', 'ENG', ''],
    isp: ['Comcast', 'Slow Net', "O'Neil; Fiber", ''],
    cdn: ['akamai', 'fastly', 'cloudfront'],
    streamType: ['vod', 'live'],
    sourceHost: ['cdn1.example.test', 'cdn2.example.test', ''],
  };
  const rows: Row[] = [];
  for (let i = 0; i < options.sessions; i++) {
    const person = pick(rand, people);
    const startedAt = new Date(NOW.getTime() - Math.floor(rand() * options.days * DAY_MS) - 60_000);
    const content = Math.floor(rand() * titles.length);
    const dims = Object.fromEntries(Object.entries(pools).map(([k, pool]) => [k, pick(rand, pool)])) as Record<QoeDimension, string>;
    dims.title = titles[content]!.id;
    dims.series = content === 2 ? '' : seriesIds[content]!;
    const plan = Math.floor(rand() * 3) - 1;
    dims.plan = plan < 0 ? '' : planRows[plan]!.id;
    dims.network = nets[person.net]!.id;
    const watched = Math.floor(rand() * 3000);
    const rebuffer = rand() < 0.5 ? 0 : Math.floor(rand() * 120);
    rows.push({
      id: randomUUID(), subscriberId: person.id, startedAt, lastEventAt: new Date(startedAt.getTime() + Math.floor(rand() * 3 * 3_600_000)),
      dims, watched, startup: Math.floor(rand() * 10_000), rebuffer, rebufferCount: rebuffer > 0 ? 1 + Math.floor(rand() * 4) : 0,
      bitrate: rand() < 0.1 ? 0 : 800 + Math.floor(rand() * 5000), error: rand() < 0.15,
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await t.db.insert(playbackSessions).values(rows.slice(i, i + 500).map((p) => ({
      id: p.id, siteId, networkId: p.dims.network, subscriberId: p.subscriberId, contentId: p.dims.title,
      deviceType: p.dims.device, country: p.dims.country, isp: p.dims.isp, cdn: p.dims.cdn, startedAt: p.startedAt,
      lastEventAt: p.lastEventAt, endedAt: p.lastEventAt, watchedSeconds: p.watched, startupMs: p.startup, rebufferCount: p.rebufferCount,
      rebufferSeconds: p.rebuffer, avgBitrateKbps: p.bitrate, errorCode: p.error ? 'E_NET' : null, planId: p.dims.plan || null,
      os: p.dims.os, osVersion: p.dims.osVersion, browser: p.dims.browser, playerName: p.dims.player, playerVersion: p.dims.playerVersion,
      appVersion: p.dims.appVersion, region: p.dims.region, streamType: p.dims.streamType, sourceHost: p.dims.sourceHost,
      seriesId: p.dims.series || null,
    })));
  }
  await rebuildRollups(t.db, { siteId, asOf: NOW });
  const values = Object.fromEntries(QOE_DIMENSIONS.map((d) => [d.key, [...new Set(rows.map((row) => row.dims[d.key]))].sort()])) as Record<QoeDimension, string[]>;
  const names = new Map([...titles.map((c) => [c.id, c.title] as const), ...planRows.map((p) => [p.id, p.name] as const), ...nets.map((n) => [n.id, n.name] as const)]);
  return { siteId, site, rows, values, netIdentifiers: new Map(nets.map((n) => [n.id, n.identifier])), names };
}

// ---------- the second computation ----------

export function matches(row: Row, filters: readonly QoeFilter[]): boolean {
  return filters.every((f) => f.values.includes(row.dims[f.dimension]) !== f.exclude);
}

/** The QoE metrics of a set of rows, as common/figures.ts defines them. */
export function figuresOf(rows: Row[]) {
  const n = rows.length;
  const watched = sum(rows, (p) => p.watched);
  const rebuffer = sum(rows, (p) => p.rebuffer);
  const startup = bucketCounts(rows.map((p) => p.startup), STARTUP_MS_BUCKETS);
  const ratios = bucketCounts(rows.map((p) => (p.watched + p.rebuffer > 0 ? p.rebuffer / (p.watched + p.rebuffer) : 0)), REBUFFER_RATIO_BUCKETS);
  const q = (v: number | null) => (v === null ? null : v * 100);
  return {
    sessions: n,
    viewers: new Set(rows.map((p) => p.subscriberId)).size,
    watchHours: r(watched / 3600, 1),
    startupAvgMs: r(div(sum(rows, (p) => p.startup), n), 0),
    startupP50Ms: r(bucketQuantile(startup, STARTUP_MS_BUCKETS, 0.5), 0),
    startupP95Ms: r(bucketQuantile(startup, STARTUP_MS_BUCKETS, 0.95), 0),
    rebufferPct: r(q(div(rebuffer, watched + rebuffer)), 2),
    rebufferP50Pct: r(q(bucketQuantile(ratios, REBUFFER_RATIO_BUCKETS, 0.5)), 2),
    rebufferP95Pct: r(q(bucketQuantile(ratios, REBUFFER_RATIO_BUCKETS, 0.95)), 2),
    errorPct: r(q(div(rows.filter((p) => p.error).length, n)), 2),
    bitrateKbps: r(div(sum(rows, (p) => p.bitrate), n), 0),
  };
}
export const METRICS = ['sessions', 'viewers', 'watchHours', 'startupP50Ms', 'startupP95Ms', 'rebufferPct', 'rebufferP95Pct', 'errorPct', 'bitrateKbps'] as const;
export const only = (o: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, o[k] ?? null]));

/** Random filter sets over a world's values (plus values no session has, and "not reported"). */
export function filtersArb(world: World): fc.Arbitrary<QoeFilter[]> {
  const one = fc.constantFrom(...QOE_DIMENSIONS.map((d) => d.key)).chain((dimension) => fc.record({
    dimension: fc.constant(dimension),
    exclude: fc.boolean(),
    values: fc.uniqueArray(fc.constantFrom(...world.values[dimension], '', 'nobody-has-this'), { minLength: 1, maxLength: 3 }),
  }));
  return fc.uniqueArray(one, { maxLength: 3, selector: (f) => `${f.dimension}:${f.exclude}` });
}

