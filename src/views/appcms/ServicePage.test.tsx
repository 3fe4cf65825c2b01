import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { APPCMS_MESSAGES, SERVICE_TYPE_LABELS } from '../../../common/appcms';
import { renderView } from '../../test-harness/render-view';
import { ServicePage } from './ServicePage';
import { appcmsFakes } from '../../test-harness/appcms-pages';
import { appcmsAs } from './appcms-test-kit';

beforeEach(() => {
  appcmsFakes.saves.length = 0;
  appcmsFakes.actions.length = 0;
  appcmsFakes.records.service = {
    values: { serviceName: 'Demo', serviceType: 'SVOD', serviceTypes: ['SVOD'], languageCode: 'en', forceLogin: false, isMonetizationModelEnabled: true, domainName: 'demo.example' },
    version: 7, data: { signingKeyMasked: '••••••••••••ab12', signingKeyRotatedAt: null },
  };
});

describe('ServicePage', () => {
  it('edits the service fields and saves them with the version', async () => {
    const view = await renderView(<ServicePage />, appcmsAs('write'));
    const name = await screen.findByRole('textbox', { name: /Service name/ });
    await view.user.clear(name);
    await view.user.type(name, 'Demo Plus');
    await view.user.click(screen.getByRole('checkbox', { name: 'Viewers must sign in before watching' }));
    // The service types by the names the Models page gives them too (issue 27).
    await view.user.click(screen.getByRole('checkbox', { name: SERVICE_TYPE_LABELS.FAST }));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(appcmsFakes.saves.at(-1)).toMatchObject({ kind: 'service', input: { version: 7, changes: { serviceName: 'Demo Plus', forceLogin: true, serviceTypes: ['SVOD', 'FAST'] } } });
  });

  it('shows the signing key masked and rotates it only after the confirmation', async () => {
    const view = await renderView(<ServicePage />, appcmsAs('write'));
    expect((await screen.findByTestId('signing-key')).textContent).toBe('••••••••••••ab12');
    await view.user.click(screen.getByRole('button', { name: 'Rotate key' }));
    expect(screen.getByText(APPCMS_MESSAGES.rotateConfirm)).toBeTruthy();
    expect(appcmsFakes.actions).toHaveLength(0);
    await view.user.click(screen.getByRole('button', { name: 'Rotate' }));
    expect(await screen.findByText(APPCMS_MESSAGES.rotated)).toBeTruthy();
    expect(appcmsFakes.actions.at(-1)).toMatchObject({ name: 'rotate' });
  });

  it('read level: fields are disabled, no Save and no rotate action (only the masked key)', async () => {
    await renderView(<ServicePage />, appcmsAs('read'));
    expect(await screen.findByRole('textbox', { name: /Service name/ })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Rotate key' })).toBeNull();
    expect(screen.getByTestId('signing-key').textContent).toMatch(/^•+/);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
