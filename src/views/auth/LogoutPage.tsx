/** /logout (spec §2.2, §4.4): ends the session at once, whoever sent the user here. */
import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { LogoutMachine } from '../../../machines/logout.machine';
import { useSystemActor } from '../../app-actor';
import { LoadingOverlay } from '../shared/LoadingOverlay';

export function LogoutPage() {
  const logout = useSystemActor<ActorRefFrom<LogoutMachine>>('logout');
  useEffect(() => {
    // A second send (StrictMode's double effect) is ignored while the logout runs.
    logout.send({ type: 'logout.now' });
  }, [logout]);
  return <LoadingOverlay label="Signing you out…" />;
}
