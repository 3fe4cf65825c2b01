/**
 * The console's routes as a view test sees them: a mirror of the app's route tree (src/router.tsx),
 * every route with its id (path or pathless id) and search validator. The view under test takes the
 * place of the component of the route the test's address matches (a page unmounts when it navigates
 * elsewhere, as in the browser); at '/' or an address no route matches it is the root's component,
 * as the shell's pieces (header, dialogs) are. Views read their route with `getRouteApi('<route id>')`,
 * which finds the match by id, so the test matches the same ids the browser does; guards, loaders and
 * lazy components of the real routes are left out.
 */
import {
  createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, type AnyRoute,
} from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { routeTree } from '../router';

interface MirroredOptions {
  id?: string;
  path?: string;
  validateSearch?: (search: Record<string, unknown>) => unknown;
}

function childrenOf(route: AnyRoute): AnyRoute[] {
  const children = route.children as AnyRoute[] | Record<string, AnyRoute> | undefined;
  if (!children) return [];
  return Array.isArray(children) ? children : Object.values(children);
}

function mirrorChildren(original: AnyRoute, parent: AnyRoute, host: AnyRoute | undefined, ui: ReactElement): AnyRoute[] {
  return childrenOf(original).map((child) => {
    const options = child.options as MirroredOptions;
    const mirror = createRoute({
      getParentRoute: () => parent,
      ...(options.id ? { id: options.id } : { path: options.path ?? '/' }),
      ...(options.validateSearch ? { validateSearch: options.validateSearch } : {}),
      component: child === host ? () => ui : Outlet,
    } as Parameters<typeof createRoute>[0]) as AnyRoute;
    const grandchildren = mirrorChildren(child, mirror, host, ui);
    return grandchildren.length > 0 ? mirror.addChildren(grandchildren) : mirror;
  });
}

/** The app's route tree with `ui` in the route `url` matches (the root's component at '/'). */
export function mirroredRouteTree(url: string, ui: ReactElement): AnyRoute {
  const probe = createRouter({ routeTree: routeTree as AnyRoute, history: createMemoryHistory({ initialEntries: [url] }) });
  const pathname = probe.state.location.pathname;
  const [, , found] = probe.getMatchedRoutes(pathname);
  const host = pathname === '/' ? undefined : found;
  const root = createRootRoute({ component: host ? Outlet : () => ui });
  return root.addChildren(mirrorChildren(routeTree as AnyRoute, root, host, ui));
}
