/**
 * GET /v4.0/appcms/{site}/{settings|brand|device}/{networkIdentifier} (spec §7.2): one network's
 * stored data, for callers with a role in App CMS on that same site. Failures answer
 * `{ success: false, message }` with the matching status; never a 500 for bad input.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiFailure } from '../../src/api/contract';
import { API_PATHS } from '../../src/config';
import { OWN_MESSAGES } from '../../src/messages';
import { isNetworkDataKind, NetworkError, readNetworkData, type NetworkCaller, type NetworksDb } from '../domain/networks';

export interface AppcmsRoutesOptions {
  db: NetworksDb;
  authenticateCaller: (request: FastifyRequest) => Promise<NetworkCaller>;
}

interface NetworkDataParams {
  site: string;
  kind: string;
  networkIdentifier: string;
}

const segment = { type: 'string', minLength: 1, maxLength: 200 } as const;

function fail(reply: FastifyReply, status: number, message: string): ApiFailure {
  reply.code(status);
  return { success: false, message };
}

export async function appcmsRoutes(app: FastifyInstance, options: AppcmsRoutesOptions): Promise<void> {
  app.get<{ Params: NetworkDataParams }>(`${API_PATHS.appcmsNetworkData}/:site/:kind/:networkIdentifier`, {
    schema: {
      params: {
        type: 'object',
        required: ['site', 'kind', 'networkIdentifier'],
        properties: { site: segment, kind: segment, networkIdentifier: segment },
      },
    },
    attachValidation: true,
  }, async (request, reply) => {
    if (request.validationError) return fail(reply, 400, OWN_MESSAGES.badRequest);
    const { site, kind, networkIdentifier } = request.params;
    if (!isNetworkDataKind(kind)) return fail(reply, 400, OWN_MESSAGES.badRequest);
    try {
      const caller = await options.authenticateCaller(request);
      return await readNetworkData(options.db, caller, site, kind, networkIdentifier);
    } catch (error) {
      if (error instanceof NetworkError) return fail(reply, error.statusCode, error.message);
      throw error;
    }
  });
}
