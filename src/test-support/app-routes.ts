/**
 * The console's routes as a view test sees them: the chain of the app's routes (src/router.tsx) that
 * the browser would match at an address, each with its id (path or pathless id) and search validator,
 * the view under test in place of the deepest one's component and an `<Outlet />` above it. Views read
 * their route with `getRouteApi('<route id>')`, so the test must match the same ids; guards, loaders
 * and lazy components of the real routes are left out.
 */
import {
  createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, type AnyRoute,
} from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { routeTree } from '../router';

export function mirroredRouteTree(url: string, ui: ReactElement): AnyRoute | undefined {
  const probe = createRouter({ routeTree: routeTree as AnyRoute, history: createMemoryHistory({ initialEntries: [url] }) });
  const [matched, , found] = probe.getMatchedRoutes(probe.state.location.pathname);
  if (!found) return undefined;
  const chain = matched.filter((route) => !route.isRoot);
  const root = createRootRoute({ component: chain.length > 0 ? Outlet : () => ui });
  const mirrors: AnyRoute[] = [];
  chain.forEach((original, index) => {
    const parent: AnyRoute = mirrors[index - 1] ?? root;
    const options = original.options as { id?: string; path?: string; validateSearch?: (search: Record<string, unknown>) => unknown };
    const last = index === chain.length - 1;
    mirrors.push(createRoute({
      getParentRoute: () => parent,
      ...(options.id ? { id: options.id } : { path: options.path ?? '/' }),
      ...(options.validateSearch ? { validateSearch: options.validateSearch } : {}),
      component: last ? () => ui : Outlet,
    } as Parameters<typeof createRoute>[0]) as AnyRoute);
  });
  for (let index = mirrors.length - 1; index > 0; index -= 1) mirrors[index - 1]!.addChildren([mirrors[index]!]);
  return mirrors.length > 0 ? root.addChildren([mirrors[0]!]) : root;
}
