import { describe, expect, it } from 'vitest';
import { createActor, createMachine, type AnyEventObject } from 'xstate';
import { DEFAULT_RUNTIME_CONFIG } from '../common/runtime-config';
import { accessFlagsFor } from '../common/roles';
import { appMachine, type AppInput } from './app.machine';
import { notifierMachine } from './notifier.machine';
import type { Session } from './auth.types';
import { itReachesEveryStateAndTransition } from './test-support/every-path';

const CHILDREN = ['notifier', 'routeLoading', 'auth', 'session', 'inactivity', 'logout', 'passwordReset', 'passwordChange', 'network', 'contentBrowser', 'keepalive'] as const;

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

  it('relays path changes to the content library, which clears its keyword and list (spec §3)', () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
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

  it('gives the network switcher the signed-in site only for someone with an App CMS role', () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'auth.sessionChanged', session: sessionWith({ 'App CMS': 'read' }) });
    app.send({ type: 'auth.sessionChanged', session: sessionWith({ Content: 'write' }) });
    app.send({ type: 'auth.sessionChanged', session: null });
    expect(received.network).toEqual([
      { type: 'network.siteChanged', site: 'viewlift-demo', canWrite: false },
      { type: 'network.siteChanged', site: null, canWrite: false },
      { type: 'network.siteChanged', site: null, canWrite: false },
    ]);
  });

  it('lets the network switcher offer Launch and Copy only to an App CMS role that may edit', () => {
    const { logic, received } = recordingApp();
    const app = createActor(logic, { input }).start();
    app.send({ type: 'auth.sessionChanged', session: sessionWith({ 'App CMS': 'write' }) });
    expect(received.network).toEqual([{ type: 'network.siteChanged', site: 'viewlift-demo', canWrite: true }]);
  });

  it('drops an error snackbar when the path changes, keeps other messages and errors on the same path', () => {
    const { logic } = recordingApp();
    const app = createActor(logic.provide({ actors: { notifier: notifierMachine } as never }), { input }).start();
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
  const events = [
    { type: 'path.changed', path: '/content' },
    { type: 'auth.restored', signedIn: true },
    { type: 'auth.restored', signedIn: false },
    { type: 'auth.sessionChanged', session: null },
  ];
  itReachesEveryStateAndTransition(appMachine, { events, input, logic: recordingApp().logic });
});
