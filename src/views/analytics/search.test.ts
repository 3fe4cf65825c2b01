import { describe, expect, it } from 'vitest';
import { QOE_PAGE_MESSAGES } from '../../../common/messages/qoe';
import { QOE_MESSAGES } from '../../../common/qoe';
import { pageDefFor } from './pages';
import { addedQoeValue, previousRange, qoeQueryOf, requestsFor, validateAnalyticsSearch, viewsSortOf, withQoeFilters } from './search';

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
    expect(requestsFor(pageDefFor('/analytics/audience-overview'), search)).toEqual([
      { report: 'user_base', params: { from: '2026-11-01', to: '2026-11-30', granularity: 'day', include: 'options' } },
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
