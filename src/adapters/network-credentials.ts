/** The credentials every management call carries: the access token and management key cookies (spec §3). */
import type { GraphqlCredentials } from '../api/graphql';
import { COOKIE_NAMES, SESSION_STORAGE_KEYS } from '../../common/constants';
import { readCookie } from './cookies';
import { sessionStore } from './storage';

/** The access token and management key from their cookies, or null when either is missing. */
export function readNetworkCredentials(): GraphqlCredentials | null {
  const accessToken = readCookie(COOKIE_NAMES.accessToken);
  const apiKey = readCookie(COOKIE_NAMES.managementKey);
  return accessToken && apiKey ? { accessToken, apiKey } : null;
}

/** The network identifier saved by an earlier choice in this tab (the network machine's `savedNetworkId` input). */
export function readSavedNetworkId(): string | null {
  return sessionStore.get(SESSION_STORAGE_KEYS.selectedNetwork) || null;
}
