/**
 * Monetization (spec §2.8): a secondary tab bar above the page; the active tab is the one whose route
 * appears in the current path, underlined in the primary colour.
 */
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { MONETIZATION_TABS } from '../../config';
import * as css from './pages.css';

export function activeMonetizationTab(pathname: string): string | undefined {
  return MONETIZATION_TABS.find((t) => pathname.includes(t.route))?.key;
}

export function MonetizationLayout() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const active = activeMonetizationTab(pathname);
  return (
    <div>
      <nav className={css.tabBar} aria-label="Monetization">
        {MONETIZATION_TABS.map((t) => (
          <Link key={t.key} to={t.route} className={css.tab} data-active={t.key === active}>{t.title}</Link>
        ))}
      </nav>
      <main><Outlet /></main>
    </div>
  );
}
