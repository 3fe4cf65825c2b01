import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { APPCMS_MESSAGES } from '../../../common/appcms';
import { DevicesPage } from './DevicesPage';
import { appcmsFakes } from '../../test-harness/appcms-pages';
import { appcmsAs } from './appcms-test-kit';

beforeEach(() => {
  appcmsFakes.saves.length = 0;
  appcmsFakes.records.devices = { values: { 'web.enabled': true, 'web.minAppVersion': '1.0.0', 'roku.enabled': false, 'roku.minAppVersion': '' }, version: 5, data: null };
});

describe('DevicesPage', () => {
  it('turns a platform on with its minimum version and saves', async () => {
    const view = await renderView(<DevicesPage />, appcmsAs('write'));
    await view.user.click(await screen.findByRole('checkbox', { name: 'Roku' }));
    await view.user.type(screen.getByRole('textbox', { name: 'Roku minimum app version' }), '3.1.0');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(appcmsFakes.saves.at(-1)).toMatchObject({ kind: 'devices', input: { version: 5, changes: { 'roku.enabled': true, 'roku.minAppVersion': '3.1.0' } } });
  });

  it('shows no placeholder version; a platform turned on without one is refused before Save (issue 30)', async () => {
    const view = await renderView(<DevicesPage />, appcmsAs('write'));
    await view.user.click(await screen.findByRole('checkbox', { name: 'Roku' }));
    const roku = screen.getByRole('textbox', { name: 'Roku minimum app version' });
    expect(roku.getAttribute('placeholder')).toBeNull();
    expect(roku.getAttribute('aria-required')).toBe('true');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(APPCMS_MESSAGES.appVersionRequired)).toBeTruthy();
    expect(appcmsFakes.saves).toHaveLength(0);
    await view.user.type(roku, '3');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText(APPCMS_MESSAGES.appVersion)).toBeTruthy();
    expect(appcmsFakes.saves).toHaveLength(0);
  });

  it('read level sees the platforms disabled', async () => {
    await renderView(<DevicesPage />, appcmsAs('read'));
    expect(await screen.findByRole('checkbox', { name: 'Web browser' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
