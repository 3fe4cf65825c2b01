/**
 * The item page's artwork upload with its byte progress (issue 38): the same request as Create New's upload
 * (src/api/content.ts `uploadContentArtwork`: POST the file's bytes to /v2.0/content/artwork/:slot), sent
 * with XMLHttpRequest because fetch cannot report what it has sent. Each `upload.onprogress` is told to the
 * artwork machine (`upload.progressed` with loaded/total, total 0 when the browser cannot tell); the abort
 * signal (the machine's Cancel) aborts the request.
 */
import { CONTENT_CREATE_MESSAGES, CONTENT_CREATE_PATHS, type ArtworkSlot } from '../../common/content';
import type { UploadProgressListener } from '../../machines/artwork-upload.machine';
import { ApiError, authHeaders } from '../api/client';
import type { ContentCredentials } from '../api/content';

/** The part of XMLHttpRequest the upload uses (a test hands in its own). */
export type UploadRequest = Pick<XMLHttpRequest, 'open' | 'setRequestHeader' | 'send' | 'abort' | 'status' | 'responseText'> & {
  upload: { onprogress: ((event: ProgressEvent) => void) | null };
  onload: ((event: ProgressEvent) => void) | null;
  onerror: ((event: ProgressEvent) => void) | null;
  onabort: ((event: ProgressEvent) => void) | null;
};

function contentTypeOf(file: Blob): string {
  return file.type === 'image/webp' ? 'image/webp' : file.type === 'image/png' ? 'image/png' : 'application/octet-stream';
}

function messageOf(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : undefined;
}

/** The answer's JSON, or an empty object when it is none. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export function uploadArtworkWithProgress(
  credentials: ContentCredentials,
  request: { slot: ArtworkSlot; file: Blob; progress: UploadProgressListener; signal?: AbortSignal },
  makeRequest: () => UploadRequest = () => new XMLHttpRequest(),
): Promise<{ url: string }> {
  const { slot, file, progress, signal } = request;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = makeRequest();
    xhr.open('POST', `${CONTENT_CREATE_PATHS.artwork}/${encodeURIComponent(slot)}`);
    for (const [name, value] of Object.entries({ ...authHeaders(credentials), Accept: 'application/json', 'Content-Type': contentTypeOf(file) })) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => progress.send({ type: 'upload.progressed', loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      const body = parsed(xhr.responseText);
      const url = typeof body === 'object' && body !== null && 'url' in body && typeof body.url === 'string' ? body.url : null;
      if (xhr.status >= 200 && xhr.status < 300 && url !== null) resolve({ url });
      else reject(new ApiError(messageOf(body) ?? CONTENT_CREATE_MESSAGES.artworkType, xhr.status, body));
    };
    // Unreachable server: status 0, the machine's own words.
    xhr.onerror = () => { done(); reject(new ApiError('Failed to fetch', 0)); };
    xhr.onabort = () => { done(); reject(new DOMException('The upload was cancelled.', 'AbortError')); };
    xhr.send(file);
  });
}
