import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pendingActor } from '../../../machines/test-support/fakes';
import { OWN_MESSAGES } from '../../../common/messages';
import { renderView } from '../../test-support/render-view';
import { appCmsUser, signedInAs } from '../../test-support/view-fixtures';
import { systemActor } from '../../app-actor';
import { NetworkSwitcher } from './NetworkSwitcher';

describe('NetworkSwitcher', () => {
  it('lists the networks with their marks, the current one first highlighted', async () => {
    const view = await renderView(<NetworkSwitcher />, { actors: appCmsUser() });
    expect(screen.getByTestId('network-current').textContent).toBe('Main Network');
    await view.user.click(screen.getByLabelText('Current network'));
    const list = screen.getByRole('list', { name: 'Networks' });
    const main = within(list).getByRole('button', { name: /Main Network/ });
    expect(main.getAttribute('aria-current')).toBe('true');
    expect(within(main).getByText('Default')).toBeTruthy();
    expect(within(within(list).getByRole('button', { name: /Kids/ })).getByText(OWN_MESSAGES.networkNotLaunched)).toBeTruthy();
  });

  it('sends the chosen network', async () => {
    const view = await renderView(<NetworkSwitcher />, { actors: appCmsUser() });
    await view.user.click(screen.getByLabelText('Current network'));
    await view.user.click(screen.getByRole('button', { name: /Kids/ }));
    expect(view.sentTo('network')).toEqual([{ type: 'network.select', identifier: 'kids' }]);
    expect(screen.getByTestId('network-current').textContent).toBe('Kids');
  });

  it('confirms a launch in a dialog, then sends the confirmation', async () => {
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser({ publishNetwork: pendingActor() }),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(screen.getByTestId('network-launch'));
    const dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkLaunchTitle });
    expect(within(dialog).getByText(OWN_MESSAGES.networkLaunchConfirm('Kids'))).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Launch' }));
    expect(view.sentTo('network')).toEqual([{ type: 'network.launch' }, { type: 'network.confirm' }]);
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'Launch' })).toHaveProperty('disabled', true);
  });

  it('confirms a copy from the default network, and Cancel sends network.cancel', async () => {
    const view = await renderView(<NetworkSwitcher />, {
      actors: appCmsUser(),
      given: (root) => systemActor(root, 'network').send({ type: 'network.select', identifier: 'kids' }),
    });
    await view.user.click(screen.getByTestId('network-copy-settings'));
    const dialog = screen.getByRole('dialog', { name: OWN_MESSAGES.networkCopyTitle('settings') });
    expect(within(dialog).getByText(OWN_MESSAGES.networkCopyConfirm('settings', 'Main Network', 'Kids'))).toBeTruthy();
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(view.sentTo('network')).toEqual([{ type: 'network.copy', what: 'settings' }, { type: 'network.cancel' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says there are no networks while none are known', async () => {
    const view = await renderView(<NetworkSwitcher />, { actors: signedInAs({ Content: 'write' }) });
    expect(screen.getByTestId('network-current').textContent).toBe(OWN_MESSAGES.networkNone);
    await view.user.click(screen.getByLabelText('Current network'));
    expect(screen.queryByRole('list', { name: 'Networks' })).toBeNull();
  });
});
