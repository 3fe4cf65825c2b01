/**
 * Frame of every protected route: while the session machine verifies the stored session the page is
 * covered by the loading overlay (no flash of content); the logout, inactivity and change-password
 * dialogs live here so any protected page can raise them. Every signed-in page states the site's time
 * zone once, here, above the page (issue 38): dates and times on the page carry no zone of their own.
 */
import { Outlet } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectIsVerifying } from '../../../machines/session.machine';
import { useAppActor } from '../../app-actor';
import { LoadingOverlay } from '../shared/LoadingOverlay';
import { LogoutConfirmDialog } from '../auth/LogoutConfirmDialog';
import { InactivityWarningDialog } from '../auth/InactivityWarningDialog';
import { OtpModal } from '../auth/OtpModal';
import { siteZoneNote } from '../../../common/display-format';
import { useSiteTimeZone } from '../shared/use-site-time-zone';
import * as css from './layout.css';

/** The one sentence per page that names the zone every date and time on it is written in. */
function SiteZoneNote() {
  return <aside aria-label="Time zone" className={css.siteZoneNote} data-testid="site-zone">{siteZoneNote(useSiteTimeZone())}</aside>;
}

export function ProtectedLayout() {
  const session = useAppActor('session');
  const verifying = useSelector(session, selectIsVerifying);
  return (
    <>
      {verifying ? <LoadingOverlay label="Verifying your session…" /> : <><SiteZoneNote /><Outlet /></>}
      <LogoutConfirmDialog />
      <InactivityWarningDialog />
      <OtpModal />
    </>
  );
}
