/**
 * Header and top bar (spec §2.9, §2.4): hidden on the listed routes; a logo-only bar for visitors;
 * for a signed-in user the tabs of the areas their roles allow and the user menu. The network switcher
 * shows when the `network` actor follows a site (App CMS users only: machines/app.machine.ts).
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectIsSignedIn, selectRoles, selectSession } from '../../../machines/auth.machine';
import { selectCanChangePassword } from '../../../machines/forgot-password.machine';
import { selectHasSite } from '../../../machines/network.machine';
import { canContinue, visibleTabsFor } from '../../../common/roles';
import { APP_TITLE, AREAS, ROUTES } from '../../../common/constants';
import { useAppActor } from '../../app-actor';
import { NetworkSwitcher } from '../network/NetworkSwitcher';
import * as css from './layout.css';

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

function SignedInHeader() {
  const auth = useAppActor('auth');
  const logout = useAppActor('logout');
  const passwordChange = useAppActor('passwordChange');
  const network = useAppActor('network');
  const roles = useSelector(auth, selectRoles);
  const session = useSelector(auth, selectSession);
  const canChangePassword = useSelector(passwordChange, selectCanChangePassword);
  const hasNetworks = useSelector(network, selectHasSite);
  const tabs = visibleTabsFor(roles);
  return (
    <header className={css.header} data-testid="header">
      <Logo />
      <nav className={css.tabs} aria-label="Areas">
        {tabs.map((tab) => (
          <Link key={tab.route} to={tab.route} className={css.tab} activeOptions={{ exact: false }}>{tab.label}</Link>
        ))}
      </nav>
      <div className={css.rightSide}>
        {hasNetworks && <NetworkSwitcher />}
        <details className={css.menu}>
          <summary className={css.menuSummary} aria-label="User menu">{session?.username ?? 'Account'} ▾</summary>
          {/* Choosing an item closes the menu (it would stay open behind the dialogs and after Admin). */}
          <div className={css.menuList} role="menu" onClick={(e) => { (e.currentTarget.parentElement as HTMLDetailsElement).open = false; }}>
            {canContinue(roles, AREAS.admin) && (
              <Link to={ROUTES.admin} className={css.menuItem} role="menuitem">Admin</Link>
            )}
            {canChangePassword && (
              <button type="button" className={css.menuItem} role="menuitem" onClick={() => passwordChange.send({ type: 'change.start' })}>
                Change Password
              </button>
            )}
            <button type="button" className={css.menuItem} role="menuitem" onClick={() => logout.send({ type: 'logout.request' })}>
              Logout
            </button>
          </div>
        </details>
      </div>
    </header>
  );
}
