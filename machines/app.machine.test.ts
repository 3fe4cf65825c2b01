import { describe, expect, it } from 'vitest';
import { createActor, createMachine, type AnyEventObject, type AnyStateMachine } from 'xstate';
import { DEFAULT_RUNTIME_CONFIG } from '../common/runtime-config';
import { accessFlagsFor } from '../common/roles';
import { appMachine, selectAreaActorsStatus, type AppInput, type AreaActorLogic } from './app.machine';
import { fakeActor } from './test-harness/fakes';
import { notifierMachine } from './notifier.machine';
import type { Session } from './auth.types';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';

const CHILDREN = ['notifier', 'routeLoading', 'auth', 'session', 'inactivity', 'logout', 'passwordReset', 'passwordChange', 'keepalive'] as const;
/** Spawned once someone signs in, with the logic `loadAreaActors` answers (issue 26). */
const AREA_CHILDREN = ['network', 'contentBrowser'] as const;

/** The root with every child replaced by a recorder of the events it receives; the area actors' loader answers at once. */
function recordingApp() {
  const received: Record<string, AnyEventObject[]> = {};
  const inputs: Record<string, unknown> = {};
  const recorder = (name: string): AnyStateMachine => {
    received[name] = [];
    return createMachine({
      id: name,
      entry: ({ event }) => { inputs[name] = event.input; },
      on: { '*': { actions: ({ event }) => { received[name]!.push(event); } } },
    });
  };
  const actors = Object.fromEntries(CHILDREN.map((name) => [name, recorder(name)]));
  const areas: AreaActorLogic = { network: recorder('network'), contentBrowser: recorder('contentBrowser') };
  return { logic: appMachine.provide({ actors: { ...actors, loadAreaActors: fakeActor(() => areas) } }), received, inputs, areas };
}

/** Lets the area actors' loader answer. */
const loaded = () => new Promise((resolve) => setTimeout(resolve, 0));

const input: AppInput = {
  config: { ...DEFAULT_RUNTIME_CONFIG, inactivityTimeoutMinutes: 7, analyticsAllowedSites: ['a'] },
  savedNetworkId: 'net-2',
  path: '/content',
  defaultTimezone: 'UTC',
};

function sessionWith(roles: Session['roles']): Session {
  return {
    accessToken: 'tok', apiKey: 'key', site: 'viewlift-demo', username: 'ada', roles, accessFlags: accessFlagsFor(roles),
    encodingEnabled: true, profile: null,
  };
}

describe('app (root actor system)', () => {
  it('starts every concern of the sign-in path as a child with its systemId and input, the area actors not yet', () => {
    const { logic, inputs } = recordingApp();
    const app = createActor(logic, { input }).start();
    for (const name of CHILDREN) expect(app.system.get(name), name).toBeDefined();
    for (const name of AREA_CHILDREN) expect(app.system.get(name), name).toBeUndefined();
    expect(selectAreaActorsStatus(app.getSnapshot())).toBe('dormant');
    expect(inputs.inactivity).toEqual({ timeoutMinutes: 7, excludedPaths: DEFAULT_RUNTIME_CONFIG.inactivityExcludedPaths });
    expect(inputs.auth).toEqual({ analyticsAllowedSites: ['a'], encodingDisabledSite: '' });
  });

  it('loads and spawns the area actors once someone signs in (issue 26), the network actor with the saved choice and the site', async () => {
    const { logic, inputs, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'auth.sessionChanged', session: null });
    expect(selectAreaActorsStatus(app.getSnapshot())).toBe('dormant');
    app.send({ type: 'auth.sessionChanged', session: sessionWith({ 'App CMS': 'write' }) });
    expect(selectAreaActorsStatus(app.getSnapshot())).toBe('loading');
    await loaded();
    expect(selectAreaActorsStatus(app.getSnapshot())).toBe('ready');
    for (const name of AREA_CHILDREN) expect(app.system.get(name), name).toBeDefined();
    expect(inputs.network).toEqual({ site: null, savedNetworkId: 'net-2' });
    expect(received.network).toEqual([{ type: 'network.siteChanged', site: 'viewlift-demo', canWrite: true }]);
  });

  it('loads them when the signed-in shell asks (areas.load), and again after a failed load', async () => {
    const { logic } = recordingApp();
    let attempts = 0;
    const flaky = fakeActor(() => {
      attempts += 1;
      if (attempts === 1) throw new Error('chunk failed');
      return recordingApp().areas;
    });
    const app = createActor(logic.provide({ actors: { loadAreaActors: flaky } }), { input }).start();
    app.send({ type: 'areas.load' });
    await loaded();
    expect(selectAreaActorsStatus(app.getSnapshot())).toBe('failed');
    app.send({ type: 'areas.load' });
    await loaded();
    expect(selectAreaActorsStatus(app.getSnapshot())).toBe('ready');
    expect(app.system.get('network')).toBeDefined();
  });

  it('relays path changes to the inactivity timer', () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'path.changed', path: '/content' });
    expect(received.inactivity).toContainEqual({ type: 'path.changed', path: '/content' });
  });

  it('relays path changes to the content library, which clears its keyword and list (spec §3)', async () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'areas.load' });
    await loaded();
    app.send({ type: 'path.changed', path: '/analytics' });
    expect(received.contentBrowser).toEqual([{ type: 'path.changed', path: '/analytics' }]);
  });

  it('starts the session check, with the path and timezone cookie of the load, only for a restored session', () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'auth.restored', signedIn: false });
    expect(received.session).toEqual([]);
    app.send({ type: 'auth.restored', signedIn: true });
    expect(received.session).toEqual([{ type: 'session.start', path: '/content', defaultTimezone: 'UTC' }]);
  });

  it('gives the network switcher the signed-in site only for someone with an App CMS role', async () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'areas.load' });
    await loaded();
    received.network!.length = 0;
    app.send({ type: 'auth.sessionChanged', session: sessionWith({ 'App CMS': 'read' }) });
    app.send({ type: 'auth.sessionChanged', session: sessionWith({ Content: 'write' }) });
    app.send({ type: 'auth.sessionChanged', session: null });
    expect(received.network).toEqual([
      { type: 'network.siteChanged', site: 'viewlift-demo', canWrite: false },
      { type: 'network.siteChanged', site: null, canWrite: false },
      { type: 'network.siteChanged', site: null, canWrite: false },
    ]);
  });

  it('lets the network switcher offer Launch and Copy only to an App CMS role that may edit', async () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'areas.load' });
    await loaded();
    received.network!.length = 0;
    app.send({ type: 'auth.sessionChanged', session: sessionWith({ 'App CMS': 'write' }) });
    expect(received.network).toEqual([{ type: 'network.siteChanged', site: 'viewlift-demo', canWrite: true }]);
  });

  it('drops an error snackbar when the path changes, keeps other messages and errors on the same path', () => {
    const { logic } = recordingApp();
    const app = createActor(logic.provide({ actors: { notifier: notifierMachine } }), { input }).start();
    const notifier = app.system.get('notifier');
    const shown = () => notifier.getSnapshot().context.current?.message ?? null;
    notifier.send({ type: 'notify.show', message: 'OTP verification failed!', severity: 'error' });
    app.send({ type: 'path.changed', path: '/content' });
    expect(shown()).toBe('OTP verification failed!');
    app.send({ type: 'path.changed', path: '/analytics' });
    expect(shown()).toBeNull();
    notifier.send({ type: 'notify.show', message: 'Signed out.', severity: 'success' });
    app.send({ type: 'path.changed', path: '/' });
    expect(shown()).toBe('Signed out.');
    app.send({ type: 'path.changed', path: '/content' });
    expect(shown()).toBe('Signed out.');
  });

  it('tells the Change Password flow who is signed in', () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    const session = sessionWith({ Content: 'write' });
    app.send({ type: 'auth.sessionChanged', session });
    app.send({ type: 'auth.sessionChanged', session: null });
    expect(received.passwordChange).toEqual([
      { type: 'account.changed', session },
      { type: 'account.changed', session: null },
    ]);
  });
});

describe('app: every path', () => {
  const { logic, areas } = recordingApp();
  // The loaded logic is named in the path's events, not serialized (a machine does not stringify).
  for (const [name, area] of Object.entries(areas)) Object.assign(area, { toJSON: () => name });
  const events = [
    { type: 'path.changed', path: '/content' },
    { type: 'auth.restored', signedIn: true },
    { type: 'auth.restored', signedIn: false },
    { type: 'auth.sessionChanged', session: null },
    { type: 'auth.sessionChanged', session: sessionWith({ 'App CMS': 'read' }) },
    { type: 'areas.load' },
    { type: 'xstate.done.actor.loadAreaActors', output: areas },
    { type: 'xstate.error.actor.loadAreaActors', error: new Error('chunk failed') },
  ];
  // The graph walk replays transitions in one actor system, where a second spawn under the same
  // systemId throws: it explores without spawning; every path is then driven on a fresh actor that does.
  const explored = appMachine.provide({ actions: { spawnAreaActors: () => undefined } });
  itReachesEveryStateAndTransition(explored, { events, input, logic });
});
