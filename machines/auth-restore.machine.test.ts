import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { authRestoreMachine } from './auth-restore.machine';
import type { Session } from './auth.types';
import { accessFlagsFor } from '../common/roles';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';

const storedSession: Session = {
  accessToken: 'stored', apiKey: 'key', site: 'demo-site', username: 'ada', roles: { Content: 'read' },
  accessFlags: accessFlagsFor({ Content: 'read' }), encodingEnabled: true, profile: null,
};
const pending = { username: 'ada', obscureMobileNumber: '******4321' };

function restore(readers: { session?: () => Session | null; pending?: () => typeof pending | null }) {
  const logic = authRestoreMachine.provide({
    actors: {
      readStoredSession: fakeActor(readers.session ?? (() => null)),
      readPendingTwoFactor: fakeActor(readers.pending ?? (() => null)),
    },
  });
  return toPromise(createActor(logic).start());
}

describe('auth restore child', () => {
  it('finishes with the stored session and does not look for a pending step', async () => {
    let pendingRead = false;
    expect(await restore({ session: () => storedSession, pending: () => { pendingRead = true; return pending; } }))
      .toEqual({ session: storedSession, pendingStep: null });
    expect(pendingRead).toBe(false);
  });

  it('without a session, finishes with a sign-in waiting for its second factor', async () => {
    expect(await restore({ pending: () => pending })).toEqual({ session: null, pendingStep: pending });
  });

  it('a store that cannot be read counts as nothing stored', async () => {
    expect(await restore({ session: () => { throw new Error('storage blocked'); } })).toEqual({ session: null, pendingStep: null });
    expect(await restore({ pending: () => { throw new Error('storage blocked'); } })).toEqual({ session: null, pendingStep: null });
  });
});

describe('auth restore child: every path', () => {
  const restoreOutcomes = [
    { type: 'xstate.done.actor.readStoredSession', output: storedSession },
    { type: 'xstate.done.actor.readStoredSession', output: null },
    { type: 'xstate.error.actor.readStoredSession', error: new Error('blocked') },
    { type: 'xstate.done.actor.readPendingTwoFactor', output: pending },
    { type: 'xstate.error.actor.readPendingTwoFactor', error: new Error('blocked') },
  ];
  itReachesEveryStateAndTransition(authRestoreMachine, {
    events: restoreOutcomes,
    logic: authRestoreMachine.provide({ actors: { readStoredSession: pendingActor(), readPendingTwoFactor: pendingActor() } }),
  });
});
