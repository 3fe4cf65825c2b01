/**
 * The route components of Dashboard 360 (loaded only on /analytics routes): they read the validated
 * search params and the current path, and render the overview or the detail page it defines.
 */
import { getRouteApi, useLocation, useParams, useSearch } from '@tanstack/react-router';
import { OverviewPage } from './OverviewPage';
import { pageDefAt } from './pages';
import { ReportPage } from './ReportPage';
import { QoeViewsPage } from './QoeViewsPage';
import { QoeViewPage } from './QoeViewPage';

export { AnalyticsLayout } from './AnalyticsLayout';

/** The /analytics layout route: its validator (./search.ts) types the filters of every page under it. */
const analyticsRoute = getRouteApi('/protected/analytics');

export function AnalyticsOverviewRoute() {
  const search = analyticsRoute.useSearch();
  return <OverviewPage search={search} />;
}

export function AnalyticsDetailRoute() {
  // Not throwing when the analytics route no longer matches: see below.
  const search = useSearch({ from: '/protected/analytics', shouldThrow: false });
  const pathname = useLocation({ select: (l) => l.pathname.replace(/\/$/, '') });
  // While the router moves to another area the address changes before this route unmounts (issue 30:
  // it threw "No analytics page definition for /content" on every such move): nothing to show then.
  const def = pageDefAt(pathname);
  if (!def || !search) return null;
  // One report machine per page instance: a new page gets a new one.
  return <ReportPage key={def.path} def={def} search={search} />;
}

/** Issue 41: the sessions behind a QoS figure, for the range and filters of the address. */
export function QoeViewsRoute() {
  const search = analyticsRoute.useSearch();
  return <QoeViewsPage search={search} />;
}

/** Issue 41: one view's dimensions and timeline. */
export function QoeViewRoute() {
  const search = analyticsRoute.useSearch();
  const params = useParams({ from: '/protected/analytics/views/$sessionId', shouldThrow: false });
  if (!params) return null;
  return <QoeViewPage sessionId={params.sessionId} search={search} />;
}
