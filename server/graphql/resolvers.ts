/**
 * Resolvers of the management schema: each one authenticates the caller, then hands the arguments
 * to server/domain/networks.ts, which enforces roles, tenant isolation and the default-network rule.
 * Domain refusals (DomainError) become GraphQL errors in plugin.ts's errorFormatter.
 */
import type { NetworkCopyRequest } from '../../common/contract';
import {
  copyFromDefault, getService, publishNetwork,
  type CopyOptions, type NetworkCaller, type NetworkRepository,
} from '../domain/networks';

/** Per-request GraphQL context: the caller is resolved lazily, at most once per request. */
export interface ManagementContext {
  caller: () => Promise<NetworkCaller>;
}

declare module 'mercurius' {
  interface MercuriusContext {
    caller: ManagementContext['caller'];
  }
}

interface ResolverDeps {
  networks: NetworkRepository;
  /** Test seam: options handed to every copy (a failure injected inside the transaction). */
  copyOptions?: CopyOptions;
}

export function managementResolvers({ networks, copyOptions }: ResolverDeps) {
  return {
    Query: {
      serviceGet: async (_root: unknown, args: { site: string }, ctx: ManagementContext) =>
        getService(networks, await ctx.caller(), args.site),
    },
    Mutation: {
      networkPublish: async (_root: unknown, args: { site: string; network: string }, ctx: ManagementContext) => {
        await publishNetwork(networks, await ctx.caller(), args.site, args.network);
        return { success: true };
      },
      networkCopyFromDefault: async (_root: unknown, args: { req: NetworkCopyRequest }, ctx: ManagementContext) => {
        const network = await copyFromDefault(networks, await ctx.caller(), args.req, copyOptions);
        return { success: true, network };
      },
    },
  };
}
