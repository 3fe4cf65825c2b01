import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { APP_TITLE } from '../../../common/constants';
import { renderView } from '../../test-support/render-view';
import { appCmsUser, signedInAs } from '../../test-support/view-fixtures';
import { Header } from './Header';

describe('Header', () => {
  it('shows only the logo to a visitor', async () => {
    await renderView(<Header />);
    expect(screen.getByTestId('header-visitor')).toBeTruthy();
    expect(screen.getByRole('link', { name: APP_TITLE })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Areas' })).toBeNull();
  });

  it('shows a Content user the Content tab, the user menu and no network switcher or Admin item', async () => {
    await renderView(<Header />, { actors: signedInAs({ Content: 'write' }, 'content@demo.test') });
    const tabs = within(screen.getByRole('navigation', { name: 'Areas' })).getAllByRole('link').map((a) => a.textContent);
    expect(tabs).toEqual(['Content']);
    expect(screen.getByLabelText('User menu').textContent).toContain('content@demo.test');
    expect(screen.queryByTestId('network-switcher')).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Admin' })).toBeNull();
  });

  it('offers the network switcher to an App CMS user and Admin to an Admin', async () => {
    await renderView(<Header />, { actors: appCmsUser() });
    expect(screen.getByTestId('network-switcher')).toBeTruthy();
    await renderView(<Header />, { actors: signedInAs({ Admin: 'write' }) });
    expect(screen.getByRole('menuitem', { name: 'Admin' }).getAttribute('href')).toBe('/admin');
  });

  it('sends Change Password and Logout from the user menu, with no token in the event', async () => {
    const view = await renderView(<Header />, { actors: signedInAs({ Content: 'write' }) });
    await view.user.click(screen.getByLabelText('User menu'));
    await view.user.click(screen.getByRole('menuitem', { name: 'Change Password' }));
    await view.user.click(screen.getByLabelText('User menu'));
    await view.user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(view.sentTo('passwordChange')).toEqual([{ type: 'change.start' }]);
    expect(view.sentTo('logout')).toEqual([{ type: 'logout.request' }]);
  });
});
