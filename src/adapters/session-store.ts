/**
 * Where a signed-in session lives between page loads (spec §3): token, management key, site, device
 * id and default timezone in cookies; roles, access flags and the site profile in local storage; the
 * username between login and OTP entry in session storage. `writeSession` is the body of the auth
 * machine's `storeSession` action; `readSession` the `readStoredSession` actor.
 */
import { parseRoles, accessFlagsFor } from '../../common/roles';
import type { Session, StoreSessionParams } from '../../machines/auth.types';
import type { SiteProfile } from '../../common/contract';
import { COOKIE_NAMES, LOCAL_STORAGE_KEYS, SESSION_STORAGE_KEYS } from '../../common/constants';
import { readCookie, writeCookie } from './cookies';
import { localStore, sessionStore } from './storage';

/** A stored JSON object whose fields are still to be checked one by one. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function writeSession({ session, expiresAt }: StoreSessionParams): void {
  const expires = new Date(expiresAt);
  writeCookie(COOKIE_NAMES.accessToken, session.accessToken, expires);
  writeCookie(COOKIE_NAMES.managementKey, session.apiKey, expires);
  writeCookie(COOKIE_NAMES.site, session.site, expires);
  writeCookie(COOKIE_NAMES.username, session.username, expires);
  writeCookie(COOKIE_NAMES.roles, JSON.stringify(session.roles), expires);
  if (session.profile?.defaultTimezone) writeCookie(COOKIE_NAMES.defaultTimezone, session.profile.defaultTimezone, expires);
  localStore.set(LOCAL_STORAGE_KEYS.roles, JSON.stringify(session.roles));
  localStore.set(LOCAL_STORAGE_KEYS.accessFlags, JSON.stringify(session.accessFlags));
  localStore.set(LOCAL_STORAGE_KEYS.profile, JSON.stringify({ ...session.profile, encodingEnabled: session.encodingEnabled }));
  sessionStore.remove(SESSION_STORAGE_KEYS.username);
  sessionStore.remove(SESSION_STORAGE_KEYS.loginAttempt);
}

/** The stored session, or null without a token and key (cookies expire with the token). */
export function readSession(): Session | null {
  const accessToken = readCookie(COOKIE_NAMES.accessToken);
  const apiKey = readCookie(COOKIE_NAMES.managementKey);
  if (!accessToken || !apiKey) return null;
  const roles = parseRoles(parseJson(localStore.get(LOCAL_STORAGE_KEYS.roles)) ?? parseJson(readCookie(COOKIE_NAMES.roles) ?? null));
  const stored = parseJson(localStore.get(LOCAL_STORAGE_KEYS.profile)) as (SiteProfile & { encodingEnabled?: boolean }) | null;
  const { encodingEnabled = true, ...profile } = stored ?? {};
  return {
    accessToken,
    apiKey,
    site: readCookie(COOKIE_NAMES.site) ?? '',
    username: readCookie(COOKIE_NAMES.username) ?? '',
    roles,
    accessFlags: accessFlagsFor(roles),
    encodingEnabled,
    profile: stored ? (profile as SiteProfile) : null,
  };
}

/** How long a waiting SMS-code step survives a reload: the code's own lifetime (5 minutes). */
const PENDING_TWO_FACTOR_MS = 5 * 60_000;

/** Keeps the username (spec §3) and the masked number between login and OTP entry, for a reload. */
export function storeOtpUsername({ username, obscureMobileNumber = '', secondFactor }: { username: string; obscureMobileNumber?: string; secondFactor?: 'sms' | 'totp' }): void {
  sessionStore.set(SESSION_STORAGE_KEYS.username, JSON.stringify({ username, obscureMobileNumber, savedAt: Date.now(), ...(secondFactor ? { secondFactor } : {}) }));
}

/** The SMS-code step a reload interrupted, while its code can still be valid; null otherwise. */
export function readPendingTwoFactor(now: number = Date.now()): { username: string; obscureMobileNumber: string; secondFactor?: 'totp' } | null {
  const stored = parseJson(sessionStore.get(SESSION_STORAGE_KEYS.username));
  if (!isRecord(stored) || typeof stored.username !== 'string' || !stored.username || typeof stored.savedAt !== 'number') return null;
  if (now - stored.savedAt > PENDING_TWO_FACTOR_MS) return null;
  return {
    username: stored.username, obscureMobileNumber: typeof stored.obscureMobileNumber === 'string' ? stored.obscureMobileNumber : '',
    // The authenticator-app step (issue 19) comes back as itself after a reload.
    ...(stored.secondFactor === 'totp' ? { secondFactor: 'totp' as const } : {}),
  };
}

/**
 * The proof the server hands out with a login that needs its SMS code; a resend of that code
 * (generate/otp, isLogin) carries it. Kept for the tab, like the pending step.
 */
export function storeLoginAttempt(username: string, token: string | undefined): void {
  if (token) sessionStore.set(SESSION_STORAGE_KEYS.loginAttempt, JSON.stringify({ username: username.trim().toLowerCase(), token }));
  else sessionStore.remove(SESSION_STORAGE_KEYS.loginAttempt);
}

/** The stored proof for this username, if any. */
export function readLoginAttempt(username: string): string | undefined {
  const stored = parseJson(sessionStore.get(SESSION_STORAGE_KEYS.loginAttempt));
  if (!isRecord(stored) || typeof stored.token !== 'string' || stored.username !== username.trim().toLowerCase()) return undefined;
  return stored.token;
}

export function readCredentials(): { accessToken: string; apiKey: string } | null {
  const accessToken = readCookie(COOKIE_NAMES.accessToken);
  const apiKey = readCookie(COOKIE_NAMES.managementKey);
  return accessToken ? { accessToken, apiKey: apiKey ?? '' } : null;
}
