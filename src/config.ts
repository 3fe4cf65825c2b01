/**
 * UI-only lists of the browser app (spec §2.5–§2.9): sub-pages, tabs, menus and the routes without
 * the header. Everything the machines or the server also need lives in common/constants.ts.
 */
import type { ContentKind, ContentSortField } from '../common/content';

/** Routes without the header (spec §2.9); content detail is matched by prefix. */
export const HEADER_HIDDEN_ROUTES: readonly string[] = [
  '/', '/reset-password', '/forgot-password', '/logout', '/verify-number', '/forbidden', '/set-password',
];
export const HEADER_HIDDEN_PREFIXES: readonly RegExp[] = [/^\/content\/[^/]+\/[^/]+\/?$/];

export interface SubPage { path: string; title: string }
export interface SubPageGroup { group: string; pages: readonly SubPage[] }

/** Dashboard 360 sub-pages of spec §2.5 (22 of them), grouped as the spec groups them. */
export const ANALYTICS_GROUPS: readonly SubPageGroup[] = [
  { group: 'Dashboard', pages: [{ path: '/analytics', title: 'Dashboard' }] },
  {
    group: 'Real-time',
    pages: [
      { path: '/analytics/real-streaming-users', title: 'Real-time Streaming Users' },
      { path: '/analytics/real-top-content', title: 'Real-time Top Content' },
      { path: '/analytics/content-level-qos', title: 'Content Level QoS' },
    ],
  },
  {
    group: 'Audience',
    pages: [
      { path: '/analytics/audience-overview', title: 'Audience Overview' },
      { path: '/analytics/audience-acquisition', title: 'Audience Acquisition' },
      { path: '/analytics/audience-churn', title: 'Audience Churn' },
    ],
  },
  {
    group: 'Behaviour',
    pages: [
      { path: '/analytics/behaviour-video-engagement', title: 'Video Engagement' },
      { path: '/analytics/behaviour-cohort-analysis', title: 'Cohort Analysis' },
      { path: '/analytics/behaviour-user-lifetime-value', title: 'User Lifetime Value' },
    ],
  },
  {
    group: 'Content',
    pages: [
      { path: '/analytics/content-overview', title: 'Content Overview' },
      { path: '/analytics/top-content', title: 'Top Content' },
      { path: '/analytics/video-watch-through', title: 'Video Watch-through' },
    ],
  },
  {
    group: 'Monetization',
    pages: [
      { path: '/analytics/payments', title: 'Payments' },
      { path: '/analytics/content-level-payments', title: 'Content Level Payments' },
    ],
  },
  {
    group: 'Quality of service',
    pages: [
      { path: '/analytics/qos-overall', title: 'QoS Overall' },
      { path: '/analytics/qos-device-info', title: 'QoS Device Info' },
      { path: '/analytics/qos-geography', title: 'QoS Geography' },
      { path: '/analytics/qos-isp', title: 'QoS ISP' },
      { path: '/analytics/qos-distribution-overview', title: 'QoS Distribution Overview' },
      { path: '/analytics/qos-distribution-device', title: 'QoS Distribution by Device' },
      { path: '/analytics/qos-content', title: 'QoS Content' },
    ],
  },
];

/**
 * Issue 41: Dashboard 360's own tools, after the spec's groups in the side navigation (not a §2.5
 * sub-page: the spec's list above stays as it is): the alerts and the saved views, for every role
 * that reads Dashboard 360. Their titles are the pages' own (common/messages/qoe-alerts.ts; src/config.test.ts holds them equal).
 */
export const ANALYTICS_TOOL_GROUPS: readonly SubPageGroup[] = [
  {
    group: 'Alerts and saved views',
    pages: [
      { path: '/analytics/alerts', title: 'Alerts' },
      { path: '/analytics/saved', title: 'Saved views' },
    ],
  },
];

/** AppCMS sub-pages of spec §2.7. */
export const APPCMS_PAGES: readonly SubPage[] = [
  { path: '/appcms/template', title: 'Template' },
  { path: '/appcms/brand', title: 'Brand' },
  { path: '/appcms/settings', title: 'Settings' },
  { path: '/appcms/devices', title: 'Devices' },
  { path: '/appcms/service', title: 'Service' },
];

/** Monetization tabs of spec §2.8: key, route, title (titles are ours: the spec does not show them). */
export const MONETIZATION_TABS: readonly { key: string; route: string; title: string }[] = [
  { key: 'models', route: '/monetization/models', title: 'Models' },
  { key: 'plans', route: '/monetization/plans', title: 'Plans' },
  { key: 'planGroups', route: '/monetization/planGroups', title: 'Plan Groups' },
  { key: 'offers', route: '/monetization/offers', title: 'Offers' },
  { key: 'coupon', route: '/monetization/coupon', title: 'Coupons' },
];

/** Content menu of spec §2.6 (external entries pointing at '/'); Create New, Video License and Country Group are built here (issue 29, README deviations). */
export const CONTENT_MENU: readonly { label: string; href: string }[] = [
  { label: 'Library', href: '/' },
  // Built here (issue 29), where the spec's entry points at '/' (README, deviations).
  { label: 'Create New', href: '/content/new' },
  { label: 'Video License', href: '/content/licences' },
  { label: 'Country Group', href: '/content/country-groups' },
  // Issue 40: the site's videos (upload, encode, preview).
  { label: 'Media', href: '/content/media' },
];


/** Content library (issue 13): the tabs, one per content kind in spec order, and the words for columns (statuses: common/status-words.ts). */
export const CONTENT_KIND_LABELS: Readonly<Record<ContentKind, string>> = {
  video: 'Video', series: 'Series', episode: 'Episode', live: 'Live',
};
export const CONTENT_COLUMNS: readonly { field: ContentSortField; label: string; numeric?: boolean; narrowHidden?: boolean }[] = [
  { field: 'title', label: 'Title' },
  { field: 'kind', label: 'Kind', narrowHidden: true },
  { field: 'status', label: 'Status' },
  { field: 'duration', label: 'Duration', numeric: true, narrowHidden: true },
  { field: 'plays30d', label: 'Plays (30 days)', numeric: true },
  { field: 'updated', label: 'Updated', narrowHidden: true },
];

/** Users (issue 16): the words for payment methods (statuses: common/status-words.ts). */
export const PAYMENT_METHOD_LABELS: Readonly<Record<string, string>> = {
  card: 'Card', paypal: 'PayPal', apple_pay: 'Apple Pay', google_pay: 'Google Pay',
};
