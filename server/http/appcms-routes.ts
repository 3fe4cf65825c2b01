/**
 * GET /v4.0/appcms/{site}/{settings|brand|device}/{networkIdentifier} (spec §7.2): one network's
 * stored data, for callers with a role in App CMS on that same site. Failures answer
 * `{ success: false, message }` with the matching status; never a 500 for bad input.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ApiFailure } from '../../src/api/contract';
import { API_PATHS } from '../../src/config';
import { OWN_MESSAGES } from '../../src/messages';
import { isNetworkDataKind, NetworkError, readNetworkData } from '../domain/networks';
import { networkCallerOf } from './network-caller';
import './types';

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

export const appcmsRoutes: FastifyPluginAsync = async (app) => {
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
      const caller = await networkCallerOf(request);
      return await readNetworkData(app.services.db, caller, site, kind, networkIdentifier);
    } catch (error) {
      if (error instanceof NetworkError) return fail(reply, error.statusCode, error.message);
      throw error;
    }
  });
};
