/**
 * The staff page's dialogs (Radix, src/views/shared/Modal.tsx): the create/edit form with its role
 * grid (area × none/read/write/contributor), the discard question, the confirmations, the one-time
 * set-password link, an account's active sessions and an account's History (from its row; an edited
 * account's form has it as its second tab, the dialog machine's `history` disclosure).
 */
import { useSelector } from '@xstate/react';
import {
  selectConfirmError, selectIsWorking, selectLink, selectPending, selectPhoneDraft, selectSessions, selectSessionsError, selectSessionsLoading,
  selectSessionsOf, selectCanEdit, selectHistoryOf, selectStaffHistory, type PendingAction,
} from '../../../machines/staff-admin.machine';
import {
  selectCanGrant, selectForm, selectFormError, selectFormErrors, selectIsConflict, selectIsDiscarding, selectIsSaving, selectPhoneRequired,
  selectSmsLocked, selectDialogHistory, selectIsConfirmingNavigation, type StaffDialogMachine,
} from '../../../machines/staff-dialog.machine';
import type { ActorRefFrom } from 'xstate';
import { LeaveQuestion } from '../shared/LeaveQuestion';
import { useLeaveGuard } from '../shared/use-editor-leave-guard';
import { ACCESS_LEVELS, AREA_NAMES } from '../../../common/constants';
import { formatDateTime } from '../../../common/display-format';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { SECOND_FACTOR_TEXT, secondFactorEffect } from '../../../common/second-factor-rule';
import { STAFF_HISTORY_TEXT } from '../../../common/staff-revision-words';
import { HistoryPanel } from '../shared/HistoryPanel';
import { selectDisclosedHistory, selectDisclosureOpen } from '../../../machines/history-disclosure.machine';
import { button, errorText, field, input, label } from '../../theme/ui.css';
import { Modal } from '../shared/Modal';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import * as css from './admin.css';
import { useStaffDialog, useStaffPage, useStaffSelector } from './staff-admin-context';

const LEVELS = ['none', ...ACCESS_LEVELS] as const;

const CONFIRM_TEXT: Record<Exclude<PendingAction['kind'], 'secondFactorRule'>, { title: string; body: (name: string) => string; button: string }> = {
  disable: { title: 'Disable account', body: (n) => `Disable ${n}? They are signed out everywhere at once and cannot sign in until enabled again.`, button: 'Disable' },
  enable: { title: 'Enable account', body: (n) => `Enable ${n}? They can sign in again with their password.`, button: 'Enable' },
  endSessions: { title: 'End sessions', body: (n) => `End every session of ${n}? Their open pages go to the sign-in page at their next action.`, button: 'End sessions' },
  resetPassword: { title: 'Reset password', body: (n) => `Send ${n} a new set-password link (valid 24 hours, single use)? Earlier links stop working; their current password keeps working until they set a new one.`, button: 'Send link' },
  resetSecondFactor: { title: 'Reset second factor', body: (n) => `Send the sign-in codes of ${n} to a new mobile number? Codes already sent stop working and their sessions end.`, button: 'Reset 2FA' },
};

function confirmText(pending: PendingAction): { title: string; lead?: string; body: string; button: string } {
  if (pending.kind === 'secondFactorRule') {
    // Issue 30: the change is named (from → to) and what it will do is said before it is made.
    const { options } = SECOND_FACTOR_TEXT;
    return {
      title: SECOND_FACTOR_TEXT.confirmTitle,
      lead: `${options[pending.from].label} → ${options[pending.rule].label}`,
      body: secondFactorEffect(pending.from, pending.rule, pending.counts),
      button: SECOND_FACTOR_TEXT.confirmButton,
    };
  }
  const text = CONFIRM_TEXT[pending.kind];
  return { title: text.title, body: text.body(pending.name), button: text.button };
}

/** The one leave guard (issue 38) for the open dialog: a navigation away asks first when something was typed. */
function StaffLeaveGuard({ dialog }: { dialog: ActorRefFrom<StaffDialogMachine> }) {
  useLeaveGuard(dialog, { navigate: { type: 'editor.navigate' }, isConfirming: selectIsConfirmingNavigation });
  return null;
}

function EditorDialog() {
  const dialog = useStaffDialog();
  return dialog ? <><StaffLeaveGuard dialog={dialog} /><EditorForm /></> : null;
}

function EditorForm() {
  const dialog = useStaffDialog();
  const form = useSelector(dialog, selectForm);
  const errors = useSelector(dialog, selectFormErrors);
  const formError = useSelector(dialog, selectFormError);
  const saving = useSelector(dialog, selectIsSaving);
  const discarding = useSelector(dialog, selectIsDiscarding);
  const conflict = useSelector(dialog, selectIsConflict);
  const confirmingNavigation = useSelector(dialog, selectIsConfirmingNavigation);
  const phoneRequired = useSelector(dialog, selectPhoneRequired);
  const smsLocked = useSelector(dialog, selectSmsLocked);
  const disclosure = useSelector(dialog, selectDialogHistory);
  const historyShown = useSelector(disclosure, selectDisclosureOpen);
  const history = useSelector(disclosure, selectDisclosedHistory);
  // The grant cap (issue 25): which (area, level) cells the signed-in user may choose, as one string so the selector stays stable.
  const grantable = useSelector(dialog, (s) => AREA_NAMES.flatMap((area) => LEVELS.filter((level) => selectCanGrant(s, area, level)).map((level) => `${area}:${level}`)).join('|'));
  if (!dialog || !form) return null;
  const actor = dialog;
  const offered = new Set(grantable.split('|'));
  const locked = AREA_NAMES.some((area) => LEVELS.some((level) => !offered.has(`${area}:${level}`)));
  if (discarding) {
    return (
      <Modal open title="Discard changes" negativeLabel="Keep editing" positiveLabel="Discard"
        onNegative={() => actor.send({ type: 'editor.keep' })} onPositive={() => actor.send({ type: 'editor.discard' })}>
        <p>{ADMIN_MESSAGES.leaveConfirm}</p>
      </Modal>
    );
  }
  if (confirmingNavigation) {
    return <LeaveQuestion open onStay={() => actor.send({ type: 'editor.stay' })} onLeave={() => actor.send({ type: 'editor.leave' })} />;
  }
  if (conflict) {
    return (
      <Modal open title="Changed by someone else" negativeLabel="Close" positiveLabel="Reload"
        onNegative={() => actor.send({ type: 'editor.cancel' })} onPositive={() => actor.send({ type: 'editor.reload' })}>
        <p role="alert">{ADMIN_MESSAGES.conflict}</p>
      </Modal>
    );
  }
  const text = (name: 'email' | 'displayName' | 'phoneNumber', title: string, type: string, disabled = false, hint?: string, required = true) => (
    <>
      <label className={field}>
        <span className={label}>{title}</span>
        <input className={input} type={type} value={form[name]} disabled={disabled || saving} aria-invalid={Boolean(errors[name])}
          aria-required={required} aria-describedby={hint ? `${name}-hint` : undefined}
          onChange={(e) => actor.send({ type: 'editor.field', field: name, value: e.target.value })} />
        {errors[name] && <span className={errorText}>{errors[name]}</span>}
      </label>
      {hint && <p id={`${name}-hint`} className={css.muted} data-testid={`${name}-hint`}>{hint}</p>}
    </>
  );
  return (
    <Modal open title={form.mode === 'create' ? 'New staff account' : `Edit ${form.displayName || form.email}`}
      negativeLabel="Cancel" positiveLabel={saving ? 'Saving…' : 'Save'} busy={saving}
      onNegative={() => actor.send({ type: 'editor.cancel' })} onPositive={() => actor.send({ type: 'editor.save' })}>
      {formError && <p role="alert" className={errorText}>{formError}</p>}
      {form.mode === 'edit' && disclosure && (
        <div role="tablist" className={css.tabs}>
          <button type="button" role="tab" id="staff-tab-details" aria-selected={!historyShown} aria-controls="staff-tab-details-panel" className={css.tab}
            onClick={() => disclosure.send({ type: 'disclosure.close' })}>{STAFF_HISTORY_TEXT.detailsTab}</button>
          <button type="button" role="tab" id="staff-tab-history" aria-selected={historyShown} aria-controls="staff-tab-history-panel" className={css.tab}
            onClick={() => disclosure.send({ type: 'disclosure.open' })}>{STAFF_HISTORY_TEXT.historyTab}</button>
        </div>
      )}
      {historyShown && (
        <div role="tabpanel" id="staff-tab-history-panel" aria-labelledby="staff-tab-history" className={css.historyScroll}>
          {history && <HistoryPanel history={history} />}
        </div>
      )}
      <div role={form.mode === 'edit' ? 'tabpanel' : undefined} id="staff-tab-details-panel" aria-labelledby={form.mode === 'edit' ? 'staff-tab-details' : undefined} hidden={historyShown}>
        {text('email', 'E-mail (username)', 'email', form.mode === 'edit')}
        {text('displayName', 'Display name', 'text')}
        {text('phoneNumber', 'Mobile number', 'tel', false,
          phoneRequired ? ADMIN_MESSAGES.phoneHintRequired : ADMIN_MESSAGES.phoneHintOptional, phoneRequired)}
        <label className={css.checkboxRow}>
          <input type="checkbox" checked={form.twoFactorOnLogin || smsLocked} disabled={saving || smsLocked}
            aria-describedby={smsLocked ? 'sms-locked-hint' : undefined}
            onChange={(e) => actor.send({ type: 'editor.field', field: 'twoFactorOnLogin', value: e.target.checked })} />
          <span>Second factor (SMS code) at sign-in</span>
        </label>
        {smsLocked && <p id="sms-locked-hint" className={css.muted}>{SECOND_FACTOR_TEXT.smsLocked}</p>}
        <table className={css.roleGrid} aria-label="Roles">
          <thead>
            <tr>
              <th className={css.th}>Area</th>
              {LEVELS.map((level) => <th key={level} className={`${css.th} ${css.roleCell}`}>{level}</th>)}
            </tr>
          </thead>
          <tbody>
            {AREA_NAMES.map((area) => (
              <tr key={area}>
                <th scope="row" className={css.td} style={{ textAlign: 'left', fontWeight: 500 }}>{area}</th>
                {LEVELS.map((level) => (
                  <td key={level} className={`${css.td} ${css.roleCell}`}>
                    <input type="radio" name={`role-${area}`} aria-label={`${area}: ${level}`} disabled={saving || !offered.has(`${area}:${level}`)}
                      checked={(form.roles[area] ?? 'none') === level}
                      onChange={() => actor.send({ type: 'editor.role', area, level })} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {locked && <p className={css.muted}>{ADMIN_MESSAGES.grantLocked}</p>}
        {form.mode === 'create' && <p className={css.muted}>Nobody sets the password for them: they get a one-time link (valid 24 hours).</p>}
      </div>
    </Modal>
  );
}

function ConfirmDialog() {
  const actor = useStaffPage();
  const pending = useStaffSelector(selectPending);
  const working = useStaffSelector(selectIsWorking);
  const phone = useStaffSelector(selectPhoneDraft);
  const error = useStaffSelector(selectConfirmError);
  if (!pending) return null;
  const text = confirmText(pending);
  return (
    <Modal open title={text.title} negativeLabel="Cancel" positiveLabel={text.button} busy={working}
      onNegative={() => actor.send({ type: 'confirm.cancel' })} onPositive={() => actor.send({ type: 'confirm.accept' })}>
      {text.lead && <p data-testid="confirm-lead"><strong>{text.lead}</strong></p>}
      <p>{text.body}</p>
      {pending.kind === 'resetSecondFactor' && (
        <label className={field}>
          <span className={label}>New mobile number</span>
          <input className={input} type="tel" value={phone} onChange={(e) => actor.send({ type: 'confirm.phone', value: e.target.value })} />
        </label>
      )}
      {error && <p role="alert" className={errorText}>{error}</p>}
    </Modal>
  );
}

function LinkDialog() {
  const actor = useStaffPage();
  const link = useStaffSelector(selectLink);
  const zone = useSiteTimeZone();
  if (!link) return null;
  return (
    <Modal open title="Set-password link" positiveLabel="Done" onNegative={() => actor.send({ type: 'link.dismiss' })} onPositive={() => actor.send({ type: 'link.dismiss' })}>
      <p>
        Give this link to {link.name}. It works once, until {formatDateTime(link.expiresAt, zone)}, and is shown only now.{' '}
        {link.sentBySms ? ADMIN_MESSAGES.linkSentBySms : ADMIN_MESSAGES.linkNotSent}
      </p>
      <p className={css.linkBox} data-testid="set-password-link">{link.url}</p>
      <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'link.copy' })}>{ADMIN_MESSAGES.copyLink}</button>
      {link.copied && <p role="status" className={css.muted}>{ADMIN_MESSAGES.linkCopied}</p>}
    </Modal>
  );
}

function SessionsDialog() {
  const actor = useStaffPage();
  const of = useStaffSelector(selectSessionsOf);
  const sessions = useStaffSelector(selectSessions);
  const loading = useStaffSelector(selectSessionsLoading);
  const error = useStaffSelector(selectSessionsError);
  const canEdit = useStaffSelector(selectCanEdit);
  const zone = useSiteTimeZone();
  if (!of) return null;
  return (
    <Modal open title={`Sessions of ${of.name}`} positiveLabel="Close" onNegative={() => actor.send({ type: 'sessions.close' })} onPositive={() => actor.send({ type: 'sessions.close' })}>
      {error && (
        <div role="alert">
          <p className={errorText}>{error}</p>
          <button type="button" className={`${button.secondary} ${css.small}`} onClick={() => actor.send({ type: 'sessions.retry' })}>Retry</button>
        </div>
      )}
      {loading && <p className={css.muted}>Loading sessions…</p>}
      {!loading && !error && sessions.length === 0 && <p>{ADMIN_MESSAGES.noSessions}</p>}
      {!loading && sessions.length > 0 && (
        <ul aria-label="Active sessions" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {sessions.map((s) => (
            <li key={s.id} style={{ borderTop: '1px solid #ddd', padding: '0.5rem 0' }}>
              <div>{s.userAgent || 'Unknown browser'}{s.current ? ' (this session)' : ''}</div>
              <div className={css.muted}>Address {s.ipAddress || 'unknown'} · device {s.deviceId.slice(0, 8) || 'unknown'} · last seen {formatDateTime(s.lastSeenAt, zone)}</div>
              {canEdit && !s.current && (
                <button type="button" className={`${button.ghost} ${css.small}`} onClick={() => actor.send({ type: 'sessions.end', sessionId: s.id })}>End this session</button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

function StaffHistoryDialog() {
  const actor = useStaffPage();
  const of = useStaffSelector(selectHistoryOf);
  const history = useStaffSelector(selectStaffHistory);
  if (!of) return null;
  const close = () => actor.send({ type: 'staffHistory.close' });
  return (
    <Modal open title={STAFF_HISTORY_TEXT.dialogTitle(of.name)} positiveLabel={STAFF_HISTORY_TEXT.close} onNegative={close} onPositive={close}>
      <div className={css.historyScroll}>{history && <HistoryPanel history={history} />}</div>
    </Modal>
  );
}

export function StaffDialogs() {
  return (
    <>
      <EditorDialog />
      <ConfirmDialog />
      <LinkDialog />
      <SessionsDialog />
      <StaffHistoryDialog />
    </>
  );
}
