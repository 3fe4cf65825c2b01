/**
 * The content library's REST calls (spec §7.5 `content/`, `live/video`), through the one API client
 * (spec §7.7). Each resolves with the answer's data or rejects with an ApiError carrying the
 * server's message and status (409: someone else changed the item; 404: no such item here).
 */
import { API_PATHS } from '../../common/constants';
import {
  CONTENT_CREATE_MESSAGES, CONTENT_CREATE_PATHS,
  type ArtworkSlot, type ArtworkUploadResponse, type ContentBulkStatusRequest, type ContentBulkStatusResponse, type ContentCreateRequest,
  type ContentDetailResponse, type ContentFamilyResponse, type ContentListQuery, type ContentListResponse,
  type ContentUpdateRequest, type ContentUpdateResponse,
} from '../../common/content';
import { MESSAGES } from '../../common/messages';
import { REQUEST_ID_HEADER } from '../../common/revisions';
import { ApiError, apiRequest, authHeaders, type ApiResponse } from './client';

export interface ContentCredentials {
  accessToken: string;
  apiKey: string;
}

function ok<T>(body: ApiResponse<T>): T {
  if (body.status >= 200 && body.status < 300) return body;
  const message = 'message' in body ? body.message : undefined;
  throw new ApiError(typeof message === 'string' && message ? message : MESSAGES.genericGraphqlError, body.status, body);
}

/** The query string of a list request; live items go to `live/video`, the rest to `content/`. */
export function contentListUrl(query: ContentListQuery): string {
  const { mediaType, ...rest } = query;
  const params = new URLSearchParams();
  if (mediaType && mediaType !== 'live') params.set('mediaType', mediaType);
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const path = mediaType === 'live' ? API_PATHS.liveVideo : API_PATHS.content;
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export async function fetchContentList(credentials: ContentCredentials, query: ContentListQuery, signal?: AbortSignal): Promise<ContentListResponse> {
  return ok(await apiRequest<ContentListResponse>(contentListUrl(query), { headers: authHeaders(credentials), signal }));
}

export async function fetchContentItem(credentials: ContentCredentials, id: string, signal?: AbortSignal): Promise<ContentDetailResponse> {
  return ok(await apiRequest<ContentDetailResponse>(`${API_PATHS.content}/${encodeURIComponent(id)}`, { headers: authHeaders(credentials), signal }));
}

export async function updateContentItem(credentials: ContentCredentials, id: string, body: ContentUpdateRequest, signal?: AbortSignal): Promise<ContentUpdateResponse> {
  return ok(await apiRequest<ContentUpdateResponse>(`${API_PATHS.content}/${encodeURIComponent(id)}`, {
    method: 'PATCH', body, headers: authHeaders(credentials), signal,
  }));
}

/**
 * The answer, and the id the server named the request with (its x-request-id header, issue 37): the
 * change's Undo names it.
 */
export async function setContentStatus(
  credentials: ContentCredentials, body: ContentBulkStatusRequest, signal?: AbortSignal,
): Promise<ContentBulkStatusResponse & { requestId: string | null }> {
  let requestId: string | null = null;
  const answer = ok(await apiRequest<ContentBulkStatusResponse>(`${API_PATHS.content}/bulk-status`, {
    method: 'POST', body, headers: authHeaders(credentials), signal, onResponse: (response) => { requestId = response.headers.get(REQUEST_ID_HEADER); },
  }));
  return { ...answer, requestId };
}

/* ------------------------------- Create (issue 29) ------------------------------- */

export async function createContentItem(credentials: ContentCredentials, body: ContentCreateRequest, signal?: AbortSignal): Promise<ContentUpdateResponse> {
  return ok(await apiRequest<ContentUpdateResponse>(CONTENT_CREATE_PATHS.create, { method: 'POST', body, headers: authHeaders(credentials), signal }));
}

export async function fetchContentFamily(credentials: ContentCredentials, id: string, signal?: AbortSignal): Promise<ContentFamilyResponse> {
  return ok(await apiRequest<ContentFamilyResponse>(CONTENT_CREATE_PATHS.family(id), { headers: authHeaders(credentials), signal }));
}

/** Sends the file's bytes as they are (the server checks them by content); answers the stored artwork. */
export async function uploadContentArtwork(credentials: ContentCredentials, slot: ArtworkSlot, file: Blob, signal?: AbortSignal): Promise<ArtworkUploadResponse> {
  const response = await fetch(`${CONTENT_CREATE_PATHS.artwork}/${encodeURIComponent(slot)}`, {
    method: 'POST', body: file, credentials: 'same-origin', signal,
    headers: { ...authHeaders(credentials), Accept: 'application/json', 'Content-Type': file.type === 'image/webp' ? 'image/webp' : file.type === 'image/png' ? 'image/png' : 'application/octet-stream' },
  });
  const body = await response.json().catch(() => ({})) as Partial<ArtworkUploadResponse> & { message?: string };
  if (!response.ok || typeof body.url !== 'string') throw new ApiError(body.message ?? CONTENT_CREATE_MESSAGES.artworkType, response.status, body);
  return body as ArtworkUploadResponse;
}
