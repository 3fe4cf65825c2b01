/**
 * The management GraphQL client (spec §7.1): one urql client for every GraphQL call, POST only, no
 * cache (every call reads the server's truth), with the two credential headers added in ONE place
 * (`fetchOptions`). urql parses documents with @0no-co/graphql.web: the `graphql` package stays out
 * of the browser bundle.
 *
 * urql itself is not part of the sign-in page's first load (issue 21): `createGraphqlClient` gives a
 * handle whose urql client is built on the first call, and this module's documents are strings
 * (typed) that urql parses on first use.
 */
import type { AnyVariables, Client, CombinedError, DocumentInput, TypedDocumentNode } from 'urql';
import { API_PATHS } from '../../common/constants';
import { MESSAGES } from '../../common/messages';
import { isRecord } from '../../common/one-of';
import { REQUEST_ID_HEADER } from '../../common/revisions';
import type { Network, NetworkCopyRequest, Service } from '../../common/contract';
import { authHeaders } from './client';

/** A GraphQL document kept as its text until urql loads; typed with its data and variables. */
function gql<Data, Variables extends AnyVariables>(parts: TemplateStringsArray): TypedDocumentNode<Data, Variables> {
  return parts.join('') as unknown as TypedDocumentNode<Data, Variables>;
}

/** The client handle: urql (and its client) load on the first call. */
export interface GraphqlClient {
  load(): Promise<Client>;
  /** The fetch the client calls (with its 401/403 handling); a call that reads a response header wraps it. */
  fetch?: typeof fetch;
}

export interface GraphqlCredentials {
  accessToken: string;
  apiKey: string;
}

export interface GraphqlClientOptions {
  /** Read on every request, so a new sign-in is picked up without a new client. */
  getCredentials: () => GraphqlCredentials | null;
  url?: string;
  fetch?: typeof fetch;
  /** Spec §7.7: a 401 sends the user to /logout, a 403 to the site root (installed by the app). */
  onUnauthorized?: () => void;
  onForbidden?: () => void;
}

export function createGraphqlClient(options: GraphqlClientOptions): GraphqlClient {
  const baseFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const observedFetch: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    if (response.status === 401) options.onUnauthorized?.();
    if (response.status === 403) options.onForbidden?.();
    return response;
  };
  let client: Promise<Client> | undefined;
  return {
    fetch: observedFetch,
    load: () => (client ??= import('urql').then(({ Client: UrqlClient, fetchExchange }) => new UrqlClient({
      url: options.url ?? API_PATHS.graphql,
      exchanges: [fetchExchange],
      preferGetMethod: false,
      requestPolicy: 'network-only',
      fetch: observedFetch,
      fetchOptions: () => {
        const credentials = options.getCredentials();
        return { headers: credentials ? authHeaders(credentials) : {}, credentials: 'same-origin' };
      },
    }))),
  };
}

/** A failed GraphQL call, with the message the operator should see. */
export class GraphqlCallError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly status?: number,
    /** Field name → message of an input the server refused (`extensions.fields`). */
    readonly fields: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'GraphqlCallError';
  }
}

function isJsonResponse(response: unknown): boolean {
  const type = (response as Response | undefined)?.headers?.get?.('content-type') ?? '';
  return /json/i.test(type);
}

/**
 * Our message for a urql error: the first GraphQL error's message ('Something went wrong!' when it
 * has none); a body that is not JSON is 'Invalid data' (spec §5, §8).
 */
export function toGraphqlCallError(error: CombinedError): GraphqlCallError {
  const response: { status?: number } | undefined = error.response;
  const status = response?.status;
  const [first] = error.graphQLErrors;
  if (first) {
    const code = typeof first.extensions?.code === 'string' ? first.extensions.code : undefined;
    const fields = isRecord(first.extensions?.fields)
      ? Object.fromEntries(Object.entries(first.extensions.fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : {};
    return new GraphqlCallError(first.message.trim() || MESSAGES.genericGraphqlError, code, status, fields);
  }
  if (error.networkError instanceof SyntaxError || (error.response && !isJsonResponse(error.response))) {
    return new GraphqlCallError(MESSAGES.invalidData, undefined, status);
  }
  return new GraphqlCallError(error.networkError?.message.trim() || MESSAGES.genericGraphqlError, undefined, status);
}

function abortError(): DOMException {
  return new DOMException(MESSAGES.requestCancelled, 'AbortError');
}

/**
 * Runs one operation and settles with its data. Aborting the signal tears the operation down
 * (urql then aborts the fetch) and rejects with an AbortError.
 */
export async function runGraphql<Data, Variables extends AnyVariables>(
  handle: GraphqlClient,
  kind: 'query' | 'mutation',
  document: DocumentInput<Data, Variables>,
  variables: Variables,
  signal?: AbortSignal,
  /**
   * This one call's request headers, in place of the client's.
   */
  headers?: Record<string, string>,
  /**
   * Told the id the server named this request with (its x-request-id answer header, issue 37): a
   * change that offers Undo names that id.
   */
  onRequestId?: (requestId: string | null) => void,
): Promise<Data> {
  if (signal?.aborted) throw abortError();
  const client = await handle.load();
  const baseFetch = handle.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const observed: typeof fetch | undefined = onRequestId ? async (input, init) => {
    const response = await baseFetch(input, init);
    onRequestId(response.headers.get(REQUEST_ID_HEADER));
    return response;
  } : undefined;
  return new Promise<Data>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const context = headers || observed
      ? { ...(headers ? { fetchOptions: { headers, credentials: 'same-origin' as const } } : {}), ...(observed ? { fetch: observed } : {}) }
      : undefined;
    const source = kind === 'query' ? client.query(document, variables, context) : client.mutation(document, variables, context);
    let settled = false;
    // Filled once subscribe() returns; the result may arrive before that (synchronously).
    const held: { subscription?: { unsubscribe: () => void } } = {};
    const finish = () => {
      settled = true;
      held.subscription?.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      if (settled) return;
      finish();
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort);
    held.subscription = source.subscribe((result) => {
      if (settled) return;
      finish();
      if (result.error) reject(toGraphqlCallError(result.error));
      else if (result.data === undefined || result.data === null) reject(new GraphqlCallError(MESSAGES.invalidData));
      else resolve(result.data);
    });
    if (settled) held.subscription.unsubscribe();
  });
}

export const SERVICE_GET = gql<{ serviceGet: Service }, { site: string }>`
  query serviceGet($site: String!) {
    serviceGet(site: $site) {
      id
      siteInternalName
      isLaunched
      serviceName
      serviceType
      serviceTypes
      templateName
      languageCode
      forceLogin
      isMonetizationModelEnabled
      domainName
      siteBaseUrl
      backendUrl
      networks {
        name
        identifier
        image
        isActive
        isDefault
      }
    }
  }
`;

export const NETWORK_PUBLISH = gql<{ networkPublish: { success: boolean } }, { site: string; network: string }>`
  mutation networkPublish($site: String!, $network: String!) {
    networkPublish(site: $site, network: $network) {
      success
    }
  }
`;

export const NETWORK_COPY_FROM_DEFAULT = gql<
  { networkCopyFromDefault: { success: boolean; network: Network | null } },
  { req: NetworkCopyRequest }
>`
  mutation networkCopyFromDefault($req: NetworkCopyInput!) {
    networkCopyFromDefault(req: $req) {
      success
      network {
        name
        identifier
        image
        isActive
        isDefault
      }
    }
  }
`;
