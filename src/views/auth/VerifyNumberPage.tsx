/**
 * /verify-number: the code step of sign-in (auth actor), or with ?forgot=true of the forgot-password
 * flow (passwordReset actor). Without a pending step it says so and links back.
 */
import { Link, useLocation } from '@tanstack/react-router';
import { shallowEqual, useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectIsLoadingProfile, selectOtpStep as selectLoginOtpStep, type AuthMachine } from '../../../machines/auth.machine';
import {
  selectFlowStep, selectOtpStep as selectPasswordOtpStep, type ForgotPasswordMachine,
} from '../../../machines/forgot-password.machine';
import type { OtpStep } from '../../../machines/otp';
import { useSystemActor } from '../../app-actor';
import { OTP_LENGTH, ROUTES } from '../../config';
import { MESSAGES } from '../../messages';
import { authCard, button, centeredScreen } from '../../theme/ui.css';
import * as css from './auth.css';
import { OtpFields } from './OtpFields';

interface OtpPanelProps {
  step: OtpStep;
  onSubmit: (otp: string) => void;
  onResend: () => void;
}

function OtpPanel({ step, onSubmit, onResend }: OtpPanelProps) {
  const [code, setCode] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit(code);
  }
  return (
    <form className={css.form} onSubmit={submit} noValidate>
      <h1 className={css.title}>{MESSAGES.otpTitle}</h1>
      <OtpFields step={step} code={code} onCodeChange={setCode} onResend={onResend} />
      <button type="submit" className={`${button.primary} ${css.submit}`} disabled={step.verifying || code.length !== OTP_LENGTH}>
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
  const auth = useSystemActor<ActorRefFrom<AuthMachine>>('auth');
  const step = useSelector(auth, selectLoginOtpStep, shallowEqual);
  const loadingProfile = useSelector(auth, selectIsLoadingProfile);
  if (loadingProfile) return <p className={css.status} role="status">Signing you in…</p>;
  if (!step) return <NothingPending to={ROUTES.login} label="Back to sign in" />;
  return (
    <OtpPanel
      step={step}
      onSubmit={(otp) => auth.send({ type: 'otp.submit', otp })}
      onResend={() => auth.send({ type: 'otp.resend' })}
    />
  );
}

function ForgotCodeStep() {
  const reset = useSystemActor<ActorRefFrom<ForgotPasswordMachine>>('passwordReset');
  const step = useSelector(reset, selectPasswordOtpStep, shallowEqual);
  const flowStep = useSelector(reset, selectFlowStep);
  if (flowStep === 'newPassword') return <p className={css.status} role="status">Opening the new password form…</p>;
  if (!step) return <NothingPending to={ROUTES.forgotPassword} label="Request a new code" />;
  return (
    <OtpPanel
      step={step}
      onSubmit={(otp) => reset.send({ type: 'otp.submit', otp })}
      onResend={() => reset.send({ type: 'otp.resend' })}
    />
  );
}

export function VerifyNumberPage() {
  const searchStr = useLocation({ select: (location) => location.searchStr });
  const forgot = new URLSearchParams(searchStr).get('forgot') === 'true';
  return (
    <main className={centeredScreen}>
      <div className={authCard}>{forgot ? <ForgotCodeStep /> : <LoginCodeStep />}</div>
    </main>
  );
}
