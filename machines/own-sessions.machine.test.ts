import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor, type AnyActorLogic } from 'xstate';
import { ROUTES } from '../common/constants';
import { ACCOUNT_MESSAGES } from '../common/messages';
import {
  describeDevice, ownSessionsMachine, selectEndingSessionId, selectOwnSessions, selectOwnSessionsError, selectOwnSessionsNotice,
  selectOwnSessionsPhase, type OwnSession,
} from './own-sessions.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';

const THIS: OwnSession = {
  id: 'this-one', deviceId: 'd1', ipAddress: '10.0.0.1', userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Firefox/140.0',
  createdAt: '2026-11-24T01:00:00.000Z', lastSeenAt: '2026-11-24T03:00:00.000Z', current: true,
};
const PHONE: OwnSession = {
  id: 'phone', deviceId: 'd2', ipAddress: '10.0.0.2', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Version/18.0 Mobile Safari/604.1',
  createdAt: '2026-11-23T20:00:00.000Z', lastSeenAt: '2026-11-24T02:00:00.000Z', current: false,
};

function start(overrides: Record<string, AnyActorLogic> = {}) {
  const navigate = vi.fn();
  let listed: OwnSession[] = [THIS, PHONE];
  const io = {
    fetchSessions: vi.fn(async () => listed),
    endSession: vi.fn(async (input: { sessionId: string }) => {
      listed = listed.filter((s) => s.id !== input.sessionId);
      return { success: true, message: ACCOUNT_MESSAGES.sessionEnded, ended: 1 };
    }),
  };
  const machine = ownSessionsMachine.provide({
    actors: { fetchSessions: fakeActor(io.fetchSessions), endSession: fakeActor(io.endSession), ...overrides },
    actions: { navigate: (_, params) => navigate(params) },
  });
  const actor = createActor(machine).start();
  return { actor, io, navigate };
}

describe('own sessions', () => {
  it('loads the active sessions, this one marked', async () => {
    const { actor } = start();
    expect(selectOwnSessionsPhase(actor.getSnapshot())).toBe('loading');
    await waitFor(actor, (s) => s.matches('list'));
    expect(selectOwnSessions(actor.getSnapshot())).toEqual([THIS, PHONE]);
  });

  it('ends another session at once and reloads the list with a note', async () => {
    const { actor, io, navigate } = start();
    await waitFor(actor, (s) => s.matches('list'));
    actor.send({ type: 'sessions.end', sessionId: 'phone' });
    expect(selectOwnSessionsPhase(actor.getSnapshot())).toBe('ending');
    expect(selectEndingSessionId(actor.getSnapshot())).toBe('phone');
    await waitFor(actor, (s) => s.matches('list') && s.context.sessions.length === 1);
    expect(io.endSession).toHaveBeenCalledWith({ sessionId: 'phone' });
    expect(io.fetchSessions).toHaveBeenCalledTimes(2);
    expect(selectOwnSessionsNotice(actor.getSnapshot())).toBe(ACCOUNT_MESSAGES.sessionEnded);
    expect(selectEndingSessionId(actor.getSnapshot())).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('ending the session in use asks first; cancel keeps it, confirm ends it and goes to /logout', async () => {
    const { actor, io, navigate } = start();
    await waitFor(actor, (s) => s.matches('list'));
    actor.send({ type: 'sessions.end', sessionId: 'this-one' });
    expect(selectOwnSessionsPhase(actor.getSnapshot())).toBe('confirmingThis');
    actor.send({ type: 'sessions.cancel' });
    expect(selectOwnSessionsPhase(actor.getSnapshot())).toBe('list');
    expect(selectEndingSessionId(actor.getSnapshot())).toBeNull();
    expect(io.endSession).not.toHaveBeenCalled();

    actor.send({ type: 'sessions.end', sessionId: 'this-one' });
    actor.send({ type: 'sessions.confirm' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(io.endSession).toHaveBeenCalledWith({ sessionId: 'this-one' });
    expect(navigate).toHaveBeenCalledWith({ to: ROUTES.logout });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it("shows the server's reason when ending fails, and the list as it is now", async () => {
    const { actor } = start({ endSession: fakeActor(async () => { throw Object.assign(new Error(ACCOUNT_MESSAGES.sessionNotFound), { status: 404 }); }) });
    await waitFor(actor, (s) => s.matches('list'));
    actor.send({ type: 'sessions.end', sessionId: 'phone' });
    await waitFor(actor, (s) => s.matches('list') && s.context.error !== null);
    expect(selectOwnSessionsError(actor.getSnapshot())).toBe(ACCOUNT_MESSAGES.sessionNotFound);
    // A transport failure (no status) reads as the generic message.
    const down = start({ endSession: fakeActor(async () => { throw Object.assign(new Error('fetch failed'), { status: 0 }); }) });
    await waitFor(down.actor, (s) => s.matches('list'));
    down.actor.send({ type: 'sessions.end', sessionId: 'phone' });
    await waitFor(down.actor, (s) => s.matches('list') && s.context.error !== null);
    expect(selectOwnSessionsError(down.actor.getSnapshot())).toBe(ACCOUNT_MESSAGES.sessionEndFailed);
  });

  it('says the list could not be loaded, and loads it again on retry', async () => {
    let fail = true;
    const { actor } = start({
      fetchSessions: fakeActor(async () => {
        if (fail) throw Object.assign(new Error('down'), { status: 0 });
        return [THIS];
      }),
    });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(selectOwnSessionsError(actor.getSnapshot())).toBe(ACCOUNT_MESSAGES.sessionsFailed);
    fail = false;
    actor.send({ type: 'sessions.retry' });
    await waitFor(actor, (s) => s.matches('list'));
    expect(selectOwnSessionsError(actor.getSnapshot())).toBeNull();
    expect(selectOwnSessions(actor.getSnapshot())).toEqual([THIS]);
  });
});

describe('describeDevice', () => {
  it('names the browser and the system, or says the device is unknown', () => {
    expect(describeDevice(THIS.userAgent)).toBe('Firefox on macOS');
    expect(describeDevice(PHONE.userAgent)).toBe('Safari on iOS');
    expect(describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0')).toBe('Edge on Windows');
    expect(describeDevice('Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36')).toBe('Chrome on Linux');
    expect(describeDevice('curl/8.5.0')).toBe('curl/8.5.0');
    expect(describeDevice('  ')).toBe(ACCOUNT_MESSAGES.unknownDevice);
  });
});

describe('own sessions machine: every path', () => {
  const events = [
    { type: 'xstate.done.actor.fetchSessions', output: [THIS, PHONE] },
    { type: 'xstate.error.actor.fetchSessions', error: new Error('down') },
    { type: 'sessions.retry' },
    { type: 'sessions.end', sessionId: 'phone' },
    { type: 'sessions.end', sessionId: 'this-one' },
    { type: 'sessions.confirm' },
    { type: 'sessions.cancel' },
    { type: 'xstate.done.actor.endSession', output: { success: true, message: '', ended: 1 } },
    { type: 'xstate.error.actor.endSession', error: new Error('gone') },
  ];
  const logic = ownSessionsMachine.provide({ actors: { fetchSessions: pendingActor(), endSession: pendingActor() } });
  itReachesEveryStateAndTransition(ownSessionsMachine, { events, logic });
});
