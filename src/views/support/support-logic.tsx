/**
 * What the Users pages run: the subscriber search and subscriber page machines, started with
 * `usePageActor` (src/page-actors.tsx; their I/O is the Customer Support wiring file's,
 * src/adapters/support-actors.ts, or a view test's fakes), the contexts the views read them
 * through, and whether the signed-in role may act here (Customer Support write or contributor).
 */
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { InputFrom } from 'xstate';
import { AREAS } from '../../../common/constants';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import type { SubscriberSearchMachine } from '../../../machines/support-search.machine';
import type { SubscriberMachine, SubscriberMachineInput } from '../../../machines/support-subscriber.machine';
import { useAppActor } from '../../app-actor';
import { usePageActor } from '../../page-actors';
import { pageActorContext } from '../shared/page-actor-context';

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
