/**
 * googleLogin / microsoftLogin (spec §7.1): the Firebase ID token and the device id in, the login
 * response out. Merged into the management schema by plugin.ts. These two mutations need no
 * Authorization or API key (nobody holds one before signing in): they never call `ctx.caller()`.
 * Refusals are data (`success: false` with our message), like the REST login; the rate limit is a
 * 'rate_limited' DomainError, a GraphQL error with code TOO_MANY_REQUESTS and the seconds to wait
 * (plugin.ts).
 */
import type { MercuriusContext } from 'mercurius';
import type { LoginResponse } from '../../common/contract';
import type { SocialLogin, SocialLoginInput, SocialLoginProvider } from '../domain/social-login';

export const socialLoginSchema = /* GraphQL */ `
  type SocialLoginResult {
    success: Boolean!
    message: String!
    isTwoFactorOnLogin: Boolean!
    obscureMobileNumber: String!
    username: String!
    accessToken: String!
    refreshToken: String!
    v2ManagementApiEnabled: Boolean!
    v2VodManagementApiEnabled: Boolean!
    "With isTwoFactorOnLogin: the proof a resend of the login code (generate/otp) must carry."
    loginAttemptToken: String
    "With isTwoFactorOnLogin: which second factor the account uses, 'sms' (the spec's code) or 'totp' (its authenticator app; no SMS was sent)."
    secondFactor: String
    "Signed in, but the site requires an authenticator app this account has not set up yet: the client sends the user to set it up first."
    authenticatorEnrolmentDue: Boolean
  }

  extend type Mutation {
    googleLogin(token: String!, deviceId: String): SocialLoginResult!
    microsoftLogin(token: String!, deviceId: String): SocialLoginResult!
  }
`;

export function socialLoginResolvers(socialLogin: SocialLogin) {
  const resolverFor = (provider: SocialLoginProvider) =>
    async (_root: unknown, args: SocialLoginInput, ctx: MercuriusContext): Promise<LoginResponse> => {
      const result = await socialLogin.login(provider, args, ctx.reply.request);
      ctx.reply.header('cache-control', 'no-store');
      return result.body;
    };
  return {
    Mutation: {
      googleLogin: resolverFor('google'),
      microsoftLogin: resolverFor('microsoft'),
    },
  };
}
