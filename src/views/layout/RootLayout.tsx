/**
 * The frame around every route: progress bar, header (where the spec shows one), the page, the snackbar.
 * The document title follows the deepest matched route's title.
 */
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { APP_TITLE } from '../../../common/constants';
import { OWN_MESSAGES } from '../../../common/messages';
import { RouteProgress } from '../shared/RouteProgress';
import { Snackbar } from '../shared/Snackbar';
import { Header } from './Header';
import { isHeaderHidden } from './header-visibility';

export function RootLayout() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const title = useRouterState({
    select: (s) => (s.matches.some((m) => m.status === 'notFound')
      ? OWN_MESSAGES.pageNotFound
      : [...s.matches].reverse().find((m) => m.staticData?.title)?.staticData.title),
  });
  useEffect(() => {
    document.title = title ? `${title} | ${APP_TITLE}` : APP_TITLE;
  }, [title]);
  return (
    <>
      <RouteProgress />
      {!isHeaderHidden(pathname) && <Header />}
      <Outlet />
      <Snackbar />
    </>
  );
}
