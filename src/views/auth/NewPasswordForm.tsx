/**
 * The new-password form (spec §4.2, §5) of both password flows: new and confirm with show/hide
 * toggles, a live checklist of the rules still missing, the spec's messages verbatim. The token comes
 * from the page's ?token= query and is handed to the machine once.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  selectError, selectIsResetting, selectPasswordFailures, selectResetToken, type ForgotPasswordMachine,
} from '../../../machines/forgot-password.machine';
import { PASSWORD_RULE_LABELS, type PasswordRule } from '../../../machines/password-rules';
import { ROUTES } from '../../config';
import { button, errorText } from '../../theme/ui.css';
import * as css from './auth.css';
import { PasswordField } from './PasswordField';

const RULES = Object.keys(PASSWORD_RULE_LABELS) as PasswordRule[];

export function NewPasswordForm({ actor, token }: { actor: ActorRefFrom<ForgotPasswordMachine>; token: string }) {
  const storedToken = useSelector(actor, selectResetToken);
  const failures = useSelector(actor, selectPasswordFailures);
  const error = useSelector(actor, selectError);
  const resetting = useSelector(actor, selectIsResetting);
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const rulesId = useId();

  useEffect(() => {
    if (token && storedToken !== token) actor.send({ type: 'reset.open', token });
    // Only a new token from the address bar reopens the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actor, token]);

  if (!token) {
    return (
      <div role="status">
        <h1 className={css.title}>Reset password</h1>
        <p className={css.text}>This link has no reset token. Request a new verification code to continue.</p>
        <Link to={ROUTES.forgotPassword}>Forgot password?</Link>
      </div>
    );
  }

  function edit(next: { newPassword: string; confirmPassword: string }) {
    setNewPassword(next.newPassword);
    setConfirmPassword(next.confirmPassword);
    actor.send({ type: 'reset.edit', ...next });
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    actor.send({ type: 'reset.submit', newPassword, confirmPassword });
  }

  return (
    <form className={css.form} onSubmit={submit} noValidate>
      <h1 className={css.title}>Set a new password</h1>
      <PasswordField
        label="New Password" name="newPassword" value={newPassword} autoComplete="new-password" describedBy={rulesId}
        onChange={(value) => edit({ newPassword: value, confirmPassword })}
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
        label="Confirm Password" name="confirmPassword" value={confirmPassword} autoComplete="new-password"
        onChange={(value) => edit({ newPassword, confirmPassword: value })}
      />
      {error && <p className={errorText} role="alert">{error}</p>}
      <button type="submit" className={`${button.primary} ${css.submit}`} disabled={resetting}>
        {resetting ? 'Saving…' : 'Reset password'}
      </button>
    </form>
  );
}
