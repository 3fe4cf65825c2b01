/**
 * The landing page's data, asked for as soon as the session is stored (issue 26): the auth machine's
 * `prefetchLanding` action, with the route it is about to navigate to. For Dashboard 360's overview
 * (the usual landing) the overview's reports are requested at once, with the filters of a plain
 * `/analytics`, while the route's code, the area actors and the frame load; the page's own report
 * machine then gets the same requests' answers (src/api/reports.ts shares a request on its way).
 * Any other landing loads its data as before. Best effort: a failure here is the page's to report.
 */
import { COOKIE_NAMES, ROUTES } from '../../common/constants';
import { fetchReport } from '../api/reports';
import { readCookie } from './cookies';
import { readNetworkCredentials } from './network-credentials';

export async function prefetchLandingData(route: string): Promise<void> {
  if (route !== ROUTES.analytics) return;
  const credentials = readNetworkCredentials();
  if (!credentials) return;
  const [{ overviewRequests }, { validateAnalyticsSearch }, { siteDayOf }] = await Promise.all([
    import('../views/analytics/OverviewPage'),
    import('../views/analytics/search'),
    import('../../common/site-day'),
  ]);
  // The page asks for the site's days (issue 38): the same today, in the site's zone the session keeps.
  const today = siteDayOf(new Date(), readCookie(COOKIE_NAMES.defaultTimezone));
  for (const request of overviewRequests(validateAnalyticsSearch({}), today)) {
    void fetchReport(request.report, request.params, { credentials }).catch(() => undefined);
  }
}
