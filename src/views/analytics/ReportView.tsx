/**
 * The states every analytics page shares: loading skeletons, an empty state that says why, an error
 * with Retry, and the real-time status line (last updated, paused while the tab is hidden).
 */
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import {
  selectCanRetry, selectError, selectIsPaused, selectIsRefreshing, selectUpdatedAt, selectView, type ReportActorRef,
} from '../../../machines/report.machine';
import { formatClockTime } from '../../../common/display-format';
import { REPORT_FILTER_MESSAGES } from '../../../common/reports';
import { button } from '../../theme/ui.css';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import * as css from './analytics.css';

export function Skeleton({ charts = 1 }: { charts?: number }) {
  return (
    <div role="status" aria-busy="true" aria-label="Loading report" data-testid="report-skeleton">
      <div className={css.tiles}>{[0, 1, 2, 3].map((i) => <div key={i} className={css.skeleton} style={{ height: '4.2rem' }} />)}</div>
      <div className={css.charts}>{Array.from({ length: Math.max(charts, 1) }, (_, i) => <div key={i} className={css.skeleton} style={{ height: '14rem' }} />)}</div>
      <div className={css.skeleton} style={{ height: '10rem' }} />
    </div>
  );
}

export function LiveStatus({ actor }: { actor: ReportActorRef }) {
  const updatedAt = useSelector(actor, selectUpdatedAt);
  const paused = useSelector(actor, selectIsPaused);
  const refreshing = useSelector(actor, selectIsRefreshing);
  const zone = useSiteTimeZone();
  return (
    <p className={css.status} role="status" data-testid="live-status">
      {updatedAt ? `Last updated ${formatClockTime(updatedAt, zone)}` : 'Not loaded yet'}
      {' · '}
      {paused ? 'Paused while this tab is hidden' : refreshing ? 'Refreshing…' : 'Refreshes every 15 seconds'}
    </p>
  );
}

export interface ReportStatesProps {
  actor: ReportActorRef;
  /** Why there is nothing to show, in the page's own words. */
  emptyReason: string;
  charts?: number;
  children: ReactNode;
}

export function ReportStates({ actor, emptyReason, charts, children }: ReportStatesProps) {
  const view = useSelector(actor, selectView);
  const error = useSelector(actor, selectError);
  const canRetry = useSelector(actor, selectCanRetry);
  // A reversed range is explained beside the date fields (the filter bar), with its swap.
  if (view === 'reversed') return null;
  if (view === 'loading') return <Skeleton charts={charts} />;
  if (view === 'failed') {
    return (
      <div className={css.errorNote} role="alert">
        <p>The report could not be loaded: {error}</p>
        {canRetry
          ? <button type="button" className={button.primary} onClick={() => actor.send({ type: 'report.retry' })}>Retry</button>
          : <p>{REPORT_FILTER_MESSAGES.noRetry}</p>}
      </div>
    );
  }
  if (view === 'empty') return <p className={css.note} data-testid="report-empty">{emptyReason}</p>;
  return <>{children}</>;
}
