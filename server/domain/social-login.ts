/**
 * Social sign-in (spec §4.1, §7.1 googleLogin / microsoftLogin): a verified Firebase ID token proves
 * the first factor; the rest is the password login's "SMS code or session" step (auth-flows
 * completeLogin), so 2FA accounts get their code exactly as with a password.
 *
 * Which staff account: the identity link (provider + the provider's user id). The first sign-in of an
 * identity links it to the existing staff account whose email equals the token's email, and only when
 * the identity provider says that email is verified and exactly one account has it. An unknown person
 * is refused; no account is ever created here.
 *
 * Throttling (SECURITY.md C-LOCK-3): every call counts on the sign-in window of the client address
 * before the token is checked (so forged or garbage tokens are bounded), and a call that signs a
 * linked account in takes its count back (successes never count). There is no window per identity:
 * only the identity's owner can present a valid token for it, so such a window could only ever lock
 * the owner out.
 */
import { OWN_MESSAGES } from '../../common/messages';
import type { AccountRepository } from './ports';
import type { AuditLog } from './audit';
import type { AuthFlows, LoginOutcome, RequestInfo } from './auth-flows';
import { IdTokenError, type FirebaseTokenVerifier, type VerifiedIdentity } from './firebase-token';
import { ipKey } from './login-throttle';
import type { RateLimiter } from './rate-limit';

export type SocialLoginProvider = 'google' | 'microsoft';

/** Firebase's provider ids (`firebase.sign_in_provider`), also the `provider` column of identity_links. */
const FIREBASE_PROVIDER_IDS: Readonly<Record<SocialLoginProvider, string>> = {
  google: 'google.com',
  microsoft: 'microsoft.com',
};

export interface SocialLoginInput {
  token: string;
  deviceId?: string | null;
}

interface SocialLoginDeps {
  accounts: Pick<AccountRepository, 'byIdentity' | 'byEmail' | 'linkIdentity'>;
  flows: Pick<AuthFlows, 'guard' | 'completeLogin'>;
  audit: AuditLog;
  limiter: Pick<RateLimiter, 'refund'>;
  /** null when social sign-in is not configured (no FIREBASE_PROJECT_ID). */
  verifier: FirebaseTokenVerifier | null;
}

function refusal(message: string, kind: 'refused' | 'unavailable' = 'refused'): LoginOutcome {
  return {
    kind,
    body: {
      success: false, message, isTwoFactorOnLogin: false, obscureMobileNumber: '', username: '',
      accessToken: '', refreshToken: '', v2ManagementApiEnabled: false, v2VodManagementApiEnabled: false,
    },
  };
}

export function createSocialLogin(deps: SocialLoginDeps) {
  const { accounts } = deps;

  /** The one staff account with this (verified) email, linked to the identity from now on. */
  async function linkByVerifiedEmail(provider: string, providerUserId: string, identity: VerifiedIdentity) {
    if (!identity.email || !identity.emailVerified) return undefined;
    const matches = await accounts.byEmail(identity.email, 2);
    if (matches.length !== 1) return undefined;
    const [match] = matches;
    await accounts.linkIdentity(provider, providerUserId, match!.user.id);
    // A concurrent first sign-in may have linked it first: the stored link is the truth.
    const linked = await accounts.byIdentity(provider, providerUserId);
    if (linked?.user.id === match!.user.id) {
      await deps.audit.record({ action: 'identity.linked', actorUserId: match!.user.id, siteId: match!.site.id, detail: { provider } });
    }
    return linked;
  }

  return {
    async login(provider: SocialLoginProvider, input: SocialLoginInput, req: RequestInfo): Promise<LoginOutcome> {
      await deps.flows.guard('login', undefined, req.ip);
      if (!deps.verifier) return refusal(OWN_MESSAGES.socialNotConfigured, 'unavailable');
      const firebaseProvider = FIREBASE_PROVIDER_IDS[provider];
      let identity: VerifiedIdentity;
      try {
        identity = await deps.verifier(input.token);
      } catch (error) {
        if (!(error instanceof IdTokenError)) throw error;
        await deps.audit.record({ action: 'login.failure', actorUserId: null, detail: { method: provider, reason: error.reason, ip: req.ip } });
        return refusal(OWN_MESSAGES.socialTokenInvalid);
      }
      if (identity.signInProvider !== firebaseProvider || !identity.providerUserId) {
        await deps.audit.record({ action: 'login.failure', actorUserId: null, detail: { method: provider, reason: 'provider-mismatch', ip: req.ip } });
        return refusal(OWN_MESSAGES.socialTokenInvalid);
      }
      const providerUserId = identity.providerUserId;
      const found = await accounts.byIdentity(firebaseProvider, providerUserId)
        ?? await linkByVerifiedEmail(firebaseProvider, providerUserId, identity);
      if (!found || found.user.disabled) {
        await deps.audit.record({
          action: 'login.failure', actorUserId: found?.user.id ?? null, siteId: found?.site.id ?? null,
          detail: { method: provider, reason: found ? 'disabled' : 'not-linked', ip: req.ip },
        });
        return refusal(OWN_MESSAGES.socialAccountNotLinked);
      }
      await deps.limiter.refund(ipKey(req.ip));
      return deps.flows.completeLogin(found, input.deviceId ?? '', req, { method: provider });
    },
  };
}

export type SocialLogin = ReturnType<typeof createSocialLogin>;
