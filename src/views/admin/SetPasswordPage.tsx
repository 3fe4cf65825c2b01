/**
 * /set-password?token=… (public): the owner of a new account sets their password from the one-time
 * link, under the password rules of spec §5 (live hints) and its messages.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import {
  selectSetPasswordError, selectSetPasswordFields, selectSetPasswordPhase, selectSetPasswordUsername,
} from '../../../machines/set-password.machine';
import { ADMIN_MESSAGES } from '../../../common/messages';
import { keysOf } from '../../../common/one-of';
import { PASSWORD_RULE_LABELS, passwordRuleFailures, type PasswordRule } from '../../../common/password-rules';
import { APP_TITLE } from '../../../common/constants';
import { usePageActor } from '../../page-actors';
import { authCard, button, centeredScreen, errorText, field, input, label, pageTitle } from '../../theme/ui.css';

/** The /set-password route: its search is typed by its validator (src/route-search.ts). */
const setPasswordRoute = getRouteApi('/set-password');

export function SetPasswordPage() {
  // Validated by the route (src/route-search.ts); the machine owns it from its start on.
  const { token = '' } = setPasswordRoute.useSearch();
  return <SetPasswordView token={token} />;
}

/** The page for one link's token: the `setPassword` page machine (src/page-actors.tsx) owns it from its start on. */
export function SetPasswordView({ token }: { token: string }) {
  const actor = usePageActor('setPassword', { input: { token } });
  const phase = useSelector(actor, selectSetPasswordPhase);
  const username = useSelector(actor, selectSetPasswordUsername);
  const error = useSelector(actor, selectSetPasswordError);
  const fields = useSelector(actor, selectSetPasswordFields);
  const missing = new Set<PasswordRule>(passwordRuleFailures(fields.newPassword));

  return (
    <main className={centeredScreen}>
      <div className={authCard}>
        <h1 className={pageTitle}>Set your password</h1>
        {phase === 'checking' && <p>Checking your link…</p>}
        {phase === 'invalid' && (
          <>
            <p role="alert" className={errorText}>{ADMIN_MESSAGES.setPasswordInvalid}</p>
            <button type="button" className={button.secondary} onClick={() => actor.send({ type: 'password.signIn' })}>Go to sign in</button>
          </>
        )}
        {phase === 'done' && (
          <>
            <p role="status">{ADMIN_MESSAGES.setPasswordDone}</p>
            <button type="button" className={button.primary} onClick={() => actor.send({ type: 'password.signIn' })}>Sign in</button>
          </>
        )}
        {(phase === 'editing' || phase === 'saving') && (
          <form onSubmit={(e) => { e.preventDefault(); actor.send({ type: 'password.submit' }); }}>
            <p>Welcome to {APP_TITLE}. Choose the password of <strong>{username}</strong>.</p>
            <label className={field}>
              <span className={label}>New Password</span>
              <input className={input} type="password" autoComplete="new-password" value={fields.newPassword}
                onChange={(e) => actor.send({ type: 'password.field', field: 'newPassword', value: e.target.value })} />
            </label>
            <ul aria-label="Password rules" style={{ margin: '0 0 1rem', paddingLeft: '1.2rem', fontSize: '0.85rem' }}>
              {keysOf(PASSWORD_RULE_LABELS).map((rule) => (
                <li key={rule} style={{ color: missing.has(rule) ? '#8a1c12' : '#0b5d1e' }}>
                  {missing.has(rule) ? '✗' : '✓'} {PASSWORD_RULE_LABELS[rule]}
                </li>
              ))}
            </ul>
            <label className={field}>
              <span className={label}>Confirm Password</span>
              <input className={input} type="password" autoComplete="new-password" value={fields.confirmPassword}
                onChange={(e) => actor.send({ type: 'password.field', field: 'confirmPassword', value: e.target.value })} />
            </label>
            {error && <p role="alert" className={errorText}>{error}</p>}
            <button type="submit" className={button.primary} disabled={phase === 'saving'}>{phase === 'saving' ? 'Saving…' : 'Set password'}</button>
          </form>
        )}
      </div>
    </main>
  );
}
