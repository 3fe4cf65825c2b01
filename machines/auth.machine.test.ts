import { describe, expect, it, vi } from 'vitest';
import { waitFor, type AnyActorLogic } from 'xstate';
import { OTP_RESEND_COOLDOWN_S, ROUTES } from '../common/constants';
import { OWN_MESSAGES } from '../common/messages';
import { TOTP_MESSAGES, TOTP_ROUTES } from '../common/totp';
import { MESSAGES } from '../common/messages';
import {
  authMachine, selectAuthenticatorStepActor, selectIsAuthenticatorStep, selectIsEnrolmentRequired, selectIsSignedIn, selectIsSocialSigningIn, selectIsSubmitting, selectLandingRoute, selectLoginError,
  selectOtpStepActor, selectIsRestoring, selectRoles, selectRouteDecision, selectSession, type AuthInput, type AuthSnapshot,
} from './auth.machine';
import type { AuthEvent, Session } from './auth.types';
import { otpStepMachine, selectOtpPanel } from './otp-step.machine';
import { authRestoreMachine } from './auth-restore.machine';
import { authenticatorStepMachine, selectAuthenticatorPanel } from './authenticator-step.machine';
import { accessFlagsFor } from '../common/roles';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';
import { jwtWith, loginResponse, siteProfile } from './test-harness/fixtures';
import { delayedEvents } from './test-harness/paths';
import { startInSystem } from './test-harness/system';

const config: AuthInput = { analyticsAllowedSites: ['analytics-site'], encodingDisabledSite: 'no-encoding-site' };
const token = jwtWith({ exp: 2_000_000_000 });

const storedSession: Session = {
  accessToken: 'stored', apiKey: 'key', site: 'demo-site', username: 'ada', roles: { Content: 'read' },
  accessFlags: accessFlagsFor({ Content: 'read' }), encodingEnabled: true, profile: null,
};

/** The code step's panel while a second factor is pending, else null. */
function otpPanel(snapshot: AuthSnapshot) {
  const otp = selectOtpStepActor(snapshot);
  return otp ? selectOtpPanel(otp.getSnapshot()) : null;
}

function start(overrides: Record<string, AnyActorLogic> = {}, otpOverrides: Record<string, AnyActorLogic> = {}) {
  const spies = { navigate: vi.fn(), storeOtpUsername: vi.fn(), storeSession: vi.fn(), prefetchLanding: vi.fn() };
  const io = {
    readStoredSession: vi.fn(async (): Promise<Session | null> => null),
    readPendingTwoFactor: vi.fn(async (): Promise<{ username: string; obscureMobileNumber: string } | null> => null),
    getDeviceId: vi.fn(async () => 'device-1' as string | undefined),
    login: vi.fn(async (_: unknown) => loginResponse({ accessToken: token })),
    socialSignIn: vi.fn(async (_: unknown) => loginResponse({ accessToken: token })),
    verifyOtp: vi.fn(async (_: unknown) => ({ success: true, message: '', accessToken: token, v2ManagementApiEnabled: true })),
    generateOtp: vi.fn(async (_: unknown) => ({ success: true, message: '' })),
    fetchProfile: vi.fn(async (_: unknown) => ({ profile: siteProfile(), fetchedAt: 1000 })),
    verifyAuthenticator: vi.fn(async (_: unknown) => ({ success: true, message: '', accessToken: token, v2ManagementApiEnabled: true })),
  };
  const otpStep = otpStepMachine.provide({
    actors: { verifyOtp: fakeActor(io.verifyOtp), generateOtp: fakeActor(io.generateOtp), ...otpOverrides },
  });
  const machine = authMachine.provide({
    actors: {
      // The restore child reads the stores; an override of either reader reaches it.
      restore: authRestoreMachine.provide({
        actors: {
          readStoredSession: overrides.readStoredSession ?? fakeActor(io.readStoredSession),
          readPendingTwoFactor: overrides.readPendingTwoFactor ?? fakeActor(io.readPendingTwoFactor),
        },
      }),
      getDeviceId: fakeActor(io.getDeviceId),
      login: fakeActor(io.login),
      socialSignIn: fakeActor(io.socialSignIn),
      otpStep,
      fetchProfile: fakeActor(io.fetchProfile),
      authenticatorStep: authenticatorStepMachine.provide({
        actors: { verifyAuthenticator: overrides.verifyAuthenticator ?? fakeActor(io.verifyAuthenticator) },
      }),
      ...overrides,
    },
    actions: {
      navigate: (_, params) => spies.navigate(params),
      storeOtpUsername: (_, params) => spies.storeOtpUsername(params),
      storeSession: (_, params) => spies.storeSession(params),
      prefetchLanding: (_, params) => spies.prefetchLanding(params),
    },
  });
  const { actor, clock, sentTo } = startInSystem(machine, { systemId: 'auth', input: config });
  /** What the machine showed in the `notifier` snackbar (its own `notify` action, run for real). */
  const notified = () => sentTo('notifier').map(({ type: _type, ...params }) => params);
  return { actor, clock, spies, io, sentTo, notified };
}

/** What the sign-in page sends: the typed username and password (the machine holds them), then submit. */
function submitCredentials(actor: { send: (event: AuthEvent) => void }, username: string, password: string) {
  actor.send({ type: 'form.usernameChanged', username });
  actor.send({ type: 'form.passwordChanged', password });
  actor.send({ type: 'login.submit' });
}

async function signedOut(overrides?: Record<string, AnyActorLogic>, otpOverrides?: Record<string, AnyActorLogic>) {
  const started = start(overrides, otpOverrides);
  await waitFor(started.actor, (s) => s.matches({ signedOut: 'idle' }) && s.context.deviceId !== undefined);
  return started;
}

async function atCodeStep() {
  const started = await signedOut({
    login: fakeActor(async () => loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '******6789', username: 'ada', accessToken: '' })),
  });
  submitCredentials(started.actor, 'ada', 'secret');
  await waitFor(started.actor, (s) => otpPanel(s) !== null);
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
    submitCredentials(actor, ' ada ', 'secret');
    expect(selectIsSubmitting(actor.getSnapshot())).toBe(true);
    const { actor: other, io: otherIo } = await signedOut();
    submitCredentials(other, ' ada ', 'secret');
    await waitFor(other, selectIsSignedIn);
    expect(otherIo.login).toHaveBeenCalledWith({ username: 'ada', password: 'secret', deviceId: 'device-1' });
    expect(io.login).not.toHaveBeenCalled();
  });

  it('asks for a username or a password before calling the server', async () => {
    const { actor, io } = await signedOut();
    submitCredentials(actor, '  ', 'x');
    expect(selectLoginError(actor.getSnapshot())).toBe(OWN_MESSAGES.usernameRequired);
    submitCredentials(actor, 'ada', '');
    expect(selectLoginError(actor.getSnapshot())).toBe(OWN_MESSAGES.passwordRequired);
    expect(io.login).not.toHaveBeenCalled();
  });

  it('shows the server message once, inline (not also in the snackbar), when success is false and stays on the sign-in form', async () => {
    const { actor, spies, notified } = await signedOut({
      login: fakeActor(async () => loginResponse({ success: false, message: 'Invalid username or password.' })),
    });
    submitCredentials(actor, 'ada', 'wrong');
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }) && s.context.error !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe('Invalid username or password.');
    expect(notified()).toEqual([]);
    expect(spies.navigate).not.toHaveBeenCalled();
  });

  it('says the server is unreachable when the login call fails in transport', async () => {
    const { actor } = await signedOut({ login: fakeActor(async () => { throw Object.assign(new Error('Failed to fetch'), { status: 0 }); }) });
    submitCredentials(actor, 'ada', 'x');
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
    submitCredentials(actor, 'ada', 'secret');
    await waitFor(actor, selectIsSignedIn);
    expect(io.fetchProfile).not.toHaveBeenCalled();
    const [{ session, expiresAt }] = spies.storeSession.mock.calls[0]!;
    expect(expiresAt).toBe(2_000_000_000_000);
    expect(session).toMatchObject({
      accessToken: token, apiKey: 'key-1', site: 'no-encoding-site', roles: { 'Customer Support': 'write' },
      accessFlags: { adminAccess: false, contentAccess: false, subOfferAccess: false, custAccess: true }, encodingEnabled: false,
    });
    expect(spies.navigate).toHaveBeenCalledWith({ to: ROUTES.users });
    // The landing's data is asked for with the session stored, before the navigation (issue 26).
    expect(spies.prefetchLanding).toHaveBeenCalledWith({ to: ROUTES.users });
    expect(spies.prefetchLanding.mock.invocationCallOrder[0]).toBeLessThan(spies.navigate.mock.invocationCallOrder[0]!);
    expect(selectLandingRoute(actor.getSnapshot())).toBe(ROUTES.users);
    expect(selectRoles(actor.getSnapshot())).toEqual({ 'Customer Support': 'write' });
  });

  it('returns to a deep link opened while signed out when the roles allow it, else lands on the landing route', async () => {
    const allowed = await signedOut({
      fetchProfile: fakeActor(async () => ({ profile: siteProfile({ roles: { 'App CMS': 'read', Content: 'write' } }), fetchedAt: 0 })),
    });
    allowed.actor.send({ type: 'route.check', path: '/appcms/settings', href: '/appcms/settings?x=1' });
    expect(selectRouteDecision(allowed.actor.getSnapshot())).toEqual({ kind: 'redirect', to: ROUTES.login });
    submitCredentials(allowed.actor, 'ada', 'secret');
    await waitFor(allowed.actor, selectIsSignedIn);
    expect(allowed.spies.navigate).toHaveBeenCalledWith({ to: '/appcms/settings?x=1' });
    expect(allowed.actor.getSnapshot().context.returnTo).toBeNull();

    const refused = await signedOut({
      fetchProfile: fakeActor(async () => ({ profile: siteProfile({ roles: { Content: 'write' } }), fetchedAt: 0 })),
    });
    refused.actor.send({ type: 'route.check', path: '/appcms/settings', href: '/appcms/settings' });
    submitCredentials(refused.actor, 'ada', 'secret');
    await waitFor(refused.actor, selectIsSignedIn);
    expect(refused.spies.navigate).toHaveBeenCalledWith({ to: ROUTES.content });
  });

  it('answers the router before a page opens: signed out, a public page opens and a protected one goes to sign-in', async () => {
    const { actor } = await signedOut();
    const check = (path: string, href = path) => {
      actor.send({ type: 'route.check', path, href });
      return selectRouteDecision(actor.getSnapshot());
    };
    expect(check(ROUTES.login)).toEqual({ kind: 'stay' });
    expect(check(ROUTES.forgotPassword)).toEqual({ kind: 'stay' });
    expect(check('/users', '/users?state=paying')).toEqual({ kind: 'redirect', to: ROUTES.login });
    expect(actor.getSnapshot().context.returnTo).toBe('/users?state=paying');
  });

  it('answers the router once signed in: sign-in goes to the landing route, an area without a role to /forbidden, the rest opens', async () => {
    const { actor } = start({ readStoredSession: fakeActor(async () => storedSession) });
    await waitFor(actor, selectIsSignedIn);
    const check = (path: string) => {
      actor.send({ type: 'route.check', path, href: path });
      return selectRouteDecision(actor.getSnapshot());
    };
    expect(check(ROUTES.login)).toEqual({ kind: 'redirect', to: ROUTES.content });
    expect(check('/admin/audit')).toEqual({ kind: 'forbidden', area: 'Admin' });
    expect(check('/content/video/1')).toEqual({ kind: 'stay' });
    expect(check(ROUTES.accountSessions)).toEqual({ kind: 'stay' });
    expect(check(ROUTES.forbidden)).toEqual({ kind: 'stay' });
  });

  it('answers the router while an authenticator enrolment is due: only the two-factor page opens', async () => {
    const { actor } = start({
      readStoredSession: fakeActor(async () => ({ ...storedSession, profile: siteProfile({ authenticatorEnrolmentDue: true }) })),
    });
    await waitFor(actor, selectIsEnrolmentRequired);
    const check = (path: string) => {
      actor.send({ type: 'route.check', path, href: path });
      return selectRouteDecision(actor.getSnapshot());
    };
    expect(check(TOTP_ROUTES.accountSecurity)).toEqual({ kind: 'stay' });
    expect(check('/content')).toEqual({ kind: 'redirect', to: TOTP_ROUTES.accountSecurity });
    expect(check(ROUTES.login)).toEqual({ kind: 'redirect', to: TOTP_ROUTES.accountSecurity });
  });

  it('keeps Dashboard 360 on an allowed site and lands on /analytics', async () => {
    const { actor, spies } = await signedOut({
      fetchProfile: fakeActor(async () => ({ profile: siteProfile({ site: 'analytics-site', roles: { 'Dashboard 360': 'read' } }), fetchedAt: 0 })),
    });
    submitCredentials(actor, 'ada', 'secret');
    await waitFor(actor, selectIsSignedIn);
    expect(spies.navigate).toHaveBeenCalledWith({ to: ROUTES.analytics });
  });

  it('goes back to the sign-in form with a message when the profile cannot be read', async () => {
    const { actor, spies } = await signedOut({ fetchProfile: fakeActor(async () => { throw new Error('Unauthorized'); }) });
    submitCredentials(actor, 'ada', 'secret');
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
    await waitFor(actor, (s) => otpPanel(s) !== null);
    expect(spies.storeOtpUsername).toHaveBeenCalledWith({ username: 'tess', obscureMobileNumber: '******4321' });
    expect(spies.navigate).toHaveBeenCalledWith({ to: ROUTES.verifyNumber });
    const otp = selectOtpStepActor(actor.getSnapshot());
    otp?.send({ type: 'otp.edit', code: '123456' });
    otp?.send({ type: 'otp.submit' });
    await waitFor(actor, selectIsSignedIn);
  });

  it("shows the server's refusal (an unknown person) once, on the sign-in form", async () => {
    const { actor, notified } = await signedOut({
      socialSignIn: fakeActor(async () => loginResponse({ success: false, message: OWN_MESSAGES.socialAccountNotLinked })),
    });
    actor.send({ type: 'login.social', provider: 'google' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'idle' }) && s.context.error !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe(OWN_MESSAGES.socialAccountNotLinked);
    expect(notified()).toEqual([]);
  });

  it('maps identity-provider error codes through the spec table', async () => {
    const { actor, notified } = await signedOut({
      socialSignIn: fakeActor(async () => { throw Object.assign(new Error('Firebase: Error (auth/popup-closed-by-user).'), { code: 'auth/popup-closed-by-user' }); }),
    });
    actor.send({ type: 'login.social', provider: 'microsoft' });
    await waitFor(actor, (s) => s.context.error !== null);
    expect(selectLoginError(actor.getSnapshot())).toBe('User closed the popup before completing authentication.');
    expect(notified()).toContainEqual({ message: 'User closed the popup before completing authentication.', severity: 'error' });
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
  });

  it('clears an earlier error when a social sign-in starts', async () => {
    const { actor } = await signedOut({ socialSignIn: pendingActor() });
    submitCredentials(actor, '', 'x');
    expect(selectLoginError(actor.getSnapshot())).toBe(OWN_MESSAGES.usernameRequired);
    actor.send({ type: 'login.social', provider: 'google' });
    expect(selectLoginError(actor.getSnapshot())).toBeNull();
  });
});

describe('auth machine: SMS second factor (the otpStep child, tested in otp-step.machine.test.ts)', () => {
  it('stores the username, goes to /verify-number and starts the code step with the masked number and a 30 s countdown', async () => {
    const { actor, spies } = await atCodeStep();
    expect(spies.storeOtpUsername).toHaveBeenCalledWith({ username: 'ada', obscureMobileNumber: '******6789' });
    expect(spies.navigate).toHaveBeenCalledWith({ to: ROUTES.verifyNumber });
    expect(otpPanel(actor.getSnapshot())).toMatchObject({
      obscureMobileNumber: '******6789', resendInSeconds: OTP_RESEND_COOLDOWN_S, canResend: false, verifying: false,
    });
  });

  it('verifies the code with isLogin true and the device id, then loads the profile and lands', async () => {
    const { actor, io, spies } = await atCodeStep();
    const otp = selectOtpStepActor(actor.getSnapshot());
    otp?.send({ type: 'otp.edit', code: '123456' });
    otp?.send({ type: 'otp.submit' });
    await waitFor(actor, selectIsSignedIn);
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '123456', isLogin: true, deviceId: 'device-1' });
    expect(io.fetchProfile).toHaveBeenCalledWith({ accessToken: token });
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: ROUTES.content });
    expect(selectOtpStepActor(actor.getSnapshot())).toBeNull();
  });

  it('resends with isLogin true for the same user', async () => {
    const { actor, clock, io } = await atCodeStep();
    for (let i = 0; i < OTP_RESEND_COOLDOWN_S; i += 1) clock.increment(1000);
    selectOtpStepActor(actor.getSnapshot())?.send({ type: 'otp.resend' });
    await waitFor(actor, () => io.generateOtp.mock.calls.length === 1);
    expect(io.generateOtp).toHaveBeenCalledWith({ username: 'ada', isLogin: true });
  });
});

describe('auth machine: reports to the app', () => {
  it('says the restore ended signed in, then who signed in', async () => {
    const { actor, sentTo } = start({ readStoredSession: fakeActor(async () => storedSession) });
    await waitFor(actor, selectIsSignedIn);
    expect(sentTo('app')).toEqual([
      { type: 'auth.restored', signedIn: true },
      { type: 'auth.sessionChanged', session: storedSession },
    ]);
  });

  it('says the restore ended signed out, and that nobody is signed in after auth.signedOut', async () => {
    const { actor, sentTo } = start();
    await waitFor(actor, (s) => !selectIsRestoring(s));
    expect(sentTo('app')).toEqual([{ type: 'auth.restored', signedIn: false }]);
    const restored = start({ readStoredSession: fakeActor(async () => storedSession) });
    await waitFor(restored.actor, selectIsSignedIn);
    restored.actor.send({ type: 'auth.signedOut' });
    expect(restored.sentTo('app').at(-1)).toEqual({ type: 'auth.sessionChanged', session: null });
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
    expect(otpPanel(actor.getSnapshot())).toMatchObject({ obscureMobileNumber: '******4321', canResend: false });
  });

  it('verifies the code with the device id that arrives after the reload', async () => {
    const { actor, io } = start({ readPendingTwoFactor: fakeActor(async () => ({ username: 'ada', obscureMobileNumber: '******4321' })) });
    await waitFor(actor, (s) => s.context.deviceId !== undefined && otpPanel(s) !== null);
    const otp = selectOtpStepActor(actor.getSnapshot());
    otp?.send({ type: 'otp.edit', code: '123456' });
    otp?.send({ type: 'otp.submit' });
    await waitFor(actor, selectIsSignedIn);
    expect(io.verifyOtp).toHaveBeenCalledWith({ username: 'ada', otp: '123456', isLogin: true, deviceId: 'device-1' });
  });

  it('lands on the sign-in form when nothing was waiting', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => !selectIsRestoring(s));
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
  });
});

describe('auth machine: the authenticator app (issue 19)', () => {
  async function atAuthenticatorStep(verify?: AnyActorLogic) {
    const started = await signedOut({
      login: fakeActor(async () => loginResponse({ isTwoFactorOnLogin: true, secondFactor: 'totp', username: 'ada', accessToken: '' })),
      ...(verify ? { verifyAuthenticator: verify } : {}),
    });
    submitCredentials(started.actor, 'ada', 'secret');
    await waitFor(started.actor, selectIsAuthenticatorStep);
    return started;
  }
  type Started = Awaited<ReturnType<typeof atAuthenticatorStep>>;
  /** The running authenticator step child (the panel reads it). */
  const step = ({ actor }: Started) => selectAuthenticatorStepActor(actor.getSnapshot())!;
  const panel = (started: Started) => selectAuthenticatorPanel(step(started).getSnapshot());

  it("a login answer with secondFactor 'totp' opens the authenticator step on /verify-number, not the SMS one", async () => {
    const started = await atAuthenticatorStep();
    const { actor, spies, io } = started;
    expect(selectOtpStepActor(actor.getSnapshot())).toBeNull();
    expect(spies.navigate).toHaveBeenCalledWith({ to: ROUTES.verifyNumber });
    expect(spies.storeOtpUsername).toHaveBeenCalledWith({ username: 'ada', obscureMobileNumber: '', secondFactor: 'totp' });
    // The view sends to auth; auth forwards to its authenticatorStep child.
    actor.send({ type: 'authenticator.edit', code: '12 3a45 67' });
    expect(panel(started).entry).toEqual({ code: '123456', recovery: false });
    actor.send({ type: 'authenticator.submit' });
    expect(panel(started).verifying).toBe(true);
    await waitFor(actor, selectIsSignedIn);
    expect(io.verifyAuthenticator).toHaveBeenCalledWith({ username: 'ada', code: '123456', deviceId: 'device-1' });
    expect(io.fetchProfile).toHaveBeenCalledWith({ accessToken: token });
  });

  it('asks for six digits, or a recovery code after the switch; the switch clears what was typed', async () => {
    const started = await atAuthenticatorStep();
    const { actor, io } = started;
    actor.send({ type: 'authenticator.edit', code: '123' });
    actor.send({ type: 'authenticator.submit' });
    expect(panel(started).error).toBe(TOTP_MESSAGES.codeFormat);
    actor.send({ type: 'authenticator.useRecovery' });
    expect(panel(started).entry).toEqual({ code: '', recovery: true });
    expect(panel(started).error).toBeNull();
    actor.send({ type: 'authenticator.edit', code: 'ABCDE-12345 ' });
    expect(panel(started).entry.code).toBe('abcde-12345');
    actor.send({ type: 'authenticator.useApp' });
    actor.send({ type: 'authenticator.useRecovery' });
    actor.send({ type: 'authenticator.edit', code: 'abc' });
    actor.send({ type: 'authenticator.submit' });
    expect(panel(started).error).toBe(TOTP_MESSAGES.recoveryFormat);
    actor.send({ type: 'authenticator.edit', code: 'abcde-12345' });
    actor.send({ type: 'authenticator.submit' });
    await waitFor(actor, selectIsSignedIn);
    expect(io.verifyAuthenticator).toHaveBeenCalledWith({ username: 'ada', code: 'abcde-12345', deviceId: 'device-1' });
  });

  it('a refused or failed code stays on the step with the spec\'s message, in the snackbar too', async () => {
    const refused = await atAuthenticatorStep(fakeActor(async () => ({ success: false, message: 'x', accessToken: '', v2ManagementApiEnabled: false })));
    refused.actor.send({ type: 'authenticator.edit', code: '123456' });
    refused.actor.send({ type: 'authenticator.submit' });
    await waitFor(step(refused), (s) => s.matches({ active: 'entering' }) && s.context.error !== null);
    expect(panel(refused).error).toBe(MESSAGES.otpVerifyFailed);
    expect(refused.actor.getSnapshot().matches({ signedOut: 'authenticator' })).toBe(true);
    expect(refused.notified()).toContainEqual(expect.objectContaining({ message: MESSAGES.otpVerifyFailed, severity: 'error' }));
    const failing = await atAuthenticatorStep(fakeActor(async () => { throw new Error('down'); }));
    failing.actor.send({ type: 'authenticator.edit', code: '123456' });
    failing.actor.send({ type: 'authenticator.submit' });
    await waitFor(step(failing), (s) => s.context.error === MESSAGES.otpVerifyFailed);
  });

  it('a reload during the step comes back to it', async () => {
    const { actor } = start({ readPendingTwoFactor: fakeActor(async () => ({ username: 'ada', obscureMobileNumber: '', secondFactor: 'totp' })) });
    await waitFor(actor, selectIsAuthenticatorStep);
    expect(actor.getSnapshot().context.twoFactor).toEqual({ username: 'ada', obscureMobileNumber: '', secondFactor: 'totp' });
  });

  it('a site that requires the app: signed in, sent to the two-factor page until enrolled, then to the landing route', async () => {
    const { actor, spies } = await signedOut({
      fetchProfile: fakeActor(async () => ({ profile: siteProfile({ authenticatorEnrolmentDue: true }), fetchedAt: 1000 })),
    });
    submitCredentials(actor, 'ada', 'secret');
    await waitFor(actor, selectIsEnrolmentRequired);
    expect(selectIsSignedIn(actor.getSnapshot())).toBe(true);
    expect(spies.storeSession).toHaveBeenCalledTimes(1);
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: TOTP_ROUTES.accountSecurity });
    actor.send({ type: 'authenticator.enrolled' });
    expect(selectIsEnrolmentRequired(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(spies.navigate).toHaveBeenLastCalledWith({ to: ROUTES.content });
  });

  it('a stored session that still owes the enrolment opens in the required state', async () => {
    const { actor } = start({ readStoredSession: fakeActor(async () => ({ ...storedSession, profile: siteProfile({ authenticatorEnrolmentDue: true }) })) });
    await waitFor(actor, selectIsEnrolmentRequired);
  });
});

describe('auth machine: every path', () => {
  const outcomes = [
    { type: 'xstate.done.actor.restore', output: { session: storedSession, pendingStep: null } },
    { type: 'xstate.done.actor.restore', output: { session: null, pendingStep: null } },
    { type: 'xstate.done.actor.restore', output: { session: null, pendingStep: { username: 'ada', obscureMobileNumber: '**12' } } },
    { type: 'xstate.done.actor.getDeviceId', output: 'device-1' },
    { type: 'login.submit' },
    { type: 'form.usernameChanged', username: 'ada' },
    { type: 'form.passwordChanged', password: 'secret' },
    { type: 'xstate.done.actor.login', output: loginResponse({ success: false, message: 'no' }) },
    { type: 'xstate.done.actor.login', output: loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '**12' }) },
    { type: 'xstate.done.actor.login', output: loginResponse({ accessToken: token }) },
    { type: 'xstate.error.actor.login', error: new Error('down') },
    { type: 'login.social', provider: 'google' },
    { type: 'xstate.done.actor.socialSignIn', output: loginResponse({ success: false, message: 'no' }) },
    { type: 'xstate.done.actor.socialSignIn', output: loginResponse({ isTwoFactorOnLogin: true, obscureMobileNumber: '**12' }) },
    { type: 'xstate.done.actor.socialSignIn', output: loginResponse({ accessToken: token }) },
    { type: 'xstate.error.actor.socialSignIn', error: Object.assign(new Error('closed'), { code: 'auth/popup-closed-by-user' }) },
    { type: 'xstate.done.actor.otpStep', output: { accessToken: token } },
    { type: 'xstate.done.actor.fetchProfile', output: { profile: siteProfile(), fetchedAt: 0 } },
    { type: 'xstate.error.actor.fetchProfile', error: new Error('down') },
    { type: 'auth.signedOut' },
    { type: 'route.check', path: '/appcms/settings', href: '/appcms/settings' },
    { type: 'route.check', path: '/', href: '/' },
    { type: 'route.check', path: '/admin', href: '/admin' },
    { type: 'route.check', path: TOTP_ROUTES.accountSecurity, href: TOTP_ROUTES.accountSecurity },
    // Issue 19: the authenticator-app step and the required enrolment.
    { type: 'xstate.done.actor.restore', output: { session: { ...storedSession, profile: siteProfile({ authenticatorEnrolmentDue: true }) }, pendingStep: null } },
    { type: 'xstate.done.actor.restore', output: { session: null, pendingStep: { username: 'ada', obscureMobileNumber: '', secondFactor: 'totp' } } },
    { type: 'xstate.done.actor.login', output: loginResponse({ isTwoFactorOnLogin: true, secondFactor: 'totp' }) },
    { type: 'xstate.done.actor.socialSignIn', output: loginResponse({ isTwoFactorOnLogin: true, secondFactor: 'totp' }) },
    { type: 'authenticator.edit', code: '123456' },
    { type: 'authenticator.submit' },
    { type: 'authenticator.useRecovery' },
    { type: 'authenticator.useApp' },
    { type: 'xstate.done.actor.authenticatorStep', output: { accessToken: token } },
    { type: 'xstate.done.actor.fetchProfile', output: { profile: siteProfile({ authenticatorEnrolmentDue: true }), fetchedAt: 0 } },
    { type: 'authenticator.enrolled' },
    ...delayedEvents(authMachine),
  ];
  const logic = authMachine.provide({
    actors: {
      restore: authRestoreMachine.provide({ actors: { readStoredSession: pendingActor(), readPendingTwoFactor: pendingActor() } }),
      getDeviceId: pendingActor(), login: pendingActor(),
      socialSignIn: pendingActor(), fetchProfile: pendingActor(), authenticatorStep: authenticatorStepMachine.provide({ actors: { verifyAuthenticator: pendingActor() } }),
      otpStep: otpStepMachine.provide({ actors: { verifyOtp: pendingActor(), generateOtp: pendingActor() } }),
    },
  });
  itReachesEveryStateAndTransition(authMachine, { events: outcomes, input: config, logic });
});
