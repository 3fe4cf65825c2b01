/**
 * Mercurius at POST /management/graphql (spec §7.1). Queries may also come over GET (Mercurius
 * itself refuses mutations there); depth and cost are limited; introspection and GraphiQL are off in
 * production. A DomainError becomes a GraphQL error here, and only here (GRAPHQL_CODES, with the
 * HTTP status of server/http/errors.ts); anything unexpected is masked as 'Something went wrong!'
 * so no stack, SQL or driver text reaches a client.
 */
import { isRecord } from '../../common/one-of';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { GraphQLError, type ExecutionResult } from 'graphql';
import mercurius, { type MercuriusContext } from 'mercurius';
import { API_PATHS } from '../../common/constants';
import { MESSAGES, OWN_MESSAGES } from '../../common/messages';
import { DomainError, type ErrorKind } from '../domain/errors';
import type { Monetization } from '../domain/monetization';
import type { CopyOptions, NetworkCaller, NetworkRepository } from '../domain/networks';
import { gatedCaller, installGraphqlGate } from './gate';
import { MAX_QUERY_DEPTH, validationRulesFor } from './limits';
import { managementResolvers, type ManagementContext } from './resolvers';
import { managementSchema } from './schema';
import { socialLoginResolvers, socialLoginSchema } from './social-login';
import { monetizationResolvers, monetizationSchema } from './monetization';
import { supportResolvers, supportSchema } from './support';
import type { SupportDeps } from '../domain/support';
import type { SocialLogin } from '../domain/social-login';
import { HTTP_STATUS } from '../http/errors';
import { networkCallerOf } from '../http/network-caller';
import '../http/types';

interface ManagementGraphqlOptions {
  networks: NetworkRepository;
  monetization: Monetization;
  /** Resolves the caller from the Authorization and API key headers; throws an 'unauthorized' DomainError. */
  authenticateCaller: (request: FastifyRequest) => Promise<NetworkCaller>;
  production: boolean;
  copyOptions?: CopyOptions;
  /** googleLogin / microsoftLogin (server/graphql/social-login.ts); omitted = not in the schema. */
  socialLogin?: SocialLogin;
  /** Customer Support's search, subscriber page and actions (server/graphql/support.ts); omitted = not in the schema. */
  support?: SupportDeps;
}

/** The `extensions.code` of each domain error kind. */
export const GRAPHQL_CODES: Readonly<Record<ErrorKind, string>> = {
  invalid: 'BAD_USER_INPUT',
  unauthorized: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  rate_limited: 'TOO_MANY_REQUESTS',
  unavailable: 'SERVICE_UNAVAILABLE',
};

/** Fastify's own client errors (unsupported Content-Type, malformed JSON, body too large): a 4xx, never masked. */
/** A field Fastify and Mercurius put on their errors (`code`, `statusCode`), unknown until checked. */
function fieldOf(error: Error, name: 'code' | 'statusCode'): unknown {
  return Reflect.get(error, name);
}

function clientErrorOf(error: GraphQLError): { status: number; message: string } | undefined {
  const original = error.originalError;
  const code = original ? fieldOf(original, 'code') : undefined;
  if (!original || typeof code !== 'string' || !code.startsWith('FST_')) return undefined;
  const statusCode = fieldOf(original, 'statusCode');
  const status = typeof statusCode === 'number' ? statusCode : 0;
  if (status < 400 || status >= 500) return undefined;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status, message: OWN_MESSAGES.graphqlTooLarge };
  return { status, message: code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? `${OWN_MESSAGES.badRequest} The body is not valid JSON.` : original.message };
}

function isOurs(error: GraphQLError): boolean {
  const original = error.originalError;
  if (!original) return true; // parse, validation and variable-coercion errors: messages are graphql's own
  if (original instanceof DomainError || original instanceof mercurius.ErrorWithProps || clientErrorOf(error)) return true;
  const code = fieldOf(original, 'code');
  return typeof code === 'string' && code.startsWith('MER_ERR_');
}

type FailedExecution = ExecutionResult & Required<Pick<ExecutionResult, 'errors'>>;

function replaced(error: GraphQLError, message: string, extensions: Record<string, unknown>, status: number): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    path: error.path,
    extensions,
    // Mercurius answers a lone error with its originalError's statusCode.
    originalError: new mercurius.ErrorWithProps(message, extensions, status),
  });
}

function translate(execution: FailedExecution): FailedExecution {
  const errors = execution.errors.map((error) => {
    const original = error.originalError;
    if (original instanceof DomainError) {
      const { param, retryAfterSeconds, fields } = original.details;
      const extensions = {
        code: GRAPHQL_CODES[original.kind],
        ...(param !== undefined ? { param } : {}),
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        ...(fields !== undefined ? { fields } : {}),
      };
      return replaced(error, original.message, extensions, HTTP_STATUS[original.kind]);
    }
    const client = clientErrorOf(error);
    if (client) return replaced(error, client.message, { code: 'BAD_REQUEST' }, client.status);
    return isOurs(error) ? error : replaced(error, MESSAGES.genericGraphqlError, { code: 'INTERNAL_SERVER_ERROR' }, 500);
  });
  return { ...execution, errors };
}

/**
 * Mercurius treats a `query` that is not valid GraphQL but is valid JSON as a ready-made syntax tree
 * and executes it. No GraphQL document is valid JSON, so such a query is refused before it gets there.
 */
function isJsonText(text: string): boolean {
  // JSON text can only start (after JSON's whitespace) with one of these; anything else would throw
  // in JSON.parse, and throwing on every ordinary query cost ~3 % of serviceGet's CPU (issue 21).
  if (!/^[ \t\n\r]*[{["\-0-9tfn]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** True for JSON text of an object (not an array, a string, a number, true / false or null). */
function isJsonObjectText(text: string): boolean {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Registers Mercurius on `app` with the management schema. */
async function registerManagementGraphql(app: FastifyInstance, options: ManagementGraphqlOptions): Promise<void> {
  const { production } = options;
  // Credentials and sizes before anything is parsed (issue 25): server/graphql/gate.ts.
  installGraphqlGate(app, options.authenticateCaller);
  app.addHook('preValidation', async (request, reply) => {
    if (reply.sent) return;
    const sent = request.method === 'GET' ? request.query : request.body;
    const query = isRecord(sent) ? sent.query : undefined;
    if (typeof query === 'string' && isJsonText(query)) {
      await reply.code(400).send({ data: null, errors: [{ message: 'query must be a GraphQL document', extensions: { code: 'BAD_USER_INPUT' } }] });
      return;
    }
    // GET ?variables= is parsed by Mercurius and handed to graphql as is: JSON that is not an object threw there (a 500).
    const variables = request.method === 'GET' && isRecord(request.query) ? request.query.variables : undefined;
    if (typeof variables === 'string' && isJsonText(variables) && !isJsonObjectText(variables)) {
      await reply.code(400).send({ data: null, errors: [{ message: OWN_MESSAGES.graphqlVariablesNotObject, extensions: { code: 'BAD_USER_INPUT' } }] });
    }
  });
  const management = managementResolvers({ networks: options.networks, copyOptions: options.copyOptions });
  const social = options.socialLogin ? socialLoginResolvers(options.socialLogin) : undefined;
  const monetization = monetizationResolvers(options.monetization);
  const support = options.support ? supportResolvers(options.support) : undefined;
  await app.register(mercurius, {
    schema: [managementSchema, monetizationSchema, ...(social ? [socialLoginSchema] : []), ...(support ? [supportSchema] : [])],
    resolvers: {
      ...management,
      ...monetization,
      Query: { ...management.Query, ...monetization.Query, ...support?.Query },
      Mutation: { ...management.Mutation, ...monetization.Mutation, ...social?.Mutation, ...support?.Mutation },
    },
    path: API_PATHS.graphql,
    graphiql: false,
    queryDepth: MAX_QUERY_DEPTH,
    validationRules: validationRulesFor(production),
    allowBatchedQueries: false,
    context: (request): ManagementContext => {
      let pending: Promise<NetworkCaller> | undefined;
      return { caller: () => (pending ??= gatedCaller(request) ?? options.authenticateCaller(request)) };
    },
    errorFormatter: (execution, context) => {
      if (!execution.errors.every(isOurs)) {
        const log = (context as Partial<MercuriusContext>).reply?.log ?? app.log;
        log.error({ errors: execution.errors.map((e) => e.originalError ?? e) }, 'management graphql failure');
      }
      return mercurius.defaultErrorFormatter(translate(execution), context);
    },
  });
}

/** The API plugin buildApp registers (server/app.ts API_PLUGINS). */
export const managementGraphql: FastifyPluginAsync = async (app) => {
  await registerManagementGraphql(app, {
    networks: app.services.networks,
    monetization: app.services.monetization,
    authenticateCaller: networkCallerOf,
    production: app.services.config.production,
    socialLogin: app.services.socialLogin,
    support: app.services.support,
  });
};
