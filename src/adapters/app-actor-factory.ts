/**
 * Builds the root actor with the real implementation of every actor and effect the machines declare:
 * REST and GraphQL calls, cookies, storage, navigation, cross-tab broadcasts. The machines stay free of
 * DOM and fetch; this is the one place that binds them to the browser.
 */
import { createActor, type InspectionEvent, type Observer, type SnapshotFrom } from 'xstate';
import { appMachine } from '../../machines/app.machine';
import { authMachine, selectIsRestoring, selectIsSignedIn, selectSession } from '../../machines/auth.machine';
import { forgotPasswordMachine } from '../../machines/forgot-password.machine';
import { inactivityMachine } from '../../machines/inactivity.machine';
import { logoutMachine } from '../../machines/logout.machine';
import { networkMachine } from '../../machines/network.machine';
import { sessionMachine } from '../../machines/session.machine';
import type { NavigateParams } from '../../machines/auth.types';
import type { RuntimeConfig } from '../api/contract';
import { API_PATHS, AREAS, COOKIE_NAMES, ROUTES, SESSION_STORAGE_KEYS } from '../config';
import { canContinue } from '../../machines/roles';
import { onUserActivity } from './activity';
import { authActors } from './auth-actors';
import { clearAllCookies, readCookie, removeCookie } from './cookies';
import { navigateTo } from './navigation';
import { networkImplementations, readNetworkCredentials, readSavedNetworkId } from './network-actors';
import { createGraphqlClient } from '../api/graphql';
import { authHeaders } from '../api/client';
import { readCredentials, storeOtpUsername, writeSession } from './session-store';
import { localStore, sessionStore } from './storage';
import { broadcastActivity, broadcastLogout, onTabMessage } from './tabs';
import { signOutIdentityProvider } from './identity-provider';

const navigate = (_: unknown, params: NavigateParams) => navigateTo(params.to);

/** Ends the server session (best effort, survives the page leaving) before cookies go. */
function revokeServerSession(): void {
  const credentials = readCredentials();
  if (!credentials) return;
  void fetch(API_PATHS.logout, {
    method: 'POST',
    keepalive: true,
    headers: { Authorization: `Bearer ${credentials.accessToken}`, XApiKey: credentials.apiKey },
  }).catch(() => undefined);
}

/**
 * The server measures idleness too, with the same minutes (docs/security.md), but only sees requests.
 * Activity that the browser counts (mouse, keys, 'Stay signed in') is passed on with a session check at
 * most every 20 s, so a user who is busy on one page is not found idle by the server at the next call.
 */
const SERVER_KEEPALIVE_MS = 20_000;
let lastKeepalive = 0;
function keepServerSessionAlive(now: number = Date.now()): void {
  if (now - lastKeepalive < SERVER_KEEPALIVE_MS) return;
  const credentials = readCredentials();
  if (!credentials) return;
  lastKeepalive = now;
  void fetch(API_PATHS.verify, { headers: authHeaders(credentials) }).catch(() => undefined);
}

function clearSessionState(): void {
  clearAllCookies();
  localStore.clear();
  sessionStore.remove(SESSION_STORAGE_KEYS.cloudProvider);
  sessionStore.remove(SESSION_STORAGE_KEYS.selectedNetwork);
  sessionStore.remove(SESSION_STORAGE_KEYS.username);
}

export const providedAppMachine = appMachine.provide({
  actors: {
    auth: authMachine.provide({
      actors: authActors,
      actions: {
        navigate,
        storeOtpUsername: (_, params) => storeOtpUsername(params),
        storeSession: (_, params) => writeSession(params),
      },
    }),
    session: sessionMachine.provide({
      actors: { verifySession: authActors.verifySession, verifySite: authActors.verifySite },
      actions: {
        navigate,
        clearAllCookies: () => clearSessionState(),
        saveCloudProvider: (_, params) => sessionStore.set(SESSION_STORAGE_KEYS.cloudProvider, params.provider),
        removeDefaultTimezone: () => removeCookie(COOKIE_NAMES.defaultTimezone),
      },
    }),
    inactivity: inactivityMachine.provide({
      actions: {
        navigate,
        deleteAllCookies: () => {
          revokeServerSession();
          clearSessionState();
        },
        broadcastActivity: () => {
          broadcastActivity();
          keepServerSessionAlive();
        },
        broadcastLogout: () => broadcastLogout(),
      },
    }),
    logout: logoutMachine.provide({
      actors: { logout: authActors.logout },
      actions: {
        navigate,
        clearAllCookies: () => clearSessionState(),
        broadcastLogout: () => broadcastLogout(),
        signOutIdentityProvider: () => signOutIdentityProvider(),
      },
    }),
    passwordReset: forgotPasswordMachine.provide({
      actors: {
        requestPasswordOtp: authActors.requestPasswordOtp,
        generateOtp: authActors.generateOtp,
        verifyOtp: authActors.verifyOtp,
        resetPassword: authActors.resetPassword,
      },
      actions: { navigate, clearResetToken: () => undefined },
    }),
    passwordChange: forgotPasswordMachine.provide({
      actors: {
        requestPasswordOtp: authActors.requestPasswordOtp,
        generateOtp: authActors.generateOtp,
        verifyOtp: authActors.verifyOtp,
        resetPassword: authActors.resetPassword,
      },
      actions: {
        navigate,
        clearResetToken: () => undefined,
        clearSession: () => {
          clearSessionState();
          broadcastLogout();
        },
      },
    }),
    network: networkMachine.provide(networkImplementations({
      client: createGraphqlClient({
        getCredentials: readNetworkCredentials,
        onUnauthorized: () => navigateTo(ROUTES.logout),
        onForbidden: () => navigateTo(ROUTES.login),
      }),
    })),
  },
});

export function createAppActor(config: RuntimeConfig, options: { inspect?: Observer<InspectionEvent> } = {}) {
  const root = createActor(providedAppMachine, {
    input: { config, savedNetworkId: readSavedNetworkId() },
    inspect: options.inspect,
  });
  root.start();

  const inactivity = root.system.get('inactivity');
  const auth = root.system.get('auth');
  onUserActivity(() => inactivity?.send({ type: 'activity.local' }));
  onTabMessage((message) => {
    if (message.type === 'activity') inactivity?.send({ type: 'activity.remote' });
    if (message.type === 'logout') inactivity?.send({ type: 'logout.remote' });
  });

  // Relay the auth actor's outcome to the app: verify a restored session; follow the signed-in site.
  let restored = false;
  let site: string | null = null;
  auth?.subscribe((snapshot: SnapshotFrom<typeof authMachine>) => {
    if (!restored && !selectIsRestoring(snapshot)) {
      restored = true;
      root.send({
        type: 'app.sessionRestored',
        signedIn: selectIsSignedIn(snapshot),
        path: window.location.pathname,
        defaultTimezone: readCookie(COOKIE_NAMES.defaultTimezone),
      });
    }
    // Networks belong to App CMS: the server refuses them to anyone without a role there.
    const session = selectIsSignedIn(snapshot) ? selectSession(snapshot) : null;
    const nextSite = session && canContinue(session.roles, AREAS.appCms) ? session.site : null;
    if (nextSite !== site) {
      site = nextSite;
      root.send({ type: 'app.siteChanged', site });
    }
  });
  return root;
}
