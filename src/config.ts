/**
 * Every route and business constant of the product spec, in one place (spec §2, §4, §9).
 * Pure data: imported by the browser app, the machines and the server alike.
 */

export const ROUTES = {
  login: '/',
  logout: '/logout',
  forgotPassword: '/forgot-password',
  verifyNumber: '/verify-number',
  resetPassword: '/reset-password',
  forbidden: '/forbidden',
  analytics: '/analytics',
  content: '/content',
  contentDetail: '/content/$contentType/$id',
  monetization: '/monetization/models',
  users: '/users',
  appcms: '/appcms',
  admin: '/admin',
} as const;

export type AppPath = string;

/** Areas of spec §6, with the exact names the roles map uses. */
export const AREAS = {
  dashboard360: 'Dashboard 360',
  content: 'Content',
  subscriptionsOffers: 'Subscriptions & Offers',
  customerSupport: 'Customer Support',
  appCms: 'App CMS',
  admin: 'Admin',
} as const;
export type AreaName = (typeof AREAS)[keyof typeof AREAS];
export const AREA_NAMES: readonly AreaName[] = Object.values(AREAS);

export const ACCESS_LEVELS = ['read', 'write', 'contributor'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
/** Levels that allow continuing into an area (spec §6). */
export const CONTINUE_LEVELS: readonly AccessLevel[] = ['read', 'write', 'contributor'];
/** Levels that allow editing (spec §6). */
export const EDIT_LEVELS: readonly AccessLevel[] = ['write', 'contributor'];

/** Landing order of spec §2.3: the first area the user may access wins. */
export const LANDING_ORDER: readonly { area: AreaName; route: string }[] = [
  { area: AREAS.dashboard360, route: ROUTES.analytics },
  { area: AREAS.content, route: ROUTES.content },
  { area: AREAS.subscriptionsOffers, route: ROUTES.monetization },
  { area: AREAS.customerSupport, route: ROUTES.users },
  { area: AREAS.appCms, route: ROUTES.appcms },
  { area: AREAS.admin, route: ROUTES.admin },
];

/** Top navigation tabs of spec §2.4, each shown only with a role in its area. */
export const NAV_TABS: readonly { label: string; route: string; area: AreaName }[] = [
  { label: 'Dashboard 360', route: ROUTES.analytics, area: AREAS.dashboard360 },
  { label: 'Content', route: ROUTES.content, area: AREAS.content },
  { label: 'Monetization', route: ROUTES.monetization, area: AREAS.subscriptionsOffers },
  { label: 'AppCMS', route: ROUTES.appcms, area: AREAS.appCms },
  { label: 'Users', route: ROUTES.users, area: AREAS.customerSupport },
];

/** Public routes of spec §2.1: no session verification, no inactivity timer. */
export const PUBLIC_ROUTES: readonly string[] = ['/', '/logout', '/forgot-password', '/verify-number', '/reset-password'];

/** Routes without the header (spec §2.9); content detail is matched by prefix. */
export const HEADER_HIDDEN_ROUTES: readonly string[] = [
  '/', '/reset-password', '/forgot-password', '/logout', '/verify-number', '/forbidden',
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

/** Content menu of spec §2.6: external entries, all pointing at '/'. */
export const CONTENT_MENU: readonly { label: string; href: string }[] = [
  { label: 'Library', href: '/' },
  { label: 'Create New', href: '/' },
  { label: 'Video License', href: '/' },
  { label: 'Country Group', href: '/' },
];

export const SOCIAL_PROVIDERS = ['google', 'microsoft'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

/** Business constants of spec §9. */
export const API_TIMEOUT_MS = 500000;
export const MESSAGE_DISPLAY_MS = 3000;
export const OTP_SNACKBAR_MS = 5000;
export const SNACKBAR_MAX_WIDTH = '40rem';
export const DIALOG_MAX_WIDTH = '30rem';
export const INACTIVITY_TIMEOUT_MINUTES_DEFAULT = 120;
export const INACTIVITY_HELPER_DEFAULT_MINUTES = 30;
export const INACTIVITY_WARNING_MS = 60_000;
export const TOKEN_FALLBACK_LIFETIME_MS = 432e5;
export const MIN_PASSWORD_LENGTH = 8;
export const OTP_LENGTH = 6;
export const OTP_RESEND_COOLDOWN_S = 30;
export const AUTH_TOKEN_MAX_AGE_S = 300;
export const IDP_TOKEN_REFRESH_MARGIN_S = 30;
export const IDP_POPUP_CLOSE_DELAY_MS = 8000;
export const IDP_STORAGE_POLL_MS = 1000;
export const IDP_PASSWORD_MIN_LENGTH_DEFAULT = 6;
export const APP_TITLE = 'CMS Tools';
export const APP_DESCRIPTION = 'CMS Tools';

/** Names of the client-side session values of spec §3. */
export const COOKIE_NAMES = {
  accessToken: 'accessToken',
  managementKey: 'xApiKey',
  site: 'site',
  deviceId: 'deviceId',
  roles: 'roles',
  defaultTimezone: 'defaultTimezone',
  username: 'username',
} as const;
export const SESSION_STORAGE_KEYS = {
  cloudProvider: 'cloudProvider',
  selectedNetwork: 'selectedNetwork',
  username: 'otpUsername',
} as const;
export const LOCAL_STORAGE_KEYS = {
  roles: 'roles',
  profile: 'profile',
  accessFlags: 'accessFlags',
} as const;

/** API paths (spec §7). */
export const API_PATHS = {
  login: '/v3.0/user/auth/login',
  generateOtp: '/v3.0/user/auth/generate/otp',
  verifyOtp: '/v3.0/user/auth/otp/verify',
  forgotPassword: '/v3.0/user/auth/forgot-password',
  resetPassword: '/v3.0/user/auth/reset-password',
  loginInfo: '/v3.0/user/auth/login/info',
  logout: '/v3.0/user/auth/logout',
  verify: '/api/auth/verify',
  verifySite: '/api/auth/verify/site',
  device: '/api/auth/device',
  graphql: '/management/graphql',
  appcmsNetworkData: '/v4.0/appcms',
  devOutbox: '/__dev/outbox',
} as const;
