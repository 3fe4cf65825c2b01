/**
 * GET /v4.0/appcms/{site}/{settings|brand|device}/{networkIdentifier} (spec §7.2): one network's
 * stored data, for callers with a role in App CMS on that same site. Refusals are DomainErrors, so
 * they answer `{ success: false, message }` with their status; never a 500 for bad input.
 */
import type { FastifyPluginAsync } from 'fastify';
import { API_PATHS } from '../../common/constants';
import { OWN_MESSAGES } from '../../common/messages';
import { createNetworkRepository } from '../db/network-repository';
import { invalid } from '../domain/errors';
import { isNetworkDataKind, readNetworkData } from '../domain/networks';
import { networkCallerOf } from './network-caller';
import './types';

interface NetworkDataParams {
  site: string;
  kind: string;
  networkIdentifier: string;
}

const segment = { type: 'string', minLength: 1, maxLength: 200 } as const;

export const appcmsRoutes: FastifyPluginAsync = async (app) => {
  const networks = createNetworkRepository(app.services.db);
  app.get<{ Params: NetworkDataParams }>(`${API_PATHS.appcmsNetworkData}/:site/:kind/:networkIdentifier`, {
    schema: {
      params: {
        type: 'object',
        required: ['site', 'kind', 'networkIdentifier'],
        properties: { site: segment, kind: segment, networkIdentifier: segment },
      },
    },
  }, async (request) => {
    const { site, kind, networkIdentifier } = request.params;
    if (!isNetworkDataKind(kind)) throw invalid('kind', OWN_MESSAGES.badRequest);
    return readNetworkData(networks, await networkCallerOf(request), site, kind, networkIdentifier);
  });
};
