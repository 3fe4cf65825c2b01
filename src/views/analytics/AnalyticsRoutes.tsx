/**
 * The route components of Dashboard 360 (loaded only on /analytics routes): they read the validated
 * search params and the current path, and render the overview or the detail page it defines.
 */
import { getRouteApi, useLocation } from '@tanstack/react-router';
import { OverviewPage } from './OverviewPage';
import { pageDefFor } from './pages';
import { ReportPage } from './ReportPage';

export { AnalyticsLayout } from './AnalyticsLayout';

/** The /analytics layout route: its validator (./search.ts) types the filters of every page under it. */
const analyticsRoute = getRouteApi('/protected/analytics');

export function AnalyticsOverviewRoute() {
  const search = analyticsRoute.useSearch();
  return <OverviewPage search={search} />;
}

export function AnalyticsDetailRoute() {
  const search = analyticsRoute.useSearch();
  const pathname = useLocation({ select: (l) => l.pathname.replace(/\/$/, '') });
  const def = pageDefFor(pathname);
  // One report machine per page instance: a new page gets a new one.
  return <ReportPage key={def.path} def={def} search={search} />;
}
