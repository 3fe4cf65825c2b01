/**
 * The gate in front of Mercurius (issue 25): credentials are checked and sizes capped BEFORE any
 * GraphQL document is parsed, so nobody without a session can make the server parse large documents.
 *
 * - onRequest (the body not read yet): a declared body over `maxBodyBytes` is a 413 for anyone. The
 *   credentials (Authorization + xApiKey) are checked here, once; the resolvers reuse the caller. A
 *   caller without valid credentials declaring a body over `anonymousMaxBodyBytes` is a 401.
 * - The route's own body limit is `maxBodyBytes`, so a chunked body without a length stops there too.
 * - preValidation (JSON read, GraphQL not yet parsed): signed in, a query over `maxQueryChars` is a
 *   413; without valid credentials only a document of at most `anonymousMaxQueryChars` whose every
 *   operation is a mutation selecting only googleLogin / microsoftLogin (no fragments) passes — that
 *   small document is parsed here with a token cap — and everything else is a 401.
 *
 * The caps are a few times the console's largest operation (about 1.1 KB of text, the subscriber
 * page's sign-out mutation; the social sign-in document is about 300 characters and its ID token at
 * most 8 KB, server/domain/firebase-token.ts).
 */
import { isRecord } from '../../common/one-of';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Kind, parse, type DocumentNode } from 'graphql';
import { OWN_MESSAGES } from '../../common/messages';
import { isDomainError } from '../domain/errors';
import type { NetworkCaller } from '../domain/networks';

export const GRAPHQL_LIMITS = {
  /** Any request's body (JSON: query, variables, operationName). */
  maxBodyBytes: 64 * 1024,
  /** A signed-in caller's query text. */
  maxQueryChars: 16 * 1024,
  /** The body of a request without valid credentials (the social sign-in: its ID token is at most 8 KB). */
  anonymousMaxBodyBytes: 16 * 1024,
  /** The query text of a request without valid credentials. */
  anonymousMaxQueryChars: 2 * 1024,
} as const;

/** The only root fields a caller without credentials may select (server/graphql/social-login.ts). */
const ANONYMOUS_MUTATIONS: ReadonlySet<string> = new Set(['googleLogin', 'microsoftLogin']);

/** Tokens of the small anonymous document: far above the social sign-in's ~40, far below a costly parse. */
const ANONYMOUS_MAX_TOKENS = 400;

type Authentication = { caller: NetworkCaller } | { error: unknown };

const authentications = new WeakMap<FastifyRequest, Authentication>();

function hasCredentials(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers.authorization !== undefined || headers.xapikey !== undefined || headers['x-api-key'] !== undefined;
}

function declaredLength(request: FastifyRequest): number {
  const value = Number(request.headers['content-length']);
  return Number.isFinite(value) ? value : 0;
}

function refuse(reply: FastifyReply, status: 401 | 413, message: string) {
  const code = status === 401 ? 'UNAUTHENTICATED' : 'PAYLOAD_TOO_LARGE';
  return reply.code(status).header('cache-control', 'no-store').send({ data: null, errors: [{ message, extensions: { code } }] });
}

/** A failed check that is not "no valid credentials" (a refusal of another kind, an outage): the resolvers report it. */
function isOtherFailure(outcome: Authentication | undefined): boolean {
  return outcome !== undefined && 'error' in outcome && !isDomainError(outcome.error, 'unauthorized');
}

function unauthorizedMessage(request: FastifyRequest): string {
  const outcome = authentications.get(request);
  const error = outcome && 'error' in outcome ? outcome.error : undefined;
  return isDomainError(error, 'unauthorized') ? error.message : OWN_MESSAGES.unauthorized;
}

/** Whether `query` is a small document of the social sign-in mutations only (parsed with a token cap). */
function isAnonymousDocument(query: unknown): boolean {
  if (typeof query !== 'string' || query.length > GRAPHQL_LIMITS.anonymousMaxQueryChars) return false;
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: ANONYMOUS_MAX_TOKENS, noLocation: true });
  } catch {
    return false;
  }
  return document.definitions.length > 0 && document.definitions.every((definition) =>
    definition.kind === Kind.OPERATION_DEFINITION
    && definition.operation === 'mutation'
    && definition.selectionSet.selections.length > 0
    && definition.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && ANONYMOUS_MUTATIONS.has(selection.name.value)));
}

/** Whether the request carried credentials that identified someone (their check may still refuse later). */
function identified(request: FastifyRequest): boolean {
  const outcome = authentications.get(request);
  return outcome !== undefined && ('caller' in outcome || isOtherFailure(outcome));
}

/**
 * The gate's check of this request's credentials, for the resolvers' context: the caller, or the
 * check's error again; undefined when the gate did not check (no credential header).
 */
export function gatedCaller(request: FastifyRequest): Promise<NetworkCaller> | undefined {
  const outcome = authentications.get(request);
  if (!outcome) return undefined;
  return 'caller' in outcome ? Promise.resolve(outcome.caller) : Promise.reject(outcome.error);
}

/** Installs the gate on the GraphQL plugin's scope; call before registering Mercurius. */
export function installGraphqlGate(app: FastifyInstance, authenticate: (request: FastifyRequest) => Promise<NetworkCaller>): void {
  app.addHook('onRoute', (route) => {
    route.bodyLimit = GRAPHQL_LIMITS.maxBodyBytes;
  });

  app.addHook('onRequest', async (request, reply) => {
    const length = declaredLength(request);
    if (length > GRAPHQL_LIMITS.maxBodyBytes) return refuse(reply, 413, OWN_MESSAGES.graphqlTooLarge);
    if (hasCredentials(request)) {
      try {
        authentications.set(request, { caller: await authenticate(request) });
      } catch (error) {
        authentications.set(request, { error });
      }
    }
    if (!identified(request) && length > GRAPHQL_LIMITS.anonymousMaxBodyBytes) return refuse(reply, 401, unauthorizedMessage(request));
    return undefined;
  });

  app.addHook('preValidation', async (request, reply) => {
    if (reply.sent) return undefined;
    const sent = request.method === 'GET' ? request.query : request.body;
    const query = isRecord(sent) ? sent.query : undefined;
    if (identified(request)) {
      if (typeof query === 'string' && query.length > GRAPHQL_LIMITS.maxQueryChars) return refuse(reply, 413, OWN_MESSAGES.graphqlTooLarge);
      return undefined;
    }
    if (!isAnonymousDocument(query)) return refuse(reply, 401, unauthorizedMessage(request));
    return undefined;
  });
}
