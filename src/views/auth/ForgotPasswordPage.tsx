/**
 * /forgot-password: the username form of the forgot flow (passwordReset actor); with ?token= the
 * new-password form of the header's Change Password flow (passwordChange actor).
 */
import { Link, useLocation } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useId, useState, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectError, selectIsRequesting, type ForgotPasswordMachine } from '../../../machines/forgot-password.machine';
import { useSystemActor } from '../../app-actor';
import { ROUTES } from '../../config';
import { authCard, button, centeredScreen, errorText, field, input, label } from '../../theme/ui.css';
import * as css from './auth.css';
import { NewPasswordForm } from './NewPasswordForm';

function UsernameForm() {
  const reset = useSystemActor<ActorRefFrom<ForgotPasswordMachine>>('passwordReset');
  const requesting = useSelector(reset, selectIsRequesting);
  const error = useSelector(reset, selectError);
  const [username, setUsername] = useState('');
  const id = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    reset.send({ type: 'forgot.submit', username });
  }
  return (
    <form className={css.form} onSubmit={submit} noValidate>
      <h1 className={css.title}>Forgot password</h1>
      <p className={css.text}>Enter your username. We will text a verification code to the mobile number on your account.</p>
      <div className={field}>
        <label htmlFor={id} className={label}>Username</label>
        <input id={id} name="username" className={input} value={username} autoComplete="username" autoFocus onChange={(e) => setUsername(e.target.value)} />
      </div>
      {error && <p className={errorText} role="alert">{error}</p>}
      <button type="submit" className={`${button.primary} ${css.submit}`} disabled={requesting}>
        {requesting ? 'Sending…' : 'Send code'}
      </button>
      <div className={css.links}><Link to={ROUTES.login}>Back to sign in</Link></div>
    </form>
  );
}

function ChangePasswordForm({ token }: { token: string }) {
  const change = useSystemActor<ActorRefFrom<ForgotPasswordMachine>>('passwordChange');
  return <NewPasswordForm actor={change} token={token} />;
}

export function ForgotPasswordPage() {
  const searchStr = useLocation({ select: (location) => location.searchStr });
  const token = new URLSearchParams(searchStr).get('token');
  return (
    <main className={centeredScreen}>
      <div className={authCard}>{token ? <ChangePasswordForm token={token} /> : <UsernameForm />}</div>
    </main>
  );
}
