/**
 * Mercurius at POST /management/graphql (spec §7.1). Queries may also come over GET (Mercurius
 * itself refuses mutations there); depth and cost are limited; introspection and GraphiQL are off in
 * production. Errors carry our messages; anything unexpected is masked as 'Something went wrong!'
 * so no stack, SQL or driver text reaches a client.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { GraphQLError, type ExecutionResult } from 'graphql';
import mercurius, { type MercuriusContext } from 'mercurius';
import { API_PATHS } from '../../src/config';
import { MESSAGES } from '../../src/messages';
import type { CopyOptions, NetworkCaller, NetworksDb } from '../domain/networks';
import { MAX_QUERY_DEPTH, validationRulesFor } from './limits';
import { managementResolvers, type ManagementContext } from './resolvers';
import { managementSchema } from './schema';
import { socialLoginResolvers, socialLoginSchema } from './social-login';
import type { SocialLogin } from '../domain/social-login';
import { networkCallerOf } from '../http/network-caller';
import '../http/types';

export interface ManagementGraphqlOptions {
  db: NetworksDb;
  /** Resolves the caller from the Authorization and API key headers; throws NetworkError('unauthenticated'). */
  authenticateCaller: (request: FastifyRequest) => Promise<NetworkCaller>;
  production: boolean;
  copyOptions?: CopyOptions;
  /** googleLogin / microsoftLogin (server/graphql/social-login.ts); omitted = not in the schema. */
  socialLogin?: SocialLogin;
}

function isOurs(error: GraphQLError): boolean {
  const original = error.originalError as (Error & { statusCode?: unknown; code?: unknown }) | undefined;
  if (!original) return true; // parse, validation and variable-coercion errors: messages are graphql's own
  if (original instanceof mercurius.ErrorWithProps) return true;
  return typeof original.code === 'string' && original.code.startsWith('MER_ERR_');
}

type FailedExecution = ExecutionResult & Required<Pick<ExecutionResult, 'errors'>>;

function maskUnexpected(execution: FailedExecution): FailedExecution {
  const errors = execution.errors.map((error) => (isOurs(error) ? error : new GraphQLError(MESSAGES.genericGraphqlError, {
    nodes: error.nodes,
    path: error.path,
    originalError: new mercurius.ErrorWithProps(MESSAGES.genericGraphqlError, { code: 'INTERNAL_SERVER_ERROR' }, 500),
  })));
  return { ...execution, errors };
}

/** Registers Mercurius on `app` with the management schema. */
export async function registerManagementGraphql(app: FastifyInstance, options: ManagementGraphqlOptions): Promise<void> {
  const { production } = options;
  const management = managementResolvers({ db: options.db, copyOptions: options.copyOptions });
  const social = options.socialLogin ? socialLoginResolvers(options.socialLogin) : undefined;
  await app.register(mercurius, {
    schema: social ? [managementSchema, socialLoginSchema] : managementSchema,
    resolvers: social ? { ...management, Mutation: { ...management.Mutation, ...social.Mutation } } : management,
    path: API_PATHS.graphql,
    graphiql: false,
    queryDepth: MAX_QUERY_DEPTH,
    validationRules: validationRulesFor(production),
    allowBatchedQueries: false,
    context: (request): ManagementContext => {
      let pending: Promise<NetworkCaller> | undefined;
      return { caller: () => (pending ??= options.authenticateCaller(request)) };
    },
    errorFormatter: (execution, context) => {
      if (!execution.errors.every(isOurs)) {
        const log = (context as Partial<MercuriusContext>).reply?.log ?? app.log;
        log.error({ errors: execution.errors.map((e) => e.originalError ?? e) }, 'management graphql failure');
      }
      return mercurius.defaultErrorFormatter(maskUnexpected(execution), context);
    },
  });
}

/** The API plugin buildApp registers (server/app.ts API_PLUGINS). */
export const managementGraphql: FastifyPluginAsync = async (app) => {
  await registerManagementGraphql(app, {
    db: app.services.db,
    authenticateCaller: networkCallerOf,
    production: app.services.config.production,
    socialLogin: app.services.socialLogin,
  });
};
