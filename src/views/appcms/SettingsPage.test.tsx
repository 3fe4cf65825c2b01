import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { networkPage } from '../../test-support/network-page';
import { renderView } from '../../test-support/render-view';
import { SettingsPage } from './SettingsPage';

describe('SettingsPage', () => {
  it('lists each setting with its value, leaving out the fields that describe the response', async () => {
    await renderView(<SettingsPage />, networkPage('settings', {
      site: 'demo-site', network: 'kids', language: 'en', autoplay: true, limits: { streams: 2 },
    }));
    const table = screen.getByTestId('settings-table');
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual([
      'languageen', 'autoplayYes', 'limits{"streams":2}',
    ]);
    expect(screen.getByTestId('setting-autoplay').textContent).toBe('Yes');
  });
});
