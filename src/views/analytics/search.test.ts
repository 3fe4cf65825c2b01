import { describe, expect, it } from 'vitest';
import { QOE_PAGE_MESSAGES } from '../../../common/messages/qoe';
import { QOE_MESSAGES } from '../../../common/qoe';
import { pageDefFor } from './pages';
import { COMPARE_MESSAGES } from '../../../common/messages/analytics-compare';
import {
  addedQoeValue, breakdownChoicesOf, canCompare, withComparedDay, withCompare, hasSessionFilters, previousRange, qoeQueryOf, requestsFor, validateAnalyticsSearch, viewsSortOf, withLegacyFiltersFolded, withQoeFilters,
} from './search';
import { QOE_DIMENSION_KEYS } from '../../../common/qoe';
import { REPORT_SPECS } from '../../../common/reports';

describe('the analytics search with QoE filters (issue 41)', () => {
  it('keeps a valid f (normalised), by, compare and page; drops a bad f with a note that says why', () => {
    expect(validateAnalyticsSearch({ f: 'device:android,ios;!isp:Slow%20Net', by: 'cdn', compare: 'previous', page: '3' }))
      .toEqual({ f: 'device:android,ios;!isp:Slow%20Net', by: 'cdn', compare: 'previous', page: 3 });
    expect(validateAnalyticsSearch({ f: 'device:web;device:ios', by: 'planet', compare: 'yes', page: '0' }))
      .toEqual({ fNote: QOE_PAGE_MESSAGES.droppedFilter(QOE_MESSAGES.repeatedDimension('Device type')) });
    expect(validateAnalyticsSearch({ f: '' })).toEqual({});
  });

  it('QoS pages ask with f (and by on breakdown pages), and the previous period with compare; other pages do not', () => {
    const overall = pageDefFor('/analytics/qos-overall');
    const isp = pageDefFor('/analytics/qos-isp');
    const search = { from: '2026-11-01', to: '2026-11-30', f: 'cdn:akamai', by: 'os' as const, compare: 'previous' as const };
    expect(requestsFor(overall, search).map((r) => r.params)).toEqual([
      { by: 'period', from: '2026-11-01', to: '2026-11-30', granularity: 'day', f: 'cdn:akamai' },
      { by: 'period', from: '2026-10-02', to: '2026-10-31', granularity: 'day', f: 'cdn:akamai' },
    ]);
    expect(requestsFor(isp, search)[0]!.params.by).toBe('os');
    // A business report takes no filter set: no f (every series page compares, issue 41).
    expect(requestsFor(pageDefFor('/analytics/audience-overview'), search)).toEqual([
      { report: 'user_base', params: { from: '2026-11-01', to: '2026-11-30', granularity: 'day', include: 'options' } },
      { report: 'user_base', params: { from: '2026-10-02', to: '2026-10-31', granularity: 'day', include: 'options' } },
    ]);
    expect(previousRange({ from: '2026-11-01', to: '2026-11-07' })).toEqual({ from: '2026-10-25', to: '2026-10-31' });
  });

  it('adds a row value as the only value of its include filter, clears f, and reads the query and the views order', () => {
    expect(addedQoeValue([{ dimension: 'cdn', exclude: false, values: ['a', 'b'] }, { dimension: 'cdn', exclude: true, values: ['c'] }], 'cdn', 'b'))
      .toEqual([{ dimension: 'cdn', exclude: false, values: ['b'] }, { dimension: 'cdn', exclude: true, values: ['c'] }]);
    expect(withQoeFilters({ days: 7, f: 'cdn:a', page: 4, fNote: 'x' }, [])).toEqual({ days: 7 });
    expect(qoeQueryOf({ days: 7, network: 'n1', f: 'cdn:a' }, '2026-12-06')).toEqual({ from: '2026-11-30', to: '2026-12-06', network: 'n1', f: 'cdn:a' });
    expect(viewsSortOf({ sort: 'sessions' })).toEqual({ sort: 'startedAt', dir: 'desc' });
    expect(viewsSortOf({ sort: 'startupMs', dir: 'asc' })).toEqual({ sort: 'startupMs', dir: 'asc' });
  });
});

describe('filter chips on every report that takes a filter set (issue 41)', () => {
  // A page whose report has the flag (REPORT_SPECS.qos) and one whose report keeps its one-value filters.
  const ENGAGEMENT = pageDefFor('/analytics/behaviour-video-engagement');
  const chips = { ...ENGAGEMENT, report: 'qos' as const };
  const oneValue = { ...ENGAGEMENT, report: 'user_base' as const };

  it('follows the report spec flag', () => {
    expect(REPORT_SPECS.qos.sessionFilters).toBe(true);
    expect(hasSessionFilters(chips)).toBe(true);
    expect(hasSessionFilters(oneValue)).toBe(Boolean(REPORT_SPECS.user_base.sessionFilters));
    expect(hasSessionFilters(pageDefFor('/analytics/payments'))).toBe(false);
  });

  it('sends f and no one-value filter where the report takes a filter set; the one-value filter (and no f) elsewhere', () => {
    const search = { from: '2026-11-01', to: '2026-11-30', device: 'web', f: 'cdn:akamai' };
    expect(requestsFor(chips, search)).toEqual([{ report: 'qos', params: { from: '2026-11-01', to: '2026-11-30', granularity: 'day', f: 'cdn:akamai' } }]);
    expect(requestsFor(oneValue, search)).toEqual([
      { report: 'user_base', params: { from: '2026-11-01', to: '2026-11-30', granularity: 'day', device: 'web', include: 'options' } },
    ]);
  });

  it('folds an old address\'s device=, country=, content= and plan= into the set (content is the title), once each', () => {
    const plan = '6f1c1b8e-5a4d-4c3b-9a2e-1d0f9e8d7c6b';
    const content = '0b6f3c2e-1111-4a4a-9b9b-000000000001';
    expect(withLegacyFiltersFolded(chips, { days: 7, device: 'web', country: 'GB', content, plan, f: 'device:ios;!isp:Slow%20Net' }))
      .toEqual({ days: 7, f: `device:ios,web;!isp:Slow%20Net;country:GB;title:${content};plan:${plan}` });
    expect(withLegacyFiltersFolded(chips, { device: 'web', f: 'device:web' })).toEqual({ f: 'device:web' });
    // Pages that keep the one-value filters keep the address as it is.
    expect(withLegacyFiltersFolded(pageDefFor('/analytics/payments'), { plan })).toEqual({ plan });
    // Removing a chip from a folded address drops the old keys with the set.
    expect(withQoeFilters({ days: 7, device: 'web', f: 'device:web' }, [])).toEqual({ days: 7 });
  });

  it('breaks down by any dimension on QoS pages, by its own dimensions on the startup buckets, and not elsewhere', () => {
    expect(breakdownChoicesOf(pageDefFor('/analytics/qos-isp'))).toEqual(QOE_DIMENSION_KEYS);
    expect(breakdownChoicesOf(pageDefFor('/analytics/qos-overall'))).toEqual(QOE_DIMENSION_KEYS);
    const buckets = REPORT_SPECS.qos_bucket_metric_report.by ?? [];
    expect(breakdownChoicesOf(pageDefFor('/analytics/qos-distribution-device'))).toEqual(QOE_DIMENSION_KEYS.filter((d) => buckets.includes(d)));
    expect(buckets).toEqual(expect.arrayContaining(['device', 'country', 'isp', 'cdn']));
    expect(breakdownChoicesOf(pageDefFor('/analytics/qos-content'))).toEqual([]);
    expect(breakdownChoicesOf(ENGAGEMENT)).toEqual([]);
    // The buckets ask by a dimension they answer; a dimension they do not is not sent.
    expect(requestsFor(pageDefFor('/analytics/qos-distribution-device'), { by: 'cdn' })[0]!.params.by).toBe('cdn');
    expect(requestsFor(pageDefFor('/analytics/qos-distribution-device'), { by: 'title' })[0]!.params.by).toBe(buckets.includes('title') ? 'title' : 'device');
    // QoS Overall's own answer stays by period.
    expect(requestsFor(pageDefFor('/analytics/qos-overall'), { by: 'os' })[0]!.params.by).toBe('period');
  });
});

describe('compare with the previous period or a chosen one (issue 41)', () => {
  it('keeps compare=custom with valid cfrom and cto; drops a bad one with a note, never the rest of the address', () => {
    expect(validateAnalyticsSearch({ days: '7', compare: 'custom', cfrom: '2026-10-01', cto: '2026-10-31' }))
      .toEqual({ days: 7, compare: 'custom', cfrom: '2026-10-01', cto: '2026-10-31' });
    expect(validateAnalyticsSearch({ days: '7', compare: 'custom', cfrom: '2026-10-01' })).toEqual({ days: 7, compareNote: COMPARE_MESSAGES.droppedDays });
    expect(validateAnalyticsSearch({ compare: 'custom', cfrom: '2026-02-30', cto: '2026-03-01' })).toEqual({ compareNote: COMPARE_MESSAGES.droppedDays });
    expect(validateAnalyticsSearch({ compare: 'custom', cfrom: 'yesterday', cto: '2026-03-01' })).toEqual({ compareNote: COMPARE_MESSAGES.droppedDays });
    expect(validateAnalyticsSearch({ compare: 'custom', cfrom: '2026-10-31', cto: '2026-10-01' }))
      .toEqual({ compareNote: COMPARE_MESSAGES.droppedReversed('2026-10-31', '2026-10-01') });
    expect(validateAnalyticsSearch({ compare: 'custom', cfrom: '2024-01-01', cto: '2026-10-01' })).toEqual({ compareNote: COMPARE_MESSAGES.droppedTooLong(366) });
    // cfrom/cto without compare=custom mean nothing; an unknown mode is ignored.
    expect(validateAnalyticsSearch({ cfrom: '2026-10-01', cto: '2026-10-31', compare: 'last-year' })).toEqual({});
    // The router lays the validated search over the address's: what was dropped is overwritten with undefined, not left raw.
    const raw = { compare: 'custom', cfrom: '2026-13-01', cto: 'x', f: 'planet:mars', days: '5', other: 'kept' };
    const laid = { ...raw, ...validateAnalyticsSearch(raw) };
    expect(Object.entries(laid).filter(([, v]) => v !== undefined).map(([k]) => k).sort()).toEqual(['compareNote', 'fNote', 'other']);
    expect(laid.compareNote).toBe(COMPARE_MESSAGES.droppedDays);
    // The router writes the notes into the address; read again, they still say why.
    expect({ ...laid, ...validateAnalyticsSearch(laid) }.compareNote).toBe(COMPARE_MESSAGES.droppedDays);
  });

  it('every non-realtime series page and the QoS breakdowns compare; the second request is for the compared period', () => {
    const engagement = pageDefFor('/analytics/behaviour-video-engagement');
    expect(canCompare(engagement)).toBe(true);
    expect(canCompare(pageDefFor('/analytics/payments'))).toBe(true);
    expect(canCompare(pageDefFor('/analytics/qos-isp'))).toBe(true);
    expect(canCompare(pageDefFor('/analytics/real-streaming-users'))).toBe(false);
    expect(canCompare(pageDefFor('/analytics/top-content'))).toBe(false);
    const custom = { from: '2026-11-01', to: '2026-11-30', compare: 'custom' as const, cfrom: '2025-11-01', cto: '2025-11-30' };
    expect(requestsFor(engagement, custom).map((r) => [r.params.from, r.params.to])).toEqual([['2026-11-01', '2026-11-30'], ['2025-11-01', '2025-11-30']]);
    expect(requestsFor(pageDefFor('/analytics/real-streaming-users'), custom)).toHaveLength(1);
    expect(requestsFor(pageDefFor('/analytics/top-content'), custom)).toHaveLength(1);
    expect(requestsFor(engagement, { ...custom, compare: 'previous' })[1]!.params).toMatchObject({ from: '2026-10-02', to: '2026-10-31' });
  });

  it('switching the comparison writes the address: a chosen period starts as the previous one; a day past the other end swaps them', () => {
    const search = { days: 7 as const, compareNote: 'x' };
    expect(withCompare(search, 'previous', '2026-12-06')).toEqual({ days: 7, compare: 'previous' });
    expect(withCompare(search, 'custom', '2026-12-06')).toEqual({ days: 7, compare: 'custom', cfrom: '2026-11-23', cto: '2026-11-29' });
    expect(withCompare({ days: 7, compare: 'custom', cfrom: '2026-01-01', cto: '2026-01-07' }, 'custom', '2026-12-06'))
      .toEqual({ days: 7, compare: 'custom', cfrom: '2026-01-01', cto: '2026-01-07' });
    expect(withCompare({ days: 7, compare: 'custom', cfrom: '2026-01-01', cto: '2026-01-07' }, null)).toEqual({ days: 7 });
    const custom = { compare: 'custom' as const, cfrom: '2026-01-01', cto: '2026-01-07' };
    expect(withComparedDay(custom, 'cto', '2026-01-10')).toEqual({ ...custom, cto: '2026-01-10' });
    expect(withComparedDay(custom, 'cfrom', '2026-01-09')).toEqual({ ...custom, cfrom: '2026-01-07', cto: '2026-01-09' });
    expect(withComparedDay(custom, 'cfrom', '')).toEqual(custom);
  });
});
