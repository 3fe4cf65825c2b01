import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_TITLE } from '../../../common/constants';
import { renderView } from '../../test-harness/render-view';
import { appCmsUser, SERVICE, sessionWith, signedInAs } from '../../test-harness/view-fixtures';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { siteProfile } from '../../../machines/test-harness/fixtures';
import { setTheme } from '../shared/preferences';
import { Header } from './Header';

afterEach(() => {
  setTheme('system');
  localStorage.clear();
});

const menuButton = () => screen.getByTestId('user-menu').querySelector('summary') as HTMLElement;

describe('Header', () => {
  it('shows only the logo to a visitor', async () => {
    await renderView(<Header />);
    expect(screen.getByTestId('header-visitor')).toBeTruthy();
    expect(screen.getByRole('link', { name: APP_TITLE })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Areas' })).toBeNull();
  });

  it('marks the Monetization tab (aria-current) on every Monetization page, not only Models (issue 30)', async () => {
    for (const url of ['/monetization/plans', '/monetization/offers', '/monetization/coupon', '/monetization/planGroups', '/monetization/models']) {
      const view = await renderView(<Header />, { url, actors: signedInAs({ 'Subscriptions & Offers': 'write', Content: 'write' }, 'monetization@demo.test') });
      const nav = within(screen.getByRole('navigation', { name: 'Areas' }));
      expect(nav.getByRole('link', { name: 'Monetization' }).getAttribute('aria-current')).toBe('page');
      expect(nav.getByRole('link', { name: 'Content' }).getAttribute('aria-current')).toBeNull();
      view.unmount();
    }
  });

  it('shows a Content user the Content tab, the user menu and no network switcher or Admin item', async () => {
    await renderView(<Header />, { actors: signedInAs({ Content: 'write' }, 'content@demo.test') });
    const tabs = within(screen.getByRole('navigation', { name: 'Areas' })).getAllByRole('link').map((a) => a.textContent);
    expect(tabs).toEqual(['Content']);
    expect(menuButton().textContent).toBe('User menu: content@demo.test');
    expect(screen.queryByTestId('network-switcher')).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Admin' })).toBeNull();
  });

  it('offers every signed-in user "My sessions", linking to their own sessions page (issue 19)', async () => {
    await renderView(<Header />, { actors: signedInAs({ Content: 'read' }, 'content@demo.test') });
    expect(screen.getByRole('menuitem', { name: 'My sessions' }).getAttribute('href')).toBe('/account/sessions');
  });

  it('shows no area tabs and no network switcher while the site requires an authenticator app the user has not set up; the user menu stays', async () => {
    const session = { ...sessionWith({ 'App CMS': 'write', Content: 'write' }), profile: siteProfile({ authenticatorEnrolmentDue: true }) };
    await renderView(<Header />, {
      actors: { auth: { readStoredSession: fakeActor(() => session) }, network: { fetchService: fakeActor(() => SERVICE) } },
    });
    expect(within(screen.getByRole('navigation', { name: 'Areas' })).queryAllByRole('link')).toEqual([]);
    expect(screen.queryByTestId('network-switcher')).toBeNull();
    expect(menuButton().textContent).toBe('User menu: ada@demo.test');
  });

  it('offers the network switcher to an App CMS user and Admin to an Admin', async () => {
    await renderView(<Header />, { actors: appCmsUser() });
    expect(screen.getByTestId('network-switcher')).toBeTruthy();
    await renderView(<Header />, { actors: signedInAs({ Admin: 'write' }) });
    expect(screen.getByRole('menuitem', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
  });

  it('follows the menu pattern: opening focuses the first item, arrows and Home/End move, Escape closes back to the button', async () => {
    const view = await renderView(<Header />, { actors: signedInAs({ Admin: 'write', Content: 'write' }) });
    await view.user.click(menuButton());
    const details = screen.getByTestId('user-menu') as HTMLDetailsElement;
    expect(details.open).toBe(true);
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Admin' }));
    await view.user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe(screen.getAllByRole('menuitem')[1]!.textContent);
    await view.user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Logout' }));
    await view.user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Admin' }));
    await view.user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Logout' }));
    await view.user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Admin' }));
    await view.user.keyboard('{Escape}');
    expect(details.open).toBe(false);
    expect(document.activeElement).toBe(menuButton());
  });

  it('puts the tabs and menus behind one Menu button (shown under 900 px), closed again by Escape or a tab', async () => {
    const view = await renderView(<Header />, { actors: signedInAs({ Content: 'write' }) });
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await view.user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByTestId('header').getAttribute('data-compact-open')).toBe('true');
    await view.user.keyboard('{Escape}');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
    await view.user.click(toggle);
    await view.user.click(screen.getByRole('link', { name: 'Content' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await view.user.click(toggle);
    await view.user.click(menuButton());
    await view.user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('switches to the dark theme from the user menu and back, and offers no other language than English (issue 38)', async () => {
    const view = await renderView(<Header />, { actors: signedInAs({ Content: 'write' }) });
    await view.user.click(menuButton());
    const darkItem = screen.getByRole('menuitemradio', { name: 'Dark theme' });
    await view.user.click(darkItem);
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    await view.user.click(menuButton());
    expect(screen.getByRole('menuitemradio', { name: 'Dark theme' }).getAttribute('aria-checked')).toBe('true');
    await view.user.click(screen.getByRole('menuitemradio', { name: 'Light theme' }));
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
    // Issue 38: no half-translated language is offered; the page is in English.
    await view.user.click(menuButton());
    // The menu's items are its theme choice and its links and actions; none names a language.
    const items = screen.getAllByRole('menuitemradio').concat(screen.getAllByRole('menuitem'));
    expect(items.length).toBeGreaterThan(3);
    for (const item of items) expect(item.textContent).not.toMatch(/Français|French|English|Language|Langue/i);
    expect(document.documentElement.getAttribute('lang')).toBe('en');
  });

  it('offers System / Light / Dark theme as one choice of three, remembered, and goes back to following the system', async () => {
    const view = await renderView(<Header />, { actors: signedInAs({ Content: 'write' }) });
    await view.user.click(menuButton());
    const group = screen.getByRole('group', { name: 'Theme' });
    const checked = () => within(group).getAllByRole('menuitemradio').filter((item) => item.getAttribute('aria-checked') === 'true').map((item) => item.textContent);
    expect(within(group).getAllByRole('menuitemradio').map((item) => item.textContent)).toEqual(['System theme', 'Light theme', 'Dark theme']);
    expect(checked()).toEqual(['System theme']);
    await view.user.click(within(group).getByRole('menuitemradio', { name: 'Dark theme' }));
    expect(localStorage.getItem('cmsTools.theme')).toBe('dark');
    await view.user.click(menuButton());
    expect(checked()).toEqual(['Dark theme']);
    await view.user.click(within(screen.getByRole('group', { name: 'Theme' })).getByRole('menuitemradio', { name: 'System theme' }));
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(localStorage.getItem('cmsTools.theme')).toBe('system');
    await view.user.click(menuButton());
    expect(checked()).toEqual(['System theme']);
  });

  it('sends Change Password and Logout from the user menu, with no token in the event', async () => {
    const view = await renderView(<Header />, { actors: signedInAs({ Content: 'write' }) });
    await view.user.click(menuButton());
    await view.user.click(screen.getByRole('menuitem', { name: 'Change Password' }));
    await view.user.click(menuButton());
    await view.user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(view.sentTo('passwordChange')).toEqual([{ type: 'change.start' }]);
    expect(view.sentTo('logout')).toEqual([{ type: 'logout.request' }]);
  });
});
