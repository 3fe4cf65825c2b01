import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { networkPage } from '../../test-support/network-page';
import { renderView } from '../../test-support/render-view';
import { DevicesPage } from './DevicesPage';

describe('DevicesPage', () => {
  it('lists each device with its platform, name, state and minimum version', async () => {
    await renderView(<DevicesPage />, networkPage('device', {
      devices: [
        { platform: 'ios', name: 'iPhone', enabled: true, minAppVersion: '5.1' },
        { platform: 'roku', name: 'Roku', enabled: false, minAppVersion: '2.0' },
        'not a device',
      ],
    }));
    const rows = within(screen.getByTestId('devices-table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['ios', 'iPhone', 'Yes', '5.1'],
      ['roku', 'Roku', 'No', '2.0'],
    ]);
  });
});
