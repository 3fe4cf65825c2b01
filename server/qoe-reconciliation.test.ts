/**
 * Issue 41, reconciliation of the QoE engine: every figure over raw playback sessions, filtered by a
 * random filter set (fast-check: any dimensions, several values, include or exclude, "not reported")
 * and broken down by any dimension, equals a second computation written here in plain TypeScript
 * straight from the generated rows (never from the engine's SQL or common/playback-measures.ts).
 * Runs on PGlite by default and on PostgreSQL under scripts/with-fresh-postgres.mjs.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QOE_DIMENSIONS, type QoeFilter } from '../common/qoe';
import { qoeSums, qoeTotals } from './db/qoe-repository';
import { createTestApp, type TestApp } from './test/kit';
import { DAY_MS, METRICS, NOW, figuresOf, filtersArb, insertQoeWorld, matches, only, sum, type World } from './test/qoe-world';

const RUNS = Number(process.env.RECONCILIATION_RUNS ?? 25);
const SEED = process.env.RECONCILIATION_SEED === 'random' ? undefined : Number(process.env.RECONCILIATION_SEED ?? 41);

// ---------- plain helpers (written for this file) ----------

// ---------- the tests ----------

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await createTestApp();
  world = await insertQoeWorld(t, { sessions: 400, days: 10, seed: 41 });
}, 120_000);
afterAll(async () => { await t.close(); });

describe('QoE engine over raw sessions (issue 41)', () => {
  it('totals of sessions started in a window equal the figures recomputed from the rows, for random filter sets', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 10 }), async (filters, startAgo, length) => {
      const since = new Date(NOW.getTime() - startAgo * DAY_MS - 3_600_000 * 7);
      const until = new Date(since.getTime() + length * DAY_MS);
      const expected = figuresOf(world.rows.filter((p) => p.startedAt >= since && p.startedAt < until && matches(p, filters)));
      const got = await qoeTotals(t.db, { siteId: world.siteId, filters, since, until, select: 'started' });
      expect(got).toEqual(only(expected, METRICS));
    }), { numRuns: RUNS, seed: SEED });
  }, 120_000);

  it("totals of sessions active in a window (last event in it) equal the rows' figures", async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), fc.integer({ min: 1, max: 240 }), fc.integer({ min: 5, max: 600 }), async (filters, agoMinutes, minutes) => {
      const since = new Date(NOW.getTime() - agoMinutes * 60_000 * 24);
      const until = new Date(since.getTime() + minutes * 60_000);
      const expected = figuresOf(world.rows.filter((p) => p.lastEventAt >= since && p.lastEventAt < until
        && p.startedAt.getTime() >= since.getTime() - DAY_MS && matches(p, filters)));
      const got = await qoeTotals(t.db, { siteId: world.siteId, filters, since, until, select: 'active' });
      expect(got).toEqual(only(expected, METRICS));
    }), { numRuns: RUNS, seed: SEED });
  }, 120_000);

  it('sums broken down by any dimension: one row per value with the rows of that value', async () => {
    await fc.assert(fc.asyncProperty(filtersArb(world), fc.constantFrom(...QOE_DIMENSIONS.map((d) => d.key)), async (filters, by) => {
      const since = new Date(NOW.getTime() - 11 * DAY_MS);
      const until = NOW;
      const rows = world.rows.filter((p) => matches(p, filters));
      const got = await qoeSums(t.db, { siteId: world.siteId, filters, since, until, select: 'started' }, { by });
      const keys = [...new Set(rows.map((p) => p.dims[by]))].sort();
      expect(got.map((g) => g.key).sort()).toEqual(keys);
      for (const g of got) {
        const mine = rows.filter((p) => p.dims[by] === g.key);
        expect({ sessions: g.sessions, viewers: g.viewers, errorSessions: g.errorSessions, rebufferSeconds: g.rebufferSeconds })
          .toEqual({ sessions: mine.length, viewers: new Set(mine.map((p) => p.subscriberId)).size, errorSessions: mine.filter((p) => p.error).length, rebufferSeconds: sum(mine, (p) => p.rebuffer) });
      }
    }), { numRuns: RUNS, seed: SEED });
  }, 120_000);

  it('a filter value is data, never SQL: quotes, commas and semicolons match only themselves', async () => {
    const filters: QoeFilter[] = [{ dimension: 'isp', exclude: false, values: ["O'Neil; Fiber", "x' OR 1=1 --"] }];
    const got = await qoeTotals(t.db, { siteId: world.siteId, filters, since: new Date(0), until: NOW, select: 'started' });
    expect(got.sessions).toBe(world.rows.filter((p) => p.dims.isp === "O'Neil; Fiber").length);
    expect(got.sessions).toBeGreaterThan(0);
  });
});
