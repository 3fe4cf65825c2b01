/**
 * Resolves the caller of a network operation (GraphQL or REST) from the Authorization and API key
 * headers, through the shared authenticator. A failed authentication is the domain's
 * 'unauthenticated' error, so both transports answer it the same way (401).
 */
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../domain/errors';
import { NetworkError, type NetworkCaller } from '../domain/networks';
import './types';

export async function networkCallerOf(request: FastifyRequest): Promise<NetworkCaller> {
  try {
    const { user, site } = await request.server.services.auth.authenticate(request, { apiKey: 'required' });
    return { userId: user.id, siteId: site.id, roles: user.roles as Record<string, string> };
  } catch (error) {
    if (error instanceof UnauthorizedError) throw new NetworkError('unauthenticated', error.message);
    throw error;
  }
}
