/**
 * The one root actor of the browser app, reachable from any view. Views reach child actors by their
 * systemId with `useAppActor('auth')` (typed by SystemActors below) and select from snapshots; they
 * never hold refs passed down as props.
 */
import { createContext, useContext } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { APP_CHILDREN, AppMachine } from '../machines/app.machine';
import type { ContentBrowserMachine } from '../machines/content-browser.machine';
import type { NetworkMachine } from '../machines/network.machine';

export type RootActor = ActorRefFrom<AppMachine>;

/** The children the root machine starts at once, by systemId: derived from its map (no hand copy). */
type RootChildren = typeof APP_CHILDREN;

/** The area actors the root spawns after the sign-in (src/adapters/area-actors.ts, issue 26). */
interface AreaActors {
  network: ActorRefFrom<NetworkMachine>;
  contentBrowser: ActorRefFrom<ContentBrowserMachine>;
}

/** Every child of the root by its systemId (machines/app.machine.ts spawns them). */
export type SystemActors = { [K in keyof RootChildren]: ActorRefFrom<RootChildren[K]> } & AreaActors;
export type SystemId = keyof SystemActors;

export const RootActorContext = createContext<RootActor | null>(null);

export function useRootActor(): RootActor {
  const actor = useContext(RootActorContext);
  if (!actor) throw new Error('useRootActor must be used inside <RootActorContext.Provider>');
  return actor;
}

/** A child of the root by systemId, typed. The root spawns every child before the first render. */
export function systemActor<K extends SystemId>(root: RootActor, systemId: K): SystemActors[K] {
  // The root's system is untyped (any actor by any id): the SystemActors map above is what types it.
  const ref: SystemActors[K] | undefined = root.system.get(systemId);
  if (!ref) throw new Error(`No actor with systemId "${systemId}" in the app system`);
  return ref;
}

/** `systemActor` for views: the child of the root in context. */
export function useAppActor<K extends SystemId>(systemId: K): SystemActors[K] {
  return systemActor(useRootActor(), systemId);
}
