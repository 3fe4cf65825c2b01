/**
 * The route components of Dashboard 360 (loaded only on /analytics routes): they read the validated
 * search params and the current path, and render the overview or the detail page it defines.
 */
import { useLocation, useSearch } from '@tanstack/react-router';
import { OverviewPage } from './OverviewPage';
import { pageDefFor } from './pages';
import { ReportPage } from './ReportPage';
import type { AnalyticsSearch } from './search';

export { AnalyticsLayout } from './AnalyticsLayout';

export function AnalyticsOverviewRoute() {
  const search = useSearch({ strict: false }) as AnalyticsSearch;
  return <OverviewPage search={search} />;
}

export function AnalyticsDetailRoute() {
  const search = useSearch({ strict: false }) as AnalyticsSearch;
  const pathname = useLocation({ select: (l) => l.pathname.replace(/\/$/, '') });
  const def = pageDefFor(pathname);
  // One report machine per page instance: a new page gets a new one.
  return <ReportPage key={def.path} def={def} search={search} />;
}
