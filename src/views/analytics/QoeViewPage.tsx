/**
 * One view (issue 41, /analytics/views/$sessionId): the session's dimensions and its timeline
 * (start with its startup time, bitrate changes, rebuffers, errors, end) in words, and a simple time
 * strip of the same entries (decoration: the list is its text). The qoeView machine reads it.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { formatClockTime, formatDateTime } from '../../../common/display-format';
import { QOE_PAGE_MESSAGES as M, QOE_TIMELINE_KINDS } from '../../../common/messages/qoe';
import { QOE_NOT_REPORTED, qoeDimensionLabel, type QoeTimelineKind } from '../../../common/qoe';
import {
  selectOneView, selectViewAnswer, selectViewCanRetry, selectViewError, timelinePositions, type QoeViewRef,
} from '../../../machines/qoe-views.machine';
import { usePageActor } from '../../page-actors';
import { button } from '../../theme/ui.css';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import { Skeleton } from './ReportView';
import { VIEWS_PAGE, without, type AnalyticsSearch } from './search';
import { watchedText } from './QoeViewsPage';
import * as css from './analytics.css';
import * as q from './qoe.css';

/** The strip's colour per kind (the legend names them; the list says each in words). */
const KIND_COLOURS: Record<QoeTimelineKind, string> = {
  start: '#1370B3', bitrate: '#8E44AD', rebuffer: '#ED6C02', heartbeat: '#9aa5b1', error: '#D32F2F', end: '#00B523',
};

export function QoeViewPage({ sessionId, search }: { sessionId: string; search: AnalyticsSearch }) {
  return <QoeViewBody key={sessionId} sessionId={sessionId} search={search} />;
}

function QoeViewBody({ sessionId, search }: { sessionId: string; search: AnalyticsSearch }) {
  const actor = usePageActor('qoeView', { input: { sessionId } });
  return (
    <main data-testid="qoe-view-page">
      <div className={css.header}>
        <h1 className={css.title}>{M.viewTitle}</h1>
        <Link to={VIEWS_PAGE} search={without(search, 'fNote')}>{M.backToViews}</Link>
      </div>
      <ViewBody actor={actor} />
    </main>
  );
}

function ViewBody({ actor }: { actor: QoeViewRef }) {
  const view = useSelector(actor, selectOneView);
  const answer = useSelector(actor, selectViewAnswer);
  const error = useSelector(actor, selectViewError);
  const canRetry = useSelector(actor, selectViewCanRetry);
  const zone = useSiteTimeZone();
  if (view === 'loading') return <Skeleton charts={1} />;
  if (view === 'notFound') return <p className={css.note} data-testid="view-not-found">{M.viewNotFound}</p>;
  if (view === 'failed' || !answer) {
    return (
      <div className={css.errorNote} role="alert">
        <p>{M.viewFailed} {error}</p>
        {canRetry && <button type="button" className={button.primary} onClick={() => actor.send({ type: 'view.retry' })}>{M.retry}</button>}
      </div>
    );
  }
  const { view: row } = answer;
  // Heartbeats only carry the playhead: the words and the strip show what happened.
  const timeline = answer.timeline.filter((e) => e.kind !== 'heartbeat');
  const positions = timelinePositions(timeline);
  const kinds = [...new Set(timeline.map((e) => e.kind))];
  return (
    <>
      <p className={css.summary} data-testid="view-headline">
        {row.title} · {row.viewer} · {formatDateTime(row.startedAt, zone)} → {row.endedAt ? formatDateTime(row.endedAt, zone) : M.notEnded} · {watchedText(row.watchedSeconds)}
      </p>
      <section className={q.section} aria-labelledby="view-dimensions">
        <h2 id="view-dimensions" className={q.sectionTitle}>{M.dimensions}</h2>
        <dl className={q.dimensions}>
          {row.dimensions.map((d) => (
            <div key={d.dimension} className={q.dimension}>
              <dt className={q.dimensionLabel}>{qoeDimensionLabel(d.dimension)}</dt>
              <dd className={q.dimensionValue}>{d.label || (d.value === '' ? QOE_NOT_REPORTED : d.value)}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className={q.section} aria-labelledby="view-timeline">
        <h2 id="view-timeline" className={q.sectionTitle}>{M.timeline}</h2>
        {timeline.length === 0
          ? <p className={css.note}>{M.timelineEmpty}</p>
          : (
            <>
              <div className={q.strip} aria-hidden="true" title={M.timelineStrip} data-testid="timeline-strip">
                {timeline.map((entry, i) => (
                  <span key={`${entry.at}-${i}`} className={q.mark} style={{ left: `${positions[i]}%`, background: KIND_COLOURS[entry.kind] }} title={entry.text} />
                ))}
              </div>
              <ul className={q.legend} aria-hidden="true">
                {kinds.map((kind) => <li key={kind}><span className={q.swatch} style={{ background: KIND_COLOURS[kind] }} />{QOE_TIMELINE_KINDS[kind]}</li>)}
              </ul>
              <ol className={q.timeline} aria-label={M.timeline} data-testid="timeline">
                {timeline.map((entry, i) => (
                  <li key={`${entry.at}-${i}`} className={q.timelineItem}>
                    <span className={q.timelineTime}>{formatClockTime(entry.at, zone)}</span>
                    <span>{QOE_TIMELINE_KINDS[entry.kind]}: {entry.text}</span>
                  </li>
                ))}
              </ol>
            </>
          )}
      </section>
    </>
  );
}
