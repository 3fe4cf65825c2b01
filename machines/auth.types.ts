/**
 * What the auth, password, session and logout machines exchange with their I/O actors. The machines
 * declare the actors with `providedLater`; src/adapters/auth-actors.ts supplies the real ones.
 */
import type {
  ForgotPasswordResponse, GenerateOtpResponse, LoginResponse, ResetPasswordResponse, Roles,
  SiteProfile, VerifyOtpResponse,
} from '../common/contract';
import type { AccessFlags } from '../common/roles';

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
