import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-harness/render-view';
import { systemActor } from '../../app-actor';
import { LogoutConfirmDialog } from './LogoutConfirmDialog';

const asked = { given: (root: import('../../app-actor').RootActor) => systemActor(root, 'logout').send({ type: 'logout.request' }) };

describe('LogoutConfirmDialog', () => {
  it('is closed until the user menu asks', async () => {
    await renderView(<LogoutConfirmDialog />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("asks 'Are you sure you want to logout?' and sends the answer", async () => {
    const view = await renderView(<LogoutConfirmDialog />, asked);
    const dialog = screen.getByRole('dialog', { name: 'Logout' });
    expect(within(dialog).getByText(MESSAGES.logoutConfirm)).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: MESSAGES.logoutConfirmButton }));
    expect(view.sentTo('logout')).toEqual([{ type: 'logout.confirm' }]);
  });

  it('Cancel closes it', async () => {
    const view = await renderView(<LogoutConfirmDialog />, asked);
    await view.user.click(screen.getByRole('button', { name: MESSAGES.logoutCancel }));
    expect(view.sentTo('logout')).toEqual([{ type: 'logout.cancel' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
