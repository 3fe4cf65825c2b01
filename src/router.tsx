/**
 * Every route of spec §2 (TanStack Router, code-based). The router gets the stable root actor in its
 * context. Where a page may open is the sign-in machine's decision (machines/auth.machine.ts): the
 * sign-in and protected routes' guards wait for it to settle, send it `route.check` and follow its
 * answer (`selectRouteDecision`): sign-in for a visitor without a session (remembered for after it),
 * the landing route for a signed-in user on '/', the two-factor page while an enrolment is due,
 * /forbidden for an area without a role.
 */
import {
  createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, redirect,
} from '@tanstack/react-router';
import { validateLibrarySearch } from '../common/content-library-search';
import { validateAuditSearch } from '../common/audit-search';
import { validateListQuerySearch, validateListSearch, type ListQuerySearch } from '../common/list-search';
import { COUPON_STATUSES, OFFER_STATUSES, PLAN_STATUSES } from '../common/monetization-rules';
import { waitFor, type ActorRefFrom } from 'xstate';
import { selectIsRestoring, selectRouteDecision, type AuthMachine } from '../machines/auth.machine';
import { selectAreaActorsStatus } from '../machines/app.machine';
import { TOTP_ROUTES } from '../common/totp';
import { ANALYTICS_GROUPS, APPCMS_PAGES, MONETIZATION_TABS } from './config';
import { AREAS, ROUTES, type AreaName } from '../common/constants';
import { systemActor, type RootActor } from './app-actor';
import { validateLogoutSearch, validateTokenSearch, validateVerifySearch } from './route-search';
import type { NetworkDataKind } from '../common/contract';
import { RootLayout } from './views/layout/RootLayout';
import { NotFoundPage } from './views/pages/NotFoundPage';
import { CrashScreen } from './views/shared/CrashScreen';
import { validateAnalyticsSearch } from './views/analytics/search';
import { validateUsersSearch } from './views/support/search';
import { validateCreateSearch } from './views/content/create-search';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    title?: string;
  }
  interface HistoryState {
    /** The monetization editor a created record keeps open (its key stays, so the editor is not remounted). */
    editorKey?: string;
  }
}

export interface RouterContext {
  root: RootActor;
}

function authActor(root: RootActor): ActorRefFrom<AuthMachine> {
  return systemActor(root, 'auth');
}

/**
 * Asks the sign-in machine whether the page at `location` may open (once a stored session is read) and
 * redirects where it says instead. The guard holds no rule of its own.
 */
async function followAuthDecision(root: RootActor, location: { pathname: string; href: string }): Promise<void> {
  const auth = authActor(root);
  await waitFor(auth, (s) => !selectIsRestoring(s));
  auth.send({ type: 'route.check', path: location.pathname, href: location.href });
  const decision = selectRouteDecision(auth.getSnapshot());
  if (decision.kind === 'forbidden') throw redirect({ to: ROUTES.forbidden, search: { area: decision.area } });
  if (decision.kind === 'redirect') throw redirect({ to: decision.to });
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: CrashScreen,
});

/** Public routes (spec §2.1): no session verification. A signed-in user on '/' goes to the landing route. */
const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/', staticData: { title: 'Sign in' },
  beforeLoad: ({ context, location }) => followAuthDecision(context.root, location),
  component: lazyRouteComponent(() => import('./views/auth/LoginPage'), 'LoginPage'),
});
/** Reaching /logout ends the session at once, whoever sent the user here (spec §2.2, §4.4). */
const logoutRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/logout', staticData: { title: 'Signing out' },
  validateSearch: validateLogoutSearch,
  onEnter: ({ context, search }) => systemActor(context.root, 'logout').send(
    search.reason ? { type: 'logout.now', reason: search.reason } : { type: 'logout.now' },
  ),
  component: lazyRouteComponent(() => import('./views/auth/LogoutPage'), 'LogoutPage'),
});
/** With ?token=, the header Change Password flow's new-password form: the token goes to its machine. */
const forgotRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/forgot-password', staticData: { title: 'Forgot password' },
  validateSearch: validateTokenSearch,
  beforeLoad: ({ context, search }) => {
    if (search.token) systemActor(context.root, 'passwordChange').send({ type: 'reset.open', token: search.token, mode: 'change' });
  },
  component: lazyRouteComponent(() => import('./views/auth/ForgotPasswordPage'), 'ForgotPasswordPage'),
});
const verifyRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/verify-number', staticData: { title: 'Verify OTP' },
  validateSearch: validateVerifySearch,
  component: lazyRouteComponent(() => import('./views/auth/VerifyNumberPage'), 'VerifyNumberPage'),
});
/** The forgot flow's new-password form: the link's token goes to its machine. */
const resetRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/reset-password', staticData: { title: 'Reset password' },
  validateSearch: validateTokenSearch,
  beforeLoad: ({ context, search }) => {
    if (search.token) systemActor(context.root, 'passwordReset').send({ type: 'reset.open', token: search.token });
  },
  component: lazyRouteComponent(() => import('./views/auth/ResetPasswordPage'), 'ResetPasswordPage'),
});

/** The one-time link of a new staff account (issue 18): public, like the reset page. */
const setPasswordRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/set-password', staticData: { title: 'Set your password' },
  validateSearch: validateTokenSearch,
  component: lazyRouteComponent(() => import('./views/admin/SetPasswordPage'), 'SetPasswordPage'),
});

/** Everything else needs a session; each area needs a role in it. */
const protectedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'protected',
  beforeLoad: async ({ context, location }) => {
    // Sign-in (which returns here afterwards), the two-factor set-up, or /forbidden: the machine decides.
    await followAuthDecision(context.root, location);
    // The area actors (network, content library) are spawned after the sign-in, their code loaded on
    // demand (issue 26): the signed-in pages start once they are there (the root retries a failed load).
    context.root.send({ type: 'areas.load' });
    const areas = await waitFor(context.root, (s) => selectAreaActorsStatus(s) !== 'loading');
    if (selectAreaActorsStatus(areas) !== 'ready') throw new Error('The console\'s code did not load. Reload the page.');
  },
  // Lazy (issue 21): its dialogs (Radix dialog) are not part of the sign-in page's first load.
  component: lazyRouteComponent(() => import('./views/layout/ProtectedLayout'), 'ProtectedLayout'),
});

const forbiddenRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/forbidden', staticData: { title: 'No access' },
  validateSearch: (search: Record<string, unknown>): { area?: AreaName } =>
    (Object.values(AREAS) as string[]).includes(String(search.area)) ? { area: search.area as AreaName } : {},
  component: lazyRouteComponent(() => import('./views/pages/ForbiddenPage'), 'ForbiddenPage'),
});

/** Dashboard 360: filters live in validated search params; the charts chunk loads only here. */
const analyticsRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/analytics', staticData: { title: 'Dashboard 360' },
  // An unknown path under the area keeps the area's frame (its tabs or side navigation) around the not-found page.
  notFoundComponent: NotFoundPage,
  validateSearch: validateAnalyticsSearch,
  component: lazyRouteComponent(() => import('./views/analytics/AnalyticsRoutes'), 'AnalyticsLayout'),
});
const analyticsPages = ANALYTICS_GROUPS.flatMap((g) => g.pages).map((p) => createRoute({
  getParentRoute: () => analyticsRoute,
  path: p.path === '/analytics' ? '/' : p.path.replace('/analytics/', ''),
  staticData: { title: `${p.title} · Dashboard 360` },
  component: p.path === '/analytics'
    ? lazyRouteComponent(() => import('./views/analytics/AnalyticsRoutes'), 'AnalyticsOverviewRoute')
    : lazyRouteComponent(() => import('./views/analytics/AnalyticsRoutes'), 'AnalyticsDetailRoute'),
}));
/** Issue 41: the sessions behind a QoS figure (range and filters in the search) and one view's timeline. */
const analyticsViewsRoute = createRoute({
  getParentRoute: () => analyticsRoute, path: 'views', staticData: { title: 'Views · Dashboard 360' },
  component: lazyRouteComponent(() => import('./views/analytics/AnalyticsRoutes'), 'QoeViewsRoute'),
});
// Issue 41: alerts (incidents, rules, settings) and saved views; /analytics/saved/$viewId opens a view's page with its search.
const analyticsAlertsRoute = createRoute({
  getParentRoute: () => analyticsRoute, path: 'alerts', staticData: { title: 'Alerts · Dashboard 360' },
  component: lazyRouteComponent(() => import('./views/analytics/alerts/AlertsRoutes'), 'AlertsRoute'),
});
const analyticsSavedRoute = createRoute({
  getParentRoute: () => analyticsRoute, path: 'saved', staticData: { title: 'Saved views · Dashboard 360' },
  component: lazyRouteComponent(() => import('./views/analytics/alerts/AlertsRoutes'), 'SavedViewsRoute'),
});
const analyticsSavedViewRoute = createRoute({
  getParentRoute: () => analyticsRoute, path: 'saved/$viewId', staticData: { title: 'Saved view · Dashboard 360' },
  component: lazyRouteComponent(() => import('./views/analytics/alerts/AlertsRoutes'), 'SavedViewRoute'),
});
const analyticsViewRoute = createRoute({
  getParentRoute: () => analyticsRoute, path: 'views/$sessionId', staticData: { title: 'One view · Dashboard 360' },
  component: lazyRouteComponent(() => import('./views/analytics/AnalyticsRoutes'), 'QoeViewRoute'),
});

const contentRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/content', staticData: { title: 'Content' },
  // Tab, search, status, sort and page (issue 29): typed, unknown values dropped; the contentBrowser machine reads them.
  validateSearch: validateLibrarySearch,
  component: lazyRouteComponent(() => import('./views/content/ContentLibraryPage'), 'ContentLibraryPage'),
});
// Create New (issue 29; the spec's external entry, built here): kind, and an episode's series and season.
const contentCreateRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/content/new', staticData: { title: 'Create content' },
  validateSearch: validateCreateSearch,
  component: lazyRouteComponent(() => import('./views/content/ContentCreatePage'), 'ContentCreatePage'),
});
// Content › Country groups and Video licences (issue 29; the spec's external entries, built here): `?edit=<id>` or `new` opens the editor.
const contentCountryGroupsRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/content/country-groups', staticData: { title: 'Country groups · Content' },
  validateSearch: (search: Record<string, unknown>): RecordListSearch => validateRecordList([])(search),
  component: lazyRouteComponent(() => import('./views/content/CountryGroupsPage'), 'CountryGroupsPage'),
});
const contentLicencesRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/content/licences', staticData: { title: 'Video licences · Content' },
  validateSearch: (search: Record<string, unknown>): RecordListSearch => validateRecordList([])(search),
  component: lazyRouteComponent(() => import('./views/content/LicencesPage'), 'LicencesPage'),
});
// Content › Media (issue 40): the site's videos and one video's page (hls.js loads with the preview, never before).
const contentMediaRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/content/media', staticData: { title: 'Media · Content' },
  component: lazyRouteComponent(() => import('./views/media/MediaLibraryPage'), 'MediaLibraryPage'),
});
const contentMediaAssetRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/content/media/$assetId', staticData: { title: 'Video · Media' },
  component: lazyRouteComponent(() => import('./views/media/MediaAssetPage'), 'MediaAssetPage'),
});
const contentDetailRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/content/$contentType/$id', staticData: { title: 'Content detail' },
  component: lazyRouteComponent(() => import('./views/content/ContentDetailPage'), 'ContentDetailPage'),
});

const monetizationRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/monetization', staticData: { title: 'Monetization' },
  // An unknown path under the area keeps the area's frame (its tabs or side navigation) around the not-found page.
  notFoundComponent: NotFoundPage,
  component: lazyRouteComponent(() => import('./views/pages/MonetizationLayout'), 'MonetizationLayout'),
});
const monetizationIndex = createRoute({
  getParentRoute: () => monetizationRoute, path: '/',
  beforeLoad: () => { throw redirect({ to: ROUTES.monetization }); },
});
/** `?edit=<id>` (or `new`) opens the editor beside a list. */
export interface EditSearch {
  edit?: string;
}
const validateEditSearch = (search: Record<string, unknown>): EditSearch =>
  (typeof search.edit === 'string' && search.edit !== '' ? { edit: search.edit } : {});
/** A list page's address (issue 38): the open record and the list's search, status and page (Monetization, Content's lists). */
export type RecordListSearch = EditSearch & ListQuerySearch;
const validateRecordList = (statuses: readonly string[]) => (search: Record<string, unknown>): RecordListSearch => ({
  ...validateEditSearch(search), ...validateListQuerySearch(search, statuses),
});
const monetizationTitle = (key: string) => `${MONETIZATION_TABS.find((t) => t.key === key)?.title ?? key} · Monetization`;
/**
 * The five tabs of src/config.ts's MONETIZATION_TABS, each written out so its path is a literal the
 * router's types know (`Link to="/monetization/plans" search={{ edit }}` is checked).
 */
const monetizationModels = createRoute({
  getParentRoute: () => monetizationRoute, path: 'models', staticData: { title: monetizationTitle('models') },
  validateSearch: validateEditSearch,
  component: lazyRouteComponent(() => import('./views/monetization/ModelsPage'), 'ModelsPage'),
});
const monetizationPlans = createRoute({
  getParentRoute: () => monetizationRoute, path: 'plans', staticData: { title: monetizationTitle('plans') },
  validateSearch: validateRecordList(PLAN_STATUSES),
  component: lazyRouteComponent(() => import('./views/monetization/PlansPage'), 'PlansPage'),
});
const monetizationPlanGroups = createRoute({
  getParentRoute: () => monetizationRoute, path: 'planGroups', staticData: { title: monetizationTitle('planGroups') },
  validateSearch: validateRecordList([]),
  component: lazyRouteComponent(() => import('./views/monetization/PlanGroupsPage'), 'PlanGroupsPage'),
});
const monetizationOffers = createRoute({
  getParentRoute: () => monetizationRoute, path: 'offers', staticData: { title: monetizationTitle('offers') },
  validateSearch: validateRecordList(OFFER_STATUSES),
  component: lazyRouteComponent(() => import('./views/monetization/OffersPage'), 'OffersPage'),
});
/**
 * Coupons have no per-code editor: `?history=<couponId>` shows that code's History beside the list;
 * `?search=<code>` opens the list searched for it (issue 38: the audit log links to a coupon so).
 */
export interface CouponSearch extends ListQuerySearch {
  history?: string;
}
const validateCouponSearch = (search: Record<string, unknown>): CouponSearch => ({
  ...(typeof search.history === 'string' && search.history !== '' ? { history: search.history } : {}),
  ...validateListQuerySearch(search, COUPON_STATUSES),
});
const monetizationCoupons = createRoute({
  getParentRoute: () => monetizationRoute, path: 'coupon', staticData: { title: monetizationTitle('coupon') },
  validateSearch: validateCouponSearch,
  component: lazyRouteComponent(() => import('./views/monetization/CouponsPage'), 'CouponsPage'),
});
/** The page of each tab key of MONETIZATION_TABS (the monetization browser test opens all five). */
const MONETIZATION_PAGES: Record<string, (typeof monetizationPages)[number]> = {
  models: monetizationModels, plans: monetizationPlans, planGroups: monetizationPlanGroups, offers: monetizationOffers, coupon: monetizationCoupons,
};
const monetizationPages = [monetizationModels, monetizationPlans, monetizationPlanGroups, monetizationOffers, monetizationCoupons] as const;
// Every tab of the menu has its page; a new tab without one fails at start, not in front of an operator.
for (const tab of MONETIZATION_TABS) {
  if (!MONETIZATION_PAGES[tab.key]) throw new Error(`Monetization tab ${tab.route} has no page`);
}

/** `?network=<identifier>` on an AppCMS page: the network to open it on (the audit log links there). */
export interface NetworkSearch { network?: string }
const validateNetworkSearch = (search: Record<string, unknown>): NetworkSearch =>
  (typeof search.network === 'string' && search.network !== '' ? { network: search.network } : {});

const appcmsRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/appcms', staticData: { title: 'AppCMS' },
  // An unknown path under the area keeps the area's frame (its tabs or side navigation) around the not-found page.
  notFoundComponent: NotFoundPage,
  component: lazyRouteComponent(() => import('./views/pages/AppCmsLayout'), 'AppCmsLayout'),
});
const appcmsIndex = createRoute({
  getParentRoute: () => appcmsRoute, path: '/', staticData: { title: 'AppCMS' },
  // ?network=<identifier> (the audit log's link to a network, issue 28) opens the overview on it.
  validateSearch: validateNetworkSearch,
  onEnter: ({ context, search }) => {
    if (search.network) systemActor(context.root, 'network').send({ type: 'network.select', identifier: search.network });
  },
  // The overview: each section's current data in one line, with a link to its page.
  component: lazyRouteComponent(() => import('./views/appcms/OverviewPage'), 'AppcmsOverviewPage'),
});
/**
 * Brand, Settings and Devices edit the selected network's data; Template and Service edit the site.
 * While one is open the `network` actor knows which kind it shows, and reads it for the current network.
 */
const APPCMS_NETWORK_PAGES: Record<string, { kind: NetworkDataKind; component: ReturnType<typeof lazyRouteComponent> }> = {
  '/appcms/brand': { kind: 'brand', component: lazyRouteComponent(() => import('./views/appcms/BrandPage'), 'BrandPage') },
  '/appcms/settings': { kind: 'settings', component: lazyRouteComponent(() => import('./views/appcms/SettingsPage'), 'SettingsPage') },
  '/appcms/devices': { kind: 'device', component: lazyRouteComponent(() => import('./views/appcms/DevicesPage'), 'DevicesPage') },
};
/** Template and Service edit the site (the service), not one network. */
const APPCMS_SITE_PAGES: Record<string, ReturnType<typeof lazyRouteComponent>> = {
  '/appcms/template': lazyRouteComponent(() => import('./views/appcms/TemplatePage'), 'TemplatePage'),
  '/appcms/service': lazyRouteComponent(() => import('./views/appcms/ServicePage'), 'ServicePage'),
};
const appcmsPages = APPCMS_PAGES.map((p) => {
  const networkPage = APPCMS_NETWORK_PAGES[p.path];
  const component = networkPage?.component ?? APPCMS_SITE_PAGES[p.path];
  // Every AppCMS section of the menu has its page; a new menu entry without one fails at start, not in front of an operator.
  if (!component) throw new Error(`AppCMS section ${p.path} has no page`);
  return createRoute({
    getParentRoute: () => appcmsRoute,
    path: p.path.replace('/appcms/', ''),
    staticData: { title: `${p.title} · AppCMS` },
    ...(networkPage ? {
      // ?network=<identifier> (the audit log's links, issue 28) opens the page on that network.
      validateSearch: validateNetworkSearch,
      onEnter: ({ context, search }: { context: RouterContext; search: NetworkSearch }) => {
        const network = systemActor(context.root, 'network');
        if (search.network) network.send({ type: 'network.select', identifier: search.network });
        network.send({ type: 'network.view', kind: networkPage.kind });
      },
      onLeave: ({ context }: { context: RouterContext }) => systemActor(context.root, 'network').send({ type: 'network.view', kind: null }),
    } : {}),
    component,
  });
});

/** Users (issue 16): the search runs in the layout, so it survives opening a subscriber. */
const usersRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/users', staticData: { title: 'Users' },
  // The list's subscription filters (issue 27): ?state=paying&plan=<id>&network=<identifier>.
  validateSearch: validateUsersSearch,
  // An unknown path under the area keeps the area's frame (its tabs or side navigation) around the not-found page.
  notFoundComponent: NotFoundPage,
  component: lazyRouteComponent(() => import('./views/support/UsersLayout'), 'UsersLayout'),
});
const usersSearchRoute = createRoute({
  getParentRoute: () => usersRoute, path: '/', staticData: { title: 'Users' },
  component: lazyRouteComponent(() => import('./views/support/SubscriberSearchPage'), 'SubscriberSearchPage'),
});
const subscriberRoute = createRoute({
  getParentRoute: () => usersRoute, path: '$subscriberId', staticData: { title: 'Subscriber · Users' },
  component: lazyRouteComponent(() => import('./views/support/SubscriberPage'), 'SubscriberPage'),
});

/** Admin (issue 18): Staff and Audit log. */
const adminRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/admin', staticData: { title: 'Admin' },
  // An unknown path under the area keeps the area's frame (its tabs or side navigation) around the not-found page.
  notFoundComponent: NotFoundPage,
  component: lazyRouteComponent(() => import('./views/admin/AdminLayout'), 'AdminLayout'),
});
const adminStaffRoute = createRoute({
  getParentRoute: () => adminRoute, path: '/', staticData: { title: 'Staff · Admin' },
  // The list's search (issue 38): ?search=<text>; the audit log links to an account so.
  validateSearch: validateListSearch,
  component: lazyRouteComponent(() => import('./views/admin/StaffPage'), 'StaffPage'),
});
const adminAuditRoute = createRoute({
  getParentRoute: () => adminRoute, path: '/audit', staticData: { title: 'Audit log · Admin' },
  // The applied filters and page (issue 38): ?area=&action=&who=&objectKind=&object=&from=&to=&page=.
  validateSearch: validateAuditSearch,
  component: lazyRouteComponent(() => import('./views/admin/AuditPage'), 'AuditPage'),
});

/** The signed-in user's own sessions (issue 19): any role, reached from the user menu. */
const accountSessionsRoute = createRoute({
  getParentRoute: () => protectedRoute, path: ROUTES.accountSessions, staticData: { title: 'My sessions' },
  component: lazyRouteComponent(() => import('./views/account/OwnSessionsPage'), 'OwnSessionsPage'),
});

/** The signed-in user's authenticator app (issue 19): any role, reached from the user menu. */
const accountSecurityRoute = createRoute({
  getParentRoute: () => protectedRoute, path: TOTP_ROUTES.accountSecurity, staticData: { title: 'Two-factor authentication' },
  component: lazyRouteComponent(() => import('./views/account/TwoFactorPage'), 'TwoFactorPage'),
});

/** Every route of the console; exported for the view tests' mirror of the route a view is shown at (src/test-harness/app-routes.ts). */
export const routeTree = rootRoute.addChildren([
  loginRoute, logoutRoute, forgotRoute, verifyRoute, resetRoute, setPasswordRoute,
  protectedRoute.addChildren([
    forbiddenRoute,
    analyticsRoute.addChildren([...analyticsPages, analyticsViewsRoute, analyticsViewRoute, analyticsAlertsRoute, analyticsSavedRoute, analyticsSavedViewRoute]),
    contentRoute, contentCreateRoute, contentCountryGroupsRoute, contentLicencesRoute, contentMediaRoute, contentMediaAssetRoute, contentDetailRoute,
    monetizationRoute.addChildren([monetizationIndex, ...monetizationPages]),
    usersRoute.addChildren([usersSearchRoute, subscriberRoute]),
    appcmsRoute.addChildren([appcmsIndex, ...appcmsPages]),
    adminRoute.addChildren([adminStaffRoute, adminAuditRoute]),
    accountSessionsRoute, accountSecurityRoute,
  ]),
]);

export function createAppRouter(root: RootActor) {
  return createRouter({
    routeTree,
    context: { root },
    defaultPreload: false,
    defaultNotFoundComponent: NotFoundPage,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * What src/main.tsx takes from this module, which it loads with a dynamic import() (issue 26: the
 * sign-in page's first paint has no router): the provider and the signed-in frame's preload.
 */
export { RouterProvider } from '@tanstack/react-router';
export { routerNavigator } from './adapters/router-navigator';
export { preloadShell } from './views/layout/RootLayout';
/** Dashboard 360's code (the usual landing), fetched while the sign-in page is idle (src/main.tsx). */
export function preloadLanding(): Promise<unknown> {
  return import('./views/analytics/AnalyticsRoutes');
}

/**
 * The router's type for every `Link`, `useNavigate`, `useSearch({ from })` and `getRouteApi(id)`:
 * paths, params and search params are checked against the route tree above. Views reach a route's
 * typed hooks with `getRouteApi('<route id>')` (no import of this file, so no import cycle).
 */
declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
