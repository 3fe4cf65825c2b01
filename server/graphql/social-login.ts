/**
 * googleLogin / microsoftLogin (spec §7.1): the Firebase ID token and the device id in, the login
 * response out. Merged into the management schema by plugin.ts. These two mutations need no
 * Authorization or API key (nobody holds one before signing in): they never call `ctx.caller()`.
 * Refusals are data (`success: false` with our message), like the REST login; the rate limit is a
 * GraphQL error with code TOO_MANY_REQUESTS and the seconds to wait.
 */
import mercurius, { type MercuriusContext } from 'mercurius';
import type { LoginResponse } from '../../src/api/contract';
import { DomainError } from '../domain/errors';
import type { SocialLogin, SocialLoginInput, SocialLoginProvider } from '../domain/social-login';

const { ErrorWithProps } = mercurius;

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
  }

  extend type Mutation {
    googleLogin(token: String!, deviceId: String): SocialLoginResult!
    microsoftLogin(token: String!, deviceId: String): SocialLoginResult!
  }
`;

function toGraphqlError(error: unknown): unknown {
  if (!(error instanceof DomainError)) return error;
  const retryAfterSeconds = (error.body as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  const code = error.statusCode === 429 ? 'TOO_MANY_REQUESTS' : error.statusCode === 401 ? 'UNAUTHENTICATED' : 'BAD_USER_INPUT';
  return new ErrorWithProps(error.message, { code, ...(typeof retryAfterSeconds === 'number' ? { retryAfterSeconds } : {}) }, error.statusCode);
}

export function socialLoginResolvers(socialLogin: SocialLogin) {
  const resolverFor = (provider: SocialLoginProvider) =>
    async (_root: unknown, args: SocialLoginInput, ctx: MercuriusContext): Promise<LoginResponse> => {
      try {
        const result = await socialLogin.login(provider, args, ctx.reply.request);
        ctx.reply.header('cache-control', 'no-store');
        return result.body;
      } catch (error) {
        throw toGraphqlError(error);
      }
    };
  return {
    Mutation: {
      googleLogin: resolverFor('google'),
      microsoftLogin: resolverFor('microsoft'),
    },
  };
}
