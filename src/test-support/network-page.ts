/** Opens an AppCMS data page the way its route does: the Kids network chosen, the page's kind viewed. */
import type { AnyActorLogic } from 'xstate';
import { fakeActor } from '../../machines/test-support/fakes';
import type { NetworkDataKind } from '../../common/contract';
import { systemActor } from '../app-actor';
import type { RenderViewOptions } from './render-view';
import { appCmsUser } from './view-fixtures';

export function networkPage(kind: NetworkDataKind, answer: AnyActorLogic | Record<string, unknown>, identifier = 'kids'): RenderViewOptions {
  const fetchNetworkData = typeof (answer as AnyActorLogic).transition === 'function' ? answer as AnyActorLogic : fakeActor(() => answer);
  return {
    actors: appCmsUser({ fetchNetworkData }),
    given: async (root) => {
      const network = systemActor(root, 'network');
      network.send({ type: 'network.select', identifier });
      network.send({ type: 'network.view', kind });
    },
  };
}
