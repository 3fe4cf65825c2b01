/**
 * Sign-in (spec §4.1, §3, §4.3): restore a stored session, or take credentials, the SMS second factor
 * and the site profile, store the session values and go to the landing route. Runs as the `auth`
 * system actor; the logout and session machines send it `auth.signedOut`.
 *
 * Social sign-in (spec §4.1 step 1, §7.1): `login.social { provider }` runs the `socialSignIn` actor
 * (the identity provider's popup, then the googleLogin/microsoftLogin mutation); it answers a
 * LoginResponse and shares every outcome of `submitting`, the SMS second factor included. Its
 * failures read through the identity-provider error table (machines/idp-errors.ts).
 *
 * Authenticator app (issue 19): a login answer with `secondFactor: 'totp'` leads to the
 * `authenticator` step instead of the SMS one: the app's code, or a recovery code after
 * `authenticator.useRecovery`. A profile saying `authenticatorEnrolmentDue` (the site requires the
 * app, the user has none) signs in to `signedIn.enrolmentRequired`: the account's two-factor page
 * first, until the enrolment machine reports `authenticator.enrolled`.
 *
 * Where a page may open (issue 26): the router's guards send `route.check { path, href }` before a page
 * opens and read `selectRouteDecision`; the machine answers by a chain of named guards in the state it
 * is in (signed out: a protected page goes to sign-in and is remembered; signed in: the sign-in page
 * goes to the landing route, an area without a role to /forbidden; enrolment due: the account's
 * two-factor page). After sign-in it navigates itself: the remembered page when the roles allow it,
 * else the landing route.
 */
import { assign, sendTo, setup, stateIn, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import type { SiteProfile } from '../common/contract';
import { AREAS, ROUTES, type AreaName } from '../common/constants';
import type { Roles } from '../common/contract';
import { isPublicPath } from '../common/public-paths';
import { OWN_MESSAGES } from '../common/messages';
import type {
  AuthConfig, FetchProfileInput, FetchProfileOutput, LoginInput, LoginOutput, NavigateParams, Session, SocialProvider,
  SocialSignInInput, StoreSessionParams,
} from './auth.types';
import { authRestoreMachine, type AuthRestoreOutput, type PendingTwoFactor } from './auth-restore.machine';
import {
  authenticatorStepMachine, type AuthenticatorStepActorRef, type AuthenticatorStepEvent, type AuthenticatorStepInput, type AuthenticatorStepOutput,
} from './authenticator-step.machine';
import { idpErrorMessage } from './idp-errors';
import { failureMessage, type NotifyParams } from './notify';
import { otpStepMachine, type OtpStepActorRef, type OtpStepInput, type OtpStepOutput } from './otp-step.machine';
import { notify, tellApp } from './system-actions';
import { accessFlagsFor, applyAllowedSites, areaForPath, canContinue, landingRouteFor, parseRoles, routeAfterSignIn } from '../common/roles';
import { tokenExpiry } from './token';
import { TOTP_ROUTES, type SecondFactorKind } from '../common/totp';
import { providedLater } from './unprovided';

export type AuthInput = AuthConfig;

/** The second factor a sign-in is at (also what the restore child finds pending after a reload). */
export type TwoFactorStep = PendingTwoFactor;

export type { AuthenticatorEntry, VerifyAuthenticatorInput } from './authenticator-step.machine';

export interface AuthContext {
  config: AuthConfig;
  deviceId: string | undefined;
  session: Session | null;
  error: string | null;
  twoFactor: TwoFactorStep | null;
  /** The token of a successful login or OTP, held while the profile loads. */
  pendingToken: string | null;
  /** A protected page opened while signed out: sign-in returns there when the roles allow it. */
  returnTo: string | null;
  /** The answer to the last `route.check`: stay on the page, or go elsewhere first. */
  routeDecision: RouteDecision;
}

/** Where the router goes instead of the page it was asked for, or `stay`. */
export type RouteDecision =
  | { kind: 'stay' }
  | { kind: 'redirect'; to: string }
  /** An area the roles do not reach: /forbidden names it (issue 20). */
  | { kind: 'forbidden'; area: AreaName };

/** What the router asks before a page opens. */
export interface RouteCheck {
  /** The path of the page (no query). */
  path: string;
  /** Path and query, remembered for after sign-in. */
  href: string;
}

export type AuthEvent =
  | { type: 'login.submit'; username: string; password: string }
  | { type: 'login.social'; provider: SocialProvider }
  /** The router, before a page opens: may it, or where instead? The answer is `selectRouteDecision`. */
  | ({ type: 'route.check' } & RouteCheck)
  | { type: 'auth.signedOut' }
  /** The authenticator step: what is typed, submit, and the switch between the app's code and a recovery code. */
  | { type: 'authenticator.edit'; code: string }
  | { type: 'authenticator.submit' }
  | { type: 'authenticator.useRecovery' }
  | { type: 'authenticator.useApp' }
  /** The account page's enrolment machine: the required authenticator app is set up. */
  | { type: 'authenticator.enrolled' };

/** What the auth actor tells the root `app` actor, which relays it to the concerns that follow sign-in. */
export type AuthReport =
  /** The stored session was read at load: verify it (signed in) or not. */
  | { type: 'auth.restored'; signedIn: boolean }
  /** Someone signed in (the session) or out (null). */
  | { type: 'auth.sessionChanged'; session: Session | null };

const RESTORED_SIGNED_IN: AuthReport = { type: 'auth.restored', signedIn: true };
const RESTORED_SIGNED_OUT: AuthReport = { type: 'auth.restored', signedIn: false };
const SIGNED_OUT: AuthReport = { type: 'auth.sessionChanged', session: null };

/** The session values of spec §3 from a site profile, with the allowed-sites rule of §4.1.5 applied. */
export function sessionFromProfile(accessToken: string, profile: SiteProfile, config: AuthConfig): Session {
  const roles = applyAllowedSites(parseRoles(profile.roles), profile.site, config.analyticsAllowedSites);
  return {
    accessToken,
    apiKey: profile.managementXApiKey,
    site: profile.site,
    username: profile.username,
    roles,
    accessFlags: accessFlagsFor(roles),
    encodingEnabled: config.encodingDisabledSite === '' || profile.site !== config.encodingDisabledSite,
    profile,
  };
}

type Args<TEvent> = { context: AuthContext; event: TEvent };

function doneOutput<T>({ event }: { event: DoneActorEvent<T> }): T {
  return event.output;
}
function initialContext({ input }: { input: AuthInput }): AuthContext {
  return {
    config: input, deviceId: undefined, session: null, error: null, twoFactor: null, pendingToken: null,
    returnTo: null, routeDecision: STAY,
  };
}
const STAY: RouteDecision = { kind: 'stay' };
function restoredSession({ event }: { event: DoneActorEvent<AuthRestoreOutput> }) {
  return { session: event.output.session };
}
function restoredProfile({ event }: { event: DoneActorEvent<AuthRestoreOutput> }) {
  return { profile: event.output.session?.profile };
}
function pendingStep({ event }: { event: DoneActorEvent<AuthRestoreOutput> }) {
  return { step: event.output.pendingStep };
}
function pendingTwoFactor({ event }: { event: DoneActorEvent<AuthRestoreOutput> }): TwoFactorStep {
  return event.output.pendingStep ?? { username: '', obscureMobileNumber: '' };
}
function deviceIdOutput({ event }: { event: DoneActorEvent<string | undefined> }) {
  return { deviceId: event.output };
}
function loginInput({ context, event }: Args<AuthEvent>): LoginInput {
  if (event.type !== 'login.submit') throw new Error(`login started by ${event.type}`);
  return { username: event.username.trim(), password: event.password, deviceId: context.deviceId };
}
function socialSignInInput({ context, event }: Args<AuthEvent>): SocialSignInInput {
  if (event.type !== 'login.social') throw new Error(`social sign-in started by ${event.type}`);
  return { provider: event.provider, deviceId: context.deviceId };
}
function loginRefusal({ event }: { event: DoneActorEvent<LoginOutput> }): NotifyParams {
  return { message: event.output.message || OWN_MESSAGES.invalidCredentials, severity: 'error' };
}
function unreachable({ event }: { event: ErrorActorEvent }): NotifyParams {
  return { message: failureMessage(event.error, OWN_MESSAGES.serverUnavailable), severity: 'error' };
}
function socialFailure({ event }: { event: ErrorActorEvent }): NotifyParams {
  return { message: idpErrorMessage(event.error), severity: 'error' };
}
function twoFactorStep({ event }: { event: DoneActorEvent<LoginOutput> }): TwoFactorStep {
  return { username: event.output.username, obscureMobileNumber: event.output.obscureMobileNumber };
}
function authenticatorStep({ event }: { event: DoneActorEvent<LoginOutput> }): TwoFactorStep {
  return { username: event.output.username, obscureMobileNumber: '', secondFactor: 'totp' };
}
function authenticatorStepInput({ context }: { context: AuthContext }): AuthenticatorStepInput {
  return { username: context.twoFactor?.username ?? '', ...(context.deviceId !== undefined ? { deviceId: context.deviceId } : {}) };
}
function profileOutput({ event }: { event: DoneActorEvent<FetchProfileOutput> }) {
  return { profile: event.output.profile };
}
function otpStepInput({ context }: { context: AuthContext }): OtpStepInput {
  return {
    username: context.twoFactor?.username ?? '', isLogin: true, obscureMobileNumber: context.twoFactor?.obscureMobileNumber ?? '',
    ...(context.deviceId !== undefined ? { deviceId: context.deviceId } : {}),
  };
}
function sessionReport({ context }: { context: AuthContext }): AuthReport {
  return { type: 'auth.sessionChanged', session: context.session };
}
function profileInput({ context }: Args<AuthEvent>): FetchProfileInput {
  return { accessToken: context.pendingToken ?? '' };
}
function signedInSession({ context, event }: Args<DoneActorEvent<FetchProfileOutput>>): StoreSessionParams {
  const accessToken = context.pendingToken ?? '';
  return {
    session: sessionFromProfile(accessToken, event.output.profile, context.config),
    expiresAt: tokenExpiry(accessToken, event.output.fetchedAt),
  };
}
function landingAfterSignIn({ context }: Args<unknown>): NavigateParams {
  return { to: routeAfterSignIn(context.session?.roles ?? {}, context.returnTo) };
}
const TO_ENROLMENT: NavigateParams = { to: TOTP_ROUTES.accountSecurity };
const TO_SIGN_IN: NavigateParams = { to: ROUTES.login };
function checkedRoute({ event }: Args<AuthEvent>): RouteCheck {
  return event.type === 'route.check' ? { path: event.path, href: event.href } : { path: '', href: '' };
}
function landingOfRoles({ context }: Args<unknown>): NavigateParams {
  return { to: landingRouteFor(context.session?.roles ?? {}) };
}
function checkedArea({ context, event }: Args<AuthEvent>): { area: AreaName | undefined; roles: Roles } {
  return { area: event.type === 'route.check' ? areaForPath(event.path) : undefined, roles: context.session?.roles ?? {} };
}
function forbiddenArea({ event }: Args<AuthEvent>): { area: AreaName } {
  // Only reached past isAreaWithoutRole, which found the area.
  return { area: (event.type === 'route.check' ? areaForPath(event.path) : undefined) ?? AREAS.admin };
}

/**
 * The router's question before a page opens, while nobody is signed in (also while a sign-in is under
 * way): a public page opens; any other goes to sign-in, which returns there afterwards.
 */
const ROUTE_CHECK_SIGNED_OUT = [
  { guard: { type: 'isPublicRoute', params: checkedRoute }, actions: 'allowRoute' },
  { actions: [{ type: 'rememberReturnTo', params: checkedRoute }, { type: 'redirectRoute', params: TO_SIGN_IN }] },
] as const;

/**
 * What a login answer leads to, for the password and the social sign-in alike (spec §4.1 steps 2-4):
 * the message on failure, the SMS step when isTwoFactorOnLogin, else the profile and the landing route.
 */
const LOGIN_OUTCOMES = [
  {
    guard: { type: 'isFailure', params: doneOutput<LoginOutput> },
    target: 'idle',
    // Shown once, inline under the form (not also in the snackbar).
    actions: { type: 'setError', params: loginRefusal },
  },
  {
    guard: { type: 'isAuthenticatorStep', params: doneOutput<LoginOutput> },
    target: 'authenticator',
    actions: [
      { type: 'startTwoFactor', params: authenticatorStep },
      { type: 'storeOtpUsername', params: authenticatorStep },
      { type: 'navigate', params: { to: ROUTES.verifyNumber } },
    ],
  },
  {
    guard: { type: 'isTwoFactor', params: doneOutput<LoginOutput> },
    target: 'twoFactor',
    actions: [
      { type: 'startTwoFactor', params: twoFactorStep },
      { type: 'storeOtpUsername', params: twoFactorStep },
      { type: 'navigate', params: { to: ROUTES.verifyNumber } },
    ],
  },
  { target: '#auth.loadingProfile', actions: { type: 'setPendingToken', params: doneOutput<LoginOutput> } },
] as const;


export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
    tags: {} as AuthTag,
    /** Every invoked child by its id (the id is its actor's name): `snapshot.children.otpStep` is typed. */
    children: {} as {
      restore: 'restore'; getDeviceId: 'getDeviceId';
      login: 'login'; socialSignIn: 'socialSignIn'; otpStep: 'otpStep'; fetchProfile: 'fetchProfile'; authenticatorStep: 'authenticatorStep';
    },
  },
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
    forwardToAuthenticatorStep: sendTo('authenticatorStep', ({ event }) => event as AuthenticatorStepEvent),
    setSession: assign((_, params: { session: Session | null }) => ({
      session: params.session, pendingToken: null, twoFactor: null, error: null,
    })),
    startTwoFactor: assign((_, params: TwoFactorStep) => ({ twoFactor: params, error: null })),
    setPendingToken: assign((_, params: { accessToken: string }) => ({ pendingToken: params.accessToken })),
    clearSession: assign({ session: null, twoFactor: null, pendingToken: null, error: null }),
    rememberReturnTo: assign((_, params: RouteCheck) => ({ returnTo: params.href })),
    clearReturnTo: assign({ returnTo: null }),
    /** The page asked for may open. */
    allowRoute: assign({ routeDecision: STAY }),
    /** The router goes to `to` instead. */
    redirectRoute: assign((_, params: NavigateParams) => ({ routeDecision: { kind: 'redirect', to: params.to } as RouteDecision })),
    /** The router goes to /forbidden, naming the area. */
    forbidRoute: assign((_, params: { area: AreaName }) => ({ routeDecision: { kind: 'forbidden', area: params.area } as RouteDecision })),
  },
  guards: {
    isUsernameMissing: ({ event }) => event.type === 'login.submit' && event.username.trim() === '',
    isPasswordMissing: ({ event }) => event.type === 'login.submit' && event.password === '',
    hasSession: (_, params: { session: Session | null }) => params.session !== null,
    isPendingStep: (_, params: { step: TwoFactorStep | null }) => params.step !== null,
    isPendingAuthenticatorStep: (_, params: { step: TwoFactorStep | null }) => params.step?.secondFactor === 'totp',
    isAuthenticatorStep: (_, params: { isTwoFactorOnLogin: boolean; secondFactor?: SecondFactorKind }) =>
      params.isTwoFactorOnLogin && params.secondFactor === 'totp',
    isEnrolmentDue: (_, params: { profile: SiteProfile | null | undefined }) => params.profile?.authenticatorEnrolmentDue === true,
    isFailure: (_, params: { success: boolean }) => !params.success,
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
}).createMachine({
  id: 'auth',
  description: 'Who is signed in, and the steps of signing in: credentials, the SMS code, the site profile.',
  context: initialContext,
  initial: 'restoring',
  on: {
    'route.check': ROUTE_CHECK_SIGNED_OUT,
  },
  states: {
    restoring: {
      description: 'The restore child reads what an earlier visit stored: a session, else a sign-in waiting for its second factor.',
      tags: ['loading'],
      invoke: {
        id: 'restore',
        src: 'restore',
        onDone: [
          {
            guard: { type: 'isEnrolmentDue', params: restoredProfile },
            target: 'signedIn.enrolmentRequired',
            actions: [{ type: 'setSession', params: restoredSession }, { type: 'tellApp', params: RESTORED_SIGNED_IN }],
          },
          {
            guard: { type: 'hasSession', params: restoredSession },
            target: 'signedIn',
            actions: [{ type: 'setSession', params: restoredSession }, { type: 'tellApp', params: RESTORED_SIGNED_IN }],
          },
          {
            guard: { type: 'isPendingAuthenticatorStep', params: pendingStep },
            target: 'signedOut.authenticator',
            actions: [{ type: 'startTwoFactor', params: pendingTwoFactor }, { type: 'tellApp', params: RESTORED_SIGNED_OUT }],
          },
          {
            guard: { type: 'isPendingStep', params: pendingStep },
            target: 'signedOut.twoFactor',
            actions: [{ type: 'startTwoFactor', params: pendingTwoFactor }, { type: 'tellApp', params: RESTORED_SIGNED_OUT }],
          },
          { target: 'signedOut', actions: { type: 'tellApp', params: RESTORED_SIGNED_OUT } },
        ],
      },
    },
    signedOut: {
      description: 'Nobody is signed in; the sign-in page takes credentials. The device id is fetched meanwhile.',
      initial: 'idle',
      invoke: {
        id: 'getDeviceId',
        src: 'getDeviceId',
        onDone: [
          {
            guard: 'isInCodeStep',
            actions: [{ type: 'setDeviceId', params: deviceIdOutput }, { type: 'tellOtpStepDevice', params: deviceIdOutput }],
          },
          {
            guard: 'isInAuthenticatorStep',
            actions: [{ type: 'setDeviceId', params: deviceIdOutput }, { type: 'tellAuthenticatorStepDevice', params: deviceIdOutput }],
          },
          { actions: { type: 'setDeviceId', params: deviceIdOutput } },
        ],
      },
      on: {
        'login.submit': [
          { guard: 'isUsernameMissing', target: '.idle', actions: { type: 'setError', params: { message: OWN_MESSAGES.usernameRequired } } },
          { guard: 'isPasswordMissing', target: '.idle', actions: { type: 'setError', params: { message: OWN_MESSAGES.passwordRequired } } },
          { target: '.submitting', actions: 'clearError' },
        ],
        'login.social': { target: '.socialSigningIn', actions: 'clearError' },
      },
      states: {
        idle: {
          description: 'Waiting for credentials; shows the last error, if any.',
        },
        submitting: {
          description: 'The credentials are with the server.',
          tags: ['submitting'],
          invoke: {
            id: 'login',
            src: 'login',
            input: loginInput,
            onDone: LOGIN_OUTCOMES,
            onError: {
              target: 'idle',
              actions: [{ type: 'setError', params: unreachable }, { type: 'notify', params: unreachable }],
            },
          },
        },
        socialSigningIn: {
          description: "The identity provider's popup is open, then its ID token is with the server.",
          tags: ['submitting', 'social'],
          invoke: {
            id: 'socialSignIn',
            src: 'socialSignIn',
            input: socialSignInInput,
            onDone: LOGIN_OUTCOMES,
            onError: {
              target: 'idle',
              actions: [{ type: 'setError', params: socialFailure }, { type: 'notify', params: socialFailure }],
            },
          },
        },
        twoFactor: {
          description: 'The code step of /verify-number, run by the otpStep child (isLogin true).',
          invoke: {
            id: 'otpStep',
            src: 'otpStep',
            input: otpStepInput,
            onDone: { target: '#auth.loadingProfile', actions: { type: 'setPendingToken', params: doneOutput<OtpStepOutput> } },
          },
        },
        authenticator: {
          description: "The authenticator-app step of /verify-number (issue 19), run by the authenticatorStep child: the app's 6-digit code, or a recovery code.",
          on: {
            'authenticator.edit': { actions: 'forwardToAuthenticatorStep' },
            'authenticator.submit': { actions: 'forwardToAuthenticatorStep' },
            'authenticator.useRecovery': { actions: 'forwardToAuthenticatorStep' },
            'authenticator.useApp': { actions: 'forwardToAuthenticatorStep' },
          },
          invoke: {
            id: 'authenticatorStep',
            src: 'authenticatorStep',
            input: authenticatorStepInput,
            onDone: { target: '#auth.loadingProfile', actions: { type: 'setPendingToken', params: doneOutput<AuthenticatorStepOutput> } },
          },
        },
      },
    },
    loadingProfile: {
      description: 'Signed in at the server; fetching the site profile before storing the session.',
      tags: ['submitting'],
      invoke: {
        id: 'fetchProfile',
        src: 'fetchProfile',
        input: profileInput,
        onDone: [
          {
            guard: { type: 'isEnrolmentDue', params: profileOutput },
            target: 'signedIn.enrolmentRequired',
            actions: [
              { type: 'storeSession', params: signedInSession },
              { type: 'setSession', params: signedInSession },
              { type: 'navigate', params: TO_ENROLMENT },
            ],
          },
          {
            target: 'signedIn',
            actions: [
              { type: 'storeSession', params: signedInSession },
              { type: 'setSession', params: signedInSession },
              { type: 'prefetchLanding', params: landingAfterSignIn },
              { type: 'navigate', params: landingAfterSignIn },
              'clearReturnTo',
            ],
          },
        ],
        onError: {
          target: 'signedOut',
          actions: ['clearSession', { type: 'setError', params: unreachable }, { type: 'notify', params: unreachable }],
        },
      },
    },
    signedIn: {
      description: 'A session is stored; the console is open.',
      entry: { type: 'tellApp', params: sessionReport },
      exit: { type: 'tellApp', params: SIGNED_OUT },
      on: {
        'auth.signedOut': { target: 'signedOut', actions: 'clearSession' },
      },
      initial: 'active',
      states: {
        active: {
          description: 'Every area the roles allow is open.',
          on: {
            'route.check': [
              { guard: { type: 'isSignInRoute', params: checkedRoute }, actions: { type: 'redirectRoute', params: landingOfRoles } },
              { guard: { type: 'isAreaWithoutRole', params: checkedArea }, actions: { type: 'forbidRoute', params: forbiddenArea } },
              { actions: 'allowRoute' },
            ],
          },
        },
        enrolmentRequired: {
          description: "The site requires an authenticator app this user has not set up: only the account's two-factor page (and sign-out) until it is.",
          on: {
            'route.check': [
              { guard: { type: 'isEnrolmentRoute', params: checkedRoute }, actions: 'allowRoute' },
              { actions: { type: 'redirectRoute', params: TO_ENROLMENT } },
            ],
            'authenticator.enrolled': { target: 'active', actions: [{ type: 'navigate', params: landingAfterSignIn }, 'clearReturnTo'] },
          },
        },
      },
    },
  },
});

export type AuthMachine = typeof authMachine;
export type AuthSnapshot = SnapshotFrom<AuthMachine>;

/**
 * State tags the views and the router read instead of state names: `loading` while the stored session
 * is read, `submitting` while a sign-in step is with the server (credentials, the identity provider,
 * the authenticator code, the profile), `social` while that is the identity provider's popup.
 */
export type AuthTag = 'loading' | 'submitting' | 'social';
export const selectIsRestoring = (snapshot: AuthSnapshot) => snapshot.hasTag('loading');
/** A sign-in step is with the server: the forms are disabled. */
export const selectIsSigningIn = (snapshot: AuthSnapshot) => snapshot.hasTag('submitting');
export const selectIsSignedIn = (snapshot: AuthSnapshot) => snapshot.matches('signedIn');
export const selectSession = (snapshot: AuthSnapshot) => snapshot.context.session;
export const selectRoles = (snapshot: AuthSnapshot) => snapshot.context.session?.roles ?? {};
export const selectLoginError = (snapshot: AuthSnapshot) => snapshot.context.error;
export const selectIsEnrolmentRequired = (snapshot: AuthSnapshot) => snapshot.matches({ signedIn: 'enrolmentRequired' });
export const selectIsAuthenticatorStep = (snapshot: AuthSnapshot) => snapshot.matches({ signedOut: 'authenticator' });
/** The running authenticator-app step (its panel reads it with selectAuthenticatorPanel), or null. */
export function selectAuthenticatorStepActor(snapshot: AuthSnapshot): AuthenticatorStepActorRef | null {
  return snapshot.children.authenticatorStep ?? null;
}
export const selectIsSubmitting = (snapshot: AuthSnapshot) => snapshot.hasTag('submitting') && !snapshot.hasTag('social') && !snapshot.matches('loadingProfile');
export const selectIsSocialSigningIn = (snapshot: AuthSnapshot) => snapshot.hasTag('social');
export const selectIsLoadingProfile = (snapshot: AuthSnapshot) => snapshot.matches('loadingProfile');
/** The answer to the router's last `route.check`. */
export const selectRouteDecision = (snapshot: AuthSnapshot): RouteDecision => snapshot.context.routeDecision;
export const selectLandingRoute = (snapshot: AuthSnapshot) =>
  snapshot.context.session ? landingRouteFor(snapshot.context.session.roles) : ROUTES.login;

/** The running code step of a sign-in (its panel reads it), or null when no second factor is pending. */
export function selectOtpStepActor(snapshot: AuthSnapshot): OtpStepActorRef | null {
  if (!snapshot.matches({ signedOut: 'twoFactor' })) return null;
  return snapshot.children.otpStep ?? null;
}
