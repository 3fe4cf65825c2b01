import { describe, expect, it, vi } from 'vitest';
import { waitFor, type AnyActorLogic } from 'xstate';
import { OTP_RESEND_COOLDOWN_S, OTP_SNACKBAR_MS } from '../common/constants';
import { MESSAGES, OWN_MESSAGES } from '../common/messages';
import { otpStepMachine, selectIsAskingToClose, selectOtpPanel, type OtpStepInput } from './otp-step.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { delayedEvents } from './test-harness/paths';
import { startInSystem } from './test-harness/system';
import { advance } from './test-harness/time';

const signIn: OtpStepInput = { username: 'ada', isLogin: true, obscureMobileNumber: '******6789', deviceId: 'device-1' };
const passwordChange: OtpStepInput = {
  username: 'ada', isLogin: false, obscureMobileNumber: '******4321', credentials: { accessToken: 'tok', apiKey: 'key' },
};

function start(input: OtpStepInput = signIn, overrides: Record<string, AnyActorLogic> = {}) {
  const io = {
    verifyOtp: vi.fn(async (_: unknown) => ({ success: true, message: '', accessToken: 'answered-token', v2ManagementApiEnabled: true })),
    generateOtp: vi.fn(async (_: unknown) => ({ success: true, message: '' })),
  };
  const machine = otpStepMachine.provide({
    actors: { verifyOtp: fakeActor(io.verifyOtp), generateOtp: fakeActor(io.generateOtp), ...overrides },
  });
  const run = startInSystem(machine, { systemId: 'otpStep', input });
  const panel = () => selectOtpPanel(run.actor.getSnapshot());
  const notified = () => run.sentTo('notifier').map(({ type: _type, ...params }) => params);
  return { ...run, io, panel, notified };
}

describe('OTP step', () => {
  it('shows the masked number with a 30 s countdown and no code yet', () => {
    const { panel } = start();
    expect(panel()).toEqual({
      obscureMobileNumber: '******6789', code: '', resendInSeconds: OTP_RESEND_COOLDOWN_S, canResend: false, canSubmit: false,
      verifying: false, resending: false, error: null,
    });
  });

  it('keeps only digits, at most six, and offers Confirm once six are typed', () => {
    const { actor, panel } = start();
    actor.send({ type: 'otp.edit', code: '12a3' });
    expect(panel()).toMatchObject({ code: '123', canSubmit: false });
    actor.send({ type: 'otp.edit', code: '1234567' });
    expect(panel()).toMatchObject({ code: '123456', canSubmit: true });
  });

  it('refuses a code that is not six digits without calling the server', () => {
    const { actor, io, panel } = start();
    for (const code of ['12345', '', 'abcdef']) {
      actor.send({ type: 'otp.edit', code });
      actor.send({ type: 'otp.submit' });
      expect(panel().error).toBe(OWN_MESSAGES.otpFormat);
    }
    expect(io.verifyOtp).not.toHaveBeenCalled();
  });

  it('verifies a sign-in code with isLogin true and the device id, and finishes with the token', async () => {
    const { actor, io } = start();
    actor.send({ type: 'otp.edit', code: '123456' });
    actor.send({ type: 'otp.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '123456', isLogin: true, deviceId: 'device-1' });
    expect(actor.getSnapshot().output).toEqual({ accessToken: 'answered-token' });
  });

  it('verifies with a device id learnt after the step started', async () => {
    const { actor, io } = start({ username: 'ada', isLogin: true, obscureMobileNumber: '**12' });
    actor.send({ type: 'otp.deviceKnown', deviceId: 'device-2' });
    actor.send({ type: 'otp.edit', code: '123456' });
    actor.send({ type: 'otp.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '123456', isLogin: true, deviceId: 'device-2' });
  });

  it("verifies a password code with isLogin false and the signed-in user's token and key", async () => {
    const { actor, io } = start(passwordChange);
    actor.send({ type: 'otp.edit', code: '654321' });
    actor.send({ type: 'otp.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '654321', isLogin: false, credentials: { accessToken: 'tok', apiKey: 'key' } });
  });

  it('shows "OTP verification failed!" and stays on the step when the server refuses or fails', async () => {
    for (const verifyOtp of [
      fakeActor(async () => ({ success: false, message: 'wrong', accessToken: '', v2ManagementApiEnabled: false })),
      fakeActor(async () => { throw new Error('down'); }),
    ]) {
      const { actor, panel, notified } = start(signIn, { verifyOtp });
      actor.send({ type: 'otp.edit', code: '000000' });
      actor.send({ type: 'otp.submit' });
      expect(panel()).toMatchObject({ verifying: true, canSubmit: false });
      await waitFor(actor, () => !panel().verifying);
      expect(panel().error).toBe(MESSAGES.otpVerifyFailed);
      expect(notified()).toEqual([{ message: MESSAGES.otpVerifyFailed, severity: 'error', durationMs: OTP_SNACKBAR_MS }]);
      expect(actor.getSnapshot().status).toBe('active');
    }
  });

  it('counts down each second and allows Resend Code only after 30 s', () => {
    const { actor, clock, io, panel } = start();
    advance(clock, 3000);
    expect(panel().resendInSeconds).toBe(27);
    actor.send({ type: 'otp.resend' });
    expect(io.generateOtp).not.toHaveBeenCalled();
    advance(clock, 27_000);
    expect(panel()).toMatchObject({ resendInSeconds: 0, canResend: true });
  });

  it('says "OTP sent successfully!" after a resend and restarts the countdown', async () => {
    const { actor, clock, io, panel, notified } = start(passwordChange);
    advance(clock, 30_000);
    actor.send({ type: 'otp.resend' });
    expect(panel().resending).toBe(true);
    await waitFor(actor, () => panel().resendInSeconds === OTP_RESEND_COOLDOWN_S);
    expect(io.generateOtp).toHaveBeenCalledWith({ username: 'ada', isLogin: false, credentials: { accessToken: 'tok', apiKey: 'key' } });
    expect(notified()).toEqual([{ message: MESSAGES.otpSent, severity: 'success', durationMs: OTP_SNACKBAR_MS }]);
    advance(clock, 1000);
    expect(panel().resendInSeconds).toBe(29);
  });

  it('says "OTP could not be sent!" when the resend is refused or fails, and keeps Resend Code available', async () => {
    for (const generateOtp of [
      fakeActor(async () => ({ success: false, message: 'rate limited' })),
      fakeActor(async () => { throw new Error('down'); }),
    ]) {
      const { actor, clock, panel, notified } = start(signIn, { generateOtp });
      advance(clock, 30_000);
      actor.send({ type: 'otp.resend' });
      await waitFor(actor, () => !panel().resending);
      expect(notified()).toEqual([{ message: MESSAGES.otpNotSent, severity: 'error', durationMs: OTP_SNACKBAR_MS }]);
      expect(panel().canResend).toBe(true);
    }
  });
});

describe('OTP step: closing the Verify OTP modal (issue 38)', () => {
  it('gives the step up at once with nothing typed; with a code typed asks first: Stay keeps it, Leave gives up', () => {
    const cancel = vi.fn();
    const logic = otpStepMachine.provide({ actions: { cancel }, actors: { verifyOtp: pendingActor(), generateOtp: pendingActor() } });
    const empty = startInSystem(logic, { systemId: 'otpStep', input: passwordChange });
    empty.actor.send({ type: 'otp.close' });
    expect(selectIsAskingToClose(empty.actor.getSnapshot())).toBe(false);
    expect(cancel).toHaveBeenCalledTimes(1);

    cancel.mockClear();
    const typed = startInSystem(logic, { systemId: 'otpStep', input: passwordChange });
    typed.actor.send({ type: 'otp.edit', code: '12' });
    typed.actor.send({ type: 'otp.close' });
    expect(selectIsAskingToClose(typed.actor.getSnapshot())).toBe(true);
    expect(cancel).not.toHaveBeenCalled();
    typed.actor.send({ type: 'otp.stay' });
    expect(selectIsAskingToClose(typed.actor.getSnapshot())).toBe(false);
    expect(selectOtpPanel(typed.actor.getSnapshot()).code).toBe('12');
    typed.actor.send({ type: 'otp.close' });
    typed.actor.send({ type: 'otp.leave' });
    expect(cancel).toHaveBeenCalledTimes(1);
    // Typed and then erased: nothing to lose.
    cancel.mockClear();
    const erased = startInSystem(logic, { systemId: 'otpStep', input: passwordChange });
    erased.actor.send({ type: 'otp.edit', code: '1' });
    erased.actor.send({ type: 'otp.edit', code: '' });
    erased.actor.send({ type: 'otp.close' });
    expect(selectIsAskingToClose(erased.actor.getSnapshot())).toBe(false);
    expect(cancel).toHaveBeenCalledTimes(1);
  });
});

describe('OTP step: every path', () => {
  const events = [
    { type: 'otp.edit', code: '123456' },
    { type: 'otp.edit', code: '12' },
    { type: 'otp.submit' },
    { type: 'otp.resend' },
    { type: 'otp.deviceKnown', deviceId: 'device-2' },
    { type: 'otp.close' },
    { type: 'otp.stay' },
    { type: 'otp.leave' },
    { type: 'xstate.done.actor.verifyOtp', output: { success: false, message: '', accessToken: '', v2ManagementApiEnabled: false } },
    { type: 'xstate.done.actor.verifyOtp', output: { success: true, message: '', accessToken: 'tok', v2ManagementApiEnabled: true } },
    { type: 'xstate.error.actor.verifyOtp', error: new Error('down') },
    { type: 'xstate.done.actor.generateOtp', output: { success: false, message: '' } },
    { type: 'xstate.done.actor.generateOtp', output: { success: true, message: '' } },
    { type: 'xstate.error.actor.generateOtp', error: new Error('down') },
    ...delayedEvents(otpStepMachine),
  ];
  // Run alone, the step has no parent to tell it was given up.
  const logic = otpStepMachine.provide({ actions: { cancel: () => {} }, actors: { verifyOtp: pendingActor(), generateOtp: pendingActor() } });
  itReachesEveryStateAndTransition(logic, { events, input: signIn, logic });
});
