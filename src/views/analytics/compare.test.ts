import { describe, expect, it } from 'vitest';
import { COMPARE_MESSAGES as C } from '../../../common/messages/analytics-compare';
import { comparedLabel, comparedWhat, tileChange } from './compare';

describe('the compared period in words (issue 41)', () => {
  it('names the previous period or the chosen one, and nothing without a comparison', () => {
    expect(comparedWhat({ compare: 'previous' })).toBe('previous period');
    expect(comparedWhat({ compare: 'custom', cfrom: '2026-10-01', cto: '2026-10-31' })).toBe('2026-10-01 to 2026-10-31');
    expect(comparedWhat({})).toBeNull();
    expect(comparedLabel('Sessions', { compare: 'previous' })).toBe('Sessions (previous period)');
    expect(comparedLabel('Sessions', { compare: 'custom', cfrom: '2026-10-01', cto: '2026-10-31' })).toBe('Sessions (2026-10-01 to 2026-10-31)');
  });

  it('says a tile\'s change: relative for counts, in points for percentages', () => {
    const what = 'previous period';
    expect(tileChange(1700, 1000, 'count', what)).toBe('+70.0 % vs previous period');
    expect(tileChange(900, 1000, 'ms', what)).toBe('-10.0 % vs previous period');
    expect(tileChange(2.5, 2.1, 'percent', what)).toBe('+0.4 pts vs previous period');
    expect(tileChange(5, 5, 'count', what)).toBe(C.noChangeVs(what));
    expect(tileChange(5, 0, 'count', what)).toBe(C.notComparableIn(what));
    expect(tileChange(5, null, 'count', what)).toBe('Nothing to compare with in previous period');
  });
});
