/**
 * Dashboard 360 › Alerts › "Player events not placed" (issue 42): the player events the consumers
 * kept in the dead letters of the signed-in site, the total and every reason with what it means,
 * its count and its newest event's time. Read-only. Every decision is the ingestDeadLetters
 * machine's (machines/ingest-dead-letters.machine.ts); this view renders it and sends it what the
 * person does.
 */
import { useSelector } from '@xstate/react';
import {
  deadLetterRows, selectDeadLetterCounts, selectDeadLettersBusy, selectDeadLettersError, selectDeadLettersPhase, type IngestDeadLettersActorRef,
} from '../../../../machines/ingest-dead-letters.machine';
import { formatDateTime } from '../../../../common/display-format';
import { INGEST_DEAD_LETTER_MESSAGES as M, INGEST_DEAD_LETTER_REASON_WORDS as WORDS } from '../../../../common/messages/ingest-dead-letters';
import { usePageActor } from '../../../page-actors';
import { button } from '../../../theme/ui.css';
import { useSiteTimeZone } from '../../shared/use-site-time-zone';
import * as acss from '../analytics.css';
import * as css from './alerts.css';
import { useHasPageLogic } from './provided';

/** The panel where its logic is provided (left out of other pages' view tests, like the header's count). */
export function DeadLettersPanel() {
  return useHasPageLogic('ingestDeadLetters') ? <OwnedDeadLetters /> : null;
}

function OwnedDeadLetters() {
  return <DeadLettersView actor={usePageActor('ingestDeadLetters')} />;
}

export function DeadLettersView({ actor }: { actor: IngestDeadLettersActorRef }) {
  const zone = useSiteTimeZone();
  const phase = useSelector(actor, selectDeadLettersPhase);
  const counts = useSelector(actor, selectDeadLetterCounts);
  const error = useSelector(actor, selectDeadLettersError);
  const busy = useSelector(actor, selectDeadLettersBusy);
  const shown = phase !== 'failed' && counts !== null;
  return (
    <section className={css.section} aria-labelledby="dead-letters" aria-busy={busy} data-testid="dead-letters">
      <div className={css.sectionHead}>
        <h2 id="dead-letters" className={css.sectionTitle}>{M.title}</h2>
        {(phase === 'empty' || phase === 'counted') && (
          <button type="button" className={button.ghost} onClick={() => actor.send({ type: 'deadLetters.refresh' })}>{M.refresh}</button>
        )}
      </div>
      <p className={css.meta} style={{ margin: 0 }}>{M.intro}</p>
      {phase === 'loading' && counts === null && <p className={acss.status}>{M.loading}</p>}
      {phase === 'failed' && (
        <>
          <p role="alert" className={css.failure}>{error ?? M.loadFailed}</p>
          <div><button type="button" className={button.secondary} onClick={() => actor.send({ type: 'deadLetters.retry' })}>{M.retry}</button></div>
        </>
      )}
      {shown && counts.total === 0 && <p className={acss.status} data-testid="dead-letters-empty">{M.empty}</p>}
      {shown && counts.total > 0 && (
        <>
          <p className={css.itemName} style={{ margin: 0 }} data-testid="dead-letters-total">{M.total(counts.total)}</p>
          <ul className={css.list} aria-label={M.title}>
            {deadLetterRows(counts).map((row) => (
              <li key={row.reason} className={row.events > 0 ? css.openItem : css.item} data-testid={`dead-letters-${row.reason}`}>
                <div className={css.itemHead}>
                  <span className={css.itemName}>{WORDS[row.reason].label}</span>
                  <span className={css.badge}>{M.count(row.events)}</span>
                </div>
                <p className={css.meta} style={{ margin: 0 }}>{WORDS[row.reason].help}</p>
                <div className={css.meta}>{M.last}: {row.lastAt === null ? M.never : formatDateTime(row.lastAt, zone)}</div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
