/**
 * The root of the browser app's actor system (systemId `app`). It starts every parallel concern as a
 * child with a systemId, so views and other machines find them with `system.get(id)`:
 * `notifier`, `routeLoading`, `auth`, `session`, `inactivity`, `logout`, `passwordReset`,
 * `passwordChange`, `network`, `keepalive`. It relays what the router reports (path changes) and what
 * the `auth` actor reports (the end of the stored-session restore, sign-in and sign-out) to the
 * children that follow them.
 */
import { assign, enqueueActions, setup, spawnChild } from 'xstate';
import type { RuntimeConfig } from '../common/contract';
import { AREAS } from '../common/constants';
import { canContinue, canEdit } from '../common/roles';
import { authMachine, type AuthReport } from './auth.machine';
import type { Session } from './auth.types';
import { contentBrowserMachine, type ContentBrowserEvent } from './content-browser.machine';
import { forgotPasswordMachine, type ForgotPasswordEvent } from './forgot-password.machine';
import { inactivityMachine, type InactivityEvent } from './inactivity.machine';
import { keepaliveMachine } from './keepalive.machine';
import { logoutMachine } from './logout.machine';
import { networkMachine, type NetworkEvent } from './network.machine';
import { notifierMachine, type NotifierContext } from './notifier.machine';
import { routeLoadingMachine } from './route-loading.machine';
import { sessionMachine, type SessionEvent } from './session.machine';
import { tellSystemActor } from './system-actions';

export interface AppInput {
  config: RuntimeConfig;
  /** The identifier saved in session storage by an earlier network choice. */
  savedNetworkId: string | null;
  /** The path the app loaded at. */
  path: string;
  /** The raw default-timezone cookie at load (the session check removes an invalid one). */
  defaultTimezone: unknown;
}

export type AppContext = AppInput;

export type AppEvent =
  /** The router finished a navigation. */
  | { type: 'path.changed'; path: string }
  | AuthReport;

interface Relay {
  systemId: string;
  event: InactivityEvent | SessionEvent | NetworkEvent | ForgotPasswordEvent | ContentBrowserEvent;
}
type Args = { context: AppContext; event: AppEvent };

/** Networks belong to App CMS: the switcher follows the signed-in site only for someone with a role there. */
export function appCmsSiteOf(session: Session | null): string | null {
  return session && canContinue(session.roles, AREAS.appCms) ? session.site : null;
}

function pathToInactivity({ event }: Args): Relay {
  return { systemId: 'inactivity', event: { type: 'path.changed', path: event.type === 'path.changed' ? event.path : '' } };
}
/** Spec §3: the content library clears its keyword and list on every route change. */
function pathToContentBrowser({ event }: Args): Relay {
  return { systemId: 'contentBrowser', event: { type: 'path.changed', path: event.type === 'path.changed' ? event.path : '' } };
}
function sessionCheck({ context }: Args): Relay {
  return { systemId: 'session', event: { type: 'session.start', path: context.path, defaultTimezone: context.defaultTimezone } };
}
function siteToNetwork({ event }: Args): Relay {
  const session = event.type === 'auth.sessionChanged' ? event.session : null;
  return {
    systemId: 'network',
    event: { type: 'network.siteChanged', site: appCmsSiteOf(session), canWrite: session !== null && canEdit(session.roles, AREAS.appCms) },
  };
}
function accountToPasswordChange({ event }: Args): Relay {
  const session = event.type === 'auth.sessionChanged' ? event.session : null;
  return { systemId: 'passwordChange', event: { type: 'account.changed', session } };
}

/** Every child of the root by its systemId; the browser provides their I/O, tests provide fakes. */
export const APP_CHILDREN = {
  notifier: notifierMachine,
  routeLoading: routeLoadingMachine,
  auth: authMachine,
  session: sessionMachine,
  inactivity: inactivityMachine,
  logout: logoutMachine,
  passwordReset: forgotPasswordMachine,
  passwordChange: forgotPasswordMachine,
  network: networkMachine,
  contentBrowser: contentBrowserMachine,
  keepalive: keepaliveMachine,
};

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as AppContext,
    events: {} as AppEvent,
  },
  actors: APP_CHILDREN,
  actions: {
    relay: tellSystemActor,
    setPath: assign(({ event }) => (event.type === 'path.changed' ? { path: event.path } : {})),
    /**
     * An error belongs to the page it was raised on (issue 20: "OTP verification failed!" stayed on the
     * page after the right code): moving to another path takes a shown error snackbar away. Success,
     * info and warning messages (signed out, saved...) stay for their display time.
     */
    dropStaleError: enqueueActions(({ context, event, system, enqueue }) => {
      if (event.type !== 'path.changed' || event.path === context.path) return;
      const notifier = system.get('notifier');
      const shown = (notifier?.getSnapshot().context as NotifierContext | undefined)?.current;
      if (notifier && shown?.severity === 'error') enqueue.sendTo(notifier, { type: 'notify.dismiss' });
    }),
  },
  guards: {
    isSignedIn: ({ event }) => event.type === 'auth.restored' && event.signedIn,
  },
}).createMachine({
  id: 'app',
  description: 'Starts every concern of the console as a child actor and relays app-level reports to them.',
  context: ({ input }) => ({ ...input }),
  entry: [
    spawnChild('notifier', { id: 'notifier', systemId: 'notifier' }),
    spawnChild('routeLoading', { id: 'routeLoading', systemId: 'routeLoading' }),
    spawnChild('keepalive', { id: 'keepalive', systemId: 'keepalive' }),
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
    spawnChild('contentBrowser', { id: 'contentBrowser', systemId: 'contentBrowser' }),
    spawnChild('network', {
      id: 'network',
      systemId: 'network',
      input: ({ context }) => ({ site: null, savedNetworkId: context.savedNetworkId }),
    }),
    // Last: its reports (restore, sign-in) go to the children above, which must exist by then.
    spawnChild('auth', {
      id: 'auth',
      systemId: 'auth',
      input: ({ context }) => ({
        analyticsAllowedSites: context.config.analyticsAllowedSites,
        encodingDisabledSite: context.config.encodingDisabledSite,
      }),
    }),
  ],
  initial: 'running',
  states: {
    running: {
      description: 'The console is open; every child actor runs.',
      on: {
        'path.changed': { actions: ['dropStaleError', 'setPath', { type: 'relay', params: pathToInactivity }, { type: 'relay', params: pathToContentBrowser }] },
        'auth.restored': { guard: 'isSignedIn', actions: { type: 'relay', params: sessionCheck } },
        'auth.sessionChanged': {
          actions: [{ type: 'relay', params: siteToNetwork }, { type: 'relay', params: accountToPasswordChange }],
        },
      },
    },
  },
});

export type AppMachine = typeof appMachine;
