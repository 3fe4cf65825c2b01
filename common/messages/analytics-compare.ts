/**
 * What Dashboard 360's comparison says (issue 41): the "Compare with" control beside the range
 * buttons (none, the previous period, a chosen period), the compared series' names on the charts,
 * the headline tiles' change, and why an address's comparison was dropped.
 */

export const COMPARE_MESSAGES = {
  control: 'Compare with',
  none: 'No comparison',
  previous: 'Previous period',
  custom: 'A chosen period',
  from: 'Compared from',
  to: 'Compared to',
  /** A chart series of the page's own range / of the compared one. */
  current: (label: string) => `${label} (this period)`,
  comparedPrevious: (label: string) => `${label} (previous period)`,
  comparedCustom: (label: string, from: string, to: string) => `${label} (${from} to ${to})`,
  /** A headline tile's change: "+12.5 % vs previous period". */
  changeVs: (change: string, what: string) => `${change} vs ${what}`,
  previousPeriod: 'previous period',
  chosenPeriod: (from: string, to: string) => `${from} to ${to}`,
  noChangeVs: (what: string) => `No change vs ${what}`,
  notComparableIn: (what: string) => `Nothing to compare with in ${what}`,
  droppedDays: 'The comparison in the address was not applied: a chosen period needs cfrom and cto as YYYY-MM-DD dates.',
  droppedReversed: (from: string, to: string) => `The comparison in the address was not applied: ${from} is after ${to}.`,
  droppedTooLong: (days: number) => `The comparison in the address was not applied: a compared period is at most ${days} days.`,
} as const;
