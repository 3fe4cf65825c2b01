import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { APPCMS_MESSAGES } from '../../../common/appcms';
import { renderView } from '../../test-support/render-view';
import { SettingsPage } from './SettingsPage';
import { appcmsFakes } from '../../test-support/appcms-pages';
import { appcmsAs } from './appcms-test-kit';

const V1 = { defaultLanguage: 'en', maxStreams: 2, autoplay: true };
const V2 = { defaultLanguage: 'fr', maxStreams: 4, autoplay: true };
const entry = (version: number, values: Record<string, unknown>, createdBy: string | null) => ({
  version, createdBy, createdAt: '2026-11-24T01:00:00.000Z', changed: version === 1 ? [] : ['defaultLanguage', 'maxStreams'], restoredFrom: null, values,
});

beforeEach(() => {
  appcmsFakes.saves.length = 0;
  appcmsFakes.restores.length = 0;
  appcmsFakes.records.settings = {
    values: { defaultLanguage: 'fr', subtitlesEnabled: false, autoplay: true, defaultVideoQuality: 'auto', playerSkipSeconds: '10', maxStreams: '4', downloadsEnabled: false, parentalControls: false, supportEmail: 'a@b.test' },
    version: 2, data: null,
  };
  appcmsFakes.versions = { current: 2, versions: [entry(2, V2, 'admin@demo.test'), entry(1, V1, null)] };
});

describe('SettingsPage', () => {
  it('shows a grouped form with labels and help, and saves the changed fields with the version', async () => {
    const view = await renderView(<SettingsPage />, appcmsAs('write'));
    const streams = await screen.findByLabelText(/Simultaneous streams/);
    expect(screen.getByRole('group', { name: 'Playback' })).toBeTruthy();
    expect(screen.getByText('How many devices of one account may play at the same time.')).toBeTruthy();
    await view.user.clear(streams);
    await view.user.type(streams, '6');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(appcmsFakes.saves.at(-1)).toMatchObject({ kind: 'settings', input: { version: 2, changes: { maxStreams: '6' } } });
    expect(await screen.findByText(APPCMS_MESSAGES.saved)).toBeTruthy();
  });

  it('lists the versions, shows a diff against the current one, and restores after confirming', async () => {
    const view = await renderView(<SettingsPage />, appcmsAs('write'));
    const first = await screen.findByTestId('version-1');
    expect(first.textContent).toContain('Initial settings');
    expect(screen.getByTestId('version-2').textContent).toContain('admin@demo.test');
    await view.user.click(within(first).getByRole('button', { name: 'View' }));
    const diff = screen.getByTestId('version-diff');
    expect(within(diff).getByRole('row', { name: /Default language en fr/ })).toBeTruthy();
    expect(within(diff).getByRole('row', { name: /Simultaneous streams 2 4/ })).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: 'Restore version 1' }));
    const loadsBefore = appcmsFakes.loads.filter((l) => l.kind === 'settings').length;
    await view.user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(appcmsFakes.restores).toEqual([{ current: 2, restore: 1, scope: { site: 'demo-site', network: 'kids' } }]);
    // The page opens the form afresh on the restored settings (no React key bump).
    await waitFor(() => expect(appcmsFakes.loads.filter((l) => l.kind === 'settings')).toHaveLength(loadsBefore + 1));
    expect(await screen.findByText(APPCMS_MESSAGES.restored(1))).toBeTruthy();
  });

  it('says when Copy from default would change nothing', async () => {
    appcmsFakes.preview.settings = [];
    await renderView(<SettingsPage />, appcmsAs('write'));
    expect(await within(await screen.findByTestId('copy-preview-settings')).findByText(APPCMS_MESSAGES.noChanges)).toBeTruthy();
  });

  it('read level: the form and versions show, every control is disabled, and there is no Save or Restore', async () => {
    const view = await renderView(<SettingsPage />, appcmsAs('read'));
    expect(await screen.findByLabelText(/Simultaneous streams/)).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await view.user.click(within(await screen.findByTestId('version-1')).getByRole('button', { name: 'View' }));
    expect(screen.queryByRole('button', { name: /Restore version/ })).toBeNull();
  });
});
