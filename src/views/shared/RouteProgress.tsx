/** Route-change progress indicator (spec §4.7), driven by the routeLoading machine. */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectRouteLoading, type routeLoadingMachine } from '../../../machines/route-loading.machine';
import { useSystemActor } from '../../app-actor';
import * as css from './shared.css';

export function RouteProgress() {
  const routeLoading = useSystemActor<ActorRefFrom<typeof routeLoadingMachine>>('routeLoading');
  const loading = useSelector(routeLoading, selectRouteLoading);
  if (!loading) return null;
  return (
    <div className={css.progressTrack} role="progressbar" aria-label="Loading page" data-testid="route-progress">
      <div className={css.progressBar} />
    </div>
  );
}
