/**
 * What the Users pages run: the subscriber search and subscriber page machines, started with
 * `usePageActor` (src/page-actors.tsx; their I/O is the Customer Support wiring file's,
 * src/adapters/support-actors.ts, or a view test's fakes), the contexts the views read them
 * through, and whether the signed-in role may act here (Customer Support write or contributor).
 */
import { useSelector } from '@xstate/react';
import { createContext, useContext, type ReactNode } from 'react';
import type { ActorRefFrom, AnyActorLogic, InputFrom, SnapshotFrom } from 'xstate';
import { AREAS } from '../../../common/constants';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import type { SubscriberSearchMachine } from '../../../machines/subscriber-search.machine';
import type { SubscriberMachine, SubscriberMachineInput } from '../../../machines/subscriber.machine';
import { useAppActor } from '../../app-actor';
import { usePageActor } from '../../page-actors';

/** A page actor shared by the parts of a page: `Provider value={ref}`, `useActorRef()`, `useSelector(selector)`. */
function pageActorContext<TLogic extends AnyActorLogic>(name: string) {
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

/** The search lives in the /users layout, so it is still there when the agent comes back from a subscriber. */
export const SubscriberSearchContext = pageActorContext<SubscriberSearchMachine>('The subscriber search');
export const SubscriberContext = pageActorContext<SubscriberMachine>('The subscriber page');

/** Starts the `subscriberSearch` page machine for as long as it is mounted and shares it with `children`. */
export function SubscriberSearchHost({ input, children }: { input: InputFrom<SubscriberSearchMachine>; children: ReactNode }) {
  const search = usePageActor('subscriberSearch', { input });
  return <SubscriberSearchContext.Provider value={search}>{children}</SubscriberSearchContext.Provider>;
}

/** Starts the `subscriber` page machine for one subscriber (mount it with a key per id) and shares it with `children`. */
export function SubscriberHost({ input, children }: { input: SubscriberMachineInput; children: ReactNode }) {
  const subscriber = usePageActor('subscriber', { input });
  return <SubscriberContext.Provider value={subscriber}>{children}</SubscriberContext.Provider>;
}

export function useCanActInSupport(): boolean {
  const auth = useAppActor('auth');
  return useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.customerSupport));
}
