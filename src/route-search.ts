/**
 * The search params of the public routes, validated by the router (`validateSearch`): views and route
 * hooks get typed values, never raw query strings.
 */
import type { LogoutReason } from '../machines/logout.machine';

export interface LogoutSearch {
  /** 'inactivity' when the inactivity timer sent the user here. */
  reason?: LogoutReason;
}
export interface TokenSearch {
  /** The single-use reset token of the password flows. */
  token?: string;
}
export interface VerifySearch {
  /** true: the code step of the forgot-password flow; else of sign-in. */
  forgot?: boolean;
}

export function validateLogoutSearch(search: Record<string, unknown>): LogoutSearch {
  return search.reason === 'inactivity' ? { reason: 'inactivity' } : {};
}

export function validateTokenSearch(search: Record<string, unknown>): TokenSearch {
  // The router parses query values as JSON where it can: a numeric-looking token arrives as a number.
  const token = typeof search.token === 'number' ? String(search.token) : search.token;
  return typeof token === 'string' && token !== '' ? { token } : {};
}

export function validateVerifySearch(search: Record<string, unknown>): VerifySearch {
  return search.forgot === true || search.forgot === 'true' ? { forgot: true } : {};
}
