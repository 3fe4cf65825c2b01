/**
 * The route components of Dashboard 360's alerts and saved views (issue 41), loaded only on their
 * routes: /analytics/alerts, /analytics/saved and /analytics/saved/$viewId.
 */
import { getRouteApi } from '@tanstack/react-router';
import { SavedViewOpenPage, SavedViewsPage } from '../saved/SavedViewsPage';
import { AlertsPage } from './AlertsPage';

const savedViewRoute = getRouteApi('/protected/analytics/saved/$viewId');

export function AlertsRoute() {
  return <AlertsPage />;
}

export function SavedViewsRoute() {
  return <SavedViewsPage />;
}

export function SavedViewRoute() {
  const { viewId } = savedViewRoute.useParams();
  // One machine per address: another view's address starts afresh.
  return <SavedViewOpenPage key={viewId} viewId={viewId} />;
}
