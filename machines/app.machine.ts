/**
 * The root of the browser app's actor system. It starts every parallel concern as a child with a
 * systemId, so views and other machines find them with `system.get(id)`:
 * `notifier`, `routeLoading`, `auth`, `session`, `inactivity`, `logout`, `passwordReset`,
 * `passwordChange`, `network`. It also relays what the app reports (path changes, the end of the
 * stored-session restore) to the children that care.
 */
import { enqueueActions, setup, spawnChild } from 'xstate';
import type { RuntimeConfig } from '../src/api/contract';
import { authMachine } from './auth.machine';
import { forgotPasswordMachine } from './forgot-password.machine';
import { inactivityMachine, type InactivityEvent } from './inactivity.machine';
import { logoutMachine } from './logout.machine';
import { networkMachine, type NetworkEvent } from './network.machine';
import { notifierMachine } from './notifier.machine';
import { routeLoadingMachine } from './route-loading.machine';
import { sessionMachine, type SessionEvent } from './session.machine';

export interface AppInput {
  config: RuntimeConfig;
  /** The identifier saved in session storage by an earlier network choice. */
  savedNetworkId: string | null;
}

export interface AppContext {
  config: RuntimeConfig;
  savedNetworkId: string | null;
}

export type AppEvent =
  /** The router finished a navigation. */
  | { type: 'path.changed'; path: string }
  /** The stored session was restored (or not): start verifying it on a protected path. */
  | { type: 'app.sessionRestored'; signedIn: boolean; path: string; defaultTimezone: unknown }
  /** The signed-in site changed (sign-in, sign-out): the network switcher follows it. */
  | { type: 'app.siteChanged'; site: string | null };

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppContext,
    events: {} as AppEvent,
  },
  actors: {
    notifier: notifierMachine,
    routeLoading: routeLoadingMachine,
    auth: authMachine,
    session: sessionMachine,
    inactivity: inactivityMachine,
    logout: logoutMachine,
    passwordReset: forgotPasswordMachine,
    passwordChange: forgotPasswordMachine,
    network: networkMachine,
  },
  actions: {
    forwardPath: enqueueActions(({ enqueue, system, event }) => {
      if (event.type !== 'path.changed') return;
      const inactivity = system.get('inactivity');
      if (inactivity) enqueue.sendTo(inactivity, { type: 'path.changed', path: event.path } satisfies InactivityEvent as InactivityEvent);
    }),
    startSessionCheck: enqueueActions(({ enqueue, system, event }) => {
      if (event.type !== 'app.sessionRestored' || !event.signedIn) return;
      const session = system.get('session');
      if (session) enqueue.sendTo(session, { type: 'session.start', path: event.path, defaultTimezone: event.defaultTimezone } satisfies SessionEvent as SessionEvent);
    }),
    forwardSite: enqueueActions(({ enqueue, system, event }) => {
      if (event.type !== 'app.siteChanged') return;
      const network = system.get('network');
      if (network) enqueue.sendTo(network, { type: 'network.siteChanged', site: event.site } satisfies NetworkEvent as NetworkEvent);
    }),
  },
}).createMachine({
  id: 'app',
  description: 'Starts every concern of the console as a child actor and relays app-level reports to them.',
  context: ({ input }) => ({ config: input.config, savedNetworkId: input.savedNetworkId }),
  entry: [
    spawnChild('notifier', { id: 'notifier', systemId: 'notifier' }),
    spawnChild('routeLoading', { id: 'routeLoading', systemId: 'routeLoading' }),
    spawnChild('auth', {
      id: 'auth',
      systemId: 'auth',
      input: ({ context }) => ({
        analyticsAllowedSites: context.config.analyticsAllowedSites,
        encodingDisabledSite: context.config.encodingDisabledSite,
      }),
    }),
    spawnChild('session', { id: 'session', systemId: 'session' }),
    spawnChild('inactivity', {
      id: 'inactivity',
      systemId: 'inactivity',
      input: ({ context }) => ({
        timeoutMinutes: context.config.inactivityTimeoutMinutes,
        excludedPaths: context.config.inactivityExcludedPaths,
      }),
    }),
    spawnChild('logout', { id: 'logout', systemId: 'logout' }),
    spawnChild('passwordReset', { id: 'passwordReset', systemId: 'passwordReset' }),
    spawnChild('passwordChange', { id: 'passwordChange', systemId: 'passwordChange' }),
    spawnChild('network', {
      id: 'network',
      systemId: 'network',
      input: ({ context }) => ({ site: null, savedNetworkId: context.savedNetworkId }),
    }),
  ],
  initial: 'running',
  states: {
    running: {
      description: 'The console is open; every child actor runs.',
      on: {
        'path.changed': { actions: 'forwardPath' },
        'app.sessionRestored': { actions: 'startSessionCheck' },
        'app.siteChanged': { actions: 'forwardSite' },
      },
    },
  },
});

export type AppMachine = typeof appMachine;
