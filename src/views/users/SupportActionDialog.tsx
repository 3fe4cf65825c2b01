/**
 * The confirmation of every support action (issue 16), in the shared Modal: what will happen, the
 * form the action needs (cancel mode, days, note) and the reason that goes into the audit log. The
 * confirm button works once the machine says the form is complete; failures stay in the dialog.
 */
import { SUPPORT_LIMITS, SUPPORT_MESSAGES, isValidComplimentaryDays, type CancelMode } from '../../../common/support';
import {
  selectActionError, selectCanConfirm, selectDetail, selectDraft, selectDraftSubscription, selectIsDialogOpen,
  selectIsRunning, type ActionDraft,
} from '../../../machines/subscriber.machine';
import { errorText, field, input, label } from '../../theme/ui.css';
import { Modal } from '../shared/Modal';
import { formatDateTime } from './format';
import { SubscriberContext } from './support-logic';
import * as css from './users.css';

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
  }
}

export function SupportActionDialog() {
  const subscriber = SubscriberContext.useActorRef();
  const open = SubscriberContext.useSelector(selectIsDialogOpen);
  const draft = SubscriberContext.useSelector(selectDraft);
  const running = SubscriberContext.useSelector(selectIsRunning);
  const canConfirm = SubscriberContext.useSelector(selectCanConfirm);
  const error = SubscriberContext.useSelector(selectActionError);
  const subscription = SubscriberContext.useSelector(selectDraftSubscription);
  const detail = SubscriberContext.useSelector(selectDetail);
  if (!draft) return null;

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
            ['AT_PERIOD_END', `At the end of the period (${formatDateTime(subscription.currentPeriodEnd)}); it stays active until then`],
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
              ? `The period of ${subscription.planName} will end ${formatDateTime(new Date(Date.parse(subscription.currentPeriodEnd) + days * DAY_MS).toISOString())} instead of ${formatDateTime(subscription.currentPeriodEnd)}.`
              : draft.days === '' ? `The period now ends ${formatDateTime(subscription.currentPeriodEnd)}.` : SUPPORT_MESSAGES.daysRange}
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
