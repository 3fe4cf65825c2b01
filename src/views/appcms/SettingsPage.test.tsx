import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { APPCMS_MESSAGES } from '../../../common/appcms';
import { renderView } from '../../test-harness/render-view';
import { SettingsPage } from './SettingsPage';
import { appcmsFakes } from '../../test-harness/appcms-pages';
import { appcmsAs } from './appcms-test-kit';
import { revision } from '../../test-harness/history-fakes';
import { HISTORY_PANEL_MESSAGES } from '../../../common/revisions';

beforeEach(() => {
  appcmsFakes.saves.length = 0;
  appcmsFakes.history.restores.length = 0;
  appcmsFakes.records.settings = {
    values: { defaultLanguage: 'fr', subtitlesEnabled: false, autoplay: true, defaultVideoQuality: 'auto', playerSkipSeconds: '10', maxStreams: '4', downloadsEnabled: false, parentalControls: false, supportEmail: 'a@b.test' },
    version: 2, data: null,
  };
  appcmsFakes.history.canRestore = true;
  appcmsFakes.history.revisions.kids = [
    revision(7, [{ field: 'defaultLanguage', before: 'en', after: 'fr' }, { field: 'maxStreams', before: 2, after: 4 }], { kind: 'settings', objectId: 'n-kids', actor: { id: 'a', username: 'admin@demo.test' } }),
  ];
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

  it('shows the settings\' History (a save is a revision), one revision against now, and restores it after confirming', async () => {
    const view = await renderView(<SettingsPage />, appcmsAs('write'));
    const item = await screen.findByTestId('revision-7');
    expect(item.textContent).toContain('by admin@demo.test');
    expect(item.textContent).toContain('Simultaneous streams: 2 → 4');
    expect(appcmsFakes.history.loads.at(-1)).toEqual({ kind: 'settings', objectId: 'kids', page: 1 });
    await view.user.click(within(item).getByRole('button', { name: 'Compare with now' }));
    const diff = screen.getByTestId('revision-diff');
    expect(within(diff).getByRole('row', { name: /Simultaneous streams 2 4 4/ })).toBeTruthy();
    await view.user.click(screen.getByRole('button', { name: 'Restore the values before #7' }));
    const loadsBefore = appcmsFakes.loads.filter((l) => l.kind === 'settings').length;
    await view.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    expect(appcmsFakes.history.restores).toEqual([{ seq: 7, version: 2 }]);
    // The page opens the form afresh on the restored settings (no React key bump).
    await waitFor(() => expect(appcmsFakes.loads.filter((l) => l.kind === 'settings')).toHaveLength(loadsBefore + 1));
    expect(await screen.findByText(HISTORY_PANEL_MESSAGES.nothingRestored(7))).toBeTruthy();
  });

  it('says when Copy from default would change nothing', async () => {
    appcmsFakes.preview.settings = [];
    await renderView(<SettingsPage />, appcmsAs('write'));
    expect(await within(await screen.findByTestId('copy-preview-settings')).findByText(APPCMS_MESSAGES.noChanges)).toBeTruthy();
  });

  it('read level: the form and History show, every control is disabled, and there is no Save or Restore', async () => {
    appcmsFakes.history.canRestore = false;
    const view = await renderView(<SettingsPage />, appcmsAs('read'));
    expect(await screen.findByLabelText(/Simultaneous streams/)).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await view.user.click(within(await screen.findByTestId('revision-7')).getByRole('button', { name: 'Compare with now' }));
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
  });
});
