/**
 * The real I/O actors and session-storage actions of the `network` machine
 * (machines/network.machine.ts) and of its `change` child (machines/network-change.machine.ts). GraphQL goes through the one urql client (src/api/graphql.ts); the
 * per-network reads through apiRequest (spec §7.2). Every actor passes its abort signal on.
 *
 *   networkMachine.provide(networkImplementations({ client, getCredentials }))
 */
import { fromPromise } from 'xstate';
import {
  CredentialsMissingError,
  type CopyFromDefaultInput, type FetchNetworkDataInput, type FetchServiceInput, type NetworkContext, type NetworkData,
  type PublishNetworkInput,
} from '../../machines/network.machine';
import { ApiError, apiRequest, authHeaders } from '../api/client';
import { APPCMS_PATHS, launchGapsOf, type DiffEntry, type LaunchGap } from '../../common/appcms';
import { REQUEST_ID_HEADER } from '../../common/revisions';
import { createUndoActors, rememberRequestId } from './undo-actors';
import { lastingUndoMachine } from '../../machines/lasting-undo.machine';
import { networkChangeMachine } from '../../machines/network-change.machine';
import type { Network, NetworkCopyRequest, Service } from '../../common/contract';
import {
  GraphqlCallError, NETWORK_COPY_FROM_DEFAULT, NETWORK_PUBLISH, runGraphql, SERVICE_GET, type GraphqlClient, type GraphqlCredentials,
} from '../api/graphql';
import { API_PATHS, SESSION_STORAGE_KEYS } from '../../common/constants';
import { MESSAGES } from '../../common/messages';
import { readNetworkCredentials, readSavedNetworkId } from './network-credentials';
import { sessionStore } from './storage';

export { readNetworkCredentials, readSavedNetworkId };


/**
 * A change that offers Undo (issue 28): the id the server names its request with is recorded under
 * the machine's handle for it (issue 37), so the snackbar's Undo names the server's id.
 */
function rememberFor(input: { requestId?: string }): ((requestId: string | null) => void) | undefined {
  return input.requestId ? (requestId) => rememberRequestId(input.requestId, requestId) : undefined;
}

/** Spec §7.1: all four brand parts when copying brand; settings true when copying settings. */
export function copyRequestFor({ site, network, what }: Omit<CopyFromDefaultInput, 'requestId'>): NetworkCopyRequest {
  const brand = what === 'brand';
  return {
    site,
    network,
    networkBrand: { logoAndIcons: brand, theme: brand, themeOtt: brand, themeApps: brand },
    networkSettings: what === 'settings',
  };
}

/** Spec §7.2: the response is the data, its numeric status (the HTTP code after normalising) dropped. */
export function networkDataOf(body: Record<string, unknown>): NetworkData {
  const { status, ...rest } = body;
  return typeof status === 'number' ? rest : body;
}

export interface NetworkActorDeps {
  client: GraphqlClient;
  getCredentials?: () => GraphqlCredentials | null;
  request?: typeof apiRequest;
}

function credentialsRequired(getCredentials: () => GraphqlCredentials | null) {
  return (): GraphqlCredentials => {
    const credentials = getCredentials();
    if (!credentials) throw new CredentialsMissingError();
    return credentials;
  };
}

/** The I/O of the network actor's `change` child: a launch, withdrawal or copy, and what it reads before asking. */
export function createNetworkChangeActors({ client, getCredentials = readNetworkCredentials, request = apiRequest }: NetworkActorDeps) {
  const requireCredentials = credentialsRequired(getCredentials);

  return {
    publishNetwork: fromPromise<void, PublishNetworkInput>(async ({ input, signal }) => {
      requireCredentials();
      const data = await runGraphql(client, 'mutation', NETWORK_PUBLISH, { site: input.site, network: input.network }, signal, undefined, rememberFor(input));
      if (!data.networkPublish.success) throw new GraphqlCallError(MESSAGES.genericGraphqlError);
    }),

    copyFromDefault: fromPromise<Network | null, CopyFromDefaultInput>(async ({ input, signal }) => {
      requireCredentials();
      const data = await runGraphql(client, 'mutation', NETWORK_COPY_FROM_DEFAULT, { req: copyRequestFor(input) }, signal, undefined, rememberFor(input));
      if (!data.networkCopyFromDefault.success) throw new GraphqlCallError(MESSAGES.genericGraphqlError);
      return data.networkCopyFromDefault.network;
    }),

    /** Issue 28: withdraws a launched network (REST), named by its request id so the snackbar can Undo it. */
    withdrawNetwork: fromPromise<void, PublishNetworkInput>(async ({ input, signal }) => {
      const credentials = requireCredentials();
      const url = `${APPCMS_PATHS.withdraw}/${encodeURIComponent(input.site)}/${encodeURIComponent(input.network)}`;
      const body = await request<{ success?: boolean; message?: string }>(url, {
        method: 'POST', headers: authHeaders(credentials), signal, onResponse: (response) => rememberFor(input)?.(response.headers.get(REQUEST_ID_HEADER)),
      });
      if (body.status !== 200) throw new ApiError(body.message ?? MESSAGES.genericGraphqlError, body.status);
    }),

    /** What a copy would change, read before the operator confirms it (the AppCMS client loads on first use). */
    previewCopy: fromPromise<DiffEntry[], CopyFromDefaultInput>(async ({ input }) => {
      requireCredentials();
      const { fetchCopyPreview } = await import('./appcms-actors');
      const preview = await fetchCopyPreview(input.site, input.network);
      return preview[input.what];
    }),

    /**
     * What the network to launch lacks (issue 30): its brand, settings and device list read side by
     * side; a part the server does not have (404) counts as missing, any other failure fails the check.
     */
    checkReadiness: fromPromise<LaunchGap[], PublishNetworkInput>(async ({ input, signal }) => {
      const credentials = requireCredentials();
      const read = async (kind: 'brand' | 'settings' | 'device'): Promise<Record<string, unknown> | null> => {
        const url = `${API_PATHS.appcmsNetworkData}/${encodeURIComponent(input.site)}/${kind}/${encodeURIComponent(input.network)}`;
        const body = await request<Record<string, unknown>>(url, { headers: authHeaders(credentials), signal });
        if (body.status === 404) return null;
        if (body.status !== 200) throw new ApiError(typeof body.message === 'string' ? body.message : MESSAGES.failedToGet(kind, input.network), body.status, body);
        return networkDataOf(body);
      };
      const [brand, settings, device] = await Promise.all([read('brand'), read('settings'), read('device')]);
      return launchGapsOf({ brand, settings, device });
    }),
  };
}

export function createNetworkActors(deps: NetworkActorDeps) {
  const { client, getCredentials = readNetworkCredentials, request = apiRequest } = deps;
  const requireCredentials = credentialsRequired(getCredentials);

  return {
    // Issue 38: the lasting Undo of the last launch, withdrawal or copy, the network actor's `lastChange` child
    // (the snackbar's undo has the same I/O).
    lastChange: lastingUndoMachine.provide({ actors: { applyUndo: createUndoActors().applyUndo } }),
    /** The launch, withdrawal or copy being asked about and made, with its I/O. */
    change: networkChangeMachine.provide({ actors: createNetworkChangeActors(deps) }),
    fetchService: fromPromise<Service, FetchServiceInput>(async ({ input, signal }) => {
      requireCredentials();
      const data = await runGraphql(client, 'query', SERVICE_GET, { site: input.site }, signal);
      return data.serviceGet;
    }),

    /** Spec §5: nothing without credentials (the machine already skips the default network). */
    fetchNetworkData: fromPromise<NetworkData | null, FetchNetworkDataInput>(async ({ input, signal }) => {
      const credentials = getCredentials();
      if (!credentials) return null;
      const url = `${API_PATHS.appcmsNetworkData}/${encodeURIComponent(input.site)}/${input.kind}/${encodeURIComponent(input.network)}`;
      const body = await request<Record<string, unknown>>(url, { headers: authHeaders(credentials), signal });
      if (body.status !== 200) {
        throw new ApiError(typeof body.message === 'string' ? body.message : MESSAGES.failedToGet(input.kind, input.network), body.status, body);
      }
      return networkDataOf(body);
    }),
  };
}

export const networkActions = {
  saveSelectedNetwork: ({ context }: { context: NetworkContext }) => {
    if (context.selectedId) sessionStore.set(SESSION_STORAGE_KEYS.selectedNetwork, context.selectedId);
  },
  forgetSelectedNetwork: () => sessionStore.remove(SESSION_STORAGE_KEYS.selectedNetwork),
};

/** Everything `networkMachine.provide(...)` needs in the browser. */
export function networkImplementations(deps: NetworkActorDeps) {
  return { actors: createNetworkActors(deps), actions: networkActions };
}
