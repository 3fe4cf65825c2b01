/**
 * The one root actor of the browser app, reachable from any view. Views read child actors by their
 * systemId (`auth`, `session`, `inactivity`, `network`, `notifier`, ...) and select from snapshots;
 * they never hold refs passed down as props.
 */
import { createContext, useContext } from 'react';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import type { AppMachine } from '../machines/app.machine';

export type RootActor = ActorRefFrom<AppMachine>;

export const RootActorContext = createContext<RootActor | null>(null);

export function useRootActor(): RootActor {
  const actor = useContext(RootActorContext);
  if (!actor) throw new Error('useRootActor must be used inside <RootActorContext.Provider>');
  return actor;
}

/** A child actor of the root system, by systemId. The root spawns every child before the first render. */
export function useSystemActor<TRef extends AnyActorRef>(systemId: string): TRef {
  const ref = useRootActor().system.get(systemId);
  if (!ref) throw new Error(`No actor with systemId "${systemId}" in the app system`);
  return ref as TRef;
}
