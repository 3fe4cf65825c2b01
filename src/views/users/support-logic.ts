/**
 * What the Users pages run: the search and subscriber machines (with their real actors by default;
 * view tests provide fakes through SupportLogicContext), the actor contexts the views read them
 * through, and whether the signed-in role may act here (Customer Support write or contributor).
 */
import { createActorContext, useSelector } from '@xstate/react';
import { createContext } from 'react';
import { AREAS } from '../../../common/constants';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import { subscriberSearchMachine } from '../../../machines/subscriber-search.machine';
import { subscriberMachine } from '../../../machines/subscriber.machine';
import { supportLogic, type SupportLogic } from '../../adapters/support-actors';
import { useAppActor } from '../../app-actor';

export const SupportLogicContext = createContext<() => SupportLogic>(() => supportLogic());

/** The search lives in the /users layout, so it is still there when the agent comes back from a subscriber. */
export const SubscriberSearchContext = createActorContext(subscriberSearchMachine);
export const SubscriberContext = createActorContext(subscriberMachine);

export function useCanActInSupport(): boolean {
  const auth = useAppActor('auth');
  return useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.customerSupport));
}
