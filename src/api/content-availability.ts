/**
 * Content availability's REST calls (issue 29; common/content-availability.ts): an item's publish
 * at / unpublish at and country groups, the country groups, the licences, and the library's "all
 * matching" bulk status. Each resolves with the answer or rejects with an ApiError carrying the
 * server's message and status.
 */
import {
  AVAILABILITY_PATHS,
  type AvailabilityRequest, type AvailabilityResponse, type BulkMatchingRequest, type BulkMatchingResponse,
  type CountryGroupCreateRequest, type CountryGroupResponse, type CountryGroupUpdateRequest, type CountryGroupsResponse,
  type LicenceCreateRequest, type LicenceResponse, type LicenceUpdateRequest, type LicencesResponse,
} from '../../common/content-availability';
import { MESSAGES } from '../../common/messages';
import { ApiError, apiRequest, authHeaders, type ApiResponse } from './client';
import type { ContentCredentials } from './content';

function ok<T>(body: ApiResponse<T>): T {
  if (body.status >= 200 && body.status < 300) return body;
  const message = 'message' in body ? body.message : undefined;
  throw new ApiError(typeof message === 'string' && message ? message : MESSAGES.genericGraphqlError, body.status, body);
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function call<T>(credentials: ContentCredentials, method: Method, url: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  return ok(await apiRequest<T>(url, { method, ...(body === undefined ? {} : { body }), headers: authHeaders(credentials), signal }));
}

export const setStatusOfMatching = (c: ContentCredentials, body: BulkMatchingRequest, signal?: AbortSignal) =>
  call<BulkMatchingResponse>(c, 'POST', AVAILABILITY_PATHS.bulkMatching, body, signal);
export const fetchAvailability = (c: ContentCredentials, id: string, signal?: AbortSignal) =>
  call<AvailabilityResponse>(c, 'GET', AVAILABILITY_PATHS.availability(encodeURIComponent(id)), undefined, signal);
export const saveAvailability = (c: ContentCredentials, id: string, body: AvailabilityRequest, signal?: AbortSignal) =>
  call<AvailabilityResponse>(c, 'PUT', AVAILABILITY_PATHS.availability(encodeURIComponent(id)), body, signal);
export const fetchCountryGroups = (c: ContentCredentials, signal?: AbortSignal) =>
  call<CountryGroupsResponse>(c, 'GET', AVAILABILITY_PATHS.countryGroups, undefined, signal);
export const createCountryGroup = (c: ContentCredentials, body: CountryGroupCreateRequest, signal?: AbortSignal) =>
  call<CountryGroupResponse>(c, 'POST', AVAILABILITY_PATHS.countryGroups, body, signal);
export const updateCountryGroup = (c: ContentCredentials, id: string, body: CountryGroupUpdateRequest, signal?: AbortSignal) =>
  call<CountryGroupResponse>(c, 'PATCH', AVAILABILITY_PATHS.countryGroup(encodeURIComponent(id)), body, signal);
export const deleteCountryGroup = (c: ContentCredentials, id: string, version: number, signal?: AbortSignal) =>
  call<{ success: true }>(c, 'DELETE', `${AVAILABILITY_PATHS.countryGroup(encodeURIComponent(id))}?version=${version}`, undefined, signal);
export const fetchLicences = (c: ContentCredentials, signal?: AbortSignal) =>
  call<LicencesResponse>(c, 'GET', AVAILABILITY_PATHS.licences, undefined, signal);
export const createLicence = (c: ContentCredentials, body: LicenceCreateRequest, signal?: AbortSignal) =>
  call<LicenceResponse>(c, 'POST', AVAILABILITY_PATHS.licences, body, signal);
export const updateLicence = (c: ContentCredentials, id: string, body: LicenceUpdateRequest, signal?: AbortSignal) =>
  call<LicenceResponse>(c, 'PATCH', AVAILABILITY_PATHS.licence(encodeURIComponent(id)), body, signal);
export const deleteLicence = (c: ContentCredentials, id: string, version: number, signal?: AbortSignal) =>
  call<{ success: true }>(c, 'DELETE', `${AVAILABILITY_PATHS.licence(encodeURIComponent(id))}?version=${version}`, undefined, signal);
