/**
 * Content availability over REST (issue 29; common/content-availability.ts):
 *
 *   GET    /v2.0/content/:id/availability       publish at, unpublish at, country groups, licences
 *   PUT    /v2.0/content/:id/availability       set them (version required)
 *   POST   /v2.0/content/bulk-status-matching   publish / unpublish every item a library filter matches
 *   GET    /v2.0/country-groups                 the site's country groups
 *   POST   /v2.0/country-groups                 create
 *   PATCH  /v2.0/country-groups/:id             edit (version required)
 *   DELETE /v2.0/country-groups/:id?version=    delete (refused while in use)
 *   GET    /v2.0/licences?contentId=            the site's licences (of one item)
 *   POST   /v2.0/licences                       create
 *   PATCH  /v2.0/licences/:id                   edit (version required)
 *   DELETE /v2.0/licences/:id?version=          delete
 *
 * An id that is not a UUID is not found (404), as in content-routes.ts.
 */
import { AVAILABILITY_MESSAGES, AVAILABILITY_PATHS, AVAILABILITY_SCHEMAS } from '../../common/content-availability';
import { OWN_MESSAGES } from '../../common/messages';
import { notFound } from '../domain/errors';
import { authContextOf, requireAuth } from './auth-hooks';
import { answers } from './response-schemas';
import './types';
import type { RoutePlugin } from './type-provider';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkedId(id: string, message: string): string {
  if (!UUID.test(id)) throw notFound(message);
  return id.toLowerCase();
}

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const num = { type: 'number' } as const;
const bool = { type: 'boolean' } as const;
const strings = { type: 'array', items: str } as const;
const object = <P extends Record<string, unknown>>(properties: P) => ({ type: 'object', properties }) as const;

const countryGroup = object({ id: str, name: str, countries: strings, version: num, usedByItems: num, usedByLicences: num });
const licence = object({ id: str, contentId: str, contentTitle: str, name: str, startsAt: str, endsAt: str, countryGroupIds: strings, version: num });
const availability = object({
  success: bool,
  availability: object({
    contentId: str, title: str, kind: str, status: str, version: num, publishAt: strOrNull, unpublishAt: strOrNull, countryGroupIds: strings, timezone: str,
  }),
  licences: { type: 'array', items: licence },
});

export const AVAILABILITY_RESPONSES = {
  availability,
  groups: object({ success: bool, groups: { type: 'array', items: countryGroup } }),
  group: object({ success: bool, group: countryGroup }),
  licences: object({ success: bool, licences: { type: 'array', items: licence } }),
  licence: object({ success: bool, licence }),
  done: object({ success: bool }),
  bulk: object({ success: bool, updated: num, message: { type: 'string' } }),
} as const;

const S = AVAILABILITY_SCHEMAS;
const M = AVAILABILITY_MESSAGES;

export const contentAvailabilityRoutes: RoutePlugin = async (app) => {
  const { contentAvailability: service } = app.services;
  app.addHook('onRequest', requireAuth);

  app.get(AVAILABILITY_PATHS.availabilityRoute, {
    schema: { params: S.idParams, response: answers({ 200: AVAILABILITY_RESPONSES.availability }) },
  }, async (request) => service.get(authContextOf(request), checkedId(request.params.id, OWN_MESSAGES.contentNotFound)));

  app.put(AVAILABILITY_PATHS.availabilityRoute, {
    schema: { params: S.idParams, body: S.availability, response: answers({ 200: AVAILABILITY_RESPONSES.availability }) },
  }, async (request) => service.set(authContextOf(request), checkedId(request.params.id, OWN_MESSAGES.contentNotFound), request.body));

  app.post(AVAILABILITY_PATHS.bulkMatching, {
    schema: { body: S.bulkMatching, response: answers({ 200: AVAILABILITY_RESPONSES.bulk }) },
  }, async (request) => service.bulkMatching(authContextOf(request), request.body));

  app.get(AVAILABILITY_PATHS.countryGroups, {
    schema: { response: answers({ 200: AVAILABILITY_RESPONSES.groups }) },
  }, async (request) => service.listGroups(authContextOf(request)));

  app.post(AVAILABILITY_PATHS.countryGroups, {
    schema: { body: S.countryGroupCreate, response: answers({ 200: AVAILABILITY_RESPONSES.group }) },
  }, async (request) => service.createGroup(authContextOf(request), request.body));

  app.patch(AVAILABILITY_PATHS.countryGroupRoute, {
    schema: { params: S.idParams, body: S.countryGroupUpdate, response: answers({ 200: AVAILABILITY_RESPONSES.group }) },
  }, async (request) => service.updateGroup(authContextOf(request), checkedId(request.params.id, M.countryGroupNotFound), request.body));

  app.delete(AVAILABILITY_PATHS.countryGroupRoute, {
    schema: { params: S.idParams, querystring: S.versionQuery, response: answers({ 200: AVAILABILITY_RESPONSES.done }) },
  }, async (request) => service.deleteGroup(authContextOf(request), checkedId(request.params.id, M.countryGroupNotFound), request.query.version));

  app.get(AVAILABILITY_PATHS.licences, {
    schema: { querystring: S.licenceQuery, response: answers({ 200: AVAILABILITY_RESPONSES.licences }) },
  }, async (request) => service.listLicences(authContextOf(request), request.query.contentId));

  app.post(AVAILABILITY_PATHS.licences, {
    schema: { body: S.licenceCreate, response: answers({ 200: AVAILABILITY_RESPONSES.licence }) },
  }, async (request) => service.createLicence(authContextOf(request), request.body));

  app.patch(AVAILABILITY_PATHS.licenceRoute, {
    schema: { params: S.idParams, body: S.licenceUpdate, response: answers({ 200: AVAILABILITY_RESPONSES.licence }) },
  }, async (request) => service.updateLicence(authContextOf(request), checkedId(request.params.id, M.licenceNotFound), request.body));

  app.delete(AVAILABILITY_PATHS.licenceRoute, {
    schema: { params: S.idParams, querystring: S.versionQuery, response: answers({ 200: AVAILABILITY_RESPONSES.done }) },
  }, async (request) => service.deleteLicence(authContextOf(request), checkedId(request.params.id, M.licenceNotFound), request.query.version));
};
