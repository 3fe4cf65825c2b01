/** AppCMS Settings (spec §2.7): the current network's settings values, read-only. */
import { NetworkDataPage } from './NetworkDataPage';
import * as css from './appcms.css';

/** Fields of the response that describe it rather than being settings. */
const META = new Set(['site', 'network', 'networkName', 'updatedAt', 'contentStatus']);

function display(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function SettingsPage() {
  return (
    <NetworkDataPage title="Settings" kind="settings">
      {(data) => (
        <table className={css.table} data-testid="settings-table">
          <thead>
            <tr><th className={css.headCell}>Setting</th><th className={css.headCell}>Value</th></tr>
          </thead>
          <tbody>
            {Object.entries(data).filter(([key]) => !META.has(key)).map(([key, value]) => (
              <tr key={key}>
                <td className={css.cell}>{key}</td>
                <td className={css.cell} data-testid={`setting-${key}`}>{display(value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </NetworkDataPage>
  );
}
