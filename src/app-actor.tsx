/**
 * The one root actor of the browser app, reachable from any view. Views reach child actors by their
 * systemId with `useAppActor('auth')` (typed by SystemActors below) and select from snapshots; they
 * never hold refs passed down as props.
 */
import { createContext, useContext } from 'react';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import type { AppMachine } from '../machines/app.machine';
import type { AuthMachine } from '../machines/auth.machine';
import type { ContentBrowserMachine } from '../machines/content-browser.machine';
import type { ForgotPasswordMachine } from '../machines/forgot-password.machine';
import type { InactivityMachine } from '../machines/inactivity.machine';
import type { KeepaliveMachine } from '../machines/keepalive.machine';
import type { LogoutMachine } from '../machines/logout.machine';
import type { NetworkMachine } from '../machines/network.machine';
import type { NotifierMachine } from '../machines/notifier.machine';
import type { routeLoadingMachine } from '../machines/route-loading.machine';
import type { SessionMachine } from '../machines/session.machine';

export type RootActor = ActorRefFrom<AppMachine>;

/** Every child of the root by its systemId (machines/app.machine.ts spawns them). */
export interface SystemActors {
  notifier: ActorRefFrom<NotifierMachine>;
  routeLoading: ActorRefFrom<typeof routeLoadingMachine>;
  auth: ActorRefFrom<AuthMachine>;
  session: ActorRefFrom<SessionMachine>;
  inactivity: ActorRefFrom<InactivityMachine>;
  logout: ActorRefFrom<LogoutMachine>;
  passwordReset: ActorRefFrom<ForgotPasswordMachine>;
  passwordChange: ActorRefFrom<ForgotPasswordMachine>;
  network: ActorRefFrom<NetworkMachine>;
  keepalive: ActorRefFrom<KeepaliveMachine>;
  contentBrowser: ActorRefFrom<ContentBrowserMachine>;
}
export type SystemId = keyof SystemActors;

export const RootActorContext = createContext<RootActor | null>(null);

export function useRootActor(): RootActor {
  const actor = useContext(RootActorContext);
  if (!actor) throw new Error('useRootActor must be used inside <RootActorContext.Provider>');
  return actor;
}

/** A child of the root by systemId, typed. The root spawns every child before the first render. */
export function systemActor<K extends SystemId>(root: RootActor, systemId: K): SystemActors[K] {
  const ref: AnyActorRef | undefined = root.system.get(systemId);
  if (!ref) throw new Error(`No actor with systemId "${systemId}" in the app system`);
  return ref as SystemActors[K];
}

/** `systemActor` for views: the child of the root in context. */
export function useAppActor<K extends SystemId>(systemId: K): SystemActors[K] {
  return systemActor(useRootActor(), systemId);
}
