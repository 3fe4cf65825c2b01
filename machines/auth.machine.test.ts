import { describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { OTP_RESEND_COOLDOWN_S, OTP_SNACKBAR_MS, ROUTES } from '../src/config';
import { MESSAGES, OWN_MESSAGES } from '../src/messages';
import {
  authMachine, selectIsSignedIn, selectIsSocialSigningIn, selectIsSubmitting, selectLandingRoute, selectLoginError, selectOtpStep,
  selectIsRestoring, selectRoles, selectSession, type AuthInput,
} from './auth.machine';
import type { Session } from './auth.types';
import { accessFlagsFor } from './roles';
import { createCoverage } from './test-support/coverage';
import { fakeActor, pendingActor } from './test-support/fakes';
import { jwtWith, loginResponse, siteProfile } from './test-support/fixtures';
import { coveringPaths, delayedEvents, drivePath, pathTitle } from './test-support/paths';
import { advance } from './test-support/time';

const config: AuthInput = { analyticsAllowedSites: ['analytics-site'], encodingDisabledSite: 'no-encoding-site' };
const token = jwtWith({ exp: 2_000_000_000 });

const storedSession: Session = {
  accessToken: 'stored', apiKey: 'key', site: 'demo-site', username: 'ada', roles: { Content: 'read' },
  accessFlags: accessFlagsFor({ Content: 'read' }), encodingEnabled: true, profile: null,
};

function start(overrides: Partial<Parameters<typeof authMachine.provide>[0]['actors']> = {}) {
  const spies = {
    navigate: vi.fn(), storeOtpUsername: vi.fn(), storeSession: vi.fn(), notify: vi.fn(),
  };
  const io = {
    readStoredSession: vi.fn(async (): Promise<Session | null> => null),
    readPendingTwoFactor: vi.fn(async (): Promise<{ username: string; obscureMobileNumber: string } | null> => null),
    getDeviceId: vi.fn(async () => 'device-1' as string | undefined),
    login: vi.fn(async (_: unknown) => loginResponse({ accessToken: token })),
    socialSignIn: vi.fn(async (_: unknown) => loginResponse({ accessToken: token })),
    verifyOtp: vi.fn(async (_: unknown) => ({ success: true, message: '', accessToken: token, v2ManagementApiEnabled: true })),
    generateOtp: vi.fn(async (_: unknown) => ({ success: true, message: '' })),
    fetchProfile: vi.fn(async (_: unknown) => ({ profile: siteProfile(), fetchedAt: 1000 })),
  };
  const clock = new SimulatedClock();
  const machine = authMachine.provide({
    actors: {
      readStoredSession: fakeActor(io.readStoredSession),
      readPendingTwoFactor: fakeActor(io.readPendingTwoFactor),
      getDeviceId: fakeActor(io.getDeviceId),
      login: fakeActor(io.login),
      socialSignIn: fakeActor(io.socialSignIn),
      verifyOtp: fakeActor(io.verifyOtp),
      generateOtp: fakeActor(io.generateOtp),
      fetchProfile: fakeActor(io.fetchProfile),
      ...overrides,
    },
    actions: {
      navigate: (_, params) => spies.navigate(params),
      storeOtpUsername: (_, params) => spies.storeOtpUsername(params),
      storeSession: (_, params) => spies.storeSession(params),
      notify: (_, params) => spies.notify(params),
    },
  });
  const actor = createActor(machine, { input: config, clock }).start();
  return { actor, clock, spies, io };
}

async function signedOut(overrides?: Parameters<typeof start>[0]) {
  const started = start(overrides);
  await waitFor(started.actor, (s) => s.matches({ signedOut: 'idle' }) && s.context.deviceId !== undefined);
  return started;
}

async function atCodeStep() {
  const started = await signedOut({
    login: fakeActor(async () => loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '******6789', username: 'ada', accessToken: '' })),
  });
  started.actor.send({ type: 'login.submit', username: 'ada', password: 'secret' });
  await waitFor(started.actor, (s) => selectOtpStep(s) !== null);
  return started;
}

describe('auth machine: restoring', () => {
  it('opens signed in with the stored session, without calling the server', async () => {
    const { actor, io } = start({ readStoredSession: fakeActor(async () => storedSession) });
    await waitFor(actor, selectIsSignedIn);
    expect(selectSession(actor.getSnapshot())).toEqual(storedSession);
    expect(io.login).not.toHaveBeenCalled();
  });

  it('is signed out when nothing is stored, or when reading the store fails', async () => {
    await signedOut();
    const { actor } = start({ readStoredSession: fakeActor(async () => { throw new Error('storage blocked'); }) });
    await waitFor(actor, (s) => s.matches('signedOut'));
  });
});

describe('auth machine: credentials', () => {
  it('sends the credentials with the device id and disables submit while waiting', async () => {
    const { actor, io } = await signedOut({ login: pendingActor() });
    actor.send({ type: 'login.submit', username: ' ada ', password: 'secret' });
    expect(selectIsSubmitting(actor.getSnapshot())).toBe(true);
    const { actor: other, io: otherIo } = await signedOut();
    other.send({ type: 'login.submit', username: ' ada ', password: 'secret' });
    await waitFor(other, selectIsSignedIn);
    expect(otherIo.login).toHaveBeenCalledWith({ username: 'ada', password: 'secret', deviceId: 'device-1' });
    expect(io.login).not.toHaveBeenCalled();
  });

  it('asks for a username or a password before calling the server', async () => {
    const { actor, io } = await signedOut();
    actor.send({ type: 'login.submit', username: '  ', password: 'x' });
    expect(selectLoginError(actor.getSnapshot())).toBe(OWN_MESSAGES.usernameRequired);
    actor.send({ type: 'login.submit', username: 'ada', password: '' });
    expect(selectLoginError(actor.getSnapshot())).toBe(OWN_MESSAGES.passwordRequired);
    expect(io.login).not.toHaveBeenCalled();
  });

  it('shows the server message when success is false and stays on the sign-in form', async () => {
    const { actor, spies } = await signedOut({
      login: fakeActor(async () => loginResponse({ success: false, message: 'Invalid username or password.' })),
    });
    actor.send({ type: 'login.submit', username: 'ada', password: 'wrong' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }) && s.context.error !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe('Invalid username or password.');
    expect(spies.notify).toHaveBeenCalledWith({ message: 'Invalid username or password.', severity: 'error' });
    expect(spies.navigate).not.toHaveBeenCalled();
  });

  it('says the server is unreachable when the login call fails in transport', async () => {
    const { actor } = await signedOut({ login: fakeActor(async () => { throw Object.assign(new Error('Failed to fetch'), { status: 0 }); }) });
    actor.send({ type: 'login.submit', username: 'ada', password: 'x' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe(OWN_MESSAGES.serverUnavailable);
  });

  it('stores the session with the token expiry, drops Dashboard 360 off the allowed sites and lands on the first allowed area', async () => {
    const { actor, spies, io } = await signedOut({
      fetchProfile: fakeActor(async () => ({
        profile: siteProfile({ site: 'no-encoding-site', roles: { 'Dashboard 360': 'read', 'Customer Support': 'write' } }),
        fetchedAt: 1000,
      })),
    });
    actor.send({ type: 'login.submit', username: 'ada', password: 'secret' });
    await waitFor(actor, selectIsSignedIn);
    expect(io.fetchProfile).not.toHaveBeenCalled();
    const [{ session, expiresAt }] = spies.storeSession.mock.calls[0]!;
    expect(expiresAt).toBe(2_000_000_000_000);
    expect(session).toMatchObject({
      accessToken: token, apiKey: 'key-1', site: 'no-encoding-site', roles: { 'Customer Support': 'write' },
      accessFlags: { adminAccess: false, contentAccess: false, subOfferAccess: false, custAccess: true }, encodingEnabled: false,
    });
    expect(spies.navigate).toHaveBeenCalledWith({ to: ROUTES.users });
    expect(selectLandingRoute(actor.getSnapshot())).toBe(ROUTES.users);
    expect(selectRoles(actor.getSnapshot())).toEqual({ 'Customer Support': 'write' });
  });

  it('keeps Dashboard 360 on an allowed site and lands on /analytics', async () => {
    const { actor, spies } = await signedOut({
      fetchProfile: fakeActor(async () => ({ profile: siteProfile({ site: 'analytics-site', roles: { 'Dashboard 360': 'read' } }), fetchedAt: 0 })),
    });
    actor.send({ type: 'login.submit', username: 'ada', password: 'secret' });
    await waitFor(actor, selectIsSignedIn);
    expect(spies.navigate).toHaveBeenCalledWith({ to: ROUTES.analytics });
  });

  it('goes back to the sign-in form with a message when the profile cannot be read', async () => {
    const { actor, spies } = await signedOut({ fetchProfile: fakeActor(async () => { throw new Error('Unauthorized'); }) });
    actor.send({ type: 'login.submit', username: 'ada', password: 'secret' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }) && s.context.error !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe('Unauthorized');
    expect(selectSession(actor.getSnapshot())).toBeNull();
    expect(spies.storeSession).not.toHaveBeenCalled();
  });
});

describe('auth machine: social sign-in', () => {
  it('runs the provider with the device id, then continues exactly like a password login', async () => {
    const { actor, io, spies } = await signedOut({ socialSignIn: pendingActor() });
    actor.send({ type: 'login.social', provider: 'google' });
    expect(selectIsSocialSigningIn(actor.getSnapshot())).toBe(true);
    expect(selectIsSubmitting(actor.getSnapshot())).toBe(false);
    const other = await signedOut();
    other.actor.send({ type: 'login.social', provider: 'microsoft' });
    await waitFor(other.actor, selectIsSignedIn);
    expect(other.io.socialSignIn).toHaveBeenCalledWith({ provider: 'microsoft', deviceId: 'device-1' });
    expect(other.io.fetchProfile).toHaveBeenCalledWith({ accessToken: token });
    expect(other.spies.storeSession).toHaveBeenCalledTimes(1);
    expect(other.spies.navigate).toHaveBeenCalledWith({ to: ROUTES.content });
    expect(io.login).not.toHaveBeenCalled();
    expect(spies.navigate).not.toHaveBeenCalled();
  });

  it('honours the SMS second factor of a social login', async () => {
    const { actor, spies } = await signedOut({
      socialSignIn: fakeActor(async () => loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '******4321', username: 'tess', accessToken: '' })),
    });
    actor.send({ type: 'login.social', provider: 'google' });
    await waitFor(actor, (s) => selectOtpStep(s) !== null);
    expect(spies.storeOtpUsername).toHaveBeenCalledWith({ username: 'tess', obscureMobileNumber: '******4321' });
    expect(spies.navigate).toHaveBeenCalledWith({ to: ROUTES.verifyNumber });
    actor.send({ type: 'otp.submit', otp: '123456' });
    await waitFor(actor, selectIsSignedIn);
  });

  it("shows the server's refusal (an unknown person) on the sign-in form", async () => {
    const { actor, spies } = await signedOut({
      socialSignIn: fakeActor(async () => loginResponse({ success: false, message: OWN_MESSAGES.socialAccountNotLinked })),
    });
    actor.send({ type: 'login.social', provider: 'google' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }) && s.context.error !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe(OWN_MESSAGES.socialAccountNotLinked);
    expect(spies.notify).toHaveBeenCalledWith({ message: OWN_MESSAGES.socialAccountNotLinked, severity: 'error' });
  });

  it('maps identity-provider error codes through the spec table', async () => {
    const { actor, spies } = await signedOut({
      socialSignIn: fakeActor(async () => { throw Object.assign(new Error('Firebase: Error (auth/popup-closed-by-user).'), { code: 'auth/popup-closed-by-user' }); }),
    });
    actor.send({ type: 'login.social', provider: 'microsoft' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe('User closed the popup before completing authentication.');
    expect(spies.notify).toHaveBeenCalledWith({ message: 'User closed the popup before completing authentication.', severity: 'error' });
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
  });

  it('clears an earlier error when a social sign-in starts', async () => {
    const { actor } = await signedOut({ socialSignIn: pendingActor() });
    actor.send({ type: 'login.submit', username: '', password: 'x' });
    expect(selectLoginError(actor.getSnapshot())).toBe(OWN_MESSAGES.usernameRequired);
    actor.send({ type: 'login.social', provider: 'google' });
    expect(selectLoginError(actor.getSnapshot())).toBeNull();
  });
});

describe('auth machine: SMS second factor', () => {
  it('stores the username, goes to /verify-number and shows the masked number with a 30 s countdown', async () => {
    const { actor, spies } = await atCodeStep();
    expect(spies.storeOtpUsername).toHaveBeenCalledWith({ username: 'ada', obscureMobileNumber: '******6789' });
    expect(spies.navigate).toHaveBeenCalledWith({ to: ROUTES.verifyNumber });
    expect(selectOtpStep(actor.getSnapshot())).toMatchObject({
      obscureMobileNumber: '******6789', resendInSeconds: OTP_RESEND_COOLDOWN_S, canResend: false, verifying: false,
    });
  });

  it('counts down each second and allows Resend Code only after 30 s', async () => {
    const { actor, clock, io } = await atCodeStep();
    advance(clock, 3000);
    expect(selectOtpStep(actor.getSnapshot())?.resendInSeconds).toBe(27);
    actor.send({ type: 'otp.resend' });
    expect(io.generateOtp).not.toHaveBeenCalled();
    advance(clock, 27_000);
    expect(selectOtpStep(actor.getSnapshot())).toMatchObject({ resendInSeconds: 0, canResend: true });
  });

  it('shows "OTP sent successfully!" after a resend and restarts the countdown', async () => {
    const { actor, clock, io, spies } = await atCodeStep();
    advance(clock, 30_000);
    actor.send({ type: 'otp.resend' });
    await waitFor(actor, (s) => selectOtpStep(s)?.resendInSeconds === OTP_RESEND_COOLDOWN_S);
    expect(io.generateOtp).toHaveBeenCalledWith({ username: 'ada', isLogin: true });
    expect(spies.notify).toHaveBeenCalledWith({ message: MESSAGES.otpSent, severity: 'success', durationMs: OTP_SNACKBAR_MS });
    advance(clock, 1000);
    expect(selectOtpStep(actor.getSnapshot())?.resendInSeconds).toBe(29);
  });

  it('shows "OTP could not be sent!" when the resend fails and keeps Resend Code available', async () => {
    const { actor, clock, spies } = await signedOut({
      login: fakeActor(async () => loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '**12' })),
      generateOtp: fakeActor(async () => ({ success: false, message: 'rate limited' })),
    });
    actor.send({ type: 'login.submit', username: 'ada', password: 'secret' });
    await waitFor(actor, (s) => selectOtpStep(s) !== null);
    advance(clock, 30_000);
    actor.send({ type: 'otp.resend' });
    expect(selectOtpStep(actor.getSnapshot())?.resending).toBe(true);
    await waitFor(actor, (s) => selectOtpStep(s)?.resending === false);
    expect(spies.notify).toHaveBeenCalledWith({ message: MESSAGES.otpNotSent, severity: 'error', durationMs: OTP_SNACKBAR_MS });
    expect(selectOtpStep(actor.getSnapshot())?.canResend).toBe(true);
  });

  it('refuses a code that is not six digits without calling the server', async () => {
    const { actor, io } = await atCodeStep();
    for (const otp of ['12345', '1234567', '12a456', '']) {
      actor.send({ type: 'otp.submit', otp });
      expect(selectOtpStep(actor.getSnapshot())?.error).toBe(OWN_MESSAGES.otpFormat);
    }
    expect(io.verifyOtp).not.toHaveBeenCalled();
  });

  it('shows "OTP verification failed!" and stays on the code step', async () => {
    const { actor, spies } = await signedOut({
      login: fakeActor(async () => loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '**12' })),
      verifyOtp: fakeActor(async () => ({ success: false, message: 'wrong', accessToken: '', v2ManagementApiEnabled: false })),
    });
    actor.send({ type: 'login.submit', username: 'ada', password: 'secret' });
    await waitFor(actor, (s) => selectOtpStep(s) !== null);
    actor.send({ type: 'otp.submit', otp: '000000' });
    expect(selectOtpStep(actor.getSnapshot())?.verifying).toBe(true);
    await waitFor(actor, (s) => selectOtpStep(s)?.verifying === false);
    expect(spies.notify).toHaveBeenCalledWith({ message: MESSAGES.otpVerifyFailed, severity: 'error', durationMs: OTP_SNACKBAR_MS });
    expect(selectOtpStep(actor.getSnapshot())?.error).toBe(MESSAGES.otpVerifyFailed);
  });

  it('verifies the code with isLogin true, then loads the profile and lands', async () => {
    const { actor, io, spies } = await atCodeStep();
    actor.send({ type: 'otp.submit', otp: '123456' });
    await waitFor(actor, selectIsSignedIn);
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '123456', isLogin: true, deviceId: 'device-1' });
    expect(io.fetchProfile).toHaveBeenCalledWith({ accessToken: token });
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: ROUTES.content });
    expect(selectOtpStep(actor.getSnapshot())).toBeNull();
  });
});

describe('auth machine: signing out', () => {
  it('forgets the session when told auth.signedOut', async () => {
    const { actor } = start({ readStoredSession: fakeActor(async () => storedSession) });
    await waitFor(actor, selectIsSignedIn);
    actor.send({ type: 'auth.signedOut' });
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(selectSession(actor.getSnapshot())).toBeNull();
    expect(selectLandingRoute(actor.getSnapshot())).toBe(ROUTES.login);
  });
});

describe('auth machine: a reload during the SMS code step', () => {
  it('returns to the code step with the masked number when a sign-in was waiting for its code', async () => {
    const { actor } = start({ readPendingTwoFactor: fakeActor(async () => ({ username: 'ada', obscureMobileNumber: '******4321' })) });
    await waitFor(actor, (s) => !selectIsRestoring(s));
    expect(selectOtpStep(actor.getSnapshot())).toMatchObject({ obscureMobileNumber: '******4321', canResend: false });
  });

  it('lands on the sign-in form when nothing was waiting', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => !selectIsRestoring(s));
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
  });
});

describe('auth machine: every path', () => {
  const outcomes = [
    { type: 'xstate.done.actor.readStoredSession', output: storedSession },
    { type: 'xstate.done.actor.readStoredSession', output: null },
    { type: 'xstate.error.actor.readStoredSession', error: new Error('blocked') },
    { type: 'xstate.done.actor.readPendingTwoFactor', output: { username: 'ada', obscureMobileNumber: '**12' } },
    { type: 'xstate.done.actor.readPendingTwoFactor', output: null },
    { type: 'xstate.error.actor.readPendingTwoFactor', error: new Error('blocked') },
    { type: 'xstate.done.actor.getDeviceId', output: 'device-1' },
    { type: 'login.submit', username: 'ada', password: 'secret' },
    { type: 'login.submit', username: '', password: 'secret' },
    { type: 'login.submit', username: 'ada', password: '' },
    { type: 'xstate.done.actor.login', output: loginResponse({ success: false, message: 'no' }) },
    { type: 'xstate.done.actor.login', output: loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '**12' }) },
    { type: 'xstate.done.actor.login', output: loginResponse({ accessToken: token }) },
    { type: 'xstate.error.actor.login', error: new Error('down') },
    { type: 'login.social', provider: 'google' },
    { type: 'xstate.done.actor.socialSignIn', output: loginResponse({ success: false, message: 'no' }) },
    { type: 'xstate.done.actor.socialSignIn', output: loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '**12' }) },
    { type: 'xstate.done.actor.socialSignIn', output: loginResponse({ accessToken: token }) },
    { type: 'xstate.error.actor.socialSignIn', error: Object.assign(new Error('closed'), { code: 'auth/popup-closed-by-user' }) },
    { type: 'otp.submit', otp: '123456' },
    { type: 'otp.submit', otp: '12' },
    { type: 'otp.resend' },
    { type: 'xstate.done.actor.verifyOtp', output: { success: false, message: '', accessToken: '', v2ManagementApiEnabled: false } },
    { type: 'xstate.done.actor.verifyOtp', output: { success: true, message: '', accessToken: token, v2ManagementApiEnabled: true } },
    { type: 'xstate.error.actor.verifyOtp', error: new Error('down') },
    { type: 'xstate.done.actor.generateOtp', output: { success: false, message: '' } },
    { type: 'xstate.done.actor.generateOtp', output: { success: true, message: '' } },
    { type: 'xstate.error.actor.generateOtp', error: new Error('down') },
    { type: 'xstate.done.actor.fetchProfile', output: { profile: siteProfile(), fetchedAt: 0 } },
    { type: 'xstate.error.actor.fetchProfile', error: new Error('down') },
    { type: 'auth.signedOut' },
    ...delayedEvents(authMachine),
  ];
  const paths = coveringPaths(authMachine, { events: outcomes, input: config });
  const coverage = createCoverage(authMachine);
  const pathLogic = authMachine.provide({
    actors: {
      readStoredSession: pendingActor(), readPendingTwoFactor: pendingActor(), getDeviceId: pendingActor(), login: pendingActor(), socialSignIn: pendingActor(), verifyOtp: pendingActor(),
      generateOtp: pendingActor(), fetchProfile: pendingActor(),
    },
  });

  it.each(paths.map((path) => [pathTitle(path), path] as const))('reaches %s', (_, path) => {
    const snapshot = drivePath(pathLogic, path, { input: config, inspect: coverage.inspect });
    expect(snapshot.value).toEqual(path.state.value);
  });

  it('covers every state and every transition of the machine', () => {
    const report = coverage.report();
    expect(report.states.missing).toEqual([]);
    expect(report.transitions.missing).toEqual([]);
  });
});
