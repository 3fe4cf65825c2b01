/** The generic crash screen of spec §2.10, used by the error boundary and the router's error component. */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { SIGN_IN_MESSAGES as MESSAGES } from '../../../common/messages/sign-in';
import { button, authCard, centeredScreen } from '../../theme/ui.css';

export function CrashScreen() {
  return (
    <div className={centeredScreen} role="alert">
      <div className={authCard}>
        <h1>{MESSAGES.crashTitle}</h1>
        <p>{MESSAGES.crashSupport}</p>
        <button type="button" className={button.primary} onClick={() => window.location.reload()}>
          {MESSAGES.crashReload}
        </button>
      </div>
    </div>
  );
}

export class CrashBoundary extends Component<{ children: ReactNode }, { crashed: boolean }> {
  state = { crashed: false };

  static getDerivedStateFromError(): { crashed: boolean } {
    return { crashed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Unhandled view error', error.message, info.componentStack);
  }

  render() {
    return this.state.crashed ? <CrashScreen /> : this.props.children;
  }
}
