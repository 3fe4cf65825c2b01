import { describe, expect, it } from 'vitest';
import { createActor, createMachine, type AnyEventObject } from 'xstate';
import { DEFAULT_RUNTIME_CONFIG } from '../src/runtime-config';
import { appMachine, type AppInput } from './app.machine';
import { itReachesEveryStateAndTransition } from './test-support/every-path';

const CHILDREN = ['notifier', 'routeLoading', 'auth', 'session', 'inactivity', 'logout', 'passwordReset', 'passwordChange', 'network'] as const;

/** The root with every child replaced by a recorder of the events it receives. */
function recordingApp() {
  const received: Record<string, AnyEventObject[]> = {};
  const inputs: Record<string, unknown> = {};
  const actors = Object.fromEntries(CHILDREN.map((name) => {
    received[name] = [];
    return [name, createMachine({
      id: name,
      entry: ({ event }) => { inputs[name] = (event as { input?: unknown }).input; },
      on: { '*': { actions: ({ event }) => { received[name]!.push(event); } } },
    })];
  }));
  return { logic: appMachine.provide({ actors: actors as never }), received, inputs };
}

const input: AppInput = { config: { ...DEFAULT_RUNTIME_CONFIG, inactivityTimeoutMinutes: 7, analyticsAllowedSites: ['a'] }, savedNetworkId: 'net-2' };

describe('app (root actor system)', () => {
  it('starts every concern as a child with its systemId and input', () => {
    const { logic, inputs } = recordingApp();
    const app = createActor(logic, { input }).start();
    for (const name of CHILDREN) expect(app.system.get(name), name).toBeDefined();
    expect(inputs.inactivity).toEqual({ timeoutMinutes: 7, excludedPaths: DEFAULT_RUNTIME_CONFIG.inactivityExcludedPaths });
    expect(inputs.auth).toEqual({ analyticsAllowedSites: ['a'], encodingDisabledSite: '' });
    expect(inputs.network).toEqual({ site: null, savedNetworkId: 'net-2' });
  });

  it('relays path changes to the inactivity timer', () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'path.changed', path: '/content' });
    expect(received.inactivity).toContainEqual({ type: 'path.changed', path: '/content' });
  });

  it('starts the session check only for a restored session', () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'app.sessionRestored', signedIn: false, path: '/content', defaultTimezone: undefined });
    expect(received.session).toEqual([]);
    app.send({ type: 'app.sessionRestored', signedIn: true, path: '/content', defaultTimezone: 'UTC' });
    expect(received.session).toEqual([{ type: 'session.start', path: '/content', defaultTimezone: 'UTC' }]);
  });

  it('tells the network switcher which site is signed in', () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'app.siteChanged', site: 'viewlift-demo' });
    app.send({ type: 'app.siteChanged', site: null });
    expect(received.network).toEqual([
      { type: 'network.siteChanged', site: 'viewlift-demo' },
      { type: 'network.siteChanged', site: null },
    ]);
  });
});

describe('app: every path', () => {
  const events = [
    { type: 'path.changed', path: '/content' },
    { type: 'app.sessionRestored', signedIn: true, path: '/content', defaultTimezone: 'UTC' },
    { type: 'app.siteChanged', site: 'viewlift-demo' },
  ];
  itReachesEveryStateAndTransition(appMachine, { events, input, logic: recordingApp().logic });
});
