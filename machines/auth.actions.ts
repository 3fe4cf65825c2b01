/**
 * The sign-in machine's params: what each action, guard and actor of ./auth.machine.ts reads from the
 * context and the event, the session values of spec §3, and the reports to the root `app` actor.
 */
import type { DoneActorEvent, ErrorActorEvent } from 'xstate';
import type { Roles, SiteProfile } from '../common/contract';
import { AREAS, ROUTES, type AreaName } from '../common/constants';
import { SIGN_IN_OWN_MESSAGES as OWN_MESSAGES } from '../common/messages/sign-in';
import { accessFlagsFor, applyAllowedSites, areaForPath, landingRouteFor, parseRoles, routeAfterSignIn } from '../common/roles';
import { TOTP_ROUTES } from '../common/totp';
import type { AuthRestoreOutput } from './auth-restore.machine';
import type {
  AuthConfig, AuthContext, AuthEvent, AuthInput, AuthReport, FetchProfileInput, FetchProfileOutput, LoginForm, LoginInput, LoginOutput,
  NavigateParams, RouteCheck, RouteDecision, Session, SocialSignInInput, StoreSessionParams, TwoFactorStep,
} from './auth.types';
import type { AuthenticatorStepEvent, AuthenticatorStepInput } from './authenticator-step.machine';
import { idpErrorMessage } from './idp-errors';
import { failureMessage, type NotifyParams } from './notify';
import type { OtpStepInput } from './otp-step.machine';
import { tokenExpiry } from './token';

export const EMPTY_FORM: LoginForm = { username: '', password: '' };
export const RESTORED_SIGNED_IN: AuthReport = { type: 'auth.restored', signedIn: true };
export const RESTORED_SIGNED_OUT: AuthReport = { type: 'auth.restored', signedIn: false };
export const SIGNED_OUT: AuthReport = { type: 'auth.sessionChanged', session: null };

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

export function initialContext({ input }: { input: AuthInput }): AuthContext {
  return {
    config: input, form: EMPTY_FORM, deviceId: undefined, session: null, error: null, twoFactor: null, pendingToken: null,
    returnTo: null, routeDecision: STAY,
  };
}
export const STAY: RouteDecision = { kind: 'stay' };
export function restoredSession({ event }: { event: DoneActorEvent<AuthRestoreOutput> }) {
  return { session: event.output.session };
}
export function restoredProfile({ event }: { event: DoneActorEvent<AuthRestoreOutput> }) {
  return { profile: event.output.session?.profile };
}
export function pendingStep({ event }: { event: DoneActorEvent<AuthRestoreOutput> }) {
  return { step: event.output.pendingStep };
}
export function pendingTwoFactor({ event }: { event: DoneActorEvent<AuthRestoreOutput> }): TwoFactorStep {
  return event.output.pendingStep ?? { username: '', obscureMobileNumber: '' };
}
export function deviceIdOutput({ event }: { event: DoneActorEvent<string | undefined> }) {
  return { deviceId: event.output };
}
export function loginInput({ context }: { context: AuthContext }): LoginInput {
  return { username: context.form.username.trim(), password: context.form.password, deviceId: context.deviceId };
}
export function typedUsername({ event }: Args<AuthEvent>) {
  return { username: event.type === 'form.usernameChanged' ? event.username : '' };
}
export function typedPassword({ event }: Args<AuthEvent>) {
  return { password: event.type === 'form.passwordChanged' ? event.password : '' };
}
export function socialSignInInput({ context, event }: Args<AuthEvent>): SocialSignInInput {
  if (event.type !== 'login.social') throw new Error(`social sign-in started by ${event.type}`);
  return { provider: event.provider, deviceId: context.deviceId };
}
export function loginRefusal({ event }: { event: DoneActorEvent<LoginOutput> }): NotifyParams {
  return { message: event.output.message || OWN_MESSAGES.invalidCredentials, severity: 'error' };
}
export function unreachable({ event }: { event: ErrorActorEvent }): NotifyParams {
  return { message: failureMessage(event.error, OWN_MESSAGES.serverUnavailable), severity: 'error' };
}
export function socialFailure({ event }: { event: ErrorActorEvent }): NotifyParams {
  return { message: idpErrorMessage(event.error), severity: 'error' };
}
export function twoFactorStep({ event }: { event: DoneActorEvent<LoginOutput> }): TwoFactorStep {
  return { username: event.output.username, obscureMobileNumber: event.output.obscureMobileNumber };
}
export function authenticatorStep({ event }: { event: DoneActorEvent<LoginOutput> }): TwoFactorStep {
  return { username: event.output.username, obscureMobileNumber: '', secondFactor: 'totp' };
}
export function authenticatorStepInput({ context }: { context: AuthContext }): AuthenticatorStepInput {
  return { username: context.twoFactor?.username ?? '', ...(context.deviceId !== undefined ? { deviceId: context.deviceId } : {}) };
}
export function profileOutput({ event }: { event: DoneActorEvent<FetchProfileOutput> }) {
  return { profile: event.output.profile };
}
export function otpStepInput({ context }: { context: AuthContext }): OtpStepInput {
  return {
    username: context.twoFactor?.username ?? '', isLogin: true, obscureMobileNumber: context.twoFactor?.obscureMobileNumber ?? '',
    ...(context.deviceId !== undefined ? { deviceId: context.deviceId } : {}),
  };
}
export function sessionReport({ context }: { context: AuthContext }): AuthReport {
  return { type: 'auth.sessionChanged', session: context.session };
}
export function profileInput({ context }: Args<AuthEvent>): FetchProfileInput {
  return { accessToken: context.pendingToken ?? '' };
}
export function signedInSession({ context, event }: Args<DoneActorEvent<FetchProfileOutput>>): StoreSessionParams {
  const accessToken = context.pendingToken ?? '';
  return {
    session: sessionFromProfile(accessToken, event.output.profile, context.config),
    expiresAt: tokenExpiry(accessToken, event.output.fetchedAt),
  };
}
export function landingAfterSignIn({ context }: Args<unknown>): NavigateParams {
  return { to: routeAfterSignIn(context.session?.roles ?? {}, context.returnTo) };
}
export const TO_ENROLMENT: NavigateParams = { to: TOTP_ROUTES.accountSecurity };
export const TO_SIGN_IN: NavigateParams = { to: ROUTES.login };
export function checkedRoute({ event }: Args<AuthEvent>): RouteCheck {
  return event.type === 'route.check' ? { path: event.path, href: event.href } : { path: '', href: '' };
}
export function landingOfRoles({ context }: Args<unknown>): NavigateParams {
  return { to: landingRouteFor(context.session?.roles ?? {}) };
}
export function checkedArea({ context, event }: Args<AuthEvent>): { area: AreaName | undefined; roles: Roles } {
  return { area: event.type === 'route.check' ? areaForPath(event.path) : undefined, roles: context.session?.roles ?? {} };
}
export function forbiddenArea({ event }: Args<AuthEvent>): { area: AreaName } {
  // Only reached past isAreaWithoutRole, which found the area.
  return { area: (event.type === 'route.check' ? areaForPath(event.path) : undefined) ?? AREAS.admin };
}
/** The view's authenticator.* events, forwarded as they are to the step that owns the entry. */
export function authenticatorStepEvent({ event }: Args<AuthEvent>): AuthenticatorStepEvent {
  switch (event.type) {
    case 'authenticator.edit':
    case 'authenticator.submit':
    case 'authenticator.useRecovery':
    case 'authenticator.useApp':
      return event;
    default:
      throw new Error(`${event.type} is not the authenticator step's`);
  }
}
