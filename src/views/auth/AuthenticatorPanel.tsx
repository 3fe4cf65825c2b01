/**
 * The sign-in step of an account with an authenticator app (issue 19), on /verify-number in place of
 * the SMS panel: "Authenticator code" (six digits), or after "Use a recovery code" one of the saved
 * recovery codes. What is typed lives in the sign-in machine's authenticatorStep child (events go to
 * `auth`, which forwards them); no SMS is sent, so no Resend Code.
 */
import { useSelector } from '@xstate/react';
import { useId, type FormEvent } from 'react';
import { selectAuthenticatorStepActor } from '../../../machines/auth.machine';
import { selectAuthenticatorPanel } from '../../../machines/authenticator-step.machine';
import { useAppActor } from '../../app-actor';
import { button, errorText, field, input, label } from '../../theme/ui.css';
import { useTotpText } from '../account/totp-text';
import * as css from './auth.css';

export function AuthenticatorPanel() {
  const t = useTotpText();
  const auth = useAppActor('auth');
  const step = useSelector(auth, selectAuthenticatorStepActor) ?? undefined;
  const { entry, verifying, error } = useSelector(step, selectAuthenticatorPanel);
  const inputId = useId();
  const errorId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    auth.send({ type: 'authenticator.submit' });
  }

  return (
    <form className={css.form} onSubmit={submit} noValidate>
      <h1 className={css.title}>{entry.recovery ? t.recoveryLabel : t.signInTitle}</h1>
      <p className={css.text}>{entry.recovery ? t.recoveryText : t.signInText}</p>
      <div className={field}>
        <label htmlFor={inputId} className={label}>{entry.recovery ? t.recoveryLabel : t.signInTitle}</label>
        <input
          key={entry.recovery ? 'recovery' : 'app'}
          id={inputId} name={entry.recovery ? 'recovery-code' : 'authenticator-code'} value={entry.code} autoFocus spellCheck={false}
          className={entry.recovery ? input : `${input} ${css.otpInput}`}
          inputMode={entry.recovery ? 'text' : 'numeric'} autoComplete="one-time-code" maxLength={entry.recovery ? 11 : 6}
          aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}
          onChange={(e) => auth.send({ type: 'authenticator.edit', code: e.target.value })}
        />
      </div>
      {error && <p id={errorId} className={errorText} role="alert">{error}</p>}
      <button type="submit" className={`${button.primary} ${css.submit}`} disabled={verifying}>
        {verifying ? t.verifying : t.verify}
      </button>
      <div className={css.actions}>
        <button type="button" className={button.ghost} disabled={verifying}
          onClick={() => auth.send({ type: entry.recovery ? 'authenticator.useApp' : 'authenticator.useRecovery' })}>
          {entry.recovery ? t.useAuthenticator : t.useRecovery}
        </button>
      </div>
    </form>
  );
}
