/**
 * Every route of spec §2 (TanStack Router, code-based). The router gets the stable root actor in its
 * context; the protected layout's guard waits for the auth actor to settle and redirects a visitor
 * without a session to '/', and a user without a role in an area to their landing route.
 */
import {
  createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, redirect,
} from '@tanstack/react-router';
import { waitFor, type ActorRefFrom } from 'xstate';
import { selectIsRestoring, selectIsSignedIn, selectRoles, type AuthMachine } from '../machines/auth.machine';
import { areaForPath, canContinue, landingRouteFor } from '../machines/roles';
import { ANALYTICS_GROUPS, APPCMS_PAGES, MONETIZATION_TABS, ROUTES } from './config';
import type { RootActor } from './app-actor';
import { RootLayout } from './views/layout/RootLayout';
import { ProtectedLayout } from './views/layout/ProtectedLayout';
import { NotFoundPage } from './views/pages/NotFoundPage';
import { CrashScreen } from './views/shared/CrashScreen';
import { EmptyStatePage } from './views/shared/EmptyState';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    title?: string;
  }
}

export interface RouterContext {
  root: RootActor;
}

function authActor(root: RootActor): ActorRefFrom<AuthMachine> {
  return root.system.get('auth') as ActorRefFrom<AuthMachine>;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: CrashScreen,
});

/** Public routes (spec §2.1): no session verification. A signed-in user on '/' goes to the landing route. */
const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: async ({ context }) => {
    const auth = authActor(context.root);
    const settled = await waitFor(auth, (s) => !selectIsRestoring(s));
    if (selectIsSignedIn(settled)) throw redirect({ to: landingRouteFor(selectRoles(settled)) });
  },
  component: lazyRouteComponent(() => import('./views/auth/LoginPage'), 'LoginPage'),
});
const logoutRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/logout', staticData: { title: 'Signing out' },
  component: lazyRouteComponent(() => import('./views/auth/LogoutPage'), 'LogoutPage'),
});
const forgotRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/forgot-password', staticData: { title: 'Forgot password' },
  component: lazyRouteComponent(() => import('./views/auth/ForgotPasswordPage'), 'ForgotPasswordPage'),
});
const verifyRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/verify-number', staticData: { title: 'Verify OTP' },
  component: lazyRouteComponent(() => import('./views/auth/VerifyNumberPage'), 'VerifyNumberPage'),
});
const resetRoute = createRoute({
  getParentRoute: () => rootRoute, path: '/reset-password', staticData: { title: 'Reset password' },
  component: lazyRouteComponent(() => import('./views/auth/ResetPasswordPage'), 'ResetPasswordPage'),
});

/** Everything else needs a session; each area needs a role in it. */
const protectedRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'protected',
  beforeLoad: async ({ context, location }) => {
    const auth = authActor(context.root);
    const settled = await waitFor(auth, (s) => !selectIsRestoring(s));
    if (!selectIsSignedIn(settled)) throw redirect({ to: ROUTES.login });
    const roles = selectRoles(settled);
    const area = areaForPath(location.pathname);
    if (area && !canContinue(roles, area)) throw redirect({ to: landingRouteFor(roles) });
  },
  component: ProtectedLayout,
});

const page = (path: string, title: string) => createRoute({
  getParentRoute: () => protectedRoute,
  path,
  staticData: { title },
  component: () => <EmptyStatePage title={title} />,
});

const forbiddenRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/forbidden', staticData: { title: 'No access' },
  component: lazyRouteComponent(() => import('./views/pages/ForbiddenPage'), 'ForbiddenPage'),
});

const analyticsRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/analytics',
  component: lazyRouteComponent(() => import('./views/pages/AnalyticsLayout'), 'AnalyticsLayout'),
});
const analyticsPages = ANALYTICS_GROUPS.flatMap((g) => g.pages).map((p) => createRoute({
  getParentRoute: () => analyticsRoute,
  path: p.path === '/analytics' ? '/' : p.path.replace('/analytics/', ''),
  staticData: { title: `${p.title} · Dashboard 360` },
  component: () => <EmptyStatePage title={p.title} />,
}));

const contentRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/content', staticData: { title: 'Content' },
  component: lazyRouteComponent(() => import('./views/pages/ContentPage'), 'ContentPage'),
});
const contentDetailRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/content/$contentType/$id', staticData: { title: 'Content detail' },
  component: lazyRouteComponent(() => import('./views/pages/ContentDetailPage'), 'ContentDetailPage'),
});

const monetizationRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/monetization',
  component: lazyRouteComponent(() => import('./views/pages/MonetizationLayout'), 'MonetizationLayout'),
});
const monetizationIndex = createRoute({
  getParentRoute: () => monetizationRoute, path: '/',
  beforeLoad: () => { throw redirect({ to: ROUTES.monetization }); },
});
const monetizationPages = MONETIZATION_TABS.map((t) => createRoute({
  getParentRoute: () => monetizationRoute,
  path: t.route.replace('/monetization/', ''),
  staticData: { title: `${t.title} · Monetization` },
  component: () => <EmptyStatePage title={t.title} />,
}));

const appcmsRoute = createRoute({
  getParentRoute: () => protectedRoute, path: '/appcms',
  component: lazyRouteComponent(() => import('./views/pages/AppCmsLayout'), 'AppCmsLayout'),
});
const appcmsIndex = createRoute({
  getParentRoute: () => appcmsRoute, path: '/', staticData: { title: 'AppCMS' },
  component: () => <EmptyStatePage title="AppCMS" detail="Choose a section on the left: Template, Brand, Settings, Devices or Service." />,
});
/** Brand, Settings and Devices show the selected network's data; the other sections are not built yet. */
const APPCMS_NETWORK_PAGES: Record<string, ReturnType<typeof lazyRouteComponent>> = {
  '/appcms/brand': lazyRouteComponent(() => import('./views/appcms/BrandPage'), 'BrandPage'),
  '/appcms/settings': lazyRouteComponent(() => import('./views/appcms/SettingsPage'), 'SettingsPage'),
  '/appcms/devices': lazyRouteComponent(() => import('./views/appcms/DevicesPage'), 'DevicesPage'),
};
const appcmsPages = APPCMS_PAGES.map((p) => createRoute({
  getParentRoute: () => appcmsRoute,
  path: p.path.replace('/appcms/', ''),
  staticData: { title: `${p.title} · AppCMS` },
  component: APPCMS_NETWORK_PAGES[p.path] ?? (() => <EmptyStatePage title={p.title} />),
}));

const routeTree = rootRoute.addChildren([
  loginRoute, logoutRoute, forgotRoute, verifyRoute, resetRoute,
  protectedRoute.addChildren([
    forbiddenRoute,
    analyticsRoute.addChildren(analyticsPages),
    contentRoute, contentDetailRoute,
    monetizationRoute.addChildren([monetizationIndex, ...monetizationPages]),
    page('/users', 'Users'),
    appcmsRoute.addChildren([appcmsIndex, ...appcmsPages]),
    page('/admin', 'Admin'),
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
