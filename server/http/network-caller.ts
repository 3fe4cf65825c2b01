/**
 * Resolves the caller of a network operation (GraphQL or REST) from the Authorization and API key
 * headers, through the shared authenticator; a failure is its 'unauthorized' DomainError (401 on
 * both transports).
 */
import type { FastifyRequest } from 'fastify';
import type { NetworkCaller } from '../domain/networks';
import './types';

export async function networkCallerOf(request: FastifyRequest): Promise<NetworkCaller> {
  const { user, site } = await request.server.services.auth.authenticate(request, { apiKey: 'required' });
  return { userId: user.id, siteId: site.id, roles: user.roles as Record<string, string> };
}
