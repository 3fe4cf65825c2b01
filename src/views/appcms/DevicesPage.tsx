/** AppCMS Devices (spec §2.7): the current network's device list, read-only. */
import type { DeviceEntry } from '../../../common/contract';
import { NetworkDataPage } from './NetworkDataPage';
import * as css from './appcms.css';

function devicesOf(value: unknown): DeviceEntry[] {
  return Array.isArray(value) ? value.filter((d): d is DeviceEntry => typeof d === 'object' && d !== null && 'platform' in d) : [];
}

export function DevicesPage() {
  return (
    <NetworkDataPage title="Devices" kind="device">
      {(data) => (
        <table className={css.table} data-testid="devices-table">
          <thead>
            <tr>
              <th className={css.headCell}>Platform</th>
              <th className={css.headCell}>Name</th>
              <th className={css.headCell}>Enabled</th>
              <th className={css.headCell}>Minimum app version</th>
            </tr>
          </thead>
          <tbody>
            {devicesOf(data.devices).map((device) => (
              <tr key={`${device.platform}-${device.name}`}>
                <td className={css.cell}>{device.platform}</td>
                <td className={css.cell}>{device.name}</td>
                <td className={css.cell}>{device.enabled ? 'Yes' : 'No'}</td>
                <td className={css.cell}>{device.minAppVersion}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </NetworkDataPage>
  );
}
