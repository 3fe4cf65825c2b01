/**
 * Frame of every protected route: while the session machine verifies the stored session the page is
 * covered by the loading overlay (no flash of content); the logout, inactivity and change-password
 * dialogs live here so any protected page can raise them.
 */
import { Outlet } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectIsVerifying } from '../../../machines/session.machine';
import { useAppActor } from '../../app-actor';
import { LoadingOverlay } from '../shared/LoadingOverlay';
import { LogoutConfirmDialog } from '../auth/LogoutConfirmDialog';
import { InactivityWarningDialog } from '../auth/InactivityWarningDialog';
import { OtpModal } from '../auth/OtpModal';

export function ProtectedLayout() {
  const session = useAppActor('session');
  const verifying = useSelector(session, selectIsVerifying);
  return (
    <>
      {verifying ? <LoadingOverlay label="Verifying your session…" /> : <Outlet />}
      <LogoutConfirmDialog />
      <InactivityWarningDialog />
      <OtpModal />
    </>
  );
}
