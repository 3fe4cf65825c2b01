import { describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import type { AnyMachineSnapshot } from 'xstate';
import { acceptedEvents, replay, startMachine } from './machine-cli';
import { CLI_MACHINES } from './machine-fakes';

describe('npm run machine (headless stepping)', () => {
  it('replays the login-with-2FA script to signedIn, landing on /analytics', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const events = JSON.parse(readFileSync('scripts/machine-scripts/auth-2fa.json', 'utf8'));
    const session = await replay('auth', events);
    const snapshot = session.actor.getSnapshot() as AnyMachineSnapshot;
    expect(snapshot.value).toEqual({ signedIn: 'active' });
    expect(log.mock.calls.flat().join('\n')).toContain('effect: navigate {"to":"/analytics"}');
    expect(log.mock.calls.flat().join('\n')).not.toContain('Demo!Pass123');
    session.actor.stop();
    log.mockRestore();
  });

  it('lists the events the current state accepts', async () => {
    const session = startMachine('logout');
    expect(acceptedEvents(session.actor.getSnapshot() as AnyMachineSnapshot)).toEqual(['logout.now', 'logout.request']);
    await session.step({ type: 'logout.request' });
    expect(session.describe()).toContain('state:   confirming');
    session.actor.stop();
  });

  it('moves the simulated clock on clock.advance', async () => {
    const session = startMachine('notifier');
    await session.step({ type: 'notify.show', message: 'hi', severity: 'info' } as never);
    await session.step({ type: 'clock.advance', ms: 3000 });
    expect((session.actor.getSnapshot() as AnyMachineSnapshot).value).toBe('hidden');
    session.actor.stop();
  });

  it('starts every machine it offers', () => {
    for (const name of Object.keys(CLI_MACHINES)) {
      const session = startMachine(name);
      expect(session.actor.getSnapshot().status).toBe('active');
      session.actor.stop();
    }
  });

  it('names the known machines for an unknown one', () => {
    expect(() => startMachine('nope')).toThrow(/Known: auth/);
  });
});
