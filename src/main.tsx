/**
 * Browser entry: one root actor system, the router with that actor in its context, and the router's
 * reports (navigation start, end or failure, the new path) sent to it. 401/403 answers are reported
 * to the `session` actor by the factory.
 */
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './theme/theme.css';
import { loadAnalyticsTag } from './adapters/analytics';
import { createAppActor, loadAreaActorLogic } from './adapters/app-actor-factory';
import { installNavigator } from './adapters/navigation';
import { startInspectorWhenAsked } from './adapters/inspector-loader';
import { RootActorContext, systemActor } from './app-actor';
import { PAGE_LOGIC_LOADERS } from './adapters/page-logic';
import { lazyPageLogic, PageLogicContext } from './page-actors';
import { createAppRouter } from './router';
import { readInjectedRuntimeConfig } from './runtime-config';
import { CrashBoundary } from './views/shared/CrashScreen';
import { preloadShell } from './views/layout/RootLayout';

const config = readInjectedRuntimeConfig();
const inspect = await startInspectorWhenAsked(config, window.location.search);
const root = createAppActor(config, { inspect });
const router = createAppRouter(root);
// Page machines with their areas' real I/O, each area's wiring file loaded when one of its pages renders.
const pageLogic = lazyPageLogic(PAGE_LOGIC_LOADERS);

installNavigator((to, options) => {
  void router.navigate({ href: to, replace: options?.replace });
});
const routeLoading = systemActor(root, 'routeLoading');
router.subscribe('onBeforeNavigate', () => routeLoading.send({ type: 'route.start' }));
router.subscribe('onResolved', ({ toLocation }) => {
  // A loader or guard that threw leaves its match in 'error' (the crash screen shows it).
  const failed = router.state.matches.some((match) => match.status === 'error');
  routeLoading.send({ type: failed ? 'route.error' : 'route.done' });
  root.send({ type: 'path.changed', path: toLocation.pathname });
});
loadAnalyticsTag(config.gaMeasurementId);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CrashBoundary>
      <RootActorContext.Provider value={root}>
        <PageLogicContext.Provider value={pageLogic}>
          <RouterProvider router={router} />
        </PageLogicContext.Provider>
      </RootActorContext.Provider>
    </CrashBoundary>
  </StrictMode>,
);

// The signed-in frame (header, snackbar, protected layout), the area actors' code and the usual landing
// page's code (Dashboard 360 with its charts) are fetched once the first page is up and the browser is
// idle, i.e. while the password or the code is being typed: none is in the first load, and signing in
// does not wait for them (issue 26).
const whenIdle = (work: () => void) => ('requestIdleCallback' in window ? window.requestIdleCallback(work, { timeout: 2000 }) : setTimeout(work, 200));
whenIdle(() => {
  void preloadShell();
  void loadAreaActorLogic();
  void import('urql');
  void import('./views/analytics/AnalyticsRoutes');
});
