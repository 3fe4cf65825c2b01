/**
 * The root of the browser app's actor system (systemId `app`). It starts every parallel concern of the
 * sign-in path as a child with a systemId, so views and other machines find them with `system.get(id)`:
 * `notifier`, `routeLoading`, `auth`, `session`, `inactivity`, `logout`, `passwordReset`,
 * `passwordChange`, `keepalive`. The area actors (`network`, `contentBrowser`) are not in the sign-in
 * page's first load (issue 26): their code is loaded (`loadAreaActors`) and they are spawned once
 * someone is signed in, or when the signed-in shell asks for them (`areas.load`). It relays what the
 * router reports (path changes) and what the `auth` actor reports (the end of the stored-session
 * restore, sign-in and sign-out) to the children that follow them.
 */
import {
  assign, enqueueActions, fromPromise, setup, spawnChild,
  type ActionFunction, type AnyActorLogic, type SnapshotFrom,
} from 'xstate';
import type { RuntimeConfig } from '../common/contract';
import { AREAS } from '../common/constants';
import { canContinue, canEdit } from '../common/roles';
import { machineTypes } from './machine-types';
import { authMachine, type AuthReport } from './auth.machine';
import type { Session } from './auth.types';
import type { ContentBrowserEvent } from './content-browser.machine';
import { forgotPasswordMachine, type ForgotPasswordEvent } from './forgot-password.machine';
import { inactivityMachine, type InactivityEvent } from './inactivity.machine';
import { keepaliveMachine } from './keepalive.machine';
import { logoutMachine } from './logout.machine';
import type { NetworkEvent } from './network.machine';
import { notifierMachine, type NotifierSnapshot } from './notifier.machine';
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

export interface AppContext extends AppInput {
  /** The last session the `auth` actor reported: the area actors start with it. */
  session: Session | null;
}

/**
 * The area actors' logic, with their I/O provided, loaded on first use (a dynamic import() in the
 * browser): `network` (the App CMS network switcher and its data), `contentBrowser` (the content library).
 */
export interface AreaActorLogic {
  network: AnyActorLogic;
  contentBrowser: AnyActorLogic;
}

export type AppEvent =
  /** The router finished a navigation. */
  | { type: 'path.changed'; path: string; search?: Record<string, unknown> }
  /** The signed-in shell or an area route needs the area actors (loaded and spawned once). */
  | { type: 'areas.load' }
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
/** Spec §3: the content library clears its keyword and list on every route change; issue 29: the address's search params come along. */
function pathToContentBrowser({ event }: Args): Relay {
  return {
    systemId: 'contentBrowser',
    event: { type: 'path.changed', path: event.type === 'path.changed' ? event.path : '', search: event.type === 'path.changed' ? event.search : undefined },
  };
}
function sessionCheck({ context }: Args): Relay {
  return { systemId: 'session', event: { type: 'session.start', path: context.path, defaultTimezone: context.defaultTimezone } };
}
function networkSite(session: Session | null): Relay {
  return {
    systemId: 'network',
    event: { type: 'network.siteChanged', site: appCmsSiteOf(session), canWrite: session !== null && canEdit(session.roles, AREAS.appCms) },
  };
}
function siteToNetwork({ event }: Args): Relay {
  return networkSite(event.type === 'auth.sessionChanged' ? event.session : null);
}
/** A network actor spawned after the sign-in follows the session kept until then. */
function keptSiteToNetwork({ context }: { context: AppContext }): Relay {
  return networkSite(context.session);
}
function accountToPasswordChange({ event }: Args): Relay {
  const session = event.type === 'auth.sessionChanged' ? event.session : null;
  return { systemId: 'passwordChange', event: { type: 'account.changed', session } };
}

/** Every child the root starts at once, by its systemId; the browser provides their I/O, tests provide fakes. */
export const APP_CHILDREN = {
  notifier: notifierMachine,
  routeLoading: routeLoadingMachine,
  auth: authMachine,
  session: sessionMachine,
  inactivity: inactivityMachine,
  logout: logoutMachine,
  passwordReset: forgotPasswordMachine,
  passwordChange: forgotPasswordMachine,
  keepalive: keepaliveMachine,
};

/** Loads the area actors' logic; the browser provides a dynamic import(), tests provide fakes. */
const loadAreaActors = fromPromise<AreaActorLogic>(() => Promise.reject(new Error('loadAreaActors is not provided')));

/**
 * Starts the area actors with the loaded logic, by their systemIds; the network actor with the saved
 * choice. Typed loosely like the shared actions (system-actions.ts): the logic is only known at run time.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const spawnAreaActors: ActionFunction<any, any, any, AreaActorLogic, any, any, any, any, any> = enqueueActions(
  ({ context, enqueue }, logic: AreaActorLogic) => {
    const { savedNetworkId }: AppContext = context;
    enqueue.spawnChild(logic.contentBrowser, { id: 'contentBrowser', systemId: 'contentBrowser' });
    enqueue.spawnChild(logic.network, { id: 'network', systemId: 'network', input: { site: null, savedNetworkId } });
  },
);

/** Where the area actors are: not needed yet, their code loading, running, or their code failed to load. */
export type AreaActorsStatus = 'dormant' | 'loading' | 'ready' | 'failed';

export const appMachine = setup({
  // The children are reached by systemId (src/app-actor.tsx), so none is named here.
  types: machineTypes<{ context: AppContext; events: AppEvent; input: AppInput }>(),
  actors: { ...APP_CHILDREN, loadAreaActors },
  actions: {
    relay: tellSystemActor,
    setPath: assign(({ event }) => (event.type === 'path.changed' ? { path: event.path } : {})),
    keepSession: assign(({ event }) => (event.type === 'auth.sessionChanged' ? { session: event.session } : {})),
    spawnAreaActors,
    /**
     * An error belongs to the page it was raised on (issue 20: "OTP verification failed!" stayed on the
     * page after the right code): moving to another path takes a shown error snackbar away. Success,
     * info and warning messages (signed out, saved...) stay for their display time.
     */
    dropStaleError: enqueueActions(({ context, event, system, enqueue }) => {
      if (event.type !== 'path.changed' || event.path === context.path) return;
      const notifier = system.get('notifier');
      const snapshot: NotifierSnapshot | undefined = notifier?.getSnapshot();
      const shown = snapshot?.context.current;
      if (notifier && shown?.severity === 'error') enqueue.sendTo(notifier, { type: 'notify.dismiss' });
    }),
  },
  guards: {
    isSignedIn: ({ event }) => event.type === 'auth.restored' && event.signedIn,
    hasSession: ({ event }) => event.type === 'auth.sessionChanged' && event.session !== null,
  },
}).createMachine({
  id: 'app',
  description: 'Starts every concern of the console as a child actor and relays app-level reports to them.',
  context: ({ input }) => ({ ...input, session: null }),
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
      type: 'parallel',
      states: {
        relays: {
          description: 'Relays the router\'s and the auth actor\'s reports to the children that follow them.',
          on: {
            'path.changed': { actions: ['dropStaleError', 'setPath', { type: 'relay', params: pathToInactivity }, { type: 'relay', params: pathToContentBrowser }] },
            'auth.restored': { guard: 'isSignedIn', actions: { type: 'relay', params: sessionCheck } },
            'auth.sessionChanged': {
              actions: ['keepSession', { type: 'relay', params: siteToNetwork }, { type: 'relay', params: accountToPasswordChange }],
            },
          },
        },
        areas: {
          description: 'The area actors (network, content library): not in the first load; spawned once someone signs in.',
          initial: 'dormant',
          states: {
            dormant: {
              description: 'Nobody has signed in yet: the area actors\' code is not loaded.',
              on: {
                'auth.sessionChanged': { guard: 'hasSession', target: 'loading' },
                'areas.load': { target: 'loading' },
              },
            },
            loading: {
              description: 'The area actors\' code is loading.',
              invoke: {
                id: 'loadAreaActors',
                src: 'loadAreaActors',
                onDone: {
                  target: 'ready',
                  actions: [{ type: 'spawnAreaActors', params: ({ event }) => event.output }, { type: 'relay', params: keptSiteToNetwork }],
                },
                onError: { target: 'failed' },
              },
            },
            ready: {
              description: 'The area actors run and follow the session like the other children.',
            },
            failed: {
              description: 'Their code did not load (offline, a new deploy): the next sign-in or request tries again.',
              on: {
                'auth.sessionChanged': { guard: 'hasSession', target: 'loading' },
                'areas.load': { target: 'loading' },
              },
            },
          },
        },
      },
    },
  },
});

/** Where the area actors are (the protected routes wait for `ready`). */
export function selectAreaActorsStatus(snapshot: SnapshotFrom<typeof appMachine>): AreaActorsStatus {
  if (snapshot.matches({ running: { areas: 'ready' } })) return 'ready';
  if (snapshot.matches({ running: { areas: 'loading' } })) return 'loading';
  return snapshot.matches({ running: { areas: 'failed' } }) ? 'failed' : 'dormant';
}

export type AppMachine = typeof appMachine;
