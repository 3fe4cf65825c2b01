/**
 * What the auth, password, session and logout machines exchange with their I/O actors. The machines
 * declare the actors with `providedLater`; src/adapters/auth-actors.ts supplies the real ones.
 */
import type {
  ForgotPasswordResponse, GenerateOtpResponse, LoginResponse, ResetPasswordResponse, Roles,
  SiteProfile, VerifyOtpResponse,
} from '../common/contract';
import type { AccessFlags } from '../common/roles';
import type { AreaName } from '../common/constants';
import type { SecondFactorKind } from '../common/totp';

export interface Credentials {
  accessToken: string;
  apiKey: string;
}

/** The signed-in user as the console keeps it (spec §3 client-side session values). */
export interface Session extends Credentials {
  site: string;
  username: string;
  roles: Roles;
  accessFlags: AccessFlags;
  /** Spec §4.1.6: one configured site has encoding disabled. */
  encodingEnabled: boolean;
  profile: SiteProfile | null;
}

/** Site configuration the auth machine needs (from the runtime config). */
export interface AuthConfig {
  analyticsAllowedSites: readonly string[];
  encodingDisabledSite: string;
}

export interface LoginInput {
  username: string;
  password: string;
  deviceId: string | undefined;
}
export type LoginOutput = LoginResponse;

export interface GenerateOtpInput {
  username: string;
  isLogin: boolean;
  /** The header Change Password flow sends the signed-in user's token and key. */
  credentials?: Credentials;
}
export type GenerateOtpOutput = GenerateOtpResponse;

export interface VerifyOtpInput {
  username: string;
  otp: string;
  isLogin: boolean;
  deviceId?: string;
  credentials?: Credentials;
}
/** With isLogin false, `accessToken` is the single-use reset token. */
export type VerifyOtpOutput = VerifyOtpResponse;

export interface FetchProfileInput {
  accessToken: string;
}
export interface FetchProfileOutput {
  profile: SiteProfile;
  /** When the profile arrived (epoch ms): the issue time for a token without `exp` or `iat`. */
  fetchedAt: number;
}

export interface RequestPasswordOtpInput {
  username: string;
}
export type RequestPasswordOtpOutput = ForgotPasswordResponse;

export interface ResetPasswordInput {
  token: string;
  newPassword: string;
  confirmPassword: string;
  /** The header's change flow only (ASVS 6.2.3). */
  currentPassword?: string;
}
export type ResetPasswordOutput = ResetPasswordResponse;

/** 401 and 403 answer `valid: false` with their status; a network failure rejects. */
export interface VerifySessionOutput {
  valid: boolean;
  status: number;
}
export interface VerifySiteOutput {
  provider: string;
}

/** Params of the effect actions src provides. */
export interface NavigateParams {
  to: string;
}
export interface StoreSessionParams {
  session: Session;
  /** Token cookie expiry, epoch ms (spec §4.3). */
  expiresAt: number;
}

/** The two social sign-in options of spec §4.1 (§9: google with account selection, microsoft with tenant and consent). */
export type SocialProvider = 'google' | 'microsoft';
export const SOCIAL_PROVIDERS: readonly SocialProvider[] = ['google', 'microsoft'];

export interface SocialSignInInput {
  provider: SocialProvider;
  deviceId: string | undefined;
}

// The sign-in machine's own words (./auth.machine.ts).

/** A sign-in waiting for its second factor (kept for the code's lifetime). */
export interface PendingTwoFactor {
  username: string;
  obscureMobileNumber: string;
  /** 'totp': the authenticator app's code (issue 19); absent or 'sms': the spec's SMS code. */
  secondFactor?: SecondFactorKind;
}

export type AuthInput = AuthConfig;

/** The second factor a sign-in is at (also what the restore child finds pending after a reload). */
export type TwoFactorStep = PendingTwoFactor;

/** What is typed into the sign-in form (the view keeps no copy). */
export interface LoginForm {
  username: string;
  password: string;
}

export interface AuthContext {
  config: AuthConfig;
  form: LoginForm;
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
  /** The sign-in form's fields, as typed (the machine holds the text; key names keep them redacted in the inspector). */
  | { type: 'form.usernameChanged'; username: string }
  | { type: 'form.passwordChanged'; password: string }
  | { type: 'login.submit' }
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

/**
 * State tags the views and the router read instead of state names: `loading` while the stored session
 * is read, `submitting` while a sign-in step is with the server (credentials, the identity provider,
 * the authenticator code, the profile), `social` while that is the identity provider's popup.
 */
export type AuthTag = 'loading' | 'submitting' | 'social';
