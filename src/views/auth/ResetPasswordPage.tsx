/** /reset-password?token=...: the forgot flow's new-password form (passwordReset actor; the router hands it the token). */
import { useAppActor } from '../../app-actor';
import { authCard, centeredScreen } from '../../theme/ui.css';
import { NewPasswordForm } from './NewPasswordForm';

export function ResetPasswordPage() {
  const reset = useAppActor('passwordReset');
  return (
    <main className={centeredScreen}>
      <div className={authCard}><NewPasswordForm actor={reset} /></div>
    </main>
  );
}
