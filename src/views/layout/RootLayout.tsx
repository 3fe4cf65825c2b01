/**
 * The frame around every route: progress bar, header (where the spec shows one), the page, the snackbar.
 * The document title follows the deepest matched route's title.
 */
import { Outlet, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, type MouseEvent } from 'react';
import { APP_TITLE } from '../../../common/constants';
import { OWN_MESSAGES } from '../../../common/messages';
import { RouteProgress } from '../shared/RouteProgress';
import { isHeaderHidden } from './header-visibility';
import * as css from './layout.css';
import { useShellText } from '../shared/shell-text';

/**
 * The header and the snackbar (with Radix toast, the network switcher and its dialogs) are not part of
 * the sign-in page's first load (issue 21): they load on first use, and `preloadShell` fetches them
 * while the browser is idle on the sign-in page, so signing in does not wait for them.
 */
const loadHeader = () => import('./Header');
const loadSnackbar = () => import('../shared/Snackbar');
const Header = lazy(() => loadHeader().then((m) => ({ default: m.Header })));
const Snackbar = lazy(() => loadSnackbar().then((m) => ({ default: m.Snackbar })));
export function preloadShell(): Promise<unknown> {
  return Promise.all([loadHeader(), loadSnackbar(), import('./ProtectedLayout')]);
}

const trimmed = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** Past the header and an area's side navigation: to the page's <main> when it has one. */
function skipToContent(e: MouseEvent<HTMLAnchorElement>) {
  const frame = document.getElementById('main-content');
  const target = frame?.querySelector<HTMLElement>('main') ?? frame?.querySelector<HTMLElement>('nav ~ *') ?? frame;
  if (!target) return;
  e.preventDefault();
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
  target.scrollIntoView?.();
}

export function RootLayout() {
  const text = useShellText();
  // The page on screen, not the one being loaded: the header appears with the new page, not over the
  // sign-in form while the landing page's code loads (issue 20).
  const pathname = useRouterState({ select: (s) => (s.resolvedLocation ?? s.location).pathname });
  const title = useRouterState({
    // Not found: a match says so, or the deepest match covers only part of the path (an unknown path under an area).
    select: (s) => (s.matches.some((m) => m.status === 'notFound' || m._notFound === true)
      || trimmed(s.matches.at(-1)?.pathname ?? '/') !== trimmed(s.location.pathname)
      ? OWN_MESSAGES.pageNotFound
      : [...s.matches].reverse().find((m) => m.staticData?.title)?.staticData.title),
  });
  useEffect(() => {
    document.title = title ? `${title} | ${APP_TITLE}` : APP_TITLE;
  }, [title]);
  return (
    <>
      <RouteProgress />
      <a href="#main-content" className={css.skipLink} onClick={skipToContent}>{text.skipLink}</a>
      {!isHeaderHidden(pathname) && <Suspense fallback={null}><Header /></Suspense>}
      <div id="main-content" tabIndex={-1} className={css.mainContent}><Outlet /></div>
      <Suspense fallback={null}><Snackbar /></Suspense>
    </>
  );
}
