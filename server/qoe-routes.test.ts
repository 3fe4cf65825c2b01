/**
 * Issue 41 over HTTP: the QoS report with a filter set `f` and a breakdown by any dimension, the
 * values picker, Views and one view, each recomputed here from the generated rows
 * (server/test/qoe-world.ts) for random filter sets; the unfiltered answers (rollups) equal the same
 * answers counted from raw sessions; Views lists exactly the sessions a figure counts; permissions,
 * another site's view and bad input. PGlite by default, PostgreSQL under scripts/with-fresh-postgres.mjs.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QOE_DIMENSIONS, QOE_MESSAGES, QOE_NOT_REPORTED, QOE_VALUES_PATH, QOE_VIEWS_PAGE_SIZE, QOE_VIEWS_PATH, formatQoeFilters,
  type QoeFilter, type QoeValuesAnswer, type QoeViewAnswer, type QoeViewsAnswer,
} from '../common/qoe';
import { REPORTS_PATH, type ReportAnswer } from '../common/reports';
import { siteDayOf } from '../common/site-day';
import { playerHeartbeats } from './db/schema';
import { createTestApp, type Session, type TestApp } from './test/kit';
import { DAY_MS, NOW, QOE_ZONE, figuresOf, filtersArb, insertQoeWorld, matches, type Row, type World } from './test/qoe-world';

const RUNS = Number(process.env.RECONCILIATION_RUNS ?? 15);
const SEED = process.env.RECONCILIATION_SEED === 'random' ? undefined : Number(process.env.RECONCILIATION_SEED ?? 41);
const QOS = ['sessions', 'startupAvgMs', 'startupP50Ms', 'startupP95Ms', 'rebufferPct', 'rebufferP50Pct', 'rebufferP95Pct', 'errorPct', 'bitrateKbps'] as const;

let t: TestApp;
let world: World;
let other: World;
let analyst: Session;
let contentOnly: Session;

const TO = siteDayOf(NOW, QOE_ZONE);
const dayShift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const FROM = dayShift(TO, -6);
const RANGE = `from=${FROM}&to=${TO}`;
const inRange = (p: Row, from = FROM, to = TO) => { const d = siteDayOf(p.startedAt, QOE_ZONE); return d >= from && d <= to; };
const pickQos = (o: Record<string, unknown>) => Object.fromEntries(QOS.map((k) => [k, o[k] ?? null]));

async function get<T>(session: Session, url: string): Promise<{ status: number; body: T }> {
  const res = await t.get(url, session.headers);
  return { status: res.statusCode, body: res.json<T>() };
}

beforeAll(async () => {
  t = await createTestApp();
  world = await insertQoeWorld(t, { sessions: 300, days: 9, seed: 7 });
  other = await insertQoeWorld(t, { sessions: 20, days: 3, seed: 8 });
  analyst = await t.login((await t.createUser({ site: world.site, roles: { 'Dashboard 360': 'read' }, prefix: 'qoe' })).username);
  contentOnly = await t.login((await t.createUser({ site: world.site, roles: { Content: 'write' }, prefix: 'qoe' })).username);
}, 180_000);
afterAll(async () => { await t.close(); });

describe('qos with f= and by= (issue 41)', () => {
  it('filtered totals, periods and any breakdown equal the figures of the rows the filters keep', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), fc.constantFrom(...QOE_DIMENSIONS.map((d) => d.key)), async (filters, by) => {
      const f = encodeURIComponent(formatQoeFilters(filters));
      const rows = world.rows.filter((p) => inRange(p) && matches(p, filters));
      const byPeriod = await get<ReportAnswer>(analyst, `${REPORTS_PATH}/qos?${RANGE}&f=${f}`);
      expect(byPeriod.status).toBe(200);
      expect(pickQos(byPeriod.body.totals)).toEqual(pickQos(figuresOf(rows)));
      if (rows.length > 0) {
        for (const period of byPeriod.body.rows) {
          expect(pickQos(period)).toEqual(pickQos(figuresOf(rows.filter((p) => siteDayOf(p.startedAt, QOE_ZONE) === period.period))));
        }
      }
      const broken = await get<ReportAnswer>(analyst, `${REPORTS_PATH}/qos?${RANGE}&f=${f}&by=${by}`);
      expect(broken.status).toBe(200);
      expect(pickQos(broken.body.totals)).toEqual(pickQos(figuresOf(rows)));
      const values = [...new Set(rows.map((p) => p.dims[by]))];
      expect(broken.body.rows.map((r) => r.value).sort()).toEqual(values.sort());
      let shares = 0;
      for (const row of broken.body.rows) {
        const mine = rows.filter((p) => p.dims[by] === row.value);
        expect(pickQos(row)).toEqual(pickQos(figuresOf(mine)));
        expect(row.sharePct).toBe(Math.round((10_000 * mine.length) / rows.length) / 100);
        if (row.value === '') expect(row.key).toBe(QOE_NOT_REPORTED);
        shares += mine.length;
      }
      expect(shares).toBe(rows.length);
      // Most sessions first.
      const counts = broken.body.rows.map((r) => Number(r.sessions));
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    }), { numRuns: RUNS, seed: SEED });
  }, 240_000);

  it('unfiltered answers come from the rollups and equal the same answers counted from raw sessions', async () => {
    // An exclude filter on a value no session has keeps every session but sends the answer to raw sessions.
    const everything = `&f=${encodeURIComponent('!device:nobody-has-this')}`;
    for (const query of ['', '&by=device', '&by=country', '&by=isp', '&by=cdn', '&by=content', '&granularity=week', '&compare=previous']) {
      const rollups = await get<ReportAnswer>(analyst, `${REPORTS_PATH}/qos?${RANGE}${query}`);
      const raw = await get<ReportAnswer>(analyst, `${REPORTS_PATH}/qos?${RANGE}${query}${everything}`);
      expect(rollups.status).toBe(200);
      expect({ columns: raw.body.columns, rows: raw.body.rows, totals: raw.body.totals, previousTotals: raw.body.previousTotals })
        .toEqual({ columns: rollups.body.columns, rows: rollups.body.rows, totals: rollups.body.totals, previousTotals: rollups.body.previousTotals });
    }
  }, 60_000);

  it('compare=previous with a filter set: the totals of the same filters over the range before', async () => {
    const filters: QoeFilter[] = [{ dimension: 'streamType', exclude: false, values: ['live'] }, { dimension: 'isp', exclude: true, values: ['Slow Net'] }];
    const { body } = await get<ReportAnswer>(analyst, `${REPORTS_PATH}/qos?from=${dayShift(TO, -2)}&to=${TO}&compare=previous&f=${encodeURIComponent(formatQoeFilters(filters))}&by=os`);
    const before = world.rows.filter((p) => inRange(p, dayShift(TO, -5), dayShift(TO, -3)) && matches(p, filters));
    expect(pickQos(body.previousTotals ?? {})).toEqual(pickQos(figuresOf(before)));
    expect(body.params.f).toBe('streamType:live;!isp:Slow%20Net');
    expect(body.columns.map((c) => c.key)).toEqual(['key', ...QOS, 'sharePct']);
    expect(body.columns[0]!.label).toBe('Operating system');
  });

  it('by=title, by=plan and by=network name their values; a legacy filter joins the filter set', async () => {
    const label = (v: string) => (v === '' ? QOE_NOT_REPORTED : world.names.get(v) ?? v);
    for (const [by, extra] of [['plan', `&f=${encodeURIComponent('!player:')}&device=web`], ['title', `&f=${encodeURIComponent('country:US')}`], ['network', '&f=isp:Comcast']] as const) {
      const { status, body } = await get<ReportAnswer>(analyst, `${REPORTS_PATH}/qos?${RANGE}&by=${by}${extra}`);
      expect(status).toBe(200);
      const rows = world.rows.filter((p) => inRange(p) && (by !== 'plan' || (p.dims.player !== '' && p.dims.device === 'web'))
        && (by !== 'title' || p.dims.country === 'US') && (by !== 'network' || p.dims.isp === 'Comcast'));
      expect(body.totals.sessions).toBe(rows.length);
      expect(body.rows.map((r) => r.key).sort()).toEqual([...new Set(rows.map((p) => label(p.dims[by])))].sort());
    }
  });

  it('a bad f is refused with its words (400); f on a report without session filters is refused', async () => {
    const bad = await get<{ message: string }>(analyst, `${REPORTS_PATH}/qos?${RANGE}&f=planet:mars`);
    expect(bad).toEqual({ status: 400, body: expect.objectContaining({ success: false, message: QOE_MESSAGES.unknownDimension('planet') }) });
    const empty = await get<{ message: string }>(analyst, `${REPORTS_PATH}/qos?${RANGE}&f=device`);
    expect(empty.body.message).toBe(QOE_MESSAGES.noValues('Device type'));
    const elsewhere = await get<{ message: string }>(analyst, `${REPORTS_PATH}/user_base?${RANGE}&f=device:web`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message).toBe(`f: ${QOE_MESSAGES.noSessionFilters('user_base')}`);
    const by = await get<{ message: string }>(analyst, `${REPORTS_PATH}/qos?${RANGE}&by=planet`);
    expect(by.status).toBe(400);
  });
});

describe('GET /qoe/values, /qoe/views, /qoe/views/:id (issue 41)', () => {
  it('values: sessions per value under the other filters (the filters on the same dimension left out), with labels', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), fc.constantFrom(...QOE_DIMENSIONS.map((d) => d.key)), async (filters, dimension) => {
      const f = encodeURIComponent(formatQoeFilters(filters));
      const { status, body } = await get<QoeValuesAnswer>(analyst, `${QOE_VALUES_PATH}?${RANGE}&dimension=${dimension}&f=${f}`);
      expect(status).toBe(200);
      const others = filters.filter((x) => x.dimension !== dimension);
      const rows = world.rows.filter((p) => inRange(p) && matches(p, others));
      const expected = new Map<string, number>();
      for (const p of rows) expected.set(p.dims[dimension], (expected.get(p.dims[dimension]) ?? 0) + 1);
      for (const v of filters.filter((x) => x.dimension === dimension).flatMap((x) => x.values)) if (!expected.has(v)) expected.set(v, 0);
      expect(new Map(body.values.map((v) => [v.value, v.sessions]))).toEqual(expected);
      for (const v of body.values) if (v.value === '') expect(v.label).toBe(QOE_NOT_REPORTED);
    }), { numRuns: RUNS, seed: SEED });
  }, 240_000);

  it('views: exactly the sessions the sessions figure counts, paged on the server, sorted', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), fc.constantFrom('startedAt', 'startupMs', 'rebufferPct', 'watchedSeconds', 'bitrateKbps'), fc.constantFrom('asc', 'desc'), async (filters, sort, dir) => {
      const f = encodeURIComponent(formatQoeFilters(filters));
      const report = await get<ReportAnswer>(analyst, `${REPORTS_PATH}/qos?${RANGE}&f=${f}`);
      const ids: string[] = [];
      let total = -1;
      for (let page = 1; page <= 10; page++) {
        const { status, body } = await get<QoeViewsAnswer>(analyst, `${QOE_VIEWS_PATH}?${RANGE}&f=${f}&page=${page}&sort=${sort}&dir=${dir}`);
        expect(status).toBe(200);
        expect(body.pageSize).toBe(QOE_VIEWS_PAGE_SIZE);
        total = body.total;
        ids.push(...body.rows.map((r) => r.sessionId));
        const values = body.rows.map((r) => (sort === 'bitrateKbps' ? r.bitrateKbps ?? 0 : sort === 'startedAt' ? Date.parse(r.startedAt) : r[sort]));
        expect(values).toEqual([...values].sort((a, b) => (dir === 'asc' ? a - b : b - a)));
        if (body.rows.length < QOE_VIEWS_PAGE_SIZE) break;
      }
      expect(total).toBe(report.body.totals.sessions);
      expect(ids.sort()).toEqual(world.rows.filter((p) => inRange(p) && matches(p, filters)).map((p) => p.id).sort());
    }), { numRuns: Math.min(RUNS, 8), seed: SEED });
  }, 240_000);

  it('one view: its row, every dimension with its label, and a timeline from its heartbeats (start, bitrate changes, rebuffers, error, end)', async () => {
    const row = world.rows.find((p) => p.error && p.dims.plan !== '' && p.dims.isp !== '')!;
    const at = (s: number) => new Date(row.startedAt.getTime() + s * 1000);
    await t.db.insert(playerHeartbeats).values([
      { siteId: world.siteId, eventId: `hb-${randomUUID()}`, sessionId: row.id, at: at(10), playheadSeconds: 10, watchedSeconds: 10, bitrateKbps: 2400, rebufferCount: 0, rebufferMs: 0 },
      { siteId: world.siteId, eventId: `hb-${randomUUID()}`, sessionId: row.id, at: at(20), playheadSeconds: 20, watchedSeconds: 20, bitrateKbps: 2400, rebufferCount: 1, rebufferMs: 3000 },
      { siteId: world.siteId, eventId: `hb-${randomUUID()}`, sessionId: row.id, at: at(30), playheadSeconds: 30, watchedSeconds: 29, bitrateKbps: 1100, rebufferCount: 1, rebufferMs: 3000 },
    ]);
    const { status, body } = await get<QoeViewAnswer>(analyst, `${QOE_VIEWS_PATH}/${row.id}`);
    expect(status).toBe(200);
    expect(body.view).toMatchObject({ sessionId: row.id, startupMs: row.startup, errorCode: 'E_NET', isp: row.dims.isp, device: row.dims.device });
    expect(body.view.dimensions.map((d) => d.dimension)).toEqual(QOE_DIMENSIONS.map((d) => d.key));
    expect(body.view.dimensions.find((d) => d.dimension === 'plan')!.label).toMatch(/^(Monthly|Annual)$/);
    expect(body.timeline.map((e) => e.kind)).toEqual(['start', 'bitrate', 'rebuffer', 'bitrate', 'error', 'end']);
    expect(body.timeline.map((e) => e.text)).toEqual([
      `Started after ${row.startup.toLocaleString('en-US')} ms`, 'Bitrate 2,400 kbps', 'Rebuffered (3 s)', 'Bitrate 2,400 → 1,100 kbps', 'Error E_NET',
      `Ended after ${row.watched.toLocaleString('en-US')} s watched`,
    ]);
  });

  it("another site's view is not found; bad input is refused in words; readers only", async () => {
    expect((await get(analyst, `${QOE_VIEWS_PATH}/${other.rows[0]!.id}`)).status).toBe(404);
    expect((await get(analyst, `${QOE_VIEWS_PATH}/not-a-uuid`)).status).toBe(404);
    for (const [query, message] of [
      ['page=0', QOE_MESSAGES.badPage], ['sort=viewer', QOE_MESSAGES.badSort], ['dir=up', QOE_MESSAGES.badDir], ['from=2026-02-30', QOE_MESSAGES.badDay('from')],
      [`from=${TO}&to=${FROM}`, QOE_MESSAGES.reversedRange], ['network=nowhere', QOE_MESSAGES.unknownNetwork('nowhere')], ['planet=1', QOE_MESSAGES.unknownParam('planet')],
      ['f=!isp', QOE_MESSAGES.noValues('ISP')],
    ] as const) {
      const res = await get<{ message: string }>(analyst, `${QOE_VIEWS_PATH}?${query}`);
      expect({ query, status: res.status, message: res.body.message }).toEqual({ query, status: 400, message });
    }
    const noDimension = await get<{ message: string }>(analyst, `${QOE_VALUES_PATH}?${RANGE}&dimension=planet`);
    expect(noDimension).toEqual({ status: 400, body: expect.objectContaining({ message: QOE_MESSAGES.unknownDimensionParam('planet') }) });
    for (const url of [`${QOE_VALUES_PATH}?dimension=device`, QOE_VIEWS_PATH, `${QOE_VIEWS_PATH}/${world.rows[0]!.id}`]) {
      expect((await get(contentOnly, url)).status).toBe(403);
    }
  });

  it('network narrows values and views to that network', async () => {
    const [netId, identifier] = [...world.netIdentifiers][0]!;
    const { body } = await get<QoeViewsAnswer>(analyst, `${QOE_VIEWS_PATH}?${RANGE}&network=${identifier}`);
    expect(body.total).toBe(world.rows.filter((p) => inRange(p) && p.dims.network === netId).length);
  });
});
