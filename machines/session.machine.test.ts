import { describe, expect, it, vi } from 'vitest';
import { waitFor, type AnyActorLogic } from 'xstate';
import { OWN_MESSAGES } from '../common/messages';
import {
  isInvalidTimezoneCookie, selectIsUnreachable, selectIsVerified, selectIsVerifying, sessionMachine,
} from './session.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { startInSystem } from './test-harness/system';

function start(overrides: Record<string, AnyActorLogic> = {}) {
  const spies = { clearAllCookies: vi.fn(), navigate: vi.fn(), saveCloudProvider: vi.fn(), removeDefaultTimezone: vi.fn() };
  const io = {
    verifySession: vi.fn(async () => ({ valid: true, status: 200 })),
    verifySite: vi.fn(async () => ({ provider: 'aws' })),
  };
  const machine = sessionMachine.provide({
    actors: { verifySession: fakeActor(io.verifySession), verifySite: fakeActor(io.verifySite), ...overrides },
    actions: {
      clearAllCookies: () => spies.clearAllCookies(),
      navigate: (_, params) => spies.navigate(params),
      saveCloudProvider: (_, params) => spies.saveCloudProvider(params),
      removeDefaultTimezone: () => spies.removeDefaultTimezone(),
    },
  });
  const { actor, sentTo } = startInSystem(machine, { systemId: 'session' });
  const notified = () => sentTo('notifier').map(({ type: _type, ...params }) => params);
  return { actor, spies, io, notified };
}

describe('session check on load', () => {
  it('shows the overlay while the check runs, then saves the cloud provider', async () => {
    const { actor, spies } = start();
    expect(selectIsVerifying(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'session.start', path: '/analytics', defaultTimezone: 'Europe/Paris' });
    expect(selectIsVerifying(actor.getSnapshot())).toBe(true);
    await waitFor(actor, selectIsVerified);
    expect(selectIsVerifying(actor.getSnapshot())).toBe(false);
    expect(spies.saveCloudProvider).toHaveBeenCalledWith({ provider: 'aws' });
    expect(spies.removeDefaultTimezone).not.toHaveBeenCalled();
  });

  it('does not verify on a public route', () => {
    const { actor, io } = start();
    actor.send({ type: 'session.start', path: '/forgot-password', defaultTimezone: undefined });
    expect(actor.getSnapshot().matches('skipped')).toBe(true);
    expect(io.verifySession).not.toHaveBeenCalled();
  });

  it.each([401, 403])('clears every cookie and goes to /logout on %i', async (status) => {
    const { actor, spies } = start({ verifySession: fakeActor(async () => ({ valid: false, status })) });
    actor.send({ type: 'session.start', path: '/content', defaultTimezone: undefined });
    await waitFor(actor, (s) => s.matches('rejected'));
    expect(spies.clearAllCookies).toHaveBeenCalledTimes(1);
    expect(spies.navigate).toHaveBeenCalledWith({ to: '/logout' });
  });

  it('keeps the session on a network error, says so, and verifies again on retry', async () => {
    let calls = 0;
    const { actor, spies, notified } = start({
      verifySession: fakeActor(async () => {
        calls += 1;
        if (calls === 1) throw new Error('Failed to fetch');
        return { valid: true, status: 200 };
      }),
    });
    actor.send({ type: 'session.start', path: '/content', defaultTimezone: undefined });
    await waitFor(actor, selectIsUnreachable);
    expect(spies.clearAllCookies).not.toHaveBeenCalled();
    expect(spies.navigate).not.toHaveBeenCalled();
    expect(notified()).toContainEqual({ message: OWN_MESSAGES.serverUnavailable, severity: 'error' });
    actor.send({ type: 'session.retry' });
    await waitFor(actor, selectIsVerified);
  });

  it('stays signed in when the provider cannot be read', async () => {
    const { actor, spies } = start({ verifySite: fakeActor(async () => { throw new Error('down'); }) });
    actor.send({ type: 'session.start', path: '/content', defaultTimezone: undefined });
    await waitFor(actor, selectIsVerified);
    expect(spies.saveCloudProvider).not.toHaveBeenCalled();
  });

  it('removes an invalid default-timezone cookie, on public and protected routes alike', () => {
    const onPublic = start();
    onPublic.actor.send({ type: 'session.start', path: '/', defaultTimezone: 'null' });
    expect(onPublic.spies.removeDefaultTimezone).toHaveBeenCalledTimes(1);
    const onProtected = start({ verifySession: pendingActor() });
    onProtected.actor.send({ type: 'session.start', path: '/users', defaultTimezone: '{"tz":"x"}' });
    expect(onProtected.spies.removeDefaultTimezone).toHaveBeenCalledTimes(1);
  });
});

describe('401 and 403 answers to any call', () => {
  it('go to /logout (401) and to the sign-in page (403), whatever the check is doing', () => {
    const { actor, spies } = start();
    actor.send({ type: 'session.unauthorized' });
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: '/logout' });
    actor.send({ type: 'session.forbidden' });
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: '/' });
  });
});

describe('isInvalidTimezoneCookie', () => {
  it.each([null, 'null', 'undefined', '', '[object Object]', '{"a":1}', '[1]', { a: 1 }])('rejects %j', (value) => {
    expect(isInvalidTimezoneCookie(value)).toBe(true);
  });
  it.each([undefined, 'UTC', 'America/New_York', '{not json'])('accepts %j', (value) => {
    expect(isInvalidTimezoneCookie(value)).toBe(false);
  });
});

describe('session machine: every path', () => {
  const events = [
    { type: 'session.start', path: '/', defaultTimezone: 'null' },
    { type: 'session.start', path: '/', defaultTimezone: 'UTC' },
    { type: 'session.start', path: '/content', defaultTimezone: 'null' },
    { type: 'session.start', path: '/content', defaultTimezone: 'UTC' },
    { type: 'xstate.done.actor.verifySession', output: { valid: true, status: 200 } },
    { type: 'xstate.done.actor.verifySession', output: { valid: false, status: 401 } },
    { type: 'xstate.error.actor.verifySession', error: new Error('down') },
    { type: 'xstate.done.actor.verifySite', output: { provider: 'aws' } },
    { type: 'xstate.error.actor.verifySite', error: new Error('down') },
    { type: 'session.retry' },
    { type: 'session.unauthorized' },
    { type: 'session.forbidden' },
  ];
  itReachesEveryStateAndTransition(sessionMachine, {
    events,
    logic: sessionMachine.provide({ actors: { verifySession: pendingActor(), verifySite: pendingActor() } }),
  });
});
