/**
 * /account/sessions (issue 19, ASVS 7.4.5, 7.5.2): the signed-in user's active sessions — device,
 * address, last seen, this one marked — each with "End session". Ending the one in use asks first.
 * Reached from the header's user menu; any signed-in user, whatever their roles.
 */
import {
  describeDevice, selectEndingSessionId, selectOwnSessions, selectOwnSessionsError, selectOwnSessionsNotice,
  selectOwnSessionsPhase,
} from '../../../machines/own-sessions.machine';
import { formatDateTime } from '../../../common/display-format';
import { ACCOUNT_MESSAGES } from '../../../common/messages';
import { usePageActor } from '../../page-actors';
import { button, page, pageTitle } from '../../theme/ui.css';
import { Modal } from '../shared/Modal';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import * as css from './account.css';
import { OwnSessionsContext } from './own-sessions-context';

export function OwnSessionsPage() {
  const sessions = usePageActor('ownSessions');
  return (
    <OwnSessionsContext.Provider value={sessions}>
      <OwnSessionsView />
    </OwnSessionsContext.Provider>
  );
}

export function OwnSessionsView() {
  const actor = OwnSessionsContext.useActorRef();
  const phase = OwnSessionsContext.useSelector(selectOwnSessionsPhase);
  const sessions = OwnSessionsContext.useSelector(selectOwnSessions);
  const error = OwnSessionsContext.useSelector(selectOwnSessionsError);
  const notice = OwnSessionsContext.useSelector(selectOwnSessionsNotice);
  const endingId = OwnSessionsContext.useSelector(selectEndingSessionId);
  const zone = useSiteTimeZone();

  return (
    <main className={page}>
      <h1 className={pageTitle}>{ACCOUNT_MESSAGES.sessionsTitle}</h1>
      <p className={css.intro}>{ACCOUNT_MESSAGES.sessionsIntro}</p>
      {notice && <p role="status" className={css.notice}>{notice}</p>}
      {error && <p role="alert" className={css.failure}>{error}</p>}
      {phase === 'failed' && (
        <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'sessions.retry' })}>Retry</button>
      )}
      {phase === 'loading' && sessions.length === 0 && <p>Loading sessions…</p>}
      {phase !== 'failed' && phase !== 'loading' && sessions.length === 0 && <p>{ACCOUNT_MESSAGES.sessionsEmpty}</p>}
      {sessions.length > 0 && (
        <ul className={css.list} aria-label="Active sessions" aria-busy={phase === 'loading' || phase === 'ending'}>
          {sessions.map((s) => (
            <li key={s.id} className={s.current ? `${css.item} ${css.current}` : css.item} data-current={s.current}>
              <div className={css.details}>
                <span className={css.device}>
                  {describeDevice(s.userAgent)}
                  {s.current && <span className={css.badge}>{ACCOUNT_MESSAGES.sessionThisOne}</span>}
                </span>
                <span className={css.meta}>Address {s.ipAddress || '—'} · Last seen {formatDateTime(s.lastSeenAt, zone)}</span>
                <span className={css.meta}>Signed in {formatDateTime(s.createdAt, zone)}</span>
              </div>
              <button
                type="button" className={button.secondary} disabled={phase !== 'list'}
                aria-label={`${ACCOUNT_MESSAGES.sessionEnd}: ${describeDevice(s.userAgent)}${s.current ? ` (${ACCOUNT_MESSAGES.sessionThisOne})` : ''}`}
                onClick={() => actor.send({ type: 'sessions.end', sessionId: s.id })}
              >
                {endingId === s.id && phase === 'ending' ? 'Ending…' : ACCOUNT_MESSAGES.sessionEnd}
              </button>
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={phase === 'confirmingThis'}
        title={ACCOUNT_MESSAGES.sessionEnd}
        negativeLabel="Cancel"
        positiveLabel={ACCOUNT_MESSAGES.sessionEnd}
        onNegative={() => actor.send({ type: 'sessions.cancel' })}
        onPositive={() => actor.send({ type: 'sessions.confirm' })}
      >
        <p>{ACCOUNT_MESSAGES.sessionEndThisConfirm}</p>
      </Modal>
    </main>
  );
}
