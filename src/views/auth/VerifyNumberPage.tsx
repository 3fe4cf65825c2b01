/**
 * /verify-number: the code step of sign-in (auth actor), or with ?forgot=true of the forgot-password
 * flow (passwordReset actor). Without a pending step it says so and links back.
 */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { selectIsAuthenticatorStep, selectIsLoadingProfile, selectOtpStepActor as selectLoginOtp } from '../../../machines/auth.machine';
import { selectFlowStep, selectOtpStepActor as selectPasswordOtp } from '../../../machines/forgot-password.machine';
import type { OtpStepActorRef } from '../../../machines/otp-step.machine';
import { useAppActor } from '../../app-actor';
import { ROUTES } from '../../../common/constants';
import { MESSAGES } from '../../../common/messages';
import { authCard, button, centeredScreen } from '../../theme/ui.css';
import * as css from './auth.css';
import { AuthenticatorPanel } from './AuthenticatorPanel';
import { OtpFields } from './OtpFields';
import { useOtpPanel } from './otp-panel';

function OtpPanel({ actor }: { actor: OtpStepActorRef }) {
  const step = useOtpPanel(actor);
  if (!step) return null;
  function submit(event: FormEvent) {
    event.preventDefault();
    actor.send({ type: 'otp.submit' });
  }
  return (
    <form className={css.form} onSubmit={submit} noValidate>
      <h1 className={css.title}>{MESSAGES.otpTitle}</h1>
      <OtpFields actor={actor} step={step} />
      <button type="submit" className={`${button.primary} ${css.submit}`} disabled={!step.canSubmit}>
        {step.verifying ? 'Verifying…' : MESSAGES.otpConfirm}
      </button>
    </form>
  );
}

function NothingPending({ to, label }: { to: string; label: string }) {
  return (
    <div role="status">
      <h1 className={css.title}>{MESSAGES.otpTitle}</h1>
      <p className={css.text}>There is no verification code waiting to be entered here. It may have expired or been used already.</p>
      <Link to={to}>{label}</Link>
    </div>
  );
}

function LoginCodeStep() {
  const auth = useAppActor('auth');
  const otp = useSelector(auth, selectLoginOtp);
  const loadingProfile = useSelector(auth, selectIsLoadingProfile);
  const authenticator = useSelector(auth, selectIsAuthenticatorStep);
  if (loadingProfile) return <p className={css.status} role="status">Signing you in…</p>;
  // An account with an authenticator app (issue 19): its code or a recovery code, no SMS.
  if (authenticator) return <><AuthenticatorPanel /><div className={css.links}><Link to={ROUTES.login}>Back to sign in</Link></div></>;
  if (!otp) return <NothingPending to={ROUTES.login} label="Back to sign in" />;
  return <><OtpPanel actor={otp} /><div className={css.links}><Link to={ROUTES.login}>Back to sign in</Link></div></>;
}

function ForgotCodeStep() {
  const reset = useAppActor('passwordReset');
  const otp = useSelector(reset, selectPasswordOtp);
  const flowStep = useSelector(reset, selectFlowStep);
  if (flowStep === 'newPassword') return <p className={css.status} role="status">Opening the new password form…</p>;
  if (!otp) return <NothingPending to={ROUTES.forgotPassword} label="Request a new code" />;
  return <><OtpPanel actor={otp} /><div className={css.links}><Link to={ROUTES.login}>Back to sign in</Link></div></>;
}

/** The /verify-number route: `?forgot=true` is typed by its validator (src/route-search.ts). */
const verifyRoute = getRouteApi('/verify-number');

export function VerifyNumberPage() {
  const forgot = verifyRoute.useSearch({ select: (search) => search.forgot === true });
  return (
    <main className={centeredScreen}>
      <div className={authCard}>{forgot ? <ForgotCodeStep /> : <LoginCodeStep />}</div>
    </main>
  );
}
