/** View-test setup of the AppCMS pages: signed in with an App CMS level, the Kids network chosen, the page machines with fake I/O. */
import { fakeActor } from '../../../machines/test-harness/fakes';
import { systemActor } from '../../app-actor';
import { appcmsTestPages } from '../../test-harness/appcms-pages';
import type { RenderViewOptions } from '../../test-harness/render-view';
import { SERVICE, signedInAs } from '../../test-harness/view-fixtures';

export function appcmsAs(level: 'read' | 'write', identifier = 'kids', options: { drafts?: boolean } = {}): RenderViewOptions {
  return {
    // With `drafts`, typed changes are kept across a reload as in the browser (issue 38).
    pages: appcmsTestPages(options),
    actors: { ...signedInAs({ 'App CMS': level }), network: { fetchService: fakeActor(() => SERVICE), fetchNetworkData: fakeActor(() => ({})) } },
    given: async (root) => {
      systemActor(root, 'network').send({ type: 'network.select', identifier });
    },
  };
}
