import { describe, expect, it, vi } from 'vitest';
import { waitFor, type AnyActorLogic } from 'xstate';
import { OWN_MESSAGES } from '../common/messages';
import { logoutMachine, selectIsConfirming, selectIsLoggingOut } from './logout.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { startInSystem } from './test-harness/system';

const LEAVE_ORDER = ['clearAllCookies', 'signOutIdentityProvider', 'broadcastLogout', 'navigate'];

function start(logout: AnyActorLogic = fakeActor(async () => undefined)) {
  const calls: string[] = [];
  const spies = { navigate: vi.fn() };
  const machine = logoutMachine.provide({
    actors: { logout },
    actions: {
      clearAllCookies: () => { calls.push('clearAllCookies'); },
      signOutIdentityProvider: () => { calls.push('signOutIdentityProvider'); },
      broadcastLogout: () => { calls.push('broadcastLogout'); },
      navigate: (_, params) => { calls.push('navigate'); spies.navigate(params); },
    },
  });
  const { actor, sentTo } = startInSystem(machine, { systemId: 'logout' });
  const notified = () => sentTo('notifier').map(({ type: _type, ...params }) => params);
  return { actor, calls, spies, sentTo, notified };
}

describe('logout', () => {
  it('asks for confirmation first and does nothing on Cancel', () => {
    const { actor, calls } = start();
    actor.send({ type: 'logout.request' });
    expect(selectIsConfirming(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'logout.cancel' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(calls).toEqual([]);
  });

  it("on 'Yes, Logout' calls the server, clears cookies, signs out everywhere and goes to /", async () => {
    const { actor, calls, spies, sentTo, notified } = start();
    actor.send({ type: 'logout.request' });
    actor.send({ type: 'logout.confirm' });
    expect(selectIsLoggingOut(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(calls).toEqual(LEAVE_ORDER);
    expect(sentTo('auth')).toEqual([{ type: 'auth.signedOut' }]);
    expect(spies.navigate).toHaveBeenCalledWith({ to: '/' });
    expect(notified()).toContainEqual({ message: OWN_MESSAGES.loggedOut, severity: 'success' });
  });

  it('says the session ended (not "logged out") when the inactivity timer sent the user to /logout', async () => {
    const { actor, calls, notified } = start();
    actor.send({ type: 'logout.now', reason: 'inactivity' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(calls).toEqual(LEAVE_ORDER);
    expect(notified()).toContainEqual({ message: OWN_MESSAGES.sessionExpired, severity: 'info' });
  });

  it('shows the error message and still clears cookies when the server call fails', async () => {
    const { actor, calls, notified } = start(fakeActor(async () => { throw new Error('Logout failed at the server'); }));
    actor.send({ type: 'logout.now' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(notified()).toContainEqual({ message: 'Logout failed at the server', severity: 'error' });
    expect(calls).toEqual(LEAVE_ORDER);
  });

  it('logs out at once on logout.now, also from the confirmation dialog', () => {
    const { actor } = start(pendingActor());
    actor.send({ type: 'logout.now' });
    expect(selectIsLoggingOut(actor.getSnapshot())).toBe(true);
    const other = start(pendingActor());
    other.actor.send({ type: 'logout.request' });
    other.actor.send({ type: 'logout.now' });
    expect(selectIsLoggingOut(other.actor.getSnapshot())).toBe(true);
  });
});

describe('logout machine: every path', () => {
  const events = [
    { type: 'logout.request' }, { type: 'logout.cancel' }, { type: 'logout.confirm' }, { type: 'logout.now' },
    { type: 'logout.now', reason: 'inactivity' },
    { type: 'xstate.done.actor.logout', output: undefined },
    { type: 'xstate.error.actor.logout', error: new Error('down') },
  ];
  itReachesEveryStateAndTransition(logoutMachine, {
    events,
    logic: logoutMachine.provide({ actors: { logout: pendingActor() } }),
  });
});
