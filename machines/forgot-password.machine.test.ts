import { describe, expect, it, vi } from 'vitest';
import { createActor, setup, SimulatedClock, waitFor, type ActorRefFrom, type AnyActorLogic } from 'xstate';
import { OTP_RESEND_COOLDOWN_S, OTP_SNACKBAR_MS, ROUTES } from '../src/config';
import { MESSAGES, OWN_MESSAGES } from '../src/messages';
import {
  forgotPasswordMachine, selectError, selectFlowStep, selectIsOtpModalOpen, selectOtpStep, selectPasswordFailures,
  selectPasswordsMatch, selectResetToken,
} from './forgot-password.machine';
import { createCoverage } from './test-support/coverage';
import { fakeActor, pendingActor } from './test-support/fakes';
import { coveringPaths, delayedEvents, drivePath, pathTitle } from './test-support/paths';
import { advance } from './test-support/time';

const STRONG = 'Str0ng!pass';

function start(overrides: Record<string, AnyActorLogic> = {}) {
  const spies = { navigate: vi.fn(), clearResetToken: vi.fn(), notify: vi.fn() };
  const io = {
    requestPasswordOtp: vi.fn(async (_: unknown) => ({ success: true, message: '', errorMessage: '' })),
    generateOtp: vi.fn(async (_: unknown) => ({ success: true, message: '', obscureMobileNumber: '******4321' })),
    verifyOtp: vi.fn(async (_: unknown) => ({ success: true, message: '', accessToken: 'reset/token', v2ManagementApiEnabled: false })),
    resetPassword: vi.fn(async (_: unknown) => ({ success: true, message: '' })),
  };
  const clock = new SimulatedClock();
  const machine = forgotPasswordMachine.provide({
    actors: {
      requestPasswordOtp: fakeActor(io.requestPasswordOtp),
      generateOtp: fakeActor(io.generateOtp),
      verifyOtp: fakeActor(io.verifyOtp),
      resetPassword: fakeActor(io.resetPassword),
      ...overrides,
    },
    actions: {
      navigate: (_, params) => spies.navigate(params),
      clearResetToken: () => spies.clearResetToken(),
      notify: (_, params) => spies.notify(params),
    },
  });
  const actor = createActor(machine, { clock }).start();
  return { actor, clock, spies, io };
}

async function atForgotCode(overrides?: Record<string, AnyActorLogic>) {
  const started = start(overrides);
  started.actor.send({ type: 'forgot.submit', username: ' ada ' });
  await waitFor(started.actor, (s) => s.matches('code'));
  return started;
}

async function atNewPassword(overrides?: Record<string, AnyActorLogic>) {
  const started = await atForgotCode(overrides);
  started.actor.send({ type: 'otp.submit', otp: '123456' });
  await waitFor(started.actor, (s) => s.matches('newPassword'));
  return started;
}

describe('forgot password', () => {
  it('asks for a username before calling the server', () => {
    const { actor, io } = start();
    actor.send({ type: 'forgot.submit', username: ' ' });
    expect(selectError(actor.getSnapshot())).toBe(OWN_MESSAGES.usernameRequired);
    expect(io.requestPasswordOtp).not.toHaveBeenCalled();
  });

  it('sends the username and goes to /verify-number?forgot=true with a 30 s resend countdown', async () => {
    const { actor, io, spies } = await atForgotCode();
    expect(io.requestPasswordOtp).toHaveBeenCalledWith({ username: 'ada' });
    expect(spies.navigate).toHaveBeenCalledWith({ to: '/verify-number?forgot=true' });
    expect(spies.notify).toHaveBeenCalledWith({ message: OWN_MESSAGES.forgotPasswordAccepted, severity: 'success', durationMs: OTP_SNACKBAR_MS });
    expect(selectOtpStep(actor.getSnapshot())).toMatchObject({ resendInSeconds: OTP_RESEND_COOLDOWN_S, canResend: false });
  });

  it('shows the server error when the request is refused and stays on the username form', async () => {
    const { actor } = start({ requestPasswordOtp: fakeActor(async () => ({ success: false, message: 'x', errorMessage: 'Too many requests' })) });
    actor.send({ type: 'forgot.submit', username: 'ada' });
    await waitFor(actor, (s) => s.matches('idle') && s.context.error !== null);
    expect(selectError(actor.getSnapshot())).toBe('Too many requests');
  });

  it('verifies the code with isLogin false and opens /reset-password with the reset token', async () => {
    const { actor, io, spies } = await atNewPassword();
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '123456', isLogin: false });
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: `${ROUTES.resetPassword}?token=reset%2Ftoken` });
    expect(selectResetToken(actor.getSnapshot())).toBe('reset/token');
  });

  it('shows "OTP verification failed!" and stays on the code step', async () => {
    const { actor, spies } = await atForgotCode({
      verifyOtp: fakeActor(async () => ({ success: false, message: '', accessToken: '', v2ManagementApiEnabled: false })),
    });
    actor.send({ type: 'otp.submit', otp: '654321' });
    await waitFor(actor, (s) => selectOtpStep(s)?.error === MESSAGES.otpVerifyFailed);
    expect(spies.notify).toHaveBeenCalledWith({ message: MESSAGES.otpVerifyFailed, severity: 'error', durationMs: OTP_SNACKBAR_MS });
  });

  it('refuses a code that is not six digits', async () => {
    const { actor, io } = await atForgotCode();
    actor.send({ type: 'otp.submit', otp: '12 456' });
    expect(selectOtpStep(actor.getSnapshot())?.error).toBe(OWN_MESSAGES.otpFormat);
    expect(io.verifyOtp).not.toHaveBeenCalled();
  });

  it('resends only after the countdown, then says "OTP sent successfully!" and counts again', async () => {
    const { actor, clock, io, spies } = await atForgotCode();
    actor.send({ type: 'otp.resend' });
    expect(io.generateOtp).not.toHaveBeenCalled();
    advance(clock, 30_000);
    actor.send({ type: 'otp.resend' });
    await waitFor(actor, (s) => selectOtpStep(s)?.resendInSeconds === OTP_RESEND_COOLDOWN_S);
    expect(io.generateOtp).toHaveBeenCalledWith({ username: 'ada', isLogin: false });
    expect(spies.notify).toHaveBeenLastCalledWith({ message: MESSAGES.otpSent, severity: 'success', durationMs: OTP_SNACKBAR_MS });
  });

  it('says "OTP could not be sent!" when the resend fails', async () => {
    const { actor, clock, spies } = await atForgotCode({ generateOtp: fakeActor(async () => { throw new Error('down'); }) });
    advance(clock, 30_000);
    actor.send({ type: 'otp.resend' });
    await waitFor(actor, (s) => selectOtpStep(s)?.resending === false);
    expect(spies.notify).toHaveBeenLastCalledWith({ message: MESSAGES.otpNotSent, severity: 'error', durationMs: OTP_SNACKBAR_MS });
  });
});

describe('new password form', () => {
  it('lists the rules the typed password still misses', async () => {
    const { actor } = await atNewPassword();
    actor.send({ type: 'reset.edit', newPassword: 'abc', confirmPassword: '' });
    expect(selectPasswordFailures(actor.getSnapshot())).toEqual(['length', 'uppercase', 'digit', 'special']);
    expect(selectPasswordsMatch(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'reset.edit', newPassword: STRONG, confirmPassword: STRONG });
    expect(selectPasswordFailures(actor.getSnapshot())).toEqual([]);
    expect(selectPasswordsMatch(actor.getSnapshot())).toBe(true);
  });

  it('says "New Password and Confirm Password must match." for different passwords', async () => {
    const { actor, io } = await atNewPassword();
    actor.send({ type: 'reset.submit', newPassword: STRONG, confirmPassword: `${STRONG}x` });
    expect(selectError(actor.getSnapshot())).toBe(MESSAGES.passwordMismatch);
    expect(io.resetPassword).not.toHaveBeenCalled();
  });

  it('gives the complexity message for a weak password', async () => {
    const { actor } = await atNewPassword();
    actor.send({ type: 'reset.submit', newPassword: 'weakpass', confirmPassword: 'weakpass' });
    expect(selectError(actor.getSnapshot())).toBe(MESSAGES.passwordComplexity);
  });

  it('shows "Password reset failed!" when the server refuses, and keeps the form', async () => {
    const { actor, spies } = await atNewPassword({ resetPassword: fakeActor(async () => ({ success: false, message: '' })) });
    actor.send({ type: 'reset.submit', newPassword: STRONG, confirmPassword: STRONG });
    await waitFor(actor, (s) => s.matches({ newPassword: 'editing' }) && s.context.error !== null);
    expect(selectError(actor.getSnapshot())).toBe(MESSAGES.passwordResetFailed);
    expect(spies.notify).toHaveBeenLastCalledWith({ message: MESSAGES.passwordResetFailed, severity: 'error' });
  });

  it("shows the server's reason when it gives one", async () => {
    const { actor } = await atNewPassword({ resetPassword: fakeActor(async () => ({ success: false, message: OWN_MESSAGES.passwordMustDiffer })) });
    actor.send({ type: 'reset.submit', newPassword: STRONG, confirmPassword: STRONG });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(selectError(actor.getSnapshot())).toBe(OWN_MESSAGES.passwordMustDiffer);
  });

  it('shows "Password reset failed!" when the call itself fails', async () => {
    const { actor } = await atNewPassword({ resetPassword: fakeActor(async () => { throw new Error('Failed to fetch'); }) });
    actor.send({ type: 'reset.submit', newPassword: STRONG, confirmPassword: STRONG });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(selectError(actor.getSnapshot())).toBe(MESSAGES.passwordResetFailed);
  });

  it('resets with the token, clears it and goes to / with a success note', async () => {
    const { actor, io, spies } = await atNewPassword();
    actor.send({ type: 'reset.submit', newPassword: STRONG, confirmPassword: STRONG });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(io.resetPassword).toHaveBeenCalledWith({ token: 'reset/token', newPassword: STRONG, confirmPassword: STRONG });
    expect(spies.clearResetToken).toHaveBeenCalled();
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: ROUTES.login });
    expect(spies.notify).toHaveBeenLastCalledWith({ message: OWN_MESSAGES.passwordResetSuccess, severity: 'success' });
    expect(selectResetToken(actor.getSnapshot())).toBeNull();
  });

  it('opens the form from a link that carries the token', () => {
    const { actor } = start();
    actor.send({ type: 'reset.open', token: 'from-link' });
    expect(selectFlowStep(actor.getSnapshot())).toBe('newPassword');
    expect(selectResetToken(actor.getSnapshot())).toBe('from-link');
  });
});

describe('change password from the header', () => {
  const change = { type: 'change.start', username: 'ada', accessToken: 'tok', apiKey: 'key' } as const;

  it('sends a code with the user\'s token and key and opens the Verify OTP modal', async () => {
    const { actor, io, spies } = start();
    actor.send(change);
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => s.matches('code'));
    expect(io.generateOtp).toHaveBeenCalledWith({ username: 'ada', isLogin: false, credentials: { accessToken: 'tok', apiKey: 'key' } });
    expect(selectOtpStep(actor.getSnapshot())?.obscureMobileNumber).toBe('******4321');
    expect(spies.notify).toHaveBeenCalledWith({ message: MESSAGES.otpSent, severity: 'success', durationMs: OTP_SNACKBAR_MS });
  });

  it('goes to /forgot-password with the token after the code, closing the modal', async () => {
    const { actor, io, spies } = start();
    actor.send(change);
    await waitFor(actor, (s) => s.matches('code'));
    actor.send({ type: 'otp.submit', otp: '123456' });
    await waitFor(actor, (s) => s.matches('newPassword'));
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '123456', isLogin: false, credentials: { accessToken: 'tok', apiKey: 'key' } });
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: `${ROUTES.forgotPassword}?token=reset%2Ftoken` });
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(false);
  });

  /** The password machine under a stand-in `auth` system actor that records 'auth.signedOut'. */
  function underAuthProbe() {
    const clearSession = vi.fn();
    const signedOut = vi.fn();
    const navigate = vi.fn();
    const flow = forgotPasswordMachine.provide({
      actors: {
        requestPasswordOtp: fakeActor(async () => ({ success: true, message: '', errorMessage: '' })),
        generateOtp: fakeActor(async () => ({ success: true, message: '', obscureMobileNumber: '******4321' })),
        verifyOtp: fakeActor(async () => ({ success: true, message: '', accessToken: 'rt', v2ManagementApiEnabled: false })),
        resetPassword: fakeActor(async () => ({ success: true, message: '' })),
      },
      actions: { clearSession: () => clearSession(), navigate: (_, params) => navigate(params) },
    });
    const auth = createActor(setup({ actors: { flow } }).createMachine({
      on: { 'auth.signedOut': { actions: () => signedOut() } },
      invoke: { src: 'flow', id: 'flow', systemId: 'passwordChange' },
    }), { systemId: 'auth' }).start();
    const actor = auth.system.get('passwordChange') as ActorRefFrom<typeof forgotPasswordMachine>;
    return { auth, actor, clearSession, signedOut, navigate };
  }

  it('after the reset, signs the browser out too (the server ended the session) and goes to /', async () => {
    const { auth, actor, clearSession, signedOut, navigate } = underAuthProbe();
    actor.send(change);
    await waitFor(actor, (s) => s.matches('code'));
    actor.send({ type: 'otp.submit', otp: '123456' });
    await waitFor(actor, (s) => s.matches('newPassword'));
    actor.send({ type: 'reset.submit', newPassword: STRONG, confirmPassword: STRONG });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(clearSession).toHaveBeenCalledTimes(1);
    expect(signedOut).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenLastCalledWith({ to: ROUTES.login });
    auth.stop();
  });

  it('the forgot flow leaves the browser session alone after its reset', async () => {
    const { auth, actor, clearSession, signedOut } = underAuthProbe();
    actor.send({ type: 'forgot.submit', username: 'ada' });
    await waitFor(actor, (s) => s.matches('code'));
    actor.send({ type: 'otp.submit', otp: '123456' });
    await waitFor(actor, (s) => s.matches('newPassword'));
    actor.send({ type: 'reset.submit', newPassword: STRONG, confirmPassword: STRONG });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(clearSession).not.toHaveBeenCalled();
    expect(signedOut).not.toHaveBeenCalled();
    auth.stop();
  });

  it('closes the modal on cancel and says "OTP could not be sent!" when no code goes out', async () => {
    const { actor } = start();
    actor.send(change);
    await waitFor(actor, (s) => s.matches('code'));
    actor.send({ type: 'otp.cancel' });
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(false);

    const failing = start({ generateOtp: fakeActor(async () => ({ success: false, message: '' })) });
    failing.actor.send(change);
    await waitFor(failing.actor, (s) => s.matches('idle'));
    expect(failing.spies.notify).toHaveBeenCalledWith({ message: MESSAGES.otpNotSent, severity: 'error', durationMs: OTP_SNACKBAR_MS });
  });
});

describe('forgot password machine: every path', () => {
  const events = [
    { type: 'forgot.submit', username: 'ada' },
    { type: 'forgot.submit', username: '' },
    { type: 'change.start', username: 'ada', accessToken: 'tok', apiKey: 'key' },
    { type: 'xstate.done.actor.requestPasswordOtp', output: { success: false, message: '', errorMessage: 'no' } },
    { type: 'xstate.done.actor.requestPasswordOtp', output: { success: true, message: '', errorMessage: '' } },
    { type: 'xstate.error.actor.requestPasswordOtp', error: new Error('down') },
    { type: 'xstate.done.actor.generateOtp', output: { success: false, message: '' } },
    { type: 'xstate.done.actor.generateOtp', output: { success: true, message: '', obscureMobileNumber: '**21' } },
    { type: 'xstate.error.actor.generateOtp', error: new Error('down') },
    { type: 'otp.submit', otp: '123456' },
    { type: 'otp.submit', otp: '1' },
    { type: 'otp.resend' },
    { type: 'otp.cancel' },
    { type: 'xstate.done.actor.verifyOtp', output: { success: false, message: '', accessToken: '', v2ManagementApiEnabled: false } },
    { type: 'xstate.done.actor.verifyOtp', output: { success: true, message: '', accessToken: 'rt', v2ManagementApiEnabled: false } },
    { type: 'xstate.error.actor.verifyOtp', error: new Error('down') },
    { type: 'xstate.done.actor.resendOtp', output: { success: false, message: '' } },
    { type: 'xstate.done.actor.resendOtp', output: { success: true, message: '' } },
    { type: 'xstate.error.actor.resendOtp', error: new Error('down') },
    { type: 'reset.open', token: 'rt' },
    { type: 'reset.edit', newPassword: STRONG, confirmPassword: STRONG },
    { type: 'reset.submit', newPassword: STRONG, confirmPassword: 'other' },
    { type: 'reset.submit', newPassword: 'weak', confirmPassword: 'weak' },
    { type: 'reset.submit', newPassword: STRONG, confirmPassword: STRONG },
    { type: 'xstate.done.actor.resetPassword', output: { success: false, message: '' } },
    { type: 'xstate.done.actor.resetPassword', output: { success: true, message: '' } },
    { type: 'xstate.error.actor.resetPassword', error: new Error('down') },
    ...delayedEvents(forgotPasswordMachine),
  ];
  const paths = coveringPaths(forgotPasswordMachine, { events });
  const coverage = createCoverage(forgotPasswordMachine);
  const pathLogic = forgotPasswordMachine.provide({
    actors: { requestPasswordOtp: pendingActor(), generateOtp: pendingActor(), verifyOtp: pendingActor(), resetPassword: pendingActor() },
  });

  it.each(paths.map((path) => [pathTitle(path), path] as const))('reaches %s', (_, path) => {
    expect(drivePath(pathLogic, path, { inspect: coverage.inspect }).value).toEqual(path.state.value);
  });

  it('covers every state and every transition of the machine', () => {
    const report = coverage.report();
    expect(report.states.missing).toEqual([]);
    expect(report.transitions.missing).toEqual([]);
  });
});
