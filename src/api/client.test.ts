import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../common/messages';
import { ApiError, apiRequest, configureClient, installAuthErrorHandler, normaliseBody, reportUnauthorized } from './client';

function respond(status: number, body: string) {
  return vi.fn(async () => new Response(body, { status, headers: { 'Content-Type': 'application/json' } }));
}

afterEach(() => installAuthErrorHandler(null));

describe('api client (spec §7.7)', () => {
  it('renames the body status to contentStatus and sets status to the HTTP code', async () => {
    configureClient({ fetch: respond(200, JSON.stringify({ status: 'OK', data: 1 })) });
    await expect(apiRequest('/x')).resolves.toEqual({ contentStatus: 'OK', data: 1, status: 200 });
  });

  it('sends a JSON body with Content-Type application/json', async () => {
    const fetch = respond(200, '{}');
    configureClient({ fetch });
    await apiRequest('/x', { body: { a: 1 } });
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"a":1}');
  });

  it('turns a non-JSON body into "Invalid data"', async () => {
    configureClient({ fetch: respond(200, '<html>') });
    await expect(apiRequest('/x')).rejects.toThrow(MESSAGES.invalidData);
  });

  it('sends a 401 to /logout and a 403 to the site root', async () => {
    const handler = { onUnauthorized: vi.fn(), onForbidden: vi.fn() };
    installAuthErrorHandler(handler);
    configureClient({ fetch: respond(401, '{}') });
    await apiRequest('/x');
    expect(handler.onUnauthorized).toHaveBeenCalledOnce();
    configureClient({ fetch: respond(403, '{}') });
    await apiRequest('/x');
    expect(handler.onForbidden).toHaveBeenCalledOnce();
  });

  it('hands a 401 another client saw to the installed handler, and ignores it before one is installed', () => {
    reportUnauthorized();
    const handler = { onUnauthorized: vi.fn(), onForbidden: vi.fn() };
    installAuthErrorHandler(handler);
    reportUnauthorized();
    expect(handler.onUnauthorized).toHaveBeenCalledOnce();
    expect(handler.onForbidden).not.toHaveBeenCalled();
  });

  it('leaves 401 to auth endpoints that handle it themselves', async () => {
    const handler = { onUnauthorized: vi.fn(), onForbidden: vi.fn() };
    installAuthErrorHandler(handler);
    configureClient({ fetch: respond(401, '{"success":false}') });
    await expect(apiRequest('/x', { handleAuthErrors: false })).resolves.toMatchObject({ success: false, status: 401 });
    expect(handler.onUnauthorized).not.toHaveBeenCalled();
  });

  it('logs "Request cancelled" when the caller aborts', async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    configureClient({
      logger,
      fetch: vi.fn((_url: string | URL | Request, init?: RequestInit) => new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      })) as unknown as typeof fetch,
    });
    const controller = new AbortController();
    const pending = apiRequest('/x', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(ApiError);
    expect(logger.warn).toHaveBeenCalledWith(MESSAGES.requestCancelled);
  });

  it('wraps non-object bodies', () => {
    expect(normaliseBody([1, 2], 200)).toEqual({ data: [1, 2], status: 200 });
  });
});
