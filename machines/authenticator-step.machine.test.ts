import { describe, expect, it, vi } from 'vitest';
import { toPromise, waitFor } from 'xstate';
import { MESSAGES } from '../common/messages';
import { TOTP_MESSAGES } from '../common/totp';
import { authenticatorStepMachine, selectAuthenticatorPanel } from './authenticator-step.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { startInSystem } from './test-harness/system';

const OK = { success: true, message: '', accessToken: 'session-token', v2ManagementApiEnabled: true };
const REFUSED = { success: false, message: 'no', accessToken: '', v2ManagementApiEnabled: false };

function start(verify = vi.fn(async (_: unknown) => OK), input: { username: string; deviceId?: string } = { username: 'ada', deviceId: 'device-1' }) {
  const logic = authenticatorStepMachine.provide({ actors: { verifyAuthenticator: fakeActor(verify) } });
  const started = startInSystem(logic, { systemId: 'authenticatorStep', input });
  const panel = () => selectAuthenticatorPanel(started.actor.getSnapshot());
  return { ...started, verify, panel };
}

describe('authenticator step (the sign-in second factor with an authenticator app)', () => {
  it('keeps six digits of what is typed, verifies them with the device id and finishes with the token', async () => {
    const { actor, verify, panel } = start();
    actor.send({ type: 'authenticator.edit', code: '12 3a45 67' });
    expect(panel().entry).toEqual({ code: '123456', recovery: false });
    actor.send({ type: 'authenticator.submit' });
    expect(panel().verifying).toBe(true);
    expect(await toPromise(actor)).toEqual({ accessToken: 'session-token' });
    expect(verify).toHaveBeenCalledWith({ username: 'ada', code: '123456', deviceId: 'device-1' });
  });

  it('says which format is missing; the switch to a recovery code clears the entry and the error', () => {
    const { actor, panel } = start();
    actor.send({ type: 'authenticator.submit' });
    expect(panel().error).toBe(TOTP_MESSAGES.codeFormat);
    actor.send({ type: 'authenticator.useRecovery' });
    expect(panel()).toEqual({ entry: { code: '', recovery: true }, verifying: false, error: null });
    actor.send({ type: 'authenticator.edit', code: 'ABCDE-12345 !' });
    expect(panel().entry.code).toBe('abcde-12345');
    actor.send({ type: 'authenticator.useApp' });
    expect(panel().entry).toEqual({ code: '', recovery: false });
    actor.send({ type: 'authenticator.useRecovery' });
    actor.send({ type: 'authenticator.edit', code: 'abc' });
    actor.send({ type: 'authenticator.submit' });
    expect(panel().error).toBe(TOTP_MESSAGES.recoveryFormat);
  });

  it('a device id learnt during the step is sent with the code', async () => {
    const { actor, verify } = start(undefined, { username: 'ada' });
    actor.send({ type: 'authenticator.deviceKnown', deviceId: 'late-device' });
    actor.send({ type: 'authenticator.edit', code: '654321' });
    actor.send({ type: 'authenticator.submit' });
    await toPromise(actor);
    expect(verify).toHaveBeenCalledWith({ username: 'ada', code: '654321', deviceId: 'late-device' });
  });

  it("a refused or failed code stays on the step with the spec's message, in the snackbar too", async () => {
    const refused = start(vi.fn(async () => REFUSED));
    refused.actor.send({ type: 'authenticator.edit', code: '123456' });
    refused.actor.send({ type: 'authenticator.submit' });
    await waitFor(refused.actor, (s) => s.matches({ active: 'entering' }) && s.context.error !== null);
    expect(refused.panel().error).toBe(MESSAGES.otpVerifyFailed);
    expect(refused.sentTo('notifier')).toContainEqual(expect.objectContaining({ message: MESSAGES.otpVerifyFailed, severity: 'error' }));
    const failing = start(vi.fn(async () => { throw new Error('down'); }));
    failing.actor.send({ type: 'authenticator.edit', code: '123456' });
    failing.actor.send({ type: 'authenticator.submit' });
    await waitFor(failing.actor, (s) => s.context.error === MESSAGES.otpVerifyFailed);
  });

  it('nothing running: the panel shows an empty app-code entry', () => {
    expect(selectAuthenticatorPanel(undefined)).toEqual({ entry: { code: '', recovery: false }, verifying: false, error: null });
  });
});

describe('authenticator step: every path', () => {
  const stepEvents = [
    { type: 'authenticator.edit', code: '123456' },
    { type: 'authenticator.edit', code: '12' },
    { type: 'authenticator.submit' },
    { type: 'authenticator.useRecovery' },
    { type: 'authenticator.useApp' },
    { type: 'authenticator.deviceKnown', deviceId: 'device-2' },
    { type: 'xstate.done.actor.verifyAuthenticator', output: OK },
    { type: 'xstate.done.actor.verifyAuthenticator', output: REFUSED },
    { type: 'xstate.error.actor.verifyAuthenticator', error: new Error('down') },
  ];
  itReachesEveryStateAndTransition(authenticatorStepMachine, {
    events: stepEvents,
    input: { username: 'ada' },
    logic: authenticatorStepMachine.provide({ actors: { verifyAuthenticator: pendingActor() } }),
  });
});
