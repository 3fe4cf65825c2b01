/**
 * Header and top bar (spec §2.9, §2.4): hidden on the listed routes; a logo-only bar for visitors;
 * for a signed-in user the tabs of the areas their roles allow and the user menu. The network switcher
 * shows when the `network` actor follows a site (App CMS users only: machines/app.machine.ts).
 * The user menu follows the WAI-ARIA menu button pattern: opening it focuses the first item, arrow
 * keys, Home and End move between items, Escape (or choosing one) closes it and focus returns to the
 * button. Under 900 px the tabs and the menus sit behind one Menu button.
 */
import { Link, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { useSelector } from '@xstate/react';
import { selectIsEnrolmentRequired, selectIsSignedIn, selectRoles, selectSession } from '../../../machines/auth.machine';
import { selectCanChangePassword } from '../../../machines/forgot-password.machine';
import { selectHasSite } from '../../../machines/network.machine';
import { selectAreaActorsStatus } from '../../../machines/app.machine';
import { canContinue, visibleTabsFor } from '../../../common/roles';
import { APP_TITLE, AREAS, ROUTES } from '../../../common/constants';
import { useAppActor, useRootActor } from '../../app-actor';
import { NetworkSwitcher } from '../network/NetworkSwitcher';
import { setTheme, usePreferences, type ThemeChoice } from '../shared/preferences';
import { useShellText } from '../shared/shell-text';
import { useTotpText } from '../account/totp-text';
import { TOTP_ROUTES } from '../../../common/totp';
import * as css from './layout.css';

/** Issue 41: the count of open incidents for Dashboard 360 users, loaded apart from the shell. */
const OpenIncidentsBadge = lazy(() => import('../analytics/alerts/OpenIncidents').then((m) => ({ default: m.OpenIncidentsBadge })));

/** Whether `pathname` is in the area a tab leads to (its first path segment: /monetization for /monetization/models). */
export function inArea(pathname: string, tabRoute: string): boolean {
  const area = `/${tabRoute.split('/')[1] ?? ''}`;
  return pathname === area || pathname.startsWith(`${area}/`);
}

function Logo() {
  return (
    <Link to="/" className={css.logo} aria-label={APP_TITLE}>
      <img src="/logo.svg" alt="" width={28} height={28} />
      <span>{APP_TITLE}</span>
    </Link>
  );
}

export function Header() {
  const auth = useAppActor('auth');
  const signedIn = useSelector(auth, selectIsSignedIn);
  if (!signedIn) {
    return <header className={css.header} data-testid="header-visitor"><Logo /></header>;
  }
  return <SignedInHeader />;
}

/** The network switcher, when the `network` actor follows a site. */
function HeaderNetworkSwitcher() {
  const hasSite = useSelector(useAppActor('network'), selectHasSite);
  return hasSite ? <NetworkSwitcher /> : null;
}

function SignedInHeader() {
  const auth = useAppActor('auth');
  const logout = useAppActor('logout');
  const passwordChange = useAppActor('passwordChange');
  const roles = useSelector(auth, selectRoles);
  const session = useSelector(auth, selectSession);
  const canChangePassword = useSelector(passwordChange, selectCanChangePassword);
  // While the site requires an authenticator app the user has not set up, no area is open (the
  // server refuses them too): no tabs and no network switcher, only the user menu (issue 19).
  const enrolmentDue = useSelector(auth, selectIsEnrolmentRequired);
  // The network actor is spawned after the sign-in (issue 26): the switcher waits for it.
  const areasReady = useSelector(useRootActor(), (s) => selectAreaActorsStatus(s) === 'ready');
  const tabs = enrolmentDue ? [] : visibleTabsFor(roles);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const text = useShellText();
  const totpText = useTotpText();
  const { theme } = usePreferences();
  const [compactOpen, setCompactOpen] = useState(false);
  const onHeaderKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape' && compactOpen) {
      setCompactOpen(false);
      e.currentTarget.querySelector<HTMLElement>('[data-compact-toggle]')?.focus();
    }
  };
  return (
    <header className={css.header} data-testid="header" data-compact-open={compactOpen} onKeyDown={onHeaderKeyDown}>
      <Logo />
      <button
        type="button" className={css.compactToggle} data-compact-toggle aria-expanded={compactOpen} aria-controls="header-compact"
        onClick={() => setCompactOpen(!compactOpen)}
      >{text.menu}</button>
      {/* Choosing a menu item or a network closes the compact panel; focus goes to the Menu button. */}
      <div id="header-compact" className={css.compactPanel} onClick={(e) => {
        if (!compactOpen || !(e.target instanceof Element) || !e.target.closest('[role^=menuitem], [data-testid^=network-option], [data-testid^=network-launch], [data-testid^=network-copy]')) return;
        setCompactOpen(false);
        e.currentTarget.parentElement?.querySelector<HTMLElement>('[data-compact-toggle]')?.focus();
      }}>
      <nav className={css.tabs} aria-label={text.areas} onClick={() => setCompactOpen(false)}>
        {tabs.map((tab) => {
          // A tab is its whole area (issue 30): Monetization's tab leads to Models and is marked on Plans, Offers, Coupons too.
          const current = inArea(pathname, tab.route);
          return (
            <Link key={tab.route} to={tab.route} className={css.tab} activeOptions={{ exact: false }}
              aria-current={current ? 'page' : undefined} data-status={current ? 'active' : undefined}>{tab.label}</Link>
          );
        })}
      </nav>
      <div className={css.rightSide}>
        {areasReady && !enrolmentDue && canContinue(roles, AREAS.dashboard360) && <Suspense fallback={null}><OpenIncidentsBadge /></Suspense>}
        {areasReady && !enrolmentDue && <HeaderNetworkSwitcher />}
        <details className={css.menu} onToggle={focusFirstItem} onKeyDown={onMenuKeyDown} data-testid="user-menu">
          {/* The visible name is part of the accessible name (WCAG 2.5.3 label in name). */}
          <summary className={css.menuSummary} aria-haspopup="menu">
            <span className={css.visuallyHidden}>{text.userMenu}: </span>{session?.username ?? text.accountFallback}
          </summary>
          {/* Choosing an item closes the menu (it would stay open behind the dialogs and after Admin). */}
          <div className={css.menuList} role="menu" aria-label={text.userMenu} onClick={(e) => { if (e.currentTarget.parentElement instanceof HTMLDetailsElement) closeMenu(e.currentTarget.parentElement); }}>
            {canContinue(roles, AREAS.admin) && (
              <Link to={ROUTES.admin} className={css.menuItem} role="menuitem" tabIndex={-1}>{text.admin}</Link>
            )}
            {canChangePassword && (
              <button type="button" className={css.menuItem} role="menuitem" tabIndex={-1} onClick={() => passwordChange.send({ type: 'change.start' })}>
                {text.changePassword}
              </button>
            )}
            <Link to={ROUTES.accountSessions} className={css.menuItem} role="menuitem" tabIndex={-1}>{text.mySessions}</Link>
            <Link to={TOTP_ROUTES.accountSecurity} className={css.menuItem} role="menuitem" tabIndex={-1}>{totpText.menuItem}</Link>
            {/* Follow the system, or light / dark: one choice of three, remembered (preferences.ts). */}
            <div role="group" aria-label={text.theme} className={css.menuGroup}>
              {THEME_CHOICES.map(({ choice, label }) => (
                <button key={choice} type="button" className={css.menuItem} role="menuitemradio" aria-checked={theme === choice} tabIndex={-1}
                  onClick={() => setTheme(choice)}>
                  {text[label]}
                </button>
              ))}
            </div>
            <button type="button" className={css.menuItem} role="menuitem" tabIndex={-1} onClick={() => logout.send({ type: 'logout.request' })}>
              {text.logout}
            </button>
          </div>
        </details>
      </div>
      </div>
    </header>
  );
}

const THEME_CHOICES: readonly { choice: ThemeChoice; label: 'systemTheme' | 'lightTheme' | 'darkTheme' }[] = [
  { choice: 'system', label: 'systemTheme' },
  { choice: 'light', label: 'lightTheme' },
  { choice: 'dark', label: 'darkTheme' },
];

function menuItems(details: HTMLElement): HTMLElement[] {
  return [...details.querySelectorAll<HTMLElement>('[role^=menuitem]')];
}

/** Closes the user menu and puts focus back on its button (a dialog opened from it returns focus there). */
function closeMenu(details: HTMLDetailsElement) {
  details.open = false;
  details.querySelector('summary')?.focus();
}

/** Opening focuses the first item, unless a key already moved focus into the menu (the toggle event comes late). */
function focusFirstItem(e: SyntheticEvent<HTMLDetailsElement>) {
  const details = e.currentTarget;
  if (details.open && !menuItems(details).some((item) => item === document.activeElement)) menuItems(details)[0]?.focus();
}

function onMenuKeyDown(e: KeyboardEvent<HTMLDetailsElement>) {
  const details = e.currentTarget;
  if (!details.open) return;
  const items = menuItems(details);
  const index = items.findIndex((item) => item === document.activeElement);
  const moves: Record<string, number> = {
    ArrowDown: (index + 1) % items.length,
    ArrowUp: (index - 1 + items.length) % items.length,
    Home: 0,
    End: items.length - 1,
  };
  if (e.key === 'Escape') {
    e.preventDefault();
    e.stopPropagation();
    closeMenu(details);
  } else if (e.key in moves) {
    e.preventDefault();
    items[moves[e.key]!]?.focus();
  } else if (e.key === 'Tab') {
    details.open = false;
  }
}
