/**
 * The console's routes as a view test sees them: a mirror of the app's route tree (src/router.tsx),
 * every route with its id (path or pathless id) and search validator, and the view under test as the
 * root's component. Views read their route with `getRouteApi('<route id>')`, which finds the match by
 * id, so the test matches the same ids the browser does, at the test's address and after any
 * navigation the view makes; guards, loaders and lazy components of the real routes are left out.
 */
import { createRootRoute, createRoute, Outlet, type AnyRoute } from '@tanstack/react-router';
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

function mirrorChildren(original: AnyRoute, parent: AnyRoute): AnyRoute[] {
  return childrenOf(original).map((child) => {
    const options = child.options as MirroredOptions;
    const mirror = createRoute({
      getParentRoute: () => parent,
      ...(options.id ? { id: options.id } : { path: options.path ?? '/' }),
      ...(options.validateSearch ? { validateSearch: options.validateSearch } : {}),
      component: Outlet,
    } as Parameters<typeof createRoute>[0]) as AnyRoute;
    const grandchildren = mirrorChildren(child, mirror);
    return grandchildren.length > 0 ? mirror.addChildren(grandchildren) : mirror;
  });
}

/** The app's route tree with `ui` as the root's component (a layout's `<Outlet />` renders nothing). */
export function mirroredRouteTree(ui: ReactElement): AnyRoute {
  const root = createRootRoute({ component: () => ui });
  return root.addChildren(mirrorChildren(routeTree as AnyRoute, root));
}
