/**
 * Sign-in page at '/' (spec §4.1): credentials, or Google / Microsoft through the identity provider
 * (loaded only when one of those buttons is pressed); the server's message on failure. It imports no
 * router: the first paint at '/' renders it without one (SignInScreen, issue 26).
 */
import { useSelector } from '@xstate/react';
import { useId, type FormEvent } from 'react';
import { selectIsSigningIn, selectIsSocialSigningIn, selectLoginError, selectLoginForm } from '../../../machines/auth.machine';
import type { SocialProvider } from '../../../machines/auth.types';
import { useAppActor } from '../../app-actor';
import { ROUTES } from '../../../common/constants';
import { authCard, button, centeredScreen, errorText, field, input, label } from '../../theme/ui.css';
import * as css from './auth.css';
import { AuthLink } from './auth-link';
import { PasswordField } from './PasswordField';
import { useShellText } from '../shared/shell-text';

export function LoginPage() {
  const auth = useAppActor('auth');
  // The machine's tags: `submitting` while a step is with the server, `social` while it is the provider's popup.
  const signingIn = useSelector(auth, selectIsSigningIn);
  const socialSigningIn = useSelector(auth, selectIsSocialSigningIn);
  const error = useSelector(auth, selectLoginError);
  // The typed text is the machine's (the form keeps no copy).
  const { username, password } = useSelector(auth, selectLoginForm);
  const usernameId = useId();
  const errorId = useId();
  const text = useShellText();
  const busy = signingIn;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    auth.send({ type: 'login.submit' });
  }

  function onSocial(provider: SocialProvider) {
    auth.send({ type: 'login.social', provider });
  }

  return (
    <main className={centeredScreen}>
      <div className={authCard}>
        <h1 className={css.title}>{text.signInTitle}</h1>
        <form className={css.form} onSubmit={onSubmit} noValidate aria-describedby={error ? errorId : undefined}>
          <div className={field}>
            <label htmlFor={usernameId} className={label}>{text.username}</label>
            <input
              id={usernameId} name="username" className={input} value={username} autoComplete="username" autoFocus
              onChange={(e) => auth.send({ type: 'form.usernameChanged', username: e.target.value })}
            />
          </div>
          <PasswordField label={text.password} name="password" value={password} onChange={(value) => auth.send({ type: 'form.passwordChanged', password: value })} autoComplete="current-password" />
          {error && <p id={errorId} className={errorText} role="alert">{error}</p>}
          <button type="submit" className={`${button.primary} ${css.submit}`} disabled={busy}>
            {signingIn && !socialSigningIn ? text.signingIn : text.signIn}
          </button>
        </form>
        <div className={css.links}>
          <AuthLink to={ROUTES.forgotPassword}>{text.forgotPassword}</AuthLink>
        </div>
        <p className={css.divider}>{text.or}</p>
        <div className={css.social}>
          <button type="button" className={button.secondary} disabled={busy} aria-busy={socialSigningIn} onClick={() => onSocial('google')}>
            {text.signInGoogle}
          </button>
          <button type="button" className={button.secondary} disabled={busy} aria-busy={socialSigningIn} onClick={() => onSocial('microsoft')}>
            {text.signInMicrosoft}
          </button>
        </div>
      </div>
    </main>
  );
}
