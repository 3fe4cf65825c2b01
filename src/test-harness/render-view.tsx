/**
 * View tests (vitest project `views`, jsdom): render one view inside the real root actor system, with
 * every I/O actor faked, and record the events the view sends.
 *
 *   const view = await renderView(<LoginPage />, { actors: { auth: { login: pendingActor() } } });
 *   await view.user.type(screen.getByLabelText('Username'), 'ada');
 *   expect(view.sentTo('auth')).toEqual([{ type: 'login.submit', username: 'ada', password: '' }]);
 *
 * Every I/O actor of every child defaults to one that never settles, except the stored-session reads of
 * `auth` (nobody signed in). A test brings a machine into the state it needs by overriding actors with
 * `fakeActor(answer)` and sending events in `given` (those events are not recorded as sent).
 */
import { cleanup, render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import {
  createMemoryHistory, createRouter, RouterProvider,
} from '@tanstack/react-router';
import { mirroredRouteTree } from './app-routes';
import { act, type ReactElement } from 'react';
import { afterEach } from 'vitest';
import { createActor, SimulatedClock, type AnyActorLogic, type AnyActorRef, type AnyStateMachine, type EventObject, type InspectionEvent } from 'xstate';
import { APP_CHILDREN, appMachine } from '../../machines/app.machine';
import { contentBrowserMachine } from '../../machines/content-browser.machine';
import { networkMachine } from '../../machines/network.machine';
import { fakeActor, pendingActor } from '../../machines/test-harness/fakes';
import type { RuntimeConfig } from '../../common/contract';
import { RootActorContext, type RootActor } from '../app-actor';
import { PageLogicContext, type PageLogicMap } from '../page-actors';

/** The area actors the root spawns once someone signs in (loaded by `loadAreaActors` in the browser). */
const AREA_MACHINES = { network: networkMachine, contentBrowser: contentBrowserMachine };
/** The children of the root whose I/O actors a test may answer: the root's own map and the area actors. */
const CHILD_MACHINES: Record<keyof typeof APP_CHILDREN | keyof typeof AREA_MACHINES, AnyStateMachine> = { ...APP_CHILDREN, ...AREA_MACHINES };

export type ChildId = keyof typeof CHILD_MACHINES;
/** Answers for the I/O actors of each child, and of the code step (`otpStep`) that auth and the password flows invoke. */
export type ActorOverrides = Partial<Record<ChildId | 'otpStep', Record<string, AnyActorLogic>>>;

export const TEST_CONFIG: RuntimeConfig = {
  inactivityTimeoutMinutes: 15,
  inactivityExcludedPaths: [],
  analyticsAllowedSites: [],
  encodingDisabledSite: '',
  gaMeasurementId: '',
  inspect: false,
  firebase: null,
};

function isMachine(logic: unknown): logic is AnyStateMachine {
  return typeof (logic as Partial<AnyStateMachine> | null)?.provide === 'function' && 'root' in (logic as object);
}

/**
 * The machine with every I/O actor pending unless overridden; child machines (the code step, the
 * sign-in's restore step) get the same treatment, and an override given for the parent reaches a
 * child that declares that actor (`auth: { readStoredSession }` answers the restore child's reader).
 */
function withFakes(machine: AnyStateMachine, id: string, all: ActorOverrides = {}, inherited: Record<string, AnyActorLogic> = {}): AnyStateMachine {
  const declared = machine.implementations.actors;
  const overrides = { ...Object.fromEntries(Object.entries(inherited).filter(([name]) => name in declared)), ...(all[id as ChildId] ?? {}) };
  const actors = Object.fromEntries(Object.entries(declared).map(([name, logic]) => [
    name, isMachine(logic) ? withFakes(logic, name, all, overrides) : pendingActor(),
  ]));
  // Nobody is signed in unless a test says otherwise.
  if ('readStoredSession' in declared) actors.readStoredSession = fakeActor(() => null);
  if ('readPendingTwoFactor' in declared) actors.readPendingTwoFactor = fakeActor(() => null);
  return machine.provide({ actors: { ...actors, ...overrides } });
}

export interface SentEvent {
  /** The systemId of the actor that received it (`auth`, `logout`, ...), or `app` for the root. */
  to: string;
  event: EventObject;
}

export interface TestRoot {
  root: RootActor;
  /** Events sent from outside the actor system (by the view) since the view was rendered. */
  sent: SentEvent[];
}

/** The real root machine with fakes for every I/O actor; records what is sent to it from outside. */
export function createTestRoot(
  options: { actors?: ActorOverrides; config?: Partial<RuntimeConfig>; clock?: SimulatedClock } = {},
): TestRoot {
  const provided: Record<string, AnyActorLogic> = Object.fromEntries(
    (Object.keys(APP_CHILDREN) as ChildId[]).map((id) => [id, withFakes(CHILD_MACHINES[id], id, options.actors)]),
  );
  // The area actors are there from the start in a view test, as they are for a signed-in user.
  const areas = { network: withFakes(networkMachine, 'network', options.actors), contentBrowser: withFakes(contentBrowserMachine, 'contentBrowser', options.actors) };
  provided.loadAreaActors = fakeActor(() => areas);
  const sent: SentEvent[] = [];
  const inspect = (event: InspectionEvent) => {
    if (event.type !== '@xstate.event' || event.sourceRef !== undefined || event.event.type.startsWith('xstate.')) return;
    const target = event.actorRef as AnyActorRef & { systemId?: string };
    const to = event.actorRef === root ? 'app' : target.systemId ?? target.id;
    sent.push({ to, event: event.event });
  };
  const root: RootActor = createActor(appMachine.provide({ actors: provided as never }), {
    systemId: 'app',
    ...(options.clock ? { clock: options.clock } : {}),
    input: { config: { ...TEST_CONFIG, ...options.config }, savedNetworkId: null, path: '/', defaultTimezone: undefined },
    inspect,
  });
  root.start();
  root.send({ type: 'areas.load' });
  sent.length = 0;
  return { root, sent };
}

export interface RenderViewOptions {
  actors?: ActorOverrides;
  config?: Partial<RuntimeConfig>;
  /** Drives every machine's timers; without it they run on real time. */
  clock?: SimulatedClock;
  /** The address the view is shown at (path and query). */
  url?: string;
  /**
   * Not needed any more: the view is shown in a mirror of the app's own routes (their ids and search
   * validators, in the route `url` matches; src/test-harness/app-routes.ts), so `getRouteApi(id)`
   * reads what the browser would. Kept so older tests that name their route still compile.
   */
  routePath?: string;
  /**
   * The page machines the view starts with `usePageActor` (src/page-actors.tsx), provided with fake I/O:
   * `{ plans: plansPageMachine.provide({ actors: { fetchPage: fromPromise(async () => page) } }) }`.
   */
  pages?: PageLogicMap;
  /** Brings the actors into the state under test before the view renders; these sends are not recorded. */
  given?: (root: RootActor) => void | Promise<void>;
}

export interface RenderedView extends RenderResult {
  root: RootActor;
  user: UserEvent;
  sent: SentEvent[];
  /** The events the view sent to one actor, by systemId. */
  sentTo: (systemId: string) => EventObject[];
  /** Where the router is now (path and search string). */
  location: () => string;
  /** A navigation the view did not start (a link elsewhere on the page, the address bar). */
  navigate: (to: string) => Promise<void>;
}

/** Lets fake actors settle and React re-render. */
export async function settle(): Promise<void> {
  await act(async () => {
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

export async function renderView(ui: ReactElement, options: RenderViewOptions = {}): Promise<RenderedView> {
  const { root, sent } = createTestRoot(options);
  await new Promise((resolve) => setTimeout(resolve, 0));
  await options.given?.(root);
  await new Promise((resolve) => setTimeout(resolve, 0));

  const routeTree = mirroredRouteTree(options.url ?? '/', ui);
  const router = createRouter({
    routeTree,
    history: createMemoryHistory({ initialEntries: [options.url ?? '/'] }),
    // A layout under test renders its <Outlet /> empty (the mirrored routes below it render only Outlets).
    defaultNotFoundComponent: () => null,
  });
  await router.load();
  sent.length = 0;
  const result = render(
    <RootActorContext.Provider value={root}>
      <PageLogicContext.Provider value={options.pages ?? {}}>
        <RouterProvider router={router} />
      </PageLogicContext.Provider>
    </RootActorContext.Provider>,
  );
  await settle();
  afterEachCleanup.push(() => root.stop());
  return {
    ...result,
    root,
    user: userEvent.setup(),
    sent,
    sentTo: (systemId) => sent.filter((entry) => entry.to === systemId).map((entry) => entry.event),
    location: () => `${router.state.location.pathname}${router.state.location.searchStr}`,
    navigate: async (to) => {
      await act(async () => { void router.navigate({ to }); });
      await settle();
    },
  };
}

const afterEachCleanup: Array<() => void> = [];
afterEach(() => {
  cleanup();
  while (afterEachCleanup.length) afterEachCleanup.pop()?.();
});
