/**
 * /users/$subscriberId (issue 16): everything about one subscriber (profile; subscriptions with plan,
 * status, period end and cancel-at-period-end; payments; devices with last seen; the last 50
 * playback sessions with startup time, rebuffering and errors; support notes) and the support
 * actions. Each visit runs its own `subscriber` machine; action controls appear only for Customer
 * Support write or contributor (the server refuses the actions to anyone else anyway).
 */
import { Link, useParams } from '@tanstack/react-router';
import { Fragment, useMemo, type ReactNode } from 'react';
import { SUPPORT_HISTORY_TEXT } from '../../../common/support-revision-words';
import {
  REFUNDABLE_PAYMENT_STATUSES, RENEWAL_MOVE_WORDS, SUPPORT_LIMITS, SUPPORT_MESSAGES, isLiveSubscription, nextPaymentOf, type SubscriptionStatus,
} from '../../../common/support';
import {
  hasPaymentHistory, selectCanAct, selectContact, selectDetail, selectHistoryDisclosure, selectIsLoading, selectIsNotFound, selectLastDone,
  selectLoadError, type ActionRequest, type SupportHistoryKind,
} from '../../../machines/support-subscriber.machine';
import { PAYMENT_METHOD_LABELS } from '../../config';
import { DEVICE_SESSION_WORDS, PAYMENT_STATUS_WORDS, statusWord, subscriptionStateWords } from '../../../common/status-words';
import { button, errorText, page } from '../../theme/ui.css';
import { formatMoney, formatMs, formatSeconds } from './format';
import { HistoryDisclosure } from '../shared/HistoryDisclosure';
import type { LinkedNames } from '../shared/revision-text';
import { useDisplayDates } from '../shared/use-site-time-zone';
import { SubscriberStatusBadge } from './SubscriberSearchPage';
import { SupportActionDialog } from './SupportActionDialog';
import { SubscriberContext, SubscriberHost, useCanActInSupport } from './support-logic';
import * as css from './support.css';

const SUBSCRIPTION_TONE: Record<SubscriptionStatus, keyof typeof css.badge> = {
  trialing: 'warn', active: 'good', past_due: 'bad', cancelled: 'neutral', expired: 'neutral',
};
const PAYMENT_TONE: Record<string, keyof typeof css.badge> = { succeeded: 'good', failed: 'bad', refunded: 'neutral', partially_refunded: 'warn', pending: 'warn' };
/** Startup slower than this, or any rebuffering past this ratio, is what "it keeps buffering" looks like. */
const SLOW_STARTUP_MS = 4000;
const HEAVY_REBUFFER_RATIO = 0.02;

function Section({ title, note, actions, children }: { title: string; note?: string; actions?: ReactNode; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className={css.section} aria-labelledby={id}>
      <div className={css.sectionHeader}>
        <h2 id={id} className={css.sectionTitle}>{title}</h2>
        {actions}
      </div>
      {note && <p className={css.sectionNote}>{note}</p>}
      {children}
    </section>
  );
}

/** A table; `stacked` turns each row into a card on phones (its cells say their column with data-label). */
function Table({ caption, head, stacked = false, children }: { caption: string; head: string[]; stacked?: boolean; children: ReactNode }) {
  return (
    <div className={css.tableWrap}>
      <table className={`${css.table} ${stacked ? css.stackedTable : ''}`} aria-label={caption}>
        <thead><tr>{head.map((h) => <th key={h} className={css.th} scope="col">{h}</th>)}</tr></thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The plans the page knows, by id: a History names them ("Plan: Basic Monthly → Premium"). */
function usePlanNames(): LinkedNames {
  const detail = SubscriberContext.useSelector(selectDetail)!;
  return useMemo(() => Object.fromEntries([
    ...detail.planOptions.map((p) => [p.id, p.name]),
    ...detail.subscriptions.map((s) => [s.planId, s.planName]),
  ]), [detail]);
}

/** The History row under an object's row (read-only: neither a subscription nor a payment can be restored). */
function HistoryRow({ kind, id, about, columns, names }: { kind: SupportHistoryKind; id: string; about: string; columns: number; names: LinkedNames }) {
  const disclosure = SubscriberContext.useSelector(useMemo(() => selectHistoryDisclosure(kind, id), [kind, id]));
  return (
    <tr className={css.historyRow}>
      <td className={css.historyCell} colSpan={columns}>
        <HistoryDisclosure disclosure={disclosure} region={SUPPORT_HISTORY_TEXT.region(about)} about={about} names={names} />
      </td>
    </tr>
  );
}

function Profile() {
  const { dateTime } = useDisplayDates();
  const subscriber = SubscriberContext.useActorRef();
  const detail = SubscriberContext.useSelector(selectDetail)!;
  const contact = SubscriberContext.useSelector(selectContact);
  const { profile } = detail;
  const facts: [string, string][] = [
    ['E-mail', contact?.email ?? profile.email],
    ['Phone', (contact ? contact.phone : profile.phone) || '—'],
    ['Country', profile.country],
    ['Network', profile.networkName],
    ['Joined', dateTime(profile.createdAt)],
    ['Subscriber id', profile.id],
  ];
  return (
    <Section
      title="Profile"
      actions={contact
        ? <button type="button" className={`${button.ghost} ${css.smallButton}`} onClick={() => subscriber.send({ type: 'contact.hide' })}>Hide e-mail and phone</button>
        : <button type="button" className={`${button.secondary} ${css.smallButton}`} onClick={() => subscriber.send({ type: 'action.start', request: { kind: 'revealContact' } })}>Show full e-mail and phone</button>}
    >
      <dl className={css.facts}>
        {facts.map(([name, value]) => (
          <div key={name}>
            <dt className={css.factName}>{name}</dt>
            <dd className={css.factValue}>{value}</dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

function Subscriptions({ canAct }: { canAct: boolean }) {
  const { dateTime } = useDisplayDates();
  const subscriber = SubscriberContext.useActorRef();
  const { subscriptions } = SubscriberContext.useSelector(selectDetail)!;
  const names = usePlanNames();
  const head = ['Plan', 'Status', 'Price', 'Period ends', 'Cancels at period end', 'Next payment', ...(canAct ? ['Actions'] : [])];
  return (
    <Section title="Subscriptions">
      {subscriptions.length === 0 ? <p>No subscriptions.</p> : (
        <Table caption="Subscriptions" stacked head={head}>
          {subscriptions.map((s) => {
            const live = isLiveSubscription(s.status) && !s.endedAt;
            const start = (request: ActionRequest) => subscriber.send({ type: 'action.start', request });
            return (
              <Fragment key={s.id}>
              <tr className={css.rowWithHistory}>
                <td className={css.td} data-label="Plan">{s.planName}</td>
                <td className={css.td} data-label="Status"><span className={css.badge[SUBSCRIPTION_TONE[s.status]]}>{subscriptionStateWords(s.status, s.cancelAtPeriodEnd)}</span></td>
                <td className={`${css.td} ${css.nowrap}`} data-label="Price">{formatMoney(s.amount, s.currency)} / {s.billingPeriod}</td>
                <td className={`${css.td} ${css.nowrap}`} data-label="Period ends">{s.endedAt ? `Ended ${dateTime(s.endedAt)}` : dateTime(s.currentPeriodEnd)}</td>
                <td className={css.td} data-label="Cancels at period end">{s.cancelAtPeriodEnd ? 'Yes' : 'No'}</td>
                <td className={css.td} data-label="Next payment">
                  {!live || s.cancelAtPeriodEnd ? '—' : (
                    <>
                      {formatMoney(nextPaymentOf(s), s.currency)}
                      {s.nextPaymentAdjustment !== 0 && ` (proration ${s.nextPaymentAdjustment > 0 ? '+' : '−'}${formatMoney(Math.abs(s.nextPaymentAdjustment), s.currency)})`}
                      {s.renewalAmount !== null && <><br />{RENEWAL_MOVE_WORDS(formatMoney(s.amount, s.currency))}</>}
                      {s.pendingPlanName && <><br />Moves to {s.pendingPlanName}</>}
                    </>
                  )}
                </td>
                {canAct && (
                  <td className={css.td} data-label="Actions">
                    {live && (
                      <span className={css.rowActions}>
                        {s.cancelAtPeriodEnd && (
                          <button type="button" className={`${button.primary} ${css.smallButton}`}
                            onClick={() => start({ kind: 'resumeSubscription', subscriptionId: s.id })}>Resume subscription</button>
                        )}
                        <button type="button" className={`${button.secondary} ${css.smallButton}`}
                          onClick={() => start({ kind: 'changePlan', subscriptionId: s.id })}>Change plan</button>
                        <button type="button" className={`${button.secondary} ${css.smallButton}`}
                          onClick={() => start({ kind: 'grantDays', subscriptionId: s.id })}>Grant days</button>
                        <button type="button" className={`${button.danger} ${css.smallButton}`}
                          onClick={() => start({ kind: 'cancelSubscription', subscriptionId: s.id })}>{s.cancelAtPeriodEnd ? 'Cancel now' : 'Cancel subscription'}</button>
                      </span>
                    )}
                  </td>
                )}
              </tr>
              <HistoryRow kind="subscription" id={s.id} about={SUPPORT_HISTORY_TEXT.subscription(s.planName)} columns={head.length} names={names} />
              </Fragment>
            );
          })}
        </Table>
      )}
    </Section>
  );
}

function Payments({ canAct }: { canAct: boolean }) {
  const { dateTime } = useDisplayDates();
  const subscriber = SubscriberContext.useActorRef();
  const { payments } = SubscriberContext.useSelector(selectDetail)!;
  const names = usePlanNames();
  const head = ['Date', 'Plan', 'Amount', 'Refunded', 'Method', 'Status', ...(canAct ? ['Actions'] : [])];
  return (
    <Section title="Payments" note={`The last ${SUPPORT_LIMITS.payments}, newest first. A refunded payment has its History.`}>
      {payments.length === 0 ? <p>No payments.</p> : (
        <Table caption="Payments" stacked head={head}>
          {payments.map((p) => (
            <Fragment key={p.id}>
            <tr className={hasPaymentHistory(p) ? css.rowWithHistory : undefined}>
              <td className={`${css.td} ${css.nowrap}`} data-label="Date">{dateTime(p.at)}</td>
              <td className={css.td} data-label="Plan">{p.planName ?? '—'}</td>
              <td className={`${css.td} ${css.numeric}`} data-label="Amount">{formatMoney(p.amount, p.currency)}</td>
              <td className={`${css.td} ${css.numeric}`} data-label="Refunded">{p.refundedAmount > 0 ? formatMoney(p.refundedAmount, p.currency) : '—'}</td>
              <td className={css.td} data-label="Method">{PAYMENT_METHOD_LABELS[p.method] ?? p.method}</td>
              <td className={css.td} data-label="Status"><span className={css.badge[PAYMENT_TONE[p.status] ?? 'neutral']}>{statusWord(PAYMENT_STATUS_WORDS, p.status)}</span></td>
              {canAct && (
                <td className={css.td} data-label="Actions">
                  {REFUNDABLE_PAYMENT_STATUSES.some((refundable) => refundable === p.status) && (
                    <button type="button" className={`${button.secondary} ${css.smallButton}`} aria-label={`Refund the payment of ${dateTime(p.at)}`}
                      onClick={() => subscriber.send({ type: 'action.start', request: { kind: 'refundPayment', paymentId: p.id } })}>Refund</button>
                  )}
                </td>
              )}
            </tr>
            {hasPaymentHistory(p) && (
              <HistoryRow kind="payment" id={p.id} about={SUPPORT_HISTORY_TEXT.payment(dateTime(p.at))} columns={head.length} names={names} />
            )}
            </Fragment>
          ))}
        </Table>
      )}
    </Section>
  );
}

function Devices({ canAct }: { canAct: boolean }) {
  const { date, dateTime } = useDisplayDates();
  const subscriber = SubscriberContext.useActorRef();
  const { devices } = SubscriberContext.useSelector(selectDetail)!;
  const anySignedIn = devices.some((d) => d.signedOutAt === null);
  return (
    <Section
      title="Devices"
      actions={canAct && anySignedIn && (
        <button type="button" className={`${button.secondary} ${css.smallButton}`}
          onClick={() => subscriber.send({ type: 'action.start', request: { kind: 'signOutDevices', deviceId: null } })}>Sign out of all devices</button>
      )}
    >
      {devices.length === 0 ? <p>No devices.</p> : (
        <Table caption="Devices" stacked head={['Device', 'Type', 'OS and app', 'Last seen', 'State', ...(canAct ? ['Actions'] : [])]}>
          {devices.map((d) => (
            <tr key={d.id}>
              <td className={css.td} data-label="Device">{d.name}</td>
              <td className={css.td} data-label="Type">{d.deviceType}</td>
              <td className={css.td} data-label="OS and app">{d.os} · app {d.appVersion}</td>
              <td className={`${css.td} ${css.nowrap}`} data-label="Last seen">{dateTime(d.lastSeenAt)}</td>
              <td className={css.td} data-label="State">{d.signedOutAt ? `${DEVICE_SESSION_WORDS.signed_out} ${date(d.signedOutAt)}` : DEVICE_SESSION_WORDS.signed_in}</td>
              {canAct && (
                <td className={css.td} data-label="Actions">
                  {d.signedOutAt === null && (
                    <button type="button" className={`${button.secondary} ${css.smallButton}`} aria-label={`Sign out ${d.name}`}
                      onClick={() => subscriber.send({ type: 'action.start', request: { kind: 'signOutDevices', deviceId: d.id } })}>Sign out</button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}

function Playback() {
  const { dateTime } = useDisplayDates();
  const { playback } = SubscriberContext.useSelector(selectDetail)!;
  return (
    <Section title="Recent playback" note={`The last ${SUPPORT_LIMITS.playbackSessions} sessions with their quality of service. Slow starts, heavy rebuffering and errors are marked.`}>
      {playback.length === 0 ? <p>No playback yet.</p> : (
        <Table caption="Recent playback" head={['Started', 'Title', 'Device', 'Watched', 'Startup time', 'Rebuffering', 'Bitrate', 'Error']}>
          {playback.map((p) => {
            const ratio = p.watchedSeconds + p.rebufferSeconds > 0 ? p.rebufferSeconds / (p.watchedSeconds + p.rebufferSeconds) : 0;
            return (
              <tr key={p.id}>
                <td className={`${css.td} ${css.nowrap}`}>{dateTime(p.startedAt)}</td>
                <td className={css.td}>{p.contentTitle}</td>
                <td className={css.td}>{p.deviceType}</td>
                <td className={`${css.td} ${css.numeric}`}>{formatSeconds(p.watchedSeconds)}</td>
                <td className={`${css.td} ${css.numeric} ${p.startupMs > SLOW_STARTUP_MS ? css.flagged : ''}`}>{formatMs(p.startupMs)}</td>
                <td className={`${css.td} ${css.numeric} ${ratio > HEAVY_REBUFFER_RATIO ? css.flagged : ''}`}>
                  {p.rebufferCount === 0 ? 'None' : `${p.rebufferCount}× · ${formatSeconds(p.rebufferSeconds)}`}
                </td>
                <td className={`${css.td} ${css.numeric}`}>{(p.avgBitrateKbps / 1000).toFixed(1)} Mbps</td>
                <td className={`${css.td} ${p.errorCode ? css.flagged : ''}`}>{p.errorCode ?? '—'}</td>
              </tr>
            );
          })}
        </Table>
      )}
    </Section>
  );
}

function Notes({ canAct }: { canAct: boolean }) {
  const { dateTime } = useDisplayDates();
  const subscriber = SubscriberContext.useActorRef();
  const { notes } = SubscriberContext.useSelector(selectDetail)!;
  return (
    <Section
      title="Support notes"
      actions={canAct && (
        <button type="button" className={`${button.secondary} ${css.smallButton}`}
          onClick={() => subscriber.send({ type: 'action.start', request: { kind: 'addNote' } })}>Add note</button>
      )}
    >
      {notes.length === 0 ? <p>No notes yet.</p> : (
        <ul className={css.notes}>
          {notes.map((n) => (
            <li key={n.id} className={css.note}>
              <p style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{n.body}</p>
              <span className={css.noteMeta}>{n.authorName || 'Former staff member'} · {dateTime(n.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** The page body over the `subscriber` machine (rendered inside SubscriberContext). */
export function SubscriberDetailView() {
  const subscriber = SubscriberContext.useActorRef();
  const loading = SubscriberContext.useSelector(selectIsLoading);
  const loadError = SubscriberContext.useSelector(selectLoadError);
  const notFound = SubscriberContext.useSelector(selectIsNotFound);
  const detail = SubscriberContext.useSelector(selectDetail);
  const canAct = SubscriberContext.useSelector(selectCanAct);
  const lastDone = SubscriberContext.useSelector(selectLastDone);

  if (notFound) {
    return (
      <main className={page}>
        <section className={css.notFound} aria-labelledby="subscriber-not-found">
          <h1 id="subscriber-not-found" className={css.headerTitle}>{SUPPORT_MESSAGES.subscriberNotFound}</h1>
          <p>{SUPPORT_MESSAGES.subscriberNotFoundHelp}</p>
          <Link to="/users" className={button.primary}>Back to search</Link>
        </section>
      </main>
    );
  }

  return (
    <main className={page}>
      <Link to="/users" className={css.backLink}>← Back to search</Link>
      {loading && <p aria-live="polite">Loading subscriber…</p>}
      {loadError && (
        <div role="alert">
          <p className={errorText}>{loadError}</p>
          <button type="button" className={button.secondary} onClick={() => subscriber.send({ type: 'subscriber.retry' })}>Retry</button>
        </div>
      )}
      {detail && (
        <>
          <div className={css.header}>
            <h1 className={css.headerTitle}>{detail.profile.name}</h1>
            <SubscriberStatusBadge status={detail.profile.status} />
          </div>
          {lastDone && <p role="status" className={css.doneMessage}>{lastDone}</p>}
          <Profile />
          <Subscriptions canAct={canAct} />
          <Payments canAct={canAct} />
          <Devices canAct={canAct} />
          <Playback />
          <Notes canAct={canAct} />
          <SupportActionDialog />
        </>
      )}
    </main>
  );
}

export function SubscriberPage() {
  const { subscriberId = '' } = useParams({ strict: false });
  const canAct = useCanActInSupport();
  return (
    // A new id is a new visit: a fresh machine, not the previous subscriber's state.
    <SubscriberHost key={subscriberId} input={{ subscriberId, canAct }}>
      <SubscriberDetailView />
    </SubscriberHost>
  );
}
