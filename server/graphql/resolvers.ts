/**
 * Resolvers of the management schema: each one authenticates the caller, then hands the arguments
 * to server/domain/networks.ts, which enforces roles, tenant isolation and the default-network rule.
 * Domain refusals become GraphQL errors carrying our message and the HTTP status they stand for.
 */
import mercurius from 'mercurius';
import type { NetworkCopyRequest } from '../../src/api/contract';
import {
  copyFromDefault, getService, NetworkError, publishNetwork,
  type CopyOptions, type NetworkCaller, type NetworksDb,
} from '../domain/networks';

const { ErrorWithProps } = mercurius;

/** Per-request GraphQL context: the caller is resolved lazily, at most once per request. */
export interface ManagementContext {
  caller: () => Promise<NetworkCaller>;
}

declare module 'mercurius' {
  interface MercuriusContext {
    caller: ManagementContext['caller'];
  }
}

const GRAPHQL_CODES: Record<NetworkError['code'], string> = {
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  'not-found': 'NOT_FOUND',
  'default-network': 'DEFAULT_NETWORK',
  'bad-input': 'BAD_USER_INPUT',
};

function toGraphqlError(error: unknown): unknown {
  if (error instanceof NetworkError) return new ErrorWithProps(error.message, { code: GRAPHQL_CODES[error.code] }, error.statusCode);
  return error;
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toGraphqlError(error);
  }
}

export interface ResolverDeps {
  db: NetworksDb;
  /** Test seam: options handed to every copy (a failure injected inside the transaction). */
  copyOptions?: CopyOptions;
}

export function managementResolvers({ db, copyOptions }: ResolverDeps) {
  return {
    Query: {
      serviceGet: (_root: unknown, args: { site: string }, ctx: ManagementContext) =>
        guarded(async () => getService(db, await ctx.caller(), args.site)),
    },
    Mutation: {
      networkPublish: (_root: unknown, args: { site: string; network: string }, ctx: ManagementContext) =>
        guarded(async () => {
          await publishNetwork(db, await ctx.caller(), args.site, args.network);
          return { success: true };
        }),
      networkCopyFromDefault: (_root: unknown, args: { req: NetworkCopyRequest }, ctx: ManagementContext) =>
        guarded(async () => {
          const network = await copyFromDefault(db, await ctx.caller(), args.req, copyOptions);
          return { success: true, network };
        }),
    },
  };
}
