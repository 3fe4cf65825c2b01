/**
 * The area actors' logic with their real I/O (issue 26): the `network` actor (GraphQL through the urql
 * client) and the content library's `contentBrowser`. Not part of the sign-in page's first load: the
 * app actor factory loads this module with a dynamic import() when the root machine asks for it
 * (`loadAreaActors`, once someone signs in), and src/main.tsx fetches it while the sign-in page is idle.
 */
import type { AreaActorLogic } from '../../machines/app.machine';
import { networkMachine } from '../../machines/network.machine';
import { createGraphqlClient } from '../api/graphql';
import { contentBrowserLogic } from './content-actors';
import { networkImplementations, readNetworkCredentials } from './network-actors';

/** `reportAuthError`: where 401/403 answers go (the factory's AuthErrorReporter: the `session` actor). */
export function areaActorLogic(reportAuthError: { onUnauthorized: () => void; onForbidden: () => void }): AreaActorLogic {
  return {
    network: networkMachine.provide(networkImplementations({
      client: createGraphqlClient({ getCredentials: readNetworkCredentials, ...reportAuthError }),
    })),
    contentBrowser: contentBrowserLogic(),
  };
}
