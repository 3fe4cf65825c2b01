/**
 * Browser entry: one root actor system; the router with that actor in its context, and the router's
 * reports (navigation start, end or failure, the new path) sent to it. 401/403 answers are reported
 * to the `session` actor by the factory.
 *
 * The sign-in page's first paint loads no router (issue 26): when the console opens at '/' and the
 * sign-in machine answers `stay` (nobody signed in), this file renders `SignInScreen` from the auth
 * machine alone, and loads TanStack Router and the route tree (`./router`) at the first navigation away
 * (the machine's navigate after a sign-in, or a link of the sign-in page), or while the browser is idle.
 * The address is the same either way; the sign-in page stays on screen until the next page is loaded.
 */
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { waitFor } from 'xstate';
import './theme/theme.css';
import { selectIsRestoring, selectRouteDecision } from '../machines/auth.machine';
import { ROUTES } from '../common/constants';
import { loadAnalyticsTag } from './adapters/analytics';
import { createAppActor, loadAreaActorLogic } from './adapters/app-actor-factory';
import { installNavigator, navigateTo } from './adapters/navigation';
import { startInspectorWhenAsked } from './adapters/inspector-loader';
import { RootActorContext, systemActor, type RootActor } from './app-actor';
import { readInjectedRuntimeConfig } from './runtime-config';
import { CrashBoundary } from './views/shared/CrashScreen';
import { AppNavigationContext } from './views/auth/auth-link';
import { SignInScreen } from './views/auth/SignInScreen';

const config = readInjectedRuntimeConfig();
const inspect = await startInspectorWhenAsked(config, window.location.search);
const root = createAppActor(config, { inspect });
const reactRoot = createRoot(document.getElementById('root')!);

function render(app: ReactNode) {
  reactRoot.render(
    <StrictMode>
      <CrashBoundary>
        <RootActorContext.Provider value={root}>
          <AppNavigationContext.Provider value={navigateTo}>{app}</AppNavigationContext.Provider>
        </RootActorContext.Provider>
      </CrashBoundary>
    </StrictMode>,
  );
}

/**
 * The router with what the routed app adds around it (./app-pages: the page machines' context and the
 * unsaved-edits guard), neither in the sign-in page's first load (issue 39).
 */
const loadRouterModule = () => Promise.all([import('./router'), import('./app-pages')]).then(([router, pages]) => ({ ...router, ...pages }));
type RouterModule = Awaited<ReturnType<typeof loadRouterModule>>;

/** The routed app: the router's pages with their machines' context. */
function routedApp(module: RouterModule, router: ReturnType<RouterModule['createAppRouter']>) {
  return (
    <module.PageLogicProvider>
      <module.RouterProvider router={router} />
    </module.PageLogicProvider>
  );
}

/** The router over `root`, its reports wired to the root's actors and the machines' navigate installed. */
function connectRouter({ createAppRouter, installUnsavedEditsGuard, routerNavigator }: RouterModule, app: RootActor) {
  // Reload or closing the tab asks first while any page's editor has unsaved changes (issue 28): the
  // router is connected once per page load, and no editor runs before it.
  installUnsavedEditsGuard(window, [systemActor(app, 'passwordChange'), systemActor(app, 'passwordReset')]);
  const router = createAppRouter(app);
  // A page's address corrected in place while the operator is already leaving it is not applied.
  installNavigator(routerNavigator(router));
  const routeLoading = systemActor(app, 'routeLoading');
  router.subscribe('onBeforeNavigate', () => routeLoading.send({ type: 'route.start' }));
  router.subscribe('onResolved', ({ toLocation }) => {
    // A loader or guard that threw leaves its match in 'error' (the crash screen shows it).
    const failed = router.state.matches.some((match) => match.status === 'error');
    routeLoading.send({ type: failed ? 'route.error' : 'route.done' });
    // The search params too: the content library reads its tab, filters, sort and page from them (issue 29).
    app.send({ type: 'path.changed', path: toLocation.pathname, search: toLocation.search as Record<string, unknown> });
  });
  return router;
}

/** Any page but the sign-in page's first paint: the router from the start. */
async function startWithRouter() {
  const module = await loadRouterModule();
  const router = connectRouter(module, root);
  render(routedApp(module, router));
}

/**
 * The sign-in page without the router. The first navigation away (the machine's, or a link's) loads
 * the router at the new address, lets it resolve that page (guards, code), and only then replaces the
 * sign-in screen with it.
 */
function startSignInScreen() {
  let leaving = false;
  /** A navigation asked for while the router's code is loading: the last one wins. */
  let latest: { to: string; replace: boolean } | null = null;
  installNavigator((to, options) => {
    latest = { to, replace: options?.replace === true };
    if (leaving) return;
    leaving = true;
    void loadRouterModule().then(async (module) => {
      const target = latest!;
      if (target.replace) window.history.replaceState(null, '', target.to);
      else window.history.pushState(null, '', target.to);
      // From here on the machines' navigate goes to the router itself.
      const router = connectRouter(module, root);
      await router.load();
      render(routedApp(module, router));
    });
  });
  root.send({ type: 'path.changed', path: ROUTES.login });
  render(<SignInScreen />);
}

/** The sign-in machine decides whether '/' shows the sign-in page (it would send a signed-in user on). */
async function start() {
  if (window.location.pathname !== ROUTES.login) return startWithRouter();
  const auth = systemActor(root, 'auth');
  await waitFor(auth, (s) => !selectIsRestoring(s));
  auth.send({ type: 'route.check', path: ROUTES.login, href: `${window.location.pathname}${window.location.search}` });
  if (selectRouteDecision(auth.getSnapshot()).kind !== 'stay') return startWithRouter();
  return startSignInScreen();
}

// Not awaited: the router's chunk imports modules of this entry chunk, so a top-level await of it
// would wait for this module to finish evaluating, which waits for it (a deadlock on every page but '/').
void start();
loadAnalyticsTag(config.gaMeasurementId);

// The router, the signed-in frame (header, snackbar, protected layout), the area actors' code and the
// usual landing page's code (Dashboard 360 with its charts) are fetched once the first page is up and
// the browser is idle, i.e. while the password or the code is being typed: none is in the first load,
// and signing in does not wait for them (issue 26).
const whenIdle = (work: () => void) => ('requestIdleCallback' in window ? window.requestIdleCallback(work, { timeout: 2000 }) : setTimeout(work, 200));
whenIdle(() => {
  // The landing page's code is asked for through the router's chunk (which imports it lazily anyway):
  // imported from here, every chunk it needs would be a name in this entry's preload map (issue 41's
  // pages added twelve: over the sign-in budget of issue 39).
  void loadRouterModule().then((module) => Promise.all([module.preloadShell(), module.preloadLanding()]));
  void loadAreaActorLogic();
  void import('urql');
});
