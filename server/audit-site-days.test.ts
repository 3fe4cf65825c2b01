/**
 * Issue 38 (day38 gap A): the Admin audit log's and the Admin staff page's From/To count the SITE's days
 * (the page states the site's zone), decided in the domain (server/domain/audit-log.ts siteDayBounds;
 * common/site-day.ts siteDaySpan), the repositories taking instants. A site in America/New_York: a row at
 * 02:00 UTC on 2 December is the site's 1 December (21:00). The calendar's ends clamp: no 500 at years
 * 1 and 9999 in zones either side of UTC. A database of its own: it moves the demo site's zone.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogEntry } from '../common/audit-actions';
import { API_PATHS } from '../common/constants';
import { AFTER_LAST_INSTANT_MS, FIRST_INSTANT_MS, siteDaySpan } from '../common/site-day';
import { DEMO_SITES } from './db/demo-accounts';
import { siteDayBounds } from './domain/audit-log';
import { auditEvents, sites } from './db/schema';
import { createTestApp, openIsolatedTestDb, type Session, type TestApp } from './test/kit';

const A = API_PATHS.admin;
const ZONE = 'America/New_York';

let own: Awaited<ReturnType<typeof openIsolatedTestDb>>;
let t: TestApp;
let admin: Session;
let tokyo: Session;
let siteId: string;
const marker = `site-days-${randomUUID()}`;

const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  own = await openIsolatedTestDb();
  t = await createTestApp({ demo: true, db: own.handle });
  siteId = (await t.siteByName(DEMO_SITES.viewlift)).id;
  await t.db.update(sites).set({ defaultTimezone: ZONE }).where(eq(sites.id, siteId));
  admin = await t.login('admin@demo.test');
  // A zone ahead of UTC at year 1 too (Tokyo's local mean time, +09:18:59), for the calendar's first day.
  await t.db.update(sites).set({ defaultTimezone: 'Asia/Tokyo' }).where(eq(sites.id, (await t.siteByName(DEMO_SITES.northwind)).id));
  tokyo = await t.login('admin@northwind.test');
  await t.db.insert(auditEvents).values([
    // The site's 1 December, 21:00 in New York.
    { at: new Date('2026-12-02T02:00:00.000Z'), action: 'logout', siteId, detail: { marker }, objectKind: 'marker', objectName: marker, objectId: `${marker}-late-on-the-1st` },
    // The site's 2 December, 00:00 exactly: its first instant.
    { at: new Date('2026-12-02T05:00:00.000Z'), action: 'logout', siteId, detail: { marker }, objectKind: 'marker', objectName: marker, objectId: `${marker}-midnight-of-the-2nd` },
  ]);
});
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

/** The marker rows the audit log lists for a date filter (Admin › Audit). */
async function auditLog(dates: string): Promise<string[]> {
  const res = await t.inject({ method: 'GET', url: `${A}/audit?action=logout&object=${marker}&pageSize=100&${dates}`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ items: AuditLogEntry[] }>().items.map((e) => e.object?.id ?? '').filter((id) => id.startsWith(marker)).sort();
}

describe('the site\'s days, not UTC\'s', () => {
  it('a row at 02:00 UTC on the 2nd is in "From 1st To 1st" for a site in New York, and not in "From 2nd"', async () => {
    expect(await auditLog('from=2026-12-01&to=2026-12-01')).toEqual([`${marker}-late-on-the-1st`]);
    expect(await auditLog('from=2026-12-02')).toEqual([`${marker}-midnight-of-the-2nd`]);
    expect(await auditLog('to=2026-12-01')).toEqual([`${marker}-late-on-the-1st`]);
    expect(await auditLog('from=2026-12-02&to=2026-12-02')).toEqual([`${marker}-midnight-of-the-2nd`]);
    expect(await auditLog('from=2026-12-01&to=2026-12-02')).toEqual([`${marker}-late-on-the-1st`, `${marker}-midnight-of-the-2nd`]);
    // The CSV export reads the same filter.
    const exported = await t.inject({ method: 'GET', url: `${A}/audit/export?action=logout&object=${marker}&from=2026-12-01&to=2026-12-01`, headers: admin.headers });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json<{ items: AuditLogEntry[] }>().items.map((e) => e.object?.id).filter((id) => id?.startsWith(marker))).toEqual([`${marker}-late-on-the-1st`]);
  });
});

describe('the calendar\'s ends clamp, never a 500', () => {
  it('From 0001-01-01 and To 9999-12-31 answer 200 on sites behind and ahead of UTC', async () => {
    for (const session of [admin, tokyo]) {
      for (const dates of ['from=0001-01-01', 'to=9999-12-31', 'from=0001-01-01&to=9999-12-31', 'from=9999-12-31', 'to=0001-01-01', 'from=0001-01-01&to=0001-01-01', 'from=9999-12-31&to=9999-12-31']) {
        for (const path of ['/audit', '/audit/export']) {
          const res = await t.inject({ method: 'GET', url: `${A}${path}?${dates}`, headers: session.headers });
          expect(res.statusCode, `${path}?${dates}: ${res.body}`).toBe(200);
        }
      }
    }
    // Every row of the New York site is inside the whole calendar; none is on the calendar's last or first day.
    expect(await auditLog('from=0001-01-01&to=9999-12-31')).toEqual([`${marker}-late-on-the-1st`, `${marker}-midnight-of-the-2nd`]);
    expect(await auditLog('from=9999-12-31')).toEqual([]);
    expect(await auditLog('to=0001-01-01')).toEqual([]);
  });

  it('the domain\'s bounds: the site\'s midnights as instants, no bound past year 1 or 9999 (both the audit log and the staff page read them)', () => {
    expect(siteDayBounds({ from: '2026-12-01', to: '2026-12-01' }, ZONE)).toEqual({ from: new Date('2026-12-01T05:00:00.000Z'), toExclusive: new Date('2026-12-02T05:00:00.000Z') });
    // A day the clock moves forward on (8 March 2026 in New York) lasts 23 hours.
    expect(siteDayBounds({ from: '2026-03-08', to: '2026-03-08' }, ZONE)).toEqual({ from: new Date('2026-03-08T05:00:00.000Z'), toExclusive: new Date('2026-03-09T04:00:00.000Z') });
    // Santiago moves from 00:00 to 01:00 on 6 September 2026: the day starts at 01:00 (04:00 UTC), not in the day before.
    expect(siteDayBounds({ from: '2026-09-06' }, 'America/Santiago').from).toEqual(new Date('2026-09-06T04:00:00.000Z'));
    // Tokyo's 0001-01-01 starts in year 0 (UTC): no lower bound; New York's 9999-12-31 ends in year 10000: no upper bound.
    expect(iso(siteDaySpan('0001-01-01', 'Asia/Tokyo')!.start)).toBe('0000-12-31T14:41:01.000Z');
    expect(siteDayBounds({ from: '0001-01-01', to: '0001-01-01' }, 'Asia/Tokyo')).toEqual({ from: null, toExclusive: new Date('0001-01-01T14:41:01.000Z') });
    expect(siteDayBounds({ from: '9999-12-31', to: '9999-12-31' }, ZONE)).toEqual({ from: new Date('9999-12-31T05:00:00.000Z'), toExclusive: null });
    expect(siteDaySpan('9999-12-31', ZONE)!.end).toBeGreaterThan(AFTER_LAST_INSTANT_MS);
    expect(siteDaySpan('0001-01-01', 'UTC')!.start).toBe(FIRST_INSTANT_MS);
    // An unknown zone reads UTC; not a day of the calendar: null (the domain answers 400).
    expect(siteDayBounds({ from: '2026-12-01' }, 'Nowhere/Zone').from).toEqual(new Date('2026-12-01T00:00:00.000Z'));
    for (const day of ['0000-01-01', '2026-02-30', '2026-13-01', '10000-01-01', '2026-1-1']) expect(siteDaySpan(day, ZONE), day).toBeNull();
  });
});
