/**
 * The new-password form (spec §4.2, §5) of both password flows: new and confirm with show/hide
 * toggles, a live checklist of the rules still missing, the spec's messages verbatim. The header's
 * change flow asks for the current password first (ASVS 6.2.3). The draft lives
 * in the machine; the reset token reached it from the page's address through the router.
 * Issue 38: a navigation away with typed passwords asks first ("Unsaved changes", through the one leave
 * guard); every field is a secret, so nothing is kept as a draft.
 */
import { keysOf } from '../../../common/one-of';
import { Link } from '@tanstack/react-router';
import { shallowEqual, useSelector } from '@xstate/react';
import { useId, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  selectAsksCurrentPassword, selectCurrentPassword, selectDraft, selectError, selectFlowStep, selectHasLeftForm, selectIsConfirmingLeave,
  selectIsResetting, selectPasswordFailures, type ForgotPasswordMachine,
} from '../../../machines/forgot-password.machine';
import { LeaveQuestion } from '../shared/LeaveQuestion';
import { useLeaveGuard } from '../shared/use-editor-leave-guard';
import { PASSWORD_RULE_LABELS, type PasswordRule } from '../../../common/password-rules';
import { ROUTES } from '../../../common/constants';
import { ACCOUNT_MESSAGES } from '../../../common/messages';
import { button, errorText } from '../../theme/ui.css';
import * as css from './auth.css';
import { PasswordField } from './PasswordField';

const RULES: PasswordRule[] = keysOf(PASSWORD_RULE_LABELS);

export function NewPasswordForm({ actor }: { actor: ActorRefFrom<ForgotPasswordMachine> }) {
  const open = useSelector(actor, (snapshot) => selectFlowStep(snapshot) === 'newPassword');
  const draft = useSelector(actor, selectDraft, shallowEqual);
  const failures = useSelector(actor, selectPasswordFailures, shallowEqual);
  const error = useSelector(actor, selectError);
  const resetting = useSelector(actor, selectIsResetting);
  const asksCurrent = useSelector(actor, selectAsksCurrentPassword);
  const currentPassword = useSelector(actor, selectCurrentPassword);
  const rulesId = useId();
  const confirmingLeave = useSelector(actor, selectIsConfirmingLeave);
  useLeaveGuard(actor, { navigate: { type: 'reset.navigate' }, isConfirming: selectIsConfirmingLeave, hasLeft: selectHasLeftForm });

  if (!open) {
    return (
      <div role="status">
        <h1 className={css.title}>Reset password</h1>
        <p className={css.text}>This link has no reset token. Request a new verification code to continue.</p>
        <Link to={ROUTES.forgotPassword}>Forgot password?</Link>
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    actor.send({ type: 'reset.submit' });
  }

  return (
    <form className={css.form} onSubmit={submit} noValidate>
      <h1 className={css.title}>Set a new password</h1>
      {asksCurrent && (
        <PasswordField
          label={ACCOUNT_MESSAGES.currentPasswordLabel} name="currentPassword" value={currentPassword} autoComplete="current-password"
          onChange={(value) => actor.send({ type: 'reset.current', currentPassword: value })}
        />
      )}
      <PasswordField
        label="New Password" name="newPassword" value={draft.newPassword} autoComplete="new-password" describedBy={rulesId}
        onChange={(value) => actor.send({ type: 'reset.edit', newPassword: value, confirmPassword: draft.confirmPassword })}
      />
      <ul id={rulesId} className={css.checklist} aria-label="Password rules">
        {RULES.map((rule) => {
          const met = !failures.includes(rule);
          return (
            <li key={rule} className={css.rule[met ? 'met' : 'missing']} data-rule={rule} data-met={met}>
              {met ? '✓' : '○'} {PASSWORD_RULE_LABELS[rule]}
            </li>
          );
        })}
      </ul>
      <PasswordField
        label="Confirm Password" name="confirmPassword" value={draft.confirmPassword} autoComplete="new-password"
        onChange={(value) => actor.send({ type: 'reset.edit', newPassword: draft.newPassword, confirmPassword: value })}
      />
      {error && <p className={errorText} role="alert">{error}</p>}
      <button type="submit" className={`${button.primary} ${css.submit}`} disabled={resetting}>
        {resetting ? 'Saving…' : 'Reset password'}
      </button>
      <LeaveQuestion open={confirmingLeave} onStay={() => actor.send({ type: 'reset.stay' })} onLeave={() => actor.send({ type: 'reset.leave' })} />
    </form>
  );
}
