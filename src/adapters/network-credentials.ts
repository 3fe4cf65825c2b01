/** The credentials every management call carries: the access token and management key cookies (spec §3). */
import type { GraphqlCredentials } from '../api/graphql';
import { COOKIE_NAMES } from '../../common/constants';
import { readCookie } from './cookies';

/** The access token and management key from their cookies, or null when either is missing. */
export function readNetworkCredentials(): GraphqlCredentials | null {
  const accessToken = readCookie(COOKIE_NAMES.accessToken);
  const apiKey = readCookie(COOKIE_NAMES.managementKey);
  return accessToken && apiKey ? { accessToken, apiKey } : null;
}
