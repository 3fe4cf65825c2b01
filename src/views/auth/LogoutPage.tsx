/** /logout (spec §2.2, §4.4): ends the session at once, whoever sent the user here. */
import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { LogoutMachine } from '../../../machines/logout.machine';
import { useSystemActor } from '../../app-actor';
import { LoadingOverlay } from '../shared/LoadingOverlay';

export function LogoutPage() {
  const logout = useSystemActor<ActorRefFrom<LogoutMachine>>('logout');
  const inactive = useRouterState({ select: (s) => (s.location.search as { reason?: unknown }).reason === 'inactivity' });
  useEffect(() => {
    // A second send (StrictMode's double effect) is ignored while the logout runs.
    logout.send(inactive ? { type: 'logout.now', reason: 'inactivity' } : { type: 'logout.now' });
  }, [logout, inactive]);
  return <LoadingOverlay label="Signing you out…" />;
}
