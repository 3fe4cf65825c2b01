/**
 * The confirmation of every support action (issue 16), in the shared Modal: what will happen, the
 * form the action needs (cancel mode, days, note) and the reason that goes into the audit log. The
 * confirm button works once the machine says the form is complete; failures stay in the dialog.
 * Issue 38: leaving it with typed input (Go back, Escape, a navigation away) asks first ("Unsaved changes"),
 * through the one leave guard; the machine decides when, and keeps the typed input as the tab's draft.
 */
import { parseMoney } from '../../../common/monetization-rules';
import {
  PRORATION_RULE, SUPPORT_LIMITS, SUPPORT_MESSAGES, TRIAL_PLAN_CHANGE_RULE, isInTrialAt, isValidComplimentaryDays, planChangeProration, type CancelMode, type PlanChangeWhen,
} from '../../../common/support';
import {
  priceIn, refundableOf, selectActionError, selectCanConfirm, selectDetail, selectDraft, selectDraftPayment, selectDraftSubscription,
  selectHasLeftAction, selectIsConfirmingLeave, selectIsDialogOpen, selectIsRunning, type ActionDraft,
} from '../../../machines/support-subscriber.machine';
import { errorText, field, input, label } from '../../theme/ui.css';
import { LeaveQuestion } from '../shared/LeaveQuestion';
import { Modal } from '../shared/Modal';
import { useLeaveGuard } from '../shared/use-editor-leave-guard';
import { formatMoney } from './format';
import { useDisplayDates } from '../shared/use-site-time-zone';
import { SubscriberContext } from './support-logic';
import * as css from './support.css';

const DAY_MS = 86_400_000;

interface Wording {
  title: string;
  confirm: string;
  running: string;
}

function wordingOf(draft: ActionDraft): Wording {
  switch (draft.request.kind) {
    case 'cancelSubscription': return { title: 'Cancel subscription', confirm: 'Cancel subscription', running: 'Cancelling…' };
    case 'grantDays': return { title: 'Grant complimentary days', confirm: 'Grant days', running: 'Granting…' };
    case 'signOutDevices': return draft.request.deviceId
      ? { title: 'Sign out device', confirm: 'Sign out device', running: 'Signing out…' }
      : { title: 'Sign out of all devices', confirm: 'Sign out everywhere', running: 'Signing out…' };
    case 'addNote': return { title: 'Add a support note', confirm: 'Add note', running: 'Saving…' };
    case 'revealContact': return { title: 'Show full e-mail and phone', confirm: 'Show', running: 'Loading…' };
    case 'resumeSubscription': return { title: 'Resume subscription', confirm: 'Resume subscription', running: 'Resuming…' };
    case 'changePlan': return { title: 'Change plan', confirm: 'Change plan', running: 'Changing…' };
    case 'refundPayment': return { title: 'Refund payment', confirm: 'Refund', running: 'Refunding…' };
  }
}

export function SupportActionDialog() {
  const subscriber = SubscriberContext.useActorRef();
  useLeaveGuard(subscriber, { navigate: { type: 'action.navigate' }, isConfirming: selectIsConfirmingLeave, hasLeft: selectHasLeftAction });
  const confirmingLeave = SubscriberContext.useSelector(selectIsConfirmingLeave);
  const open = SubscriberContext.useSelector(selectIsDialogOpen);
  const draft = SubscriberContext.useSelector(selectDraft);
  const running = SubscriberContext.useSelector(selectIsRunning);
  const canConfirm = SubscriberContext.useSelector(selectCanConfirm);
  const error = SubscriberContext.useSelector(selectActionError);
  const subscription = SubscriberContext.useSelector(selectDraftSubscription);
  const detail = SubscriberContext.useSelector(selectDetail);
  const payment = SubscriberContext.useSelector(selectDraftPayment);
  const { dateTime } = useDisplayDates();
  if (!draft) return null;
  if (confirmingLeave) {
    return <LeaveQuestion open onStay={() => subscriber.send({ type: 'action.stay' })} onLeave={() => subscriber.send({ type: 'action.leave' })} />;
  }

  const { request } = draft;
  const wording = wordingOf(draft);
  const device = request.kind === 'signOutDevices' && request.deviceId ? detail?.devices.find((d) => d.id === request.deviceId) : undefined;
  const days = Number(draft.days);

  return (
    <Modal
      open={open}
      title={wording.title}
      negativeLabel="Go back"
      positiveLabel={running ? wording.running : wording.confirm}
      positiveDisabled={!canConfirm}
      busy={running}
      onNegative={() => subscriber.send({ type: 'action.cancel' })}
      onPositive={() => subscriber.send({ type: 'action.confirm' })}
    >
      {request.kind === 'cancelSubscription' && subscription && (
        <fieldset className={field} style={{ border: 0, padding: 0 }}>
          <legend className={label}>When should {subscription.planName} end?</legend>
          {([
            ['AT_PERIOD_END', `At the end of the period (${dateTime(subscription.currentPeriodEnd)}); it stays active until then`],
            ['NOW', 'Now: it ends at once and stops counting as active today'],
          ] as [CancelMode, string][]).map(([mode, text]) => (
            <label key={mode} className={css.radioRow}>
              <input type="radio" name="cancel-mode" value={mode} checked={draft.mode === mode}
                onChange={() => subscriber.send({ type: 'action.mode', mode })} />
              <span>{text}</span>
            </label>
          ))}
        </fieldset>
      )}
      {request.kind === 'grantDays' && subscription && (
        <div className={field}>
          <label className={label} htmlFor="support-days">Days ({SUPPORT_LIMITS.minComplimentaryDays}–{SUPPORT_LIMITS.maxComplimentaryDays})</label>
          <input id="support-days" className={input} type="number" inputMode="numeric" min={SUPPORT_LIMITS.minComplimentaryDays}
            max={SUPPORT_LIMITS.maxComplimentaryDays} value={draft.days}
            onChange={(e) => subscriber.send({ type: 'action.days', value: e.target.value })} />
          <p className={css.hint}>
            {isValidComplimentaryDays(days)
              ? `The period of ${subscription.planName} will end ${dateTime(new Date(Date.parse(subscription.currentPeriodEnd) + days * DAY_MS).toISOString())} instead of ${dateTime(subscription.currentPeriodEnd)}.`
              : draft.days === '' ? `The period now ends ${dateTime(subscription.currentPeriodEnd)}.` : SUPPORT_MESSAGES.daysRange}
          </p>
        </div>
      )}
      {request.kind === 'resumeSubscription' && subscription && (
        <p>{subscription.planName} will renew at the end of its period ({dateTime(subscription.currentPeriodEnd)}) instead of ending there; the cancellation is withdrawn.</p>
      )}
      {request.kind === 'changePlan' && subscription && (
        <PlanChangeForm draft={draft} subscription={subscription} />
      )}
      {request.kind === 'refundPayment' && payment && (
        <div className={field}>
          <label className={label} htmlFor="support-refund">Amount to refund ({payment.currency})</label>
          <input id="support-refund" className={input} inputMode="decimal" value={draft.amount}
            onChange={(e) => subscriber.send({ type: 'action.amount', value: e.target.value })} />
          <p className={css.hint}>
            {refundText(draft.amount, payment.currency, refundableOf(payment), payment.amount, dateTime(payment.at))}
          </p>
        </div>
      )}
      {request.kind === 'signOutDevices' && (
        <p>{device
          ? `${device.name} will have to sign in again.`
          : 'Every device of this subscriber will have to sign in again.'}</p>
      )}
      {request.kind === 'revealContact' && <p>The full e-mail and phone are shown on this page, and the reveal is written to the audit log with your reason.</p>}
      {request.kind === 'addNote' ? (
        <div className={field}>
          <label className={label} htmlFor="support-note">Note</label>
          <textarea id="support-note" className={`${input} ${css.textarea}`} maxLength={SUPPORT_LIMITS.maxNoteLength} value={draft.note}
            onChange={(e) => subscriber.send({ type: 'action.note', value: e.target.value })} />
          <p className={css.hint}>Other agents see it on this page; it is also kept in the audit log.</p>
        </div>
      ) : (
        <div className={field}>
          <label className={label} htmlFor="support-reason">Reason (kept in the audit log)</label>
          <textarea id="support-reason" className={`${input} ${css.textarea}`} maxLength={SUPPORT_LIMITS.maxReasonLength} value={draft.reason}
            onChange={(e) => subscriber.send({ type: 'action.reason', value: e.target.value })} />
          <p className={css.hint}>{SUPPORT_MESSAGES.reasonRequired}</p>
        </div>
      )}
      {error && <p role="alert" className={errorText}>{error}</p>}
    </Modal>
  );
}

/** What the refund will do, in words, or what is wrong with the amount typed. */
function refundText(text: string, currency: string, left: number, total: number, when: string): string {
  const amount = parseMoney(text, currency);
  const upTo = `up to ${formatMoney(left, currency)}`;
  if (amount === null || amount < 1 || amount > left) return `Enter an amount from ${formatMoney(1, currency)} ${upTo} (what is left of the payment).`;
  const kind = amount === left && left === total ? 'the whole payment' : amount === left ? 'the rest of the payment' : 'part of the payment';
  return `Gives back ${formatMoney(amount, currency)}, ${kind} of ${when} (${upTo}). The refund counts in Net revenue and the Payments report today.`;
}

function PlanChangeForm({ draft, subscription }: {
  draft: ActionDraft;
  subscription: NonNullable<ReturnType<typeof selectDraftSubscription>>;
}) {
  const subscriber = SubscriberContext.useActorRef();
  const detail = SubscriberContext.useSelector(selectDetail);
  const { dateTime } = useDisplayDates();
  const options = (detail?.planOptions ?? []).filter((p) => p.id !== subscription.planId);
  const price = draft.planId ? priceIn(detail, draft.planId, subscription.currency) : null;
  // The dialog states the amount the server will compute (the rule is common/support.ts prorationOf); seconds later it may differ by a cent.
  const now = Date.now();
  const inTrial = isInTrialAt({ status: subscription.status, trialEndsAt: subscription.trialEndsAt === null ? null : Date.parse(subscription.trialEndsAt) }, now);
  const proration = price === null ? null
    : planChangeProration({ status: subscription.status, trialEndsAt: subscription.trialEndsAt === null ? null : Date.parse(subscription.trialEndsAt),
      amount: subscription.amount, periodStart: Date.parse(subscription.currentPeriodStart), periodEnd: Date.parse(subscription.currentPeriodEnd) }, price, now);
  return (
    <>
      <div className={field}>
        <label className={label} htmlFor="support-plan">New plan</label>
        <select id="support-plan" className={input} value={draft.planId}
          onChange={(e) => subscriber.send({ type: 'action.plan', planId: e.target.value })}>
          <option value="">Choose a plan</option>
          {options.map((p) => {
            const amount = priceIn(detail, p.id, subscription.currency);
            return (
              <option key={p.id} value={p.id} disabled={amount === null}>
                {p.name} · {amount === null ? `no ${subscription.currency} price` : `${formatMoney(amount, subscription.currency)} / ${p.billingPeriod}`}
              </option>
            );
          })}
        </select>
      </div>
      <fieldset className={field} style={{ border: 0, padding: 0 }}>
        <legend className={label}>When</legend>
        {([
          ['NOW', 'Now: the new plan and price start at once'],
          ['AT_PERIOD_END', `At the end of the period (${dateTime(subscription.currentPeriodEnd)}): no proration`],
        ] as [PlanChangeWhen, string][]).map(([when, text]) => (
          <label key={when} className={css.radioRow}>
            <input type="radio" name="plan-when" value={when} checked={draft.when === when}
              onChange={() => subscriber.send({ type: 'action.when', when })} />
            <span>{text}</span>
          </label>
        ))}
      </fieldset>
      {draft.when === 'NOW' && inTrial && <p className={css.hint}>{TRIAL_PLAN_CHANGE_RULE}</p>}
      {draft.when === 'NOW' && !inTrial && (
        <p className={css.hint}>
          {PRORATION_RULE}
          {proration !== null && ` For this change: ${proration >= 0 ? '+' : '−'}${formatMoney(Math.abs(proration), subscription.currency)} on the next payment (${dateTime(subscription.currentPeriodEnd)}).`}
        </p>
      )}
    </>
  );
}
