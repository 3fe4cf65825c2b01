import { describe, expect, it } from 'vitest';
import { CONTENT_CREATE_MESSAGES, CONTENT_CREATE_PATHS } from '../../common/content';
import type { UploadProgressEvent } from '../../machines/artwork-upload.machine';
import { uploadArtworkWithProgress, type UploadRequest } from './artwork-upload-xhr';

const CREDENTIALS = { accessToken: 'token-1', apiKey: 'key-1' };
const URL_A = `/v2.0/appcms/files/11111111-2222-4333-8444-555555555555/${'a'.repeat(64)}.png`;

/** A request that records what was asked and lets the test play the browser's part. */
function fakeRequest() {
  const calls = { opened: [] as string[], headers: {} as Record<string, string>, sent: null as unknown, aborted: false };
  const event = (over: Partial<ProgressEvent> = {}) => ({ loaded: 0, total: 0, lengthComputable: false, ...over }) as ProgressEvent;
  const request: UploadRequest = {
    status: 0, responseText: '',
    upload: { onprogress: null }, onload: null, onerror: null, onabort: null,
    open: (method: string, url: string | URL) => { calls.opened.push(`${method} ${String(url)}`); },
    setRequestHeader: (name: string, value: string) => { calls.headers[name] = value; },
    send: (body?: Document | XMLHttpRequestBodyInit | null) => { calls.sent = body; },
    abort: () => { calls.aborted = true; request.onabort?.(event()); },
  };
  const answer = (status: number, body: string) => { Object.assign(request, { status, responseText: body }); request.onload?.(event()); };
  const progress = (loaded: number, total: number, lengthComputable = true) => request.upload.onprogress?.(event({ loaded, total, lengthComputable }));
  return { request, calls, answer, progress, fail: () => request.onerror?.(event()) };
}

function listener() {
  const events: UploadProgressEvent[] = [];
  return { events, progress: { send: (e: UploadProgressEvent) => { events.push(e); } } };
}

const png = new Blob(['png'], { type: 'image/png' });

describe('the artwork upload with its progress (issue 38)', () => {
  it('POSTs the file\'s bytes to the slot with the caller\'s headers, tells each progress, and answers the stored address', async () => {
    const fake = fakeRequest();
    const told = listener();
    const done = uploadArtworkWithProgress(CREDENTIALS, { slot: 'poster', file: png, progress: told.progress }, () => fake.request);
    expect(fake.calls.opened).toEqual([`POST ${CONTENT_CREATE_PATHS.artwork}/poster`]);
    expect(fake.calls.headers).toEqual({ Authorization: 'Bearer token-1', xApiKey: 'key-1', Accept: 'application/json', 'Content-Type': 'image/png' });
    expect(fake.calls.sent).toBe(png);
    fake.progress(1, 4);
    fake.progress(2, 9, false);
    expect(told.events).toEqual([{ type: 'upload.progressed', loaded: 1, total: 4 }, { type: 'upload.progressed', loaded: 2, total: 0 }]);
    fake.answer(201, JSON.stringify({ url: URL_A, width: 240, height: 360 }));
    await expect(done).resolves.toEqual({ url: URL_A });
  });

  it('a refusal rejects with the server\'s message and status; an answer without one with the type message', async () => {
    const refused = fakeRequest();
    const first = uploadArtworkWithProgress(CREDENTIALS, { slot: 'thumbnail', file: new Blob(['x']), progress: listener().progress }, () => refused.request);
    expect(refused.calls.headers['Content-Type']).toBe('application/octet-stream');
    refused.answer(400, JSON.stringify({ message: 'Too small' }));
    await expect(first).rejects.toMatchObject({ message: 'Too small', status: 400 });
    const garbled = fakeRequest();
    const second = uploadArtworkWithProgress(CREDENTIALS, { slot: 'thumbnail', file: new Blob(['x'], { type: 'image/webp' }), progress: listener().progress }, () => garbled.request);
    expect(garbled.calls.headers['Content-Type']).toBe('image/webp');
    garbled.answer(200, 'not json');
    await expect(second).rejects.toMatchObject({ message: CONTENT_CREATE_MESSAGES.artworkType, status: 200 });
  });

  it('an unreachable server rejects with status 0', async () => {
    const fake = fakeRequest();
    const done = uploadArtworkWithProgress(CREDENTIALS, { slot: 'thumbnail', file: png, progress: listener().progress }, () => fake.request);
    fake.fail();
    await expect(done).rejects.toMatchObject({ status: 0 });
  });

  it('Cancel (the abort signal) aborts the request; an already aborted signal sends nothing', async () => {
    const fake = fakeRequest();
    const controller = new AbortController();
    const done = uploadArtworkWithProgress(CREDENTIALS, { slot: 'thumbnail', file: png, progress: listener().progress, signal: controller.signal }, () => fake.request);
    controller.abort();
    expect(fake.calls.aborted).toBe(true);
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    const unsent = fakeRequest();
    await expect(uploadArtworkWithProgress(CREDENTIALS, { slot: 'thumbnail', file: png, progress: listener().progress, signal: controller.signal }, () => unsent.request))
      .rejects.toMatchObject({ name: 'AbortError' });
    expect(unsent.calls.opened).toEqual([]);
  });
});
