/**
 * The sign-in page's first paint without the router (issue 26): when the console opens at '/' and the
 * sign-in machine says nobody is signed in, `src/main.tsx` renders this frame around `LoginPage` and
 * loads TanStack Router only for the first navigation away (after a sign-in, or a click on "Forgot
 * password?"). The same frame as the router's RootLayout shows on '/': the skip link, the page, the
 * snackbar (loaded on first use), the document title.
 */
import { lazy, Suspense, useEffect, type MouseEvent } from 'react';
import { APP_TITLE } from '../../../common/constants';
import { useShellText } from '../shared/shell-text';
import * as css from '../layout/layout.css';
import { LoginPage } from './LoginPage';

const Snackbar = lazy(() => import('../shared/Snackbar').then((m) => ({ default: m.Snackbar })));

/** The router's title for '/' (its staticData) with the console's name. */
export const SIGN_IN_TITLE = `Sign in | ${APP_TITLE}`;

function skipToContent(e: MouseEvent<HTMLAnchorElement>) {
  const target = document.getElementById('main-content')?.querySelector<HTMLElement>('main');
  if (!target) return;
  e.preventDefault();
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
}

export function SignInScreen() {
  const text = useShellText();
  useEffect(() => {
    document.title = SIGN_IN_TITLE;
  }, []);
  return (
    <>
      <a href="#main-content" className={css.skipLink} onClick={skipToContent}>{text.skipLink}</a>
      <div id="main-content" tabIndex={-1} className={css.mainContent}><LoginPage /></div>
      <Suspense fallback={null}><Snackbar /></Suspense>
    </>
  );
}
