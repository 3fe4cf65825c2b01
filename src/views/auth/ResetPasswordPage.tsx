/** /reset-password?token=...: the forgot flow's new-password form (passwordReset actor). */
import { useLocation } from '@tanstack/react-router';
import type { ActorRefFrom } from 'xstate';
import type { ForgotPasswordMachine } from '../../../machines/forgot-password.machine';
import { useSystemActor } from '../../app-actor';
import { authCard, centeredScreen } from '../../theme/ui.css';
import { NewPasswordForm } from './NewPasswordForm';

export function ResetPasswordPage() {
  const reset = useSystemActor<ActorRefFrom<ForgotPasswordMachine>>('passwordReset');
  const searchStr = useLocation({ select: (location) => location.searchStr });
  const token = new URLSearchParams(searchStr).get('token') ?? '';
  return (
    <main className={centeredScreen}>
      <div className={authCard}><NewPasswordForm actor={reset} token={token} /></div>
    </main>
  );
}
