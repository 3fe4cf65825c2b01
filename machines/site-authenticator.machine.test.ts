import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor, type AnyActorLogic } from 'xstate';
import { TOTP_MESSAGES, type SiteAuthenticatorResponse } from '../common/totp';
import {
  selectSiteAuthenticator, selectSiteAuthenticatorBusy, selectSiteAuthenticatorFailed, siteAuthenticatorMachine,
} from './site-authenticator.machine';
import { itReachesEveryStateAndTransition } from './test-support/every-path';
import { fakeActor, pendingActor } from './test-support/fakes';

const answer = (overrides: Partial<SiteAuthenticatorResponse> = {}): SiteAuthenticatorResponse =>
  ({ success: true, message: '', required: false, canEdit: true, ...overrides });

function start(overrides: Record<string, AnyActorLogic> = {}) {
  const io = {
    fetchSiteAuthenticator: vi.fn(async () => answer()),
    setSiteAuthenticator: vi.fn(async (input: { required: boolean }) =>
      answer({ required: input.required, message: input.required ? TOTP_MESSAGES.siteRequirementOn : TOTP_MESSAGES.siteRequirementOff })),
  };
  const machine = siteAuthenticatorMachine.provide({
    actors: { fetchSiteAuthenticator: fakeActor(io.fetchSiteAuthenticator), setSiteAuthenticator: fakeActor(io.setSiteAuthenticator), ...overrides },
  });
  return { actor: createActor(machine).start(), io };
}

describe('site authenticator machine', () => {
  it('loads the setting; an editor switches it on with the server\'s note', async () => {
    const { actor, io } = start();
    expect(selectSiteAuthenticatorBusy(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'siteAuthenticator.set', required: true });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    await waitFor(actor, (s) => s.matches('ready') && s.context.required);
    expect(io.setSiteAuthenticator).toHaveBeenCalledWith({ required: true });
    expect(selectSiteAuthenticator(actor.getSnapshot())).toMatchObject({ required: true, notice: TOTP_MESSAGES.siteRequirementOn, error: null });
  });

  it('a read role cannot switch it (nothing is sent)', async () => {
    const { actor, io } = start({ fetchSiteAuthenticator: fakeActor(async () => answer({ canEdit: false })) });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'siteAuthenticator.set', required: true });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(io.setSiteAuthenticator).not.toHaveBeenCalled();
  });

  it('a failed load offers a retry; a refused change keeps the old value with the message', async () => {
    let calls = 0;
    const { actor } = start({
      fetchSiteAuthenticator: fakeActor(async () => { calls += 1; if (calls === 1) throw new Error(''); return answer(); }),
      setSiteAuthenticator: fakeActor(async () => { throw new Error('Forbidden'); }),
    });
    await waitFor(actor, selectSiteAuthenticatorFailed);
    expect(selectSiteAuthenticator(actor.getSnapshot()).error).toBe(TOTP_MESSAGES.siteLoadFailed);
    actor.send({ type: 'siteAuthenticator.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'siteAuthenticator.set', required: true });
    await waitFor(actor, (s) => s.matches('ready') && s.context.error !== null);
    expect(selectSiteAuthenticator(actor.getSnapshot())).toMatchObject({ required: false, error: 'Forbidden' });
  });
});

describe('site authenticator machine: every path', () => {
  const events = [
    { type: 'xstate.done.actor.fetchSiteAuthenticator', output: answer() },
    { type: 'xstate.error.actor.fetchSiteAuthenticator', error: new Error('down') },
    { type: 'siteAuthenticator.retry' },
    { type: 'siteAuthenticator.set', required: true },
    { type: 'xstate.done.actor.setSiteAuthenticator', output: answer({ required: true }) },
    { type: 'xstate.error.actor.setSiteAuthenticator', error: new Error('no') },
  ];
  const logic = siteAuthenticatorMachine.provide({ actors: { fetchSiteAuthenticator: pendingActor(), setSiteAuthenticator: pendingActor() } });
  itReachesEveryStateAndTransition(siteAuthenticatorMachine, { events, logic });
});
