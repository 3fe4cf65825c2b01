import { describe, expect, it, vi } from 'vitest';
import { waitFor, type AnyActorLogic } from 'xstate';
import { OTP_RESEND_COOLDOWN_S, OTP_SNACKBAR_MS, ROUTES } from '../common/constants';
import { ACCOUNT_MESSAGES, MESSAGES, OWN_MESSAGES } from '../common/messages';
import { accessFlagsFor } from '../common/roles';
import type { Session } from './auth.types';
import {
  forgotPasswordMachine, selectAsksCurrentPassword, selectCanChangePassword, selectCurrentPassword, selectDraft, selectError, selectFlowStep, selectIsOtpModalOpen,
  selectOtpStepActor, selectPasswordFailures, selectPasswordsMatch, selectResetToken, type ForgotPasswordSnapshot,
  selectHasLeftForm, selectIsConfirmingLeave,
} from './forgot-password.machine';
import { otpStepMachine, selectIsAskingToClose, selectOtpPanel } from './otp-step.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { delayedEvents } from './test-harness/paths';
import { startInSystem } from './test-harness/system';

const STRONG = 'Str0ng!pass';
const session: Session = {
  accessToken: 'tok', apiKey: 'key', site: 'demo-site', username: 'ada', roles: { Content: 'read' },
  accessFlags: accessFlagsFor({ Content: 'read' }), encodingEnabled: true, profile: null,
};

function otpPanel(snapshot: ForgotPasswordSnapshot) {
  const otp = selectOtpStepActor(snapshot);
  return otp ? selectOtpPanel(otp.getSnapshot()) : null;
}

function start(overrides: Record<string, AnyActorLogic> = {}, systemId = 'passwordReset') {
  const spies = { navigate: vi.fn(), clearSession: vi.fn() };
  const io = {
    requestPasswordOtp: vi.fn(async (_: unknown) => ({ success: true, message: '', errorMessage: '' })),
    generateOtp: vi.fn(async (_: unknown) => ({ success: true, message: '', obscureMobileNumber: '******4321' })),
    verifyOtp: vi.fn(async (_: unknown) => ({ success: true, message: '', accessToken: 'reset/token', v2ManagementApiEnabled: false })),
    resetPassword: vi.fn(async (_: unknown) => ({ success: true, message: '' })),
  };
  const { verifyOtp, ...own } = overrides;
  const machine = forgotPasswordMachine.provide({
    actors: {
      requestPasswordOtp: fakeActor(io.requestPasswordOtp),
      generateOtp: fakeActor(io.generateOtp),
      otpStep: otpStepMachine.provide({ actors: { verifyOtp: verifyOtp ?? fakeActor(io.verifyOtp), generateOtp: fakeActor(io.generateOtp) } }),
      resetPassword: fakeActor(io.resetPassword),
      ...own,
    },
    actions: {
      navigate: (_, params) => spies.navigate(params),
      clearSession: () => spies.clearSession(),
    },
  });
  const run = startInSystem(machine, { systemId });
  const notified = () => run.sentTo('notifier').map(({ type: _type, ...params }) => params);
  /** Types a code into the running code step and confirms it. */
  const enterCode = (code: string) => {
    const otp = selectOtpStepActor(run.actor.getSnapshot());
    otp?.send({ type: 'otp.edit', code });
    otp?.send({ type: 'otp.submit' });
  };
  return { ...run, spies, io, notified, enterCode };
}

async function atForgotCode(overrides?: Record<string, AnyActorLogic>) {
  const started = start(overrides);
  started.actor.send({ type: 'forgot.submit', username: ' ada ' });
  await waitFor(started.actor, (s) => s.matches('code'));
  return started;
}

async function atNewPassword(overrides?: Record<string, AnyActorLogic>) {
  const started = await atForgotCode(overrides);
  started.enterCode('123456');
  await waitFor(started.actor, (s) => s.matches('newPassword'));
  return started;
}

/** Types both fields (the form sends reset.edit on each keystroke), then submits. */
function submitPasswords(actor: ReturnType<typeof start>['actor'], newPassword: string, confirmPassword: string) {
  actor.send({ type: 'reset.edit', newPassword, confirmPassword });
  actor.send({ type: 'reset.submit' });
}

describe('forgot password', () => {
  it('asks for a username before calling the server', () => {
    const { actor, io } = start();
    actor.send({ type: 'forgot.submit', username: ' ' });
    expect(selectError(actor.getSnapshot())).toBe(OWN_MESSAGES.usernameRequired);
    expect(io.requestPasswordOtp).not.toHaveBeenCalled();
  });

  it('sends the username and goes to /verify-number?forgot=true with a 30 s resend countdown', async () => {
    const { actor, io, spies, notified } = await atForgotCode();
    expect(io.requestPasswordOtp).toHaveBeenCalledWith({ username: 'ada' });
    expect(spies.navigate).toHaveBeenCalledWith({ to: '/verify-number?forgot=true' });
    expect(notified()).toContainEqual({ message: OWN_MESSAGES.forgotPasswordAccepted, severity: 'success', durationMs: OTP_SNACKBAR_MS });
    expect(otpPanel(actor.getSnapshot())).toMatchObject({ resendInSeconds: OTP_RESEND_COOLDOWN_S, canResend: false });
  });

  it('shows the server error when the request is refused and stays on the username form', async () => {
    const { actor } = start({ requestPasswordOtp: fakeActor(async () => ({ success: false, message: 'x', errorMessage: 'Too many requests' })) });
    actor.send({ type: 'forgot.submit', username: 'ada' });
    await waitFor(actor, (s) => s.matches('idle') && s.context.error !== null);
    expect(selectError(actor.getSnapshot())).toBe('Too many requests');
  });

  it('says the server is unreachable when the request fails in transport', async () => {
    const { actor, notified } = start({ requestPasswordOtp: fakeActor(async () => { throw new Error('Failed to fetch'); }) });
    actor.send({ type: 'forgot.submit', username: 'ada' });
    await waitFor(actor, (s) => s.matches('idle') && s.context.error !== null);
    expect(notified()).toEqual([{ message: 'Failed to fetch', severity: 'error' }]);
  });

  it('verifies the code with isLogin false (through the code step) and opens /reset-password with the reset token', async () => {
    const { actor, io, spies } = await atNewPassword();
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '123456', isLogin: false });
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: `${ROUTES.resetPassword}?token=reset%2Ftoken` });
    expect(selectResetToken(actor.getSnapshot())).toBe('reset/token');
  });

  it('stays on the code step with "OTP verification failed!" when the code is refused', async () => {
    const { actor, enterCode, notified } = await atForgotCode({
      verifyOtp: fakeActor(async () => ({ success: false, message: '', accessToken: '', v2ManagementApiEnabled: false })),
    });
    const otp = selectOtpStepActor(actor.getSnapshot());
    enterCode('654321');
    await waitFor(otp!, (s) => selectOtpPanel(s).error === MESSAGES.otpVerifyFailed);
    expect(notified()).toContainEqual({ message: MESSAGES.otpVerifyFailed, severity: 'error', durationMs: OTP_SNACKBAR_MS });
    expect(selectFlowStep(actor.getSnapshot())).toBe('code');
  });
});

describe('new password form', () => {
  it('keeps the draft and lists the rules the typed password still misses', async () => {
    const { actor } = await atNewPassword();
    actor.send({ type: 'reset.edit', newPassword: 'abc', confirmPassword: '' });
    expect(selectDraft(actor.getSnapshot())).toEqual({ newPassword: 'abc', confirmPassword: '' });
    expect(selectPasswordFailures(actor.getSnapshot())).toEqual(['length', 'uppercase', 'digit', 'special']);
    expect(selectPasswordsMatch(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'reset.edit', newPassword: STRONG, confirmPassword: STRONG });
    expect(selectPasswordFailures(actor.getSnapshot())).toEqual([]);
    expect(selectPasswordsMatch(actor.getSnapshot())).toBe(true);
  });

  it('says "New Password and Confirm Password must match." for different passwords', async () => {
    const { actor, io } = await atNewPassword();
    submitPasswords(actor, STRONG, `${STRONG}x`);
    expect(selectError(actor.getSnapshot())).toBe(MESSAGES.passwordMismatch);
    expect(io.resetPassword).not.toHaveBeenCalled();
  });

  it('gives the complexity message for a weak password', async () => {
    const { actor } = await atNewPassword();
    submitPasswords(actor, 'weakpass', 'weakpass');
    expect(selectError(actor.getSnapshot())).toBe(MESSAGES.passwordComplexity);
  });

  it('shows "Password reset failed!" when the server refuses, and keeps the form', async () => {
    const { actor, notified } = await atNewPassword({ resetPassword: fakeActor(async () => ({ success: false, message: '' })) });
    submitPasswords(actor, STRONG, STRONG);
    await waitFor(actor, (s) => s.matches({ newPassword: 'editing' }) && s.context.error !== null);
    expect(selectError(actor.getSnapshot())).toBe(MESSAGES.passwordResetFailed);
    expect(notified().at(-1)).toEqual({ message: MESSAGES.passwordResetFailed, severity: 'error' });
  });

  it("shows the server's reason when it gives one", async () => {
    const { actor } = await atNewPassword({ resetPassword: fakeActor(async () => ({ success: false, message: OWN_MESSAGES.passwordMustDiffer })) });
    submitPasswords(actor, STRONG, STRONG);
    await waitFor(actor, (s) => s.context.error !== null);
    expect(selectError(actor.getSnapshot())).toBe(OWN_MESSAGES.passwordMustDiffer);
  });

  it('shows "Password reset failed!" when the call itself fails', async () => {
    const { actor } = await atNewPassword({ resetPassword: fakeActor(async () => { throw new Error('Failed to fetch'); }) });
    submitPasswords(actor, STRONG, STRONG);
    await waitFor(actor, (s) => s.context.error !== null);
    expect(selectError(actor.getSnapshot())).toBe(MESSAGES.passwordResetFailed);
  });

  it('resets with the token, forgets it and goes to / with a success note', async () => {
    const { actor, io, spies, notified } = await atNewPassword();
    submitPasswords(actor, STRONG, STRONG);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(io.resetPassword).toHaveBeenCalledWith({ token: 'reset/token', newPassword: STRONG, confirmPassword: STRONG });
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: ROUTES.login });
    expect(notified().at(-1)).toEqual({ message: OWN_MESSAGES.passwordResetSuccess, severity: 'success' });
    expect(selectResetToken(actor.getSnapshot())).toBeNull();
  });

  it('opens the form from a link that carries the token, and keeps the draft when the same token comes again', () => {
    const { actor } = start();
    actor.send({ type: 'reset.open', token: 'from-link' });
    expect(selectFlowStep(actor.getSnapshot())).toBe('newPassword');
    expect(selectResetToken(actor.getSnapshot())).toBe('from-link');
    actor.send({ type: 'reset.edit', newPassword: 'typed', confirmPassword: '' });
    actor.send({ type: 'reset.open', token: 'from-link' });
    expect(selectDraft(actor.getSnapshot()).newPassword).toBe('typed');
    actor.send({ type: 'reset.open', token: 'another' });
    expect(selectDraft(actor.getSnapshot()).newPassword).toBe('');
  });
});

describe('change password from the header', () => {
  function signedIn() {
    const started = start({}, 'passwordChange');
    started.actor.send({ type: 'account.changed', session });
    return started;
  }

  it('is offered only while someone is signed in', () => {
    const { actor, io } = start({}, 'passwordChange');
    expect(selectCanChangePassword(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'change.start' });
    expect(selectFlowStep(actor.getSnapshot())).toBe('idle');
    expect(io.generateOtp).not.toHaveBeenCalled();
    actor.send({ type: 'account.changed', session });
    expect(selectCanChangePassword(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'account.changed', session: null });
    expect(selectCanChangePassword(actor.getSnapshot())).toBe(false);
  });

  it("sends a code with the signed-in user's token and key and opens the Verify OTP modal", async () => {
    const { actor, io, notified } = signedIn();
    actor.send({ type: 'change.start' });
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (s) => s.matches('code'));
    expect(io.generateOtp).toHaveBeenCalledWith({ username: 'ada', isLogin: false, credentials: { accessToken: 'tok', apiKey: 'key' } });
    expect(otpPanel(actor.getSnapshot())?.obscureMobileNumber).toBe('******4321');
    expect(notified()).toContainEqual({ message: MESSAGES.otpSent, severity: 'success', durationMs: OTP_SNACKBAR_MS });
  });

  it('goes to /forgot-password with the token after the code, closing the modal', async () => {
    const { actor, io, spies, enterCode } = signedIn();
    actor.send({ type: 'change.start' });
    await waitFor(actor, (s) => s.matches('code'));
    enterCode('123456');
    await waitFor(actor, (s) => s.matches('newPassword'));
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '123456', isLogin: false, credentials: { accessToken: 'tok', apiKey: 'key' } });
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: `${ROUTES.forgotPassword}?token=reset%2Ftoken` });
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(false);
  });

  it('after the reset, signs the browser out too (the server ended the session) and goes to /', async () => {
    const { actor, spies, enterCode, sentTo } = signedIn();
    actor.send({ type: 'change.start' });
    await waitFor(actor, (s) => s.matches('code'));
    enterCode('123456');
    await waitFor(actor, (s) => s.matches('newPassword'));
    actor.send({ type: 'reset.current', currentPassword: 'Old!Pass123' });
    submitPasswords(actor, STRONG, STRONG);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(spies.clearSession).toHaveBeenCalledTimes(1);
    expect(sentTo('auth')).toEqual([{ type: 'auth.signedOut' }]);
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: ROUTES.login });
  });

  it('the forgot flow leaves the browser session alone after its reset', async () => {
    const { actor, spies, sentTo } = await atNewPassword();
    submitPasswords(actor, STRONG, STRONG);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(spies.clearSession).not.toHaveBeenCalled();
    expect(sentTo('auth')).toEqual([]);
  });

  it('asks for the current password (ASVS 6.2.3) and sends it with the new one; the forgot flow does not ask', async () => {
    const { actor, io, enterCode } = signedIn();
    actor.send({ type: 'change.start' });
    await waitFor(actor, (s) => s.matches('code'));
    enterCode('123456');
    await waitFor(actor, (s) => s.matches('newPassword'));
    expect(selectAsksCurrentPassword(actor.getSnapshot())).toBe(true);
    submitPasswords(actor, STRONG, STRONG);
    expect(selectError(actor.getSnapshot())).toBe(ACCOUNT_MESSAGES.currentPasswordRequired);
    expect(io.resetPassword).not.toHaveBeenCalled();
    actor.send({ type: 'reset.current', currentPassword: 'Old!Pass123' });
    expect(selectCurrentPassword(actor.getSnapshot())).toBe('Old!Pass123');
    actor.send({ type: 'reset.submit' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(io.resetPassword).toHaveBeenCalledWith({ token: 'reset/token', newPassword: STRONG, confirmPassword: STRONG, currentPassword: 'Old!Pass123' });
    expect(selectCurrentPassword(actor.getSnapshot())).toBe('');

    const forgot = await atNewPassword();
    expect(selectAsksCurrentPassword(forgot.actor.getSnapshot())).toBe(false);
    submitPasswords(forgot.actor, STRONG, STRONG);
    await waitFor(forgot.actor, (s) => s.matches('idle'));
    expect(forgot.io.resetPassword).toHaveBeenCalledWith({ token: 'reset/token', newPassword: STRONG, confirmPassword: STRONG });
  });

  it("shows the server's refusal of a wrong current password and keeps the form", async () => {
    const { actor, enterCode } = start({ resetPassword: fakeActor(async () => ({ success: false, message: ACCOUNT_MESSAGES.currentPasswordWrong })) }, 'passwordChange');
    actor.send({ type: 'account.changed', session });
    actor.send({ type: 'change.start' });
    await waitFor(actor, (s) => s.matches('code'));
    enterCode('123456');
    await waitFor(actor, (s) => s.matches('newPassword'));
    actor.send({ type: 'reset.current', currentPassword: 'Wrong!Pass1' });
    submitPasswords(actor, STRONG, STRONG);
    await waitFor(actor, (s) => s.matches({ newPassword: 'editing' }) && selectError(s) !== null);
    expect(selectError(actor.getSnapshot())).toBe(ACCOUNT_MESSAGES.currentPasswordWrong);
  });

  it('a reload of the change page (the token in its address) is the change flow again: it asks for the current password', () => {
    const { actor } = start({}, 'passwordChange');
    actor.send({ type: 'reset.open', token: 'from-address', mode: 'change' });
    expect(selectFlowStep(actor.getSnapshot())).toBe('newPassword');
    expect(selectAsksCurrentPassword(actor.getSnapshot())).toBe(true);
    expect(selectResetToken(actor.getSnapshot())).toBe('from-address');
  });

  it('closes the modal on cancel and says "OTP could not be sent!" when no code goes out', async () => {
    const { actor } = signedIn();
    actor.send({ type: 'change.start' });
    await waitFor(actor, (s) => s.matches('code'));
    actor.send({ type: 'otp.cancel' });
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(false);
    expect(selectCanChangePassword(actor.getSnapshot())).toBe(true);

    const failing = start({ generateOtp: fakeActor(async () => ({ success: false, message: '' })) }, 'passwordChange');
    failing.actor.send({ type: 'account.changed', session });
    failing.actor.send({ type: 'change.start' });
    await waitFor(failing.actor, (s) => s.matches('idle'));
    expect(failing.notified()).toEqual([{ message: MESSAGES.otpNotSent, severity: 'error', durationMs: OTP_SNACKBAR_MS }]);
  });
});

describe('change password: the Verify OTP modal asks before a typed code is lost (issue 38)', () => {
  it('Cancel with nothing typed closes it; with a code typed the step asks: Stay keeps the modal and the code, Leave closes it', async () => {
    const { actor } = start({}, 'passwordChange');
    actor.send({ type: 'account.changed', session });
    actor.send({ type: 'change.start' });
    await waitFor(actor, (s) => s.matches('code'));
    selectOtpStepActor(actor.getSnapshot())!.send({ type: 'otp.close' });
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(false);
    expect(selectFlowStep(actor.getSnapshot())).toBe('idle');

    actor.send({ type: 'change.start' });
    await waitFor(actor, (s) => s.matches('code'));
    const otp = selectOtpStepActor(actor.getSnapshot())!;
    otp.send({ type: 'otp.edit', code: '123' });
    otp.send({ type: 'otp.close' });
    expect(selectIsAskingToClose(otp.getSnapshot())).toBe(true);
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(true);
    otp.send({ type: 'otp.stay' });
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(true);
    expect(otpPanel(actor.getSnapshot())?.code).toBe('123');
    otp.send({ type: 'otp.close' });
    otp.send({ type: 'otp.leave' });
    expect(selectIsOtpModalOpen(actor.getSnapshot())).toBe(false);
    expect(selectFlowStep(actor.getSnapshot())).toBe('idle');
    expect(selectCanChangePassword(actor.getSnapshot())).toBe(true);
  });
});

describe('change password: asks before typed passwords are lost (issue 38)', () => {
  it('a navigation away with nothing typed passes; with any field typed it asks, Stay keeps them, Leave forgets the flow', () => {
    const { actor } = start({}, 'passwordChange');
    actor.send({ type: 'account.changed', session });
    actor.send({ type: 'reset.open', token: 'from-address', mode: 'change' });
    actor.send({ type: 'reset.navigate' });
    expect(selectIsConfirmingLeave(actor.getSnapshot())).toBe(false);
    expect(selectHasLeftForm(actor.getSnapshot())).toBe(false);
    for (const typed of [
      { type: 'reset.current', currentPassword: 'Old!Pass1' },
      { type: 'reset.edit', newPassword: 'N', confirmPassword: '' },
      { type: 'reset.edit', newPassword: '', confirmPassword: 'C' },
    ] as const) {
      actor.send({ type: 'reset.current', currentPassword: '' });
      actor.send({ type: 'reset.edit', newPassword: '', confirmPassword: '' });
      actor.send(typed);
      actor.send({ type: 'reset.navigate' });
      expect(selectIsConfirmingLeave(actor.getSnapshot())).toBe(true);
      actor.send({ type: 'reset.stay' });
      expect(actor.getSnapshot().matches({ newPassword: 'editing' })).toBe(true);
    }
    expect(selectDraft(actor.getSnapshot())).toEqual({ newPassword: '', confirmPassword: 'C' });
    actor.send({ type: 'reset.navigate' });
    actor.send({ type: 'reset.leave' });
    expect(selectHasLeftForm(actor.getSnapshot())).toBe(true);
    expect(selectResetToken(actor.getSnapshot())).toBeNull();
    expect(selectDraft(actor.getSnapshot())).toEqual({ newPassword: '', confirmPassword: '' });
    // The account stays: Change Password is offered again.
    expect(selectCanChangePassword(actor.getSnapshot())).toBe(true);
  });
});

describe('forgot password machine: every path', () => {
  const events = [
    { type: 'forgot.submit', username: 'ada' },
    { type: 'forgot.submit', username: '' },
    { type: 'account.changed', session },
    { type: 'account.changed', session: null },
    { type: 'change.start' },
    { type: 'xstate.done.actor.requestPasswordOtp', output: { success: false, message: '', errorMessage: 'no' } },
    { type: 'xstate.done.actor.requestPasswordOtp', output: { success: true, message: '', errorMessage: '' } },
    { type: 'xstate.error.actor.requestPasswordOtp', error: new Error('down') },
    { type: 'xstate.done.actor.generateOtp', output: { success: false, message: '' } },
    { type: 'xstate.done.actor.generateOtp', output: { success: true, message: '', obscureMobileNumber: '**21' } },
    { type: 'xstate.error.actor.generateOtp', error: new Error('down') },
    { type: 'otp.cancel' },
    { type: 'xstate.done.actor.otpStep', output: { accessToken: 'rt' } },
    { type: 'reset.open', token: 'rt' },
    { type: 'reset.open', token: 'other' },
    { type: 'reset.open', token: 'changed', mode: 'change' },
    { type: 'reset.current', currentPassword: 'Old!Pass123' },
    { type: 'reset.current', currentPassword: '' },
    { type: 'reset.edit', newPassword: STRONG, confirmPassword: STRONG },
    { type: 'reset.edit', newPassword: STRONG, confirmPassword: 'other' },
    { type: 'reset.edit', newPassword: 'weak', confirmPassword: 'weak' },
    { type: 'reset.submit' },
    { type: 'xstate.done.actor.resetPassword', output: { success: false, message: '' } },
    { type: 'xstate.done.actor.resetPassword', output: { success: true, message: '' } },
    { type: 'xstate.error.actor.resetPassword', error: new Error('down') },
    { type: 'reset.navigate' },
    { type: 'reset.stay' },
    { type: 'reset.leave' },
    ...delayedEvents(forgotPasswordMachine),
  ];
  const logic = forgotPasswordMachine.provide({
    actors: {
      requestPasswordOtp: pendingActor(), generateOtp: pendingActor(), resetPassword: pendingActor(),
      otpStep: otpStepMachine.provide({ actors: { verifyOtp: pendingActor(), generateOtp: pendingActor() } }),
    },
  });
  itReachesEveryStateAndTransition(forgotPasswordMachine, { events, logic });
});
