/**
 * The generic API client of spec §7.7, one module for every REST call:
 * - JSON body with Content-Type application/json;
 * - the response's own `status` field is renamed `contentStatus` and `status` becomes the HTTP code;
 * - time-out of 500000 ms unless the caller gives a cancel signal;
 * - 401 sends the user to /logout, 403 to the site root (through the handler the app installs);
 * - a body that is not JSON is the error 'Invalid data'; an aborted request logs 'Request cancelled'.
 */
import { API_TIMEOUT_MS } from '../../common/constants';
import { API_MESSAGES as MESSAGES } from '../../common/messages/api';
import { isRecord } from '../../common/one-of';

export type ApiResponse<T> = T & { status: number; contentStatus?: unknown };

export class ApiError extends Error {
  constructor(message: string, readonly status: number, readonly body?: unknown) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Auth endpoints answer failures themselves; they must not bounce the user to /logout. */
  handleAuthErrors?: boolean;
  timeoutMs?: number;
  /** Sees the response before its body is read (issue 37: the x-request-id the server named the request with). */
  onResponse?: (response: Response) => void;
}

export interface AuthErrorHandler {
  onUnauthorized: () => void;
  onForbidden: () => void;
}

let authErrorHandler: AuthErrorHandler | null = null;
let fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args);
let logger: Pick<Console, 'warn' | 'error'> = console;

/** Installed once by the app (src/adapters) so the client stays free of router code. */
export function installAuthErrorHandler(handler: AuthErrorHandler | null): void {
  authErrorHandler = handler;
}

/**
 * A 401 seen by another client (the areas' urql clients) goes where the installed handler sends it:
 * the session machine, which decides what follows. Adapters never navigate on their own.
 */
export function reportUnauthorized(): void {
  authErrorHandler?.onUnauthorized();
}

/** Tests swap fetch and the logger. */
export function configureClient(options: { fetch?: typeof fetch; logger?: Pick<Console, 'warn' | 'error'> }): void {
  if (options.fetch) fetchImpl = options.fetch;
  if (options.logger) logger = options.logger;
}

/** Renames the body's own `status` to `contentStatus` and sets `status` to the HTTP code. */
export function normaliseBody<T>(body: unknown, httpStatus: number): ApiResponse<T> {
  if (!isRecord(body)) {
    return { data: body, status: httpStatus } as unknown as ApiResponse<T>;
  }
  const { status: contentStatus, ...rest } = body;
  return {
    ...rest,
    ...(contentStatus === undefined ? {} : { contentStatus }),
    status: httpStatus,
  } as ApiResponse<T>;
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === 'AbortError' || error.name === 'TimeoutError'
    : isRecord(error) && error.name === 'AbortError';
}

export async function apiRequest<T>(url: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const { method = options.body === undefined ? 'GET' : 'POST', body, headers = {}, handleAuthErrors = true } = options;
  const signal = options.signal ?? AbortSignal.timeout(options.timeoutMs ?? API_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method,
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (isAbortError(error)) {
      logger.warn(MESSAGES.requestCancelled);
      throw new ApiError(MESSAGES.requestCancelled, 0);
    }
    throw new ApiError((error instanceof Error && error.message) || 'Network error', 0);
  }

  options.onResponse?.(response);
  if (handleAuthErrors && response.status === 401) authErrorHandler?.onUnauthorized();
  if (handleAuthErrors && response.status === 403) authErrorHandler?.onForbidden();

  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    throw new ApiError(MESSAGES.invalidData, response.status);
  }
  return normaliseBody<T>(parsed, response.status);
}

/** Builds the two credential headers every authenticated call carries (spec §6, §7). */
export function authHeaders(credentials: { accessToken: string; apiKey: string }): Record<string, string> {
  return { Authorization: `Bearer ${credentials.accessToken}`, xApiKey: credentials.apiKey };
}
