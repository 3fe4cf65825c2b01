/** View-test setup of the AppCMS editors: signed in with an App CMS level, the Kids network chosen. */
import { fakeActor } from '../../../machines/test-support/fakes';
import { systemActor } from '../../app-actor';
import type { RenderViewOptions } from '../../test-support/render-view';
import { SERVICE, signedInAs } from '../../test-support/view-fixtures';

export function appcmsAs(level: 'read' | 'write', identifier = 'kids'): RenderViewOptions {
  return {
    actors: { ...signedInAs({ 'App CMS': level }), network: { fetchService: fakeActor(() => SERVICE), fetchNetworkData: fakeActor(() => ({})) } },
    given: async (root) => {
      systemActor(root, 'network').send({ type: 'network.select', identifier });
    },
  };
}
