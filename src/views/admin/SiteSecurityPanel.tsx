/**
 * The Admin area's site security switch (issue 19): "Require an authenticator app for everyone on
 * this site". Shown to Admin editors only (read roles see nothing of it; the server refuses them anyway).
 */
import { useMachine } from '@xstate/react';
import {
  selectSiteAuthenticator, selectSiteAuthenticatorBusy, selectSiteAuthenticatorFailed, siteAuthenticatorMachine,
} from '../../../machines/site-authenticator.machine';
import { siteAuthenticatorImplementations } from '../../adapters/totp-actors';
import { useTotpText } from '../account/totp-text';
import * as css from './admin.css';

const providedSiteAuthenticator = siteAuthenticatorMachine.provide(siteAuthenticatorImplementations);

/** `logic`: the machine with its I/O (tests give fakes). */
export function SiteSecurityPanel({ logic = providedSiteAuthenticator }: { logic?: typeof providedSiteAuthenticator }) {
  const [snapshot, send] = useMachine(logic);
  const t = useTotpText();
  const { required, canEdit, error, notice } = selectSiteAuthenticator(snapshot);
  const busy = selectSiteAuthenticatorBusy(snapshot);
  if (selectSiteAuthenticatorFailed(snapshot) || !canEdit) return null;
  return (
    <section aria-label={t.siteTitle} className={css.muted}>
      <label>
        <input type="checkbox" checked={required} disabled={busy} data-testid="require-authenticator"
          onChange={(e) => send({ type: 'siteAuthenticator.set', required: e.target.checked })} />{' '}
        {t.siteToggle}
      </label>
      <p className={css.muted}>{t.siteToggleHelp}</p>
      {notice && <p role="status">{notice}</p>}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
