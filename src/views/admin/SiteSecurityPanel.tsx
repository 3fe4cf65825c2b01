/**
 * The Admin area's site security switch (issue 19): "Require an authenticator app for everyone on
 * this site". Shown to Admin editors only (read roles see nothing of it; the server refuses them anyway).
 */
import { shallowEqual, useSelector } from '@xstate/react';
import {
  selectSiteAuthenticator, selectSiteAuthenticatorBusy, selectSiteAuthenticatorFailed,
} from '../../../machines/site-authenticator.machine';
import { usePageActor } from '../../page-actors';
import { useTotpText } from '../account/totp-text';
import * as css from './admin.css';

/** The `siteSecurity` page machine (src/page-actors.tsx) with the Admin wiring file's I/O. */
export function SiteSecurityPanel() {
  const actor = usePageActor('siteSecurity');
  const t = useTotpText();
  const { required, canEdit, error, notice } = useSelector(actor, selectSiteAuthenticator, shallowEqual);
  const busy = useSelector(actor, selectSiteAuthenticatorBusy);
  const failed = useSelector(actor, selectSiteAuthenticatorFailed);
  if (failed || !canEdit) return null;
  return (
    <section aria-label={t.siteTitle} className={css.muted}>
      <label>
        <input type="checkbox" checked={required} disabled={busy} data-testid="require-authenticator"
          onChange={(e) => actor.send({ type: 'siteAuthenticator.set', required: e.target.checked })} />{' '}
        {t.siteToggle}
      </label>
      <p className={css.muted}>{t.siteToggleHelp}</p>
      {notice && <p role="status">{notice}</p>}
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
