/**
 * A page actor shared by the parts of one page (table, dialogs, panels): the page starts it with
 * `usePageActor` (src/page-actors.tsx) and puts the ref in `Provider value={ref}`; its parts read it
 * with `useActorRef()` and `useSelector(selector)`, as with @xstate/react's createActorContext, whose
 * Provider would start a second actor of its own.
 */
import { useSelector } from '@xstate/react';
import { createContext, useContext } from 'react';
import type { ActorRefFrom, AnyActorLogic, SnapshotFrom } from 'xstate';

export function pageActorContext<TLogic extends AnyActorLogic>(name: string) {
  const Context = createContext<ActorRefFrom<TLogic> | null>(null);
  function useActorRef(): ActorRefFrom<TLogic> {
    const ref = useContext(Context);
    if (!ref) throw new Error(`${name} is read outside its page`);
    return ref;
  }
  return {
    Provider: Context.Provider,
    useActorRef,
    useSelector<T>(selector: (snapshot: SnapshotFrom<TLogic>) => T, compare?: (a: T, b: T) => boolean): T {
      return useSelector(useActorRef(), selector as (snapshot: unknown) => T, compare);
    },
  };
}
