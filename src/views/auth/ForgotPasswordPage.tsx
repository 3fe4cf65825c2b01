/**
 * /forgot-password: the username form of the forgot flow (passwordReset actor); once the router has
 * handed a ?token= to the header's Change Password flow (passwordChange actor), its new-password form.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useId, useState, type FormEvent } from 'react';
import { selectError, selectFlowStep, selectIsRequesting } from '../../../machines/forgot-password.machine';
import { selectIsSignedIn, selectLandingRoute } from '../../../machines/auth.machine';
import { useAppActor } from '../../app-actor';
import { ROUTES } from '../../../common/constants';
import { authCard, button, centeredScreen, errorText, field, input, label } from '../../theme/ui.css';
import * as css from './auth.css';
import { NewPasswordForm } from './NewPasswordForm';

function UsernameForm() {
  const reset = useAppActor('passwordReset');
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

export function ForgotPasswordPage() {
  const change = useAppActor('passwordChange');
  const changing = useSelector(change, (snapshot) => selectFlowStep(snapshot) === 'newPassword');
  const auth = useAppActor('auth');
  const signedIn = useSelector(auth, selectIsSignedIn);
  const landing = useSelector(auth, selectLandingRoute);
  return (
    <main className={centeredScreen}>
      <div className={authCard}>
        {changing ? <NewPasswordForm actor={change} /> : <UsernameForm />}
        {/* The header's Change Password flow: a way back to the console without changing it. */}
        {changing && signedIn && <div className={css.links}><Link to={landing}>Back to CMS Tools</Link></div>}
      </div>
    </main>
  );
}
