import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock } from 'xstate';
import {
  inactivityMachine, selectIsExpired, selectIsTimerRunning, selectIsWarning, selectWarningSecondsLeft,
  warningDelayMs, type InactivityEvent, type InactivityInput,
} from './inactivity.machine';
import { isExcludedPath } from '../common/public-paths';
import { readRuntimeConfig } from '../common/runtime-config';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { delayedEvents } from './test-harness/paths';
import { startInSystem } from './test-harness/system';
import { advance } from './test-harness/time';

const MINUTE = 60_000;
const input: InactivityInput = { timeoutMinutes: 5, excludedPaths: ['/content/library'] };

function start(startInput: InactivityInput = input) {
  const calls: string[] = [];
  const spies = { navigate: vi.fn() };
  const machine = inactivityMachine.provide({
    actions: {
      revokeServerSession: () => { calls.push('revokeServerSession'); },
      deleteAllCookies: () => { calls.push('deleteAllCookies'); },
      broadcastActivity: () => { calls.push('broadcastActivity'); },
      broadcastLogout: () => { calls.push('broadcastLogout'); },
      navigate: (_, params) => { calls.push('navigate'); spies.navigate(params); },
    },
  });
  const { actor, clock, sentTo } = startInSystem(machine, { systemId: 'inactivity', input: startInput, clock: new SimulatedClock() });
  return { actor, clock, calls, spies, sentTo };
}

function onProtectedPage(startInput?: InactivityInput) {
  const started = start(startInput);
  started.actor.send({ type: 'path.changed', path: '/analytics' });
  return started;
}

describe('inactivity timeout', () => {
  it('expires at exactly the configured minutes: server session revoked, cookies deleted, other tabs told, /logout saying why', () => {
    const { actor, clock, calls, spies } = onProtectedPage();
    advance(clock, 5 * MINUTE - 1);
    expect(selectIsExpired(actor.getSnapshot())).toBe(false);
    advance(clock, 1);
    expect(selectIsExpired(actor.getSnapshot())).toBe(true);
    expect(calls).toEqual(['revokeServerSession', 'deleteAllCookies', 'broadcastLogout', 'navigate']);
    expect(spies.navigate).toHaveBeenCalledWith({ to: '/logout?reason=inactivity' });
  });

  it('shows the warning one minute before expiry with a countdown', () => {
    const { actor, clock } = onProtectedPage();
    advance(clock, 4 * MINUTE - 1);
    expect(selectIsWarning(actor.getSnapshot())).toBe(false);
    advance(clock, 1);
    expect(selectIsWarning(actor.getSnapshot())).toBe(true);
    expect(selectWarningSecondsLeft(actor.getSnapshot())).toBe(60);
    advance(clock, 15_000);
    expect(selectWarningSecondsLeft(actor.getSnapshot())).toBe(45);
  });

  it.each(['mousemove', 'mousedown', 'keypress', 'touchstart', 'click'])('restarts the timer on %s (forwarded as activity), tells other tabs and the keepalive actor', () => {
    const { actor, clock, calls, sentTo } = onProtectedPage();
    advance(clock, 3 * MINUTE);
    actor.send({ type: 'activity.local' });
    expect(calls).toEqual(['broadcastActivity']);
    expect(sentTo('keepalive')).toEqual([{ type: 'keepalive.activity' }]);
    advance(clock, 4 * MINUTE - 1);
    expect(selectIsWarning(actor.getSnapshot())).toBe(false);
    advance(clock, 1);
    expect(selectIsWarning(actor.getSnapshot())).toBe(true);
  });

  it("keeps the session when the user chooses 'Stay signed in'", () => {
    const { actor, clock, calls } = onProtectedPage();
    advance(clock, 4 * MINUTE + 30_000);
    actor.send({ type: 'inactivity.stay' });
    expect(selectIsTimerRunning(actor.getSnapshot())).toBe(true);
    expect(selectIsWarning(actor.getSnapshot())).toBe(false);
    advance(clock, 4 * MINUTE - 1);
    expect(selectIsExpired(actor.getSnapshot())).toBe(false);
    expect(calls).toEqual(['broadcastActivity']);
  });

  it('stays alive while another tab is active, without echoing the activity back', () => {
    const { actor, clock, calls } = onProtectedPage();
    advance(clock, 4 * MINUTE + 10_000);
    actor.send({ type: 'activity.remote' });
    expect(selectIsWarning(actor.getSnapshot())).toBe(false);
    advance(clock, 3 * MINUTE);
    actor.send({ type: 'activity.remote' });
    advance(clock, 4 * MINUTE - 1);
    expect(selectIsTimerRunning(actor.getSnapshot())).toBe(true);
    expect(calls).toEqual([]);
  });

  it('follows a logout in another tab without broadcasting it back', () => {
    const { actor, calls } = onProtectedPage();
    actor.send({ type: 'logout.remote' });
    expect(selectIsExpired(actor.getSnapshot())).toBe(true);
    expect(calls).toEqual(['deleteAllCookies', 'navigate']);
  });

  it('never times out on public or excluded paths', () => {
    const { actor, clock, calls } = start();
    for (const path of ['/', '/logout', '/verify-number', '/content/library', '/content/library/42']) {
      actor.send({ type: 'path.changed', path });
      advance(clock, 10 * MINUTE, MINUTE);
      expect(selectIsTimerRunning(actor.getSnapshot())).toBe(false);
    }
    actor.send({ type: 'logout.remote' });
    expect(calls).toEqual([]);
  });

  it('stops the timer when leaving for an excluded path and starts afresh on return', () => {
    const { actor, clock } = onProtectedPage();
    advance(clock, 4 * MINUTE + 1000);
    actor.send({ type: 'path.changed', path: '/content/library' });
    advance(clock, 10 * MINUTE, MINUTE);
    actor.send({ type: 'path.changed', path: '/users' });
    advance(clock, 4 * MINUTE - 1);
    expect(selectIsWarning(actor.getSnapshot())).toBe(false);
  });

  it('warns at once when the timeout is one minute, and expires after it', () => {
    expect(warningDelayMs(MINUTE)).toBe(0);
    const { actor, clock } = onProtectedPage({ timeoutMinutes: 1, excludedPaths: [] });
    clock.increment(0);
    expect(selectIsWarning(actor.getSnapshot())).toBe(true);
    advance(clock, MINUTE);
    expect(selectIsExpired(actor.getSnapshot())).toBe(true);
  });
});

describe('isExcludedPath', () => {
  it('covers the public routes, the listed paths and the paths below them', () => {
    expect(isExcludedPath('/reset-password?token=x', [])).toBe(true);
    expect(isExcludedPath('/content/library/7', ['/content/library/'])).toBe(true);
    expect(isExcludedPath('/content/libraryX', ['/content/library'])).toBe(false);
    expect(isExcludedPath('/analytics', [])).toBe(false);
  });

  it("does not treat the console as 'below /' with the runtime list, which always holds the public routes", () => {
    const runtimeList = readRuntimeConfig({ inactivityExcludedPaths: ['/content/library'] }).inactivityExcludedPaths;
    expect(runtimeList).toContain('/');
    expect(isExcludedPath('/analytics', runtimeList)).toBe(false);
    expect(isExcludedPath('/content', runtimeList)).toBe(false);
    expect(isExcludedPath('/', runtimeList)).toBe(true);
    expect(isExcludedPath('/logout', runtimeList)).toBe(true);
    expect(isExcludedPath('/content/library/7', runtimeList)).toBe(true);
  });
});

describe('inactivity machine: every path', () => {
  const events: InactivityEvent[] = [
    { type: 'path.changed', path: '/' },
    { type: 'path.changed', path: '/analytics' },
    { type: 'path.changed', path: '/users' },
    { type: 'activity.local' },
    { type: 'activity.remote' },
    { type: 'inactivity.stay' },
    { type: 'logout.remote' },
  ];
  const smallInput: InactivityInput = { timeoutMinutes: 2, excludedPaths: [] };
  itReachesEveryStateAndTransition(inactivityMachine, { events: [...events, ...delayedEvents(inactivityMachine)], input: smallInput });
});
