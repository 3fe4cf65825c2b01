/**
 * Builds the root actor with the real implementation of every actor and effect the machines declare:
 * REST and GraphQL calls, cookies, storage, navigation, cross-tab broadcasts. The machines stay free of
 * DOM and fetch; this is the one place that binds them to the browser. It decides nothing: every
 * rule (who gets the network switcher, when to ping the server, where a 401 leads) is in machines/.
 */
import { createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import { appMachine, type AreaActorLogic } from '../../machines/app.machine';
import { authMachine } from '../../machines/auth.machine';
import { forgotPasswordMachine } from '../../machines/forgot-password.machine';
import { inactivityMachine } from '../../machines/inactivity.machine';
import { keepaliveMachine } from '../../machines/keepalive.machine';
import { logoutMachine } from '../../machines/logout.machine';
import { otpStepMachine } from '../../machines/otp-step.machine';
import { sessionMachine } from '../../machines/session.machine';
import type { NavigateParams } from '../../machines/auth.types';
import type { RuntimeConfig } from '../../common/contract';
import { API_PATHS, COOKIE_NAMES, LOCAL_STORAGE_KEYS, SESSION_STORAGE_KEYS } from '../../common/constants';
import { onUserActivity } from './activity';
import { authActors } from './auth-actors';
import { clearAllCookies, readCookie, removeCookie } from './cookies';
import { navigateTo } from './navigation';
import { authHeaders, installAuthErrorHandler } from '../api/client';
import { readCredentials, storeOtpUsername, writeSession } from './session-store';
import { readSavedNetworkId } from './network-credentials';
import { localStore, sessionStore } from './storage';
import { broadcastActivity, broadcastLogout, onTabMessage } from './tabs';
import { signOutIdentityProvider } from './identity-provider';
import { createUndoActors } from './undo-actors';
import { notifierMachine } from '../../machines/notifier.machine';
import { undoMachine } from '../../machines/undo.machine';

const navigate = (_: unknown, params: NavigateParams) => navigateTo(params.to);

/** Ends the server session (best effort, survives the page leaving). */
function revokeServerSession(): void {
  const credentials = readCredentials();
  if (!credentials) return;
  void fetch(API_PATHS.logout, {
    method: 'POST',
    keepalive: true,
    headers: { Authorization: `Bearer ${credentials.accessToken}`, XApiKey: credentials.apiKey },
  }).catch(() => undefined);
}

/** A session check with the stored credentials: the server counts it as activity. */
function pingServer(): void {
  const credentials = readCredentials();
  if (credentials) void fetch(API_PATHS.verify, { headers: authHeaders(credentials) }).catch(() => undefined);
}

/** Every session value of spec §3 this app keeps in the browser; nothing else of the origin's storage. */
function clearSessionState(): void {
  clearAllCookies();
  for (const key of Object.values(LOCAL_STORAGE_KEYS)) localStore.remove(key);
  for (const key of Object.values(SESSION_STORAGE_KEYS)) sessionStore.remove(key);
  // The editors' drafts too; their module is the editors' code, not in the sign-in page's first load
  // (issue 39): loaded here on a sign-out (already loaded when a draft was ever kept).
  void import('./form-drafts').then((drafts) => drafts.forgetAllFormDrafts(), () => undefined);
}

/** Where the API clients report 401/403 answers: the `session` actor decides what follows. */
export interface AuthErrorReporter {
  onUnauthorized: () => void;
  onForbidden: () => void;
}

/** The module of the area actors' logic; src/main.tsx fetches it early while the sign-in page is idle. */
export const loadAreaActorLogic = () => import('./area-actors');

const otpStep = otpStepMachine.provide({ actors: { verifyOtp: authActors.verifyOtp, generateOtp: authActors.generateOtp } });

export function provideAppMachine(reportAuthError: AuthErrorReporter) {
  const passwordFlow = forgotPasswordMachine.provide({
    actors: {
      requestPasswordOtp: authActors.requestPasswordOtp,
      generateOtp: authActors.generateOtp,
      otpStep,
      resetPassword: authActors.resetPassword,
    },
    actions: {
      navigate,
      clearSession: () => {
        clearSessionState();
        broadcastLogout();
      },
    },
  });
  return appMachine.provide({
    actors: {
      notifier: notifierMachine.provide({ actors: { undo: undoMachine.provide({ actors: createUndoActors() }) } }),
      auth: authMachine.provide({
        actors: { ...authActors, otpStep },
        actions: {
          navigate,
          storeOtpUsername: (_, params) => storeOtpUsername(params),
          storeSession: (_, params) => writeSession(params),
          // The landing's data as soon as the session is stored (issue 26); its code is not in the first load.
          prefetchLanding: (_, params) => {
            void import('./landing-prefetch').then((m) => m.prefetchLandingData(params.to)).catch(() => undefined);
          },
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
          revokeServerSession: () => revokeServerSession(),
          deleteAllCookies: () => clearSessionState(),
          broadcastActivity: () => broadcastActivity(),
          broadcastLogout: () => broadcastLogout(),
        },
      }),
      keepalive: keepaliveMachine.provide({ actions: { pingServer: () => pingServer() } }),
      logout: logoutMachine.provide({
        actors: { logout: authActors.logout },
        actions: {
          navigate,
          clearAllCookies: () => clearSessionState(),
          broadcastLogout: () => broadcastLogout(),
          signOutIdentityProvider: () => signOutIdentityProvider(),
        },
      }),
      passwordReset: passwordFlow,
      passwordChange: passwordFlow,
      // The area actors' code (network, content library) is not in the first load (issue 26).
      loadAreaActors: fromPromise<AreaActorLogic>(() => loadAreaActorLogic().then((m) => m.areaActorLogic(reportAuthError))),
    },
  });
}

export function createAppActor(config: RuntimeConfig, options: { inspect?: Observer<InspectionEvent> } = {}) {
  const reportAuthError: AuthErrorReporter = {
    onUnauthorized: () => root.system.get('session')?.send({ type: 'session.unauthorized' }),
    onForbidden: () => root.system.get('session')?.send({ type: 'session.forbidden' }),
  };
  const root = createActor(provideAppMachine(reportAuthError), {
    systemId: 'app',
    input: {
      config,
      savedNetworkId: readSavedNetworkId(),
      path: window.location.pathname,
      defaultTimezone: readCookie(COOKIE_NAMES.defaultTimezone),
    },
    inspect: options.inspect,
  });
  installAuthErrorHandler(reportAuthError);
  root.start();

  const inactivity = root.system.get('inactivity');
  onUserActivity(() => inactivity?.send({ type: 'activity.local' }));
  onTabMessage((message) => {
    if (message.type === 'activity') inactivity?.send({ type: 'activity.remote' });
    if (message.type === 'logout') inactivity?.send({ type: 'logout.remote' });
  });
  return root;
}
