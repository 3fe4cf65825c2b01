/** The setup of the sign-in machine (./auth.machine.ts): its types, children, actions and guards. */
import { assign, sendTo, setup, stateIn } from 'xstate';
import type { SiteProfile, Roles } from '../common/contract';
import { ROUTES, type AreaName } from '../common/constants';
import { isPublicPath } from '../common/public-paths';
import { canContinue } from '../common/roles';
import { TOTP_ROUTES, type SecondFactorKind } from '../common/totp';
import { isFailure } from './actor-results';
import { EMPTY_FORM, STAY } from './auth.actions';
import { authRestoreMachine } from './auth-restore.machine';
import type {
  AuthContext, AuthEvent, AuthInput, AuthTag, FetchProfileInput, FetchProfileOutput, LoginInput, LoginOutput, NavigateParams,
  RouteCheck, RouteDecision, Session, SocialSignInInput, StoreSessionParams, TwoFactorStep,
} from './auth.types';
import { authenticatorStepMachine, type AuthenticatorStepEvent } from './authenticator-step.machine';
import { machineTypes } from './machine-types';
import { otpStepMachine } from './otp-step.machine';
import { notify, tellApp } from './system-actions';
import { providedLater } from './unprovided';

function redirectTo(to: string): RouteDecision {
  return { kind: 'redirect', to };
}
function forbidden(area: AreaName): RouteDecision {
  return { kind: 'forbidden', area };
}

export const authSetup = setup({
  types: machineTypes<{
    context: AuthContext; events: AuthEvent; input: AuthInput; tags: AuthTag;
    /** Every invoked child by its id (the id is its actor's name): `snapshot.children.otpStep` is typed. */
    children: {
      restore: 'restore'; getDeviceId: 'getDeviceId';
      login: 'login'; socialSignIn: 'socialSignIn'; otpStep: 'otpStep'; fetchProfile: 'fetchProfile'; authenticatorStep: 'authenticatorStep';
    };
  }>(),
  actors: {
    /** The restore child (./auth-restore.machine.ts): the stored session, else a pending second factor; src provides its readers. */
    restore: authRestoreMachine,
    /** The device id cookie, else GET /api/auth/device; never rejects (undefined on failure). */
    getDeviceId: providedLater<string | undefined>('getDeviceId'),
    login: providedLater<LoginOutput, LoginInput>('login'),
    /** The identity provider's popup, then the googleLogin/microsoftLogin mutation with its ID token. */
    socialSignIn: providedLater<LoginOutput, SocialSignInInput>('socialSignIn'),
    /** The SMS code step; src provides its verifyOtp and generateOtp actors. */
    otpStep: otpStepMachine,
    fetchProfile: providedLater<FetchProfileOutput, FetchProfileInput>('fetchProfile'),
    /** The authenticator-app step (./authenticator-step.machine.ts); src provides its verifyAuthenticator actor. */
    authenticatorStep: authenticatorStepMachine,
  },
  actions: {
    // Effects: src/adapters provides these; the defaults do nothing.
    navigate: (_, _params: NavigateParams) => {},
    storeOtpUsername: (_, _params: { username: string; obscureMobileNumber?: string; secondFactor?: SecondFactorKind }) => {},
    storeSession: (_, _params: StoreSessionParams) => {},
    /** Asks for the landing page's data as soon as the session is stored (issue 26): the browser provides it. */
    prefetchLanding: (_, _params: NavigateParams) => {},
    notify,
    tellApp,
    // Context.
    setError: assign((_, params: { message: string }) => ({ error: params.message })),
    clearError: assign({ error: null }),
    setDeviceId: assign((_, params: { deviceId: string | undefined }) => ({ deviceId: params.deviceId })),
    /** A code step that started before the device id arrived (a reload during it) verifies with it too. */
    tellOtpStepDevice: sendTo('otpStep', (_, params: { deviceId: string | undefined }) => ({ type: 'otp.deviceKnown' as const, deviceId: params.deviceId })),
    tellAuthenticatorStepDevice: sendTo('authenticatorStep', (_, params: { deviceId: string | undefined }) => ({ type: 'authenticator.deviceKnown' as const, deviceId: params.deviceId })),
    /** The view's authenticator.* events go to the step that owns the entry. */
    forwardToAuthenticatorStep: sendTo('authenticatorStep', (_, params: AuthenticatorStepEvent) => params),
    setSession: assign((_, params: { session: Session | null }) => ({
      session: params.session, pendingToken: null, twoFactor: null, error: null,
    })),
    /** The credentials are not needed past the password step: the form is empty again. */
    startTwoFactor: assign((_, params: TwoFactorStep) => ({ twoFactor: params, error: null, form: EMPTY_FORM })),
    setUsername: assign(({ context }, params: { username: string }) => ({ form: { ...context.form, username: params.username } })),
    setPassword: assign(({ context }, params: { password: string }) => ({ form: { ...context.form, password: params.password } })),
    clearForm: assign({ form: EMPTY_FORM }),
    setPendingToken: assign((_, params: { accessToken: string }) => ({ pendingToken: params.accessToken })),
    clearSession: assign({ session: null, twoFactor: null, pendingToken: null, error: null }),
    rememberReturnTo: assign((_, params: RouteCheck) => ({ returnTo: params.href })),
    clearReturnTo: assign({ returnTo: null }),
    /** The page asked for may open. */
    allowRoute: assign({ routeDecision: STAY }),
    /** The router goes to `to` instead. */
    redirectRoute: assign((_, params: NavigateParams) => ({ routeDecision: redirectTo(params.to) })),
    /** The router goes to /forbidden, naming the area. */
    forbidRoute: assign((_, params: { area: AreaName }) => ({ routeDecision: forbidden(params.area) })),
  },
  guards: {
    isUsernameMissing: ({ context }) => context.form.username.trim() === '',
    isPasswordMissing: ({ context }) => context.form.password === '',
    hasSession: (_, params: { session: Session | null }) => params.session !== null,
    isPendingStep: (_, params: { step: TwoFactorStep | null }) => params.step !== null,
    isPendingAuthenticatorStep: (_, params: { step: TwoFactorStep | null }) => params.step?.secondFactor === 'totp',
    isAuthenticatorStep: (_, params: { isTwoFactorOnLogin: boolean; secondFactor?: SecondFactorKind }) =>
      params.isTwoFactorOnLogin && params.secondFactor === 'totp',
    isEnrolmentDue: (_, params: { profile: SiteProfile | null | undefined }) => params.profile?.authenticatorEnrolmentDue === true,
    isFailure,
    isInCodeStep: stateIn({ signedOut: 'twoFactor' }),
    isInAuthenticatorStep: stateIn({ signedOut: 'authenticator' }),
    isTwoFactor: (_, params: { isTwoFactorOnLogin: boolean }) => params.isTwoFactorOnLogin,
    /** Spec §2.1: the sign-in, logout, password and set-password pages need no session. */
    isPublicRoute: (_, params: RouteCheck) => isPublicPath(params.path),
    isSignInRoute: (_, params: RouteCheck) => params.path === ROUTES.login,
    isEnrolmentRoute: (_, params: RouteCheck) => params.path === TOTP_ROUTES.accountSecurity,
    /** A page of an area the roles do not continue into (a read level or none). */
    isAreaWithoutRole: (_, params: { area: AreaName | undefined; roles: Roles }) => params.area !== undefined && !canContinue(params.roles, params.area),
  },
});
