/**
 * The server's one error convention. Domain and route code throw a `DomainError` of a `kind` (made
 * with the constructors below); the transports translate kinds in one place each:
 * HTTP status and `{ success: false, message }` body in server/http/errors.ts, GraphQL error code
 * and status in the Mercurius errorFormatter (server/graphql/plugin.ts). Anything else thrown is a
 * bug and answers 500 'Something went wrong!'.
 *
 * A flow whose answer has a shape of its own in the spec (a login response with `success: false`)
 * returns that answer instead of throwing, as an outcome the transport gives a status (see Outcome
 * in auth-flows.ts).
 */
import { OWN_MESSAGES } from '../../common/messages';

export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'unavailable';

interface ErrorDetails {
  /** The request parameter at fault ('invalid'), for GraphQL extensions and logs. */
  param?: string;
  /** Seconds to wait ('rate_limited'): a Retry-After header and a body field. */
  retryAfterSeconds?: number;
  /** Field → message shown beside that field of a form ('invalid'): GraphQL `extensions.fields`, a REST body field. */
  fields?: Readonly<Record<string, string>>;
}

export class DomainError extends Error {
  constructor(readonly kind: ErrorKind, message: string, readonly details: ErrorDetails = {}) {
    super(message);
    this.name = 'DomainError';
  }
}

export function isDomainError(error: unknown, kind?: ErrorKind): error is DomainError {
  return error instanceof DomainError && (kind === undefined || error.kind === kind);
}

/** Bad input: name the parameter; the message defaults to "<param> is invalid"; `fields` names each field at fault. */
export const invalid = (param: string, message = `${param} is invalid`, fields?: Readonly<Record<string, string>>) =>
  new DomainError('invalid', message, fields ? { param, fields } : { param });
export const unauthorized = (message: string = OWN_MESSAGES.unauthorized) => new DomainError('unauthorized', message);
export const forbidden = (message: string = OWN_MESSAGES.forbidden) => new DomainError('forbidden', message);
export const notFound = (message: string = OWN_MESSAGES.notFound) => new DomainError('not_found', message);
/** A state conflict: a stale `version`, the default network, a duplicate. */
export const conflict = (message: string) => new DomainError('conflict', message);
export const rateLimited = (retryAfterSeconds: number, message: string = OWN_MESSAGES.tooManyAttempts) =>
  new DomainError('rate_limited', message, { retryAfterSeconds: Math.max(1, retryAfterSeconds) });
/** A dependency we cannot reach or that is not configured (SMS provider, identity provider). */
export const unavailable = (message: string) => new DomainError('unavailable', message);
