/**
 * Errors the domain throws on purpose. The HTTP error handler turns them into
 * `{ success: false, message }` (or the given body) with their status; anything else is a bug (500).
 */
import { OWN_MESSAGES } from '../../src/messages';

export class DomainError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message: string = OWN_MESSAGES.unauthorized) {
    super(401, message);
    this.name = 'UnauthorizedError';
  }
}

export class TooManyRequestsError extends DomainError {
  constructor(retryAfterSeconds: number) {
    super(429, OWN_MESSAGES.tooManyAttempts, { success: false, message: OWN_MESSAGES.tooManyAttempts, retryAfterSeconds }, {
      'retry-after': String(Math.max(1, retryAfterSeconds)),
    });
    this.name = 'TooManyRequestsError';
  }
}
