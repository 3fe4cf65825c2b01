/**
 * The compared period as the pages say it (issue 41): the name of the compared series on the charts
 * and a headline tile's change against the compared period's total.
 */
import { COMPARE_MESSAGES as C } from '../../../common/messages/analytics-compare';
import type { ReportColumn } from '../../../common/reports';
import { changeOf } from './format';
import type { AnalyticsSearch } from './search';

/** What the figures are compared with: "previous period", "2026-10-01 to 2026-10-31", or null without a comparison. */
export function comparedWhat(search: Pick<AnalyticsSearch, 'compare' | 'cfrom' | 'cto'>): string | null {
  if (search.compare === 'previous') return C.previousPeriod;
  if (search.compare === 'custom' && search.cfrom && search.cto) return C.chosenPeriod(search.cfrom, search.cto);
  return null;
}

/** A compared chart series' name: the column's label and the compared period. */
export function comparedLabel(label: string, search: Pick<AnalyticsSearch, 'compare' | 'cfrom' | 'cto'>): string {
  return search.compare === 'custom' && search.cfrom && search.cto ? C.comparedCustom(label, search.cfrom, search.cto) : C.comparedPrevious(label);
}

const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/**
 * A tile's change against the compared total `what`: a percentage moves by percentage points
 * ("+0.4 pts vs previous period"), any other figure by its relative change ("-12.5 % vs …"); the same
 * value is "No change", and a missing or zero compared value has nothing to compare with.
 */
export function tileChange(current: number | null | undefined, compared: number | null | undefined, kind: ReportColumn['kind'], what: string): string {
  if (current === null || current === undefined || compared === null || compared === undefined) return C.notComparableIn(what);
  if (current === compared) return C.noChangeVs(what);
  if (kind === 'percent') return C.changeVs(`${oneDecimal.format(current - compared)} pts`, what);
  const change = changeOf(current, compared);
  return change === null ? C.notComparableIn(what) : C.changeVs(`${oneDecimal.format(change)} %`, what);
}
