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
  adminAudit: '/admin/audit',
  setPassword: '/set-password',
  /** The signed-in user's own active sessions (issue 19, ASVS 7.4.5). */
  accountSessions: '/account/sessions',
} as const;

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
export const PUBLIC_ROUTES: readonly string[] = ['/', '/logout', '/forgot-password', '/verify-number', '/reset-password', '/set-password'];

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
  /** The proof of a login waiting for its SMS code, sent with a resend (SECURITY.md C-OTP-3). */
  loginAttempt: 'otpLoginAttempt',
  /** Create New's form kept across a reload (issue 38); cleared with the session like the rest. */
  contentCreateDraft: 'contentCreateDraft',
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
  /** Content library (spec §7.5 `content/`): list, one item, edit, bulk status. */
  content: '/v2.0/content',
  /** Live items of the library (spec §7.5 `live/video`). */
  liveVideo: '/v2.0/live/video',
  devOutbox: '/__dev/outbox',
  /** The Admin area (spec §7.3 "user/admin"): staff, roles, sessions, audit log. */
  admin: '/v3.0/user/admin',
  /** The signed-in user's own sessions (issue 19): GET lists them, DELETE /:sessionId ends one. */
  accountSessions: '/v3.0/user/account/sessions',
} as const;

/**
 * Playback histograms of the daily rollups (server/db/rollups.ts). Each list holds ascending
 * bucket bounds; a histogram has bounds.length + 1 counts: bucket 0 counts values below the first
 * bound, bucket i values in [bounds[i-1], bounds[i]), the last bucket values at or above the last
 * bound (PostgreSQL width_bucket semantics). Fixed bounds keep histograms additive across days,
 * networks and keys, so a report can merge any slice by adding counts.
 */
/** Startup time of a session in milliseconds: <0.5 s, 0.5–1 s, 1–2 s, 2–4 s, 4–8 s, ≥8 s. */
export const STARTUP_MS_BUCKETS: readonly number[] = [500, 1000, 2000, 4000, 8000];
/**
 * Rebuffer ratio of a session, rebuffer seconds / (watched + rebuffer seconds):
 * <0.1 %, 0.1–1 %, 1–2 %, 2–5 %, 5–10 %, ≥10 %.
 */
export const REBUFFER_RATIO_BUCKETS: readonly number[] = [0.001, 0.01, 0.02, 0.05, 0.1];
/** The dimensions of daily_playback_rollups ('all' has the key ''). */
export const PLAYBACK_DIMENSIONS = ['all', 'content', 'device', 'country', 'isp', 'cdn', 'plan'] as const;
export type PlaybackDimension = (typeof PLAYBACK_DIMENSIONS)[number];
/** dim_key of the 'plan' dimension (and plan_id of payment rollups) when a viewer has no plan. */
export const NO_PLAN_KEY = '00000000-0000-0000-0000-000000000000';
