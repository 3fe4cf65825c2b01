/**
 * Resolves the caller of a network operation (GraphQL or REST) from the Authorization and API key
 * headers, through the shared authenticator; a failure is its 'unauthorized' DomainError (401 on
 * both transports).
 */
import type { FastifyRequest } from 'fastify';
import type { Roles } from '../../common/contract';
import type { NetworkCaller } from '../domain/networks';
import './types';

/** A user's roles as the network and AppCMS rules take them (area → level; an area without a level is left out). */
export function callerRoles(roles: Roles): Record<string, string> {
  const levels: Record<string, string> = {};
  for (const [area, level] of Object.entries(roles)) if (level) levels[area] = level;
  return levels;
}

export async function networkCallerOf(request: FastifyRequest): Promise<NetworkCaller> {
  const { user, site } = await request.server.services.auth.authenticate(request, { apiKey: 'required' });
  return { userId: user.id, siteId: site.id, roles: callerRoles(user.roles) };
}
