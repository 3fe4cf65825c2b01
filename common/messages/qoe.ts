/**
 * What the console's QoE pages say (issue 41): the filter chips and the Add filter picker on the QoS
 * pages, the breakdown by any dimension, the Views list (the sessions behind a figure) and one view's
 * page. The filter set's own refusals (a bad `f`) are common/qoe.ts QOE_MESSAGES.
 */
import { QOE_MAX_FILTERS } from '../qoe';

export const QOE_PAGE_MESSAGES = {
  // Filter chips and the picker
  filters: 'Filters',
  noFilters: 'No filters: every session counts.',
  addFilter: 'Add filter',
  removeFilter: (chip: string) => `Remove the filter "${chip}"`,
  clearFilters: 'Clear all filters',
  dimension: 'Filter by',
  chooseDimension: 'Choose what to filter by',
  mode: 'Sessions whose value',
  include: 'is one of',
  exclude: 'is not one of',
  search: 'Find a value',
  apply: 'Apply filter',
  cancel: 'Cancel',
  valuesLoading: 'Loading values…',
  valuesFailed: 'The values could not be loaded.',
  retry: 'Try again',
  noValues: 'No session in this range has a value for this: try a longer range.',
  pickSome: 'Pick at least one value.',
  /** A form's picker (an alert rule): the search text offered as a value no session has had yet. */
  typedValue: (text: string) => `Use "${text}"`,
  notSeenYet: 'no session yet',
  sessionsCount: (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'session' : 'sessions'}`,
  atLimit: `${QOE_MAX_FILTERS} filters are applied: remove one to add another.`,
  droppedFilter: (why: string) => `The filters in the address were not applied: ${why}`,
  // Breakdown
  breakDownBy: 'Break down by',
  noBreakdown: 'No breakdown',
  breakdownTitle: (label: string) => `By ${label}`,
  share: 'Share of sessions (%)',
  shareHelp: 'This row’s sessions ÷ all sessions in the range under the same filters × 100.',
  compare: 'Compare with the previous period',
  previous: (label: string) => `${label} (previous period)`,
  current: (label: string) => `${label} (this period)`,
  views: 'Views',
  viewsOf: (row: string) => `Views: the sessions of ${row}`,
  allViews: 'Views behind these figures',
  // Views list
  viewsTitle: 'Views',
  viewsSummary: 'The playback sessions behind the figures: each one a viewer playing one title, started in the range under the filters.',
  viewsEmpty: 'No session started in this range under these filters. Try a longer range or fewer filters.',
  viewsFailed: 'The views could not be loaded:',
  viewsRange: (first: number, last: number, total: number) => `Sessions ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`,
  viewsPages: 'Pages of views',
  previousPage: 'Previous',
  nextPage: 'Next',
  backToReport: 'Back to QoS Overall',
  openView: (title: string, at: string) => `Open the view of ${title} started ${at}`,
  // One view
  viewTitle: 'One view',
  viewNotFound: 'This view does not exist, or it is not on a network you can read.',
  viewFailed: 'The view could not be loaded:',
  dimensions: 'Dimensions',
  timeline: 'Timeline',
  timelineEmpty: 'No event was stored for this view.',
  timelineStrip: 'The view in time: start, bitrate changes, rebuffers, errors and end',
  backToViews: 'Back to the views',
  notEnded: 'Still playing or never ended',
} as const;

/** Column headings of the Views list (QoeViewRow keys). */
export const QOE_VIEW_COLUMNS = {
  startedAt: 'Started',
  viewer: 'Viewer',
  title: 'Title',
  device: 'Device',
  isp: 'ISP',
  cdn: 'CDN',
  watchedSeconds: 'Watched',
  startupMs: 'Startup (ms)',
  rebufferPct: 'Rebuffering (%)',
  bitrateKbps: 'Bitrate (kbps)',
  errorCode: 'Error',
} as const;

/** What each timeline entry kind is called in the strip's legend. */
export const QOE_TIMELINE_KINDS = {
  start: 'Start',
  bitrate: 'Bitrate change',
  rebuffer: 'Rebuffer',
  heartbeat: 'Heartbeat',
  error: 'Error',
  end: 'End',
} as const;
