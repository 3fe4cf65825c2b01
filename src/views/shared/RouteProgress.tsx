/** Route-change progress indicator (spec §4.7), driven by the routeLoading machine. */
import { useSelector } from '@xstate/react';
import { selectRouteLoading } from '../../../machines/route-loading.machine';
import { useAppActor } from '../../app-actor';
import * as css from './shared.css';

export function RouteProgress() {
  const routeLoading = useAppActor('routeLoading');
  const loading = useSelector(routeLoading, selectRouteLoading);
  if (!loading) return null;
  return (
    <div className={css.progressTrack} role="progressbar" aria-label="Loading page" data-testid="route-progress">
      <div className={css.progressBar} />
    </div>
  );
}
