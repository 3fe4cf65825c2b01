/**
 * Browser entry: one root actor system, the router with that actor in its context, and the effects
 * (navigation, 401/403 handling, route-progress events, analytics) wired to it.
 */
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './theme/theme.css';
import { installAuthErrorHandler } from './api/client';
import { loadAnalyticsTag } from './adapters/analytics';
import { createAppActor } from './adapters/app-actor-factory';
import { installNavigator, navigateTo } from './adapters/navigation';
import { startInspectorWhenAsked } from './adapters/inspector-loader';
import { RootActorContext } from './app-actor';
import { ROUTES } from './config';
import { createAppRouter } from './router';
import { readRuntimeConfig } from './runtime-config';
import { CrashBoundary } from './views/shared/CrashScreen';

const config = readRuntimeConfig();
const inspect = await startInspectorWhenAsked(config, window.location.search);
const root = createAppActor(config, { inspect });
const router = createAppRouter(root);

installNavigator((to, options) => {
  void router.navigate({ href: to, replace: options?.replace });
});
installAuthErrorHandler({
  onUnauthorized: () => navigateTo(ROUTES.logout),
  onForbidden: () => navigateTo(ROUTES.login),
});
router.subscribe('onBeforeNavigate', () => root.system.get('routeLoading')?.send({ type: 'route.start' }));
router.subscribe('onResolved', ({ toLocation }) => {
  root.system.get('routeLoading')?.send({ type: 'route.done' });
  root.send({ type: 'path.changed', path: toLocation.pathname });
});
loadAnalyticsTag(config.gaMeasurementId);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <CrashBoundary>
      <RootActorContext.Provider value={root}>
        <RouterProvider router={router} />
      </RootActorContext.Provider>
    </CrashBoundary>
  </StrictMode>,
);
