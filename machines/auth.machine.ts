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
import type { SnapshotFrom } from 'xstate';
import { ROUTES } from '../common/constants';
import { landingRouteFor } from '../common/roles';
import { initialContext } from './auth.actions';
import { authSetup } from './auth.setup';
import { loadingProfile } from './auth.state.loading-profile';
import { restoring } from './auth.state.restoring';
import { ROUTE_CHECK_SIGNED_OUT, signedOut } from './auth.state.signed-out';
import { signedIn } from './auth.state.signed-in';
import type { AuthenticatorStepActorRef } from './authenticator-step.machine';
import type { OtpStepActorRef } from './otp-step.machine';
import type { RouteDecision } from './auth.types';

export type {
  AuthContext, AuthEvent, AuthInput, AuthReport, AuthTag, LoginForm, RouteCheck, RouteDecision, TwoFactorStep,
} from './auth.types';
export type { AuthenticatorEntry, VerifyAuthenticatorInput } from './authenticator-step.machine';
export { sessionFromProfile } from './auth.actions';

export const authMachine = authSetup.createMachine({
  id: 'auth',
  description: 'Who is signed in, and the steps of signing in: credentials, the SMS code, the site profile.',
  context: initialContext,
  initial: 'restoring',
  on: {
    'route.check': ROUTE_CHECK_SIGNED_OUT,
  },
  states: { restoring, signedOut, loadingProfile, signedIn },
});

export type AuthMachine = typeof authMachine;
export type AuthSnapshot = SnapshotFrom<AuthMachine>;

export const selectIsRestoring = (snapshot: AuthSnapshot) => snapshot.hasTag('loading');
/** A sign-in step is with the server: the forms are disabled. */
export const selectIsSigningIn = (snapshot: AuthSnapshot) => snapshot.hasTag('submitting');
export const selectIsSignedIn = (snapshot: AuthSnapshot) => snapshot.matches('signedIn');
export const selectSession = (snapshot: AuthSnapshot) => snapshot.context.session;
export const selectRoles = (snapshot: AuthSnapshot) => snapshot.context.session?.roles ?? {};
export const selectLoginError = (snapshot: AuthSnapshot) => snapshot.context.error;
/** What is typed into the sign-in form. */
export const selectLoginForm = (snapshot: AuthSnapshot) => snapshot.context.form;
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
