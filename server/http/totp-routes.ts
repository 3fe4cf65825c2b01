/**
 * The authenticator-app factor over REST (issue 19, SECURITY.md C-TOTP-1..4); the rules are in
 * server/domain/totp.ts, the login step in auth-flows.ts.
 *
 *   GET  /v3.0/user/account/totp                  status (enabled, pending, recovery codes left, site requires)
 *   POST /v3.0/user/account/totp/start            a new pending secret + otpauth:// URI
 *   POST /v3.0/user/account/totp/confirm          { code }: the 10 recovery codes, once
 *   POST /v3.0/user/account/totp/disable          { password, code }: code = authenticator or recovery code
 *   POST /v3.0/user/account/totp/recovery-codes   { code }: 10 new recovery codes (authenticator code only)
 *
 * The site's rule that every account uses an authenticator app is one value of its second-factor
 * rule (issue 30): PUT /v3.0/user/admin/site/second-factor (server/http/admin-routes.ts).
 *
 * The account routes answer a session that still owes its site's required enrolment; every POST
 * counts against the code endpoints' limits (per account and per address); writes are audited.
 */
import { ACCOUNT_MESSAGES } from '../../common/messages';
import { TOTP_AUDIT_ACTIONS, TOTP_MESSAGES, TOTP_PATHS, TOTP_SCHEMAS, isTotpCode, type TotpPlainResponse, type TotpRecoveryCodesResponse, type TotpStartResponse, type TotpStatusResponse } from '../../common/totp';
import { authenticatorRequired } from '../../common/second-factor-rule';
import type { AuthContext } from '../domain/auth-context';
import { invalid, rateLimited } from '../domain/errors';
import { authContextOf, requireAuthDuringEnrolment } from './auth-hooks';
import { answers } from './response-schemas';
import type { RouteInstance, RoutePlugin } from './type-provider';
import './types';

const BASE = TOTP_PATHS.account;

export const totpRoutes: RoutePlugin = async (app) => {
  const services = app.services;
  const totp = services.authFlows.totp;
  const { accounts } = services;

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  /** The code endpoints' limits (verifyOtp's table row), per account and per client address. */
  async function limit(ctx: AuthContext, ip: string): Promise<void> {
    const rules = services.config.rateLimits.verifyOtp;
    const results = await Promise.all([
      services.limiter.hit(`totp:user:${ctx.user.id}`, rules.perUsername),
      services.limiter.hit(`totp:ip:${ip}`, rules.perIp),
    ]);
    const refused = results.filter((r) => !r.allowed);
    if (refused.length > 0) throw rateLimited(Math.max(...refused.map((r) => r.retryAfterSeconds)));
  }

  const audit = (ctx: AuthContext, action: string, detail: Record<string, unknown>) =>
    services.audit.record({ action, actorUserId: ctx.user.id, siteId: ctx.site.id, detail });

  // The caller's own authenticator: a session, also one that still owes its site's required enrolment.
  await app.register(async (account: RouteInstance) => {
    account.addHook('onRequest', requireAuthDuringEnrolment);

    account.get(BASE, { schema: { response: answers({ 200: TOTP_SCHEMAS.status }) } }, async (request): Promise<TotpStatusResponse> => {
      const ctx = authContextOf(request);
      const status = await totp.status(ctx.user.id);
      return { success: true, message: TOTP_MESSAGES.statusLoaded, ...status, required: authenticatorRequired(ctx.site.secondFactorRule) };
    });

    account.post(`${BASE}/start`, { schema: { response: answers({ 200: TOTP_SCHEMAS.start }) } }, async (request): Promise<TotpStartResponse> => {
      const ctx = authContextOf(request);
      await limit(ctx, request.ip);
      const started = await totp.start(ctx.user.id, ctx.user.username);
      if (!started) throw invalid('totp', TOTP_MESSAGES.alreadyEnrolled);
      await audit(ctx, TOTP_AUDIT_ACTIONS.enrolmentStarted, { ip: request.ip });
      return { success: true, message: TOTP_MESSAGES.enrolmentStarted, secret: started.secret, otpauthUri: started.otpauthUri };
    });

    account.post(`${BASE}/confirm`, {
      schema: { body: TOTP_SCHEMAS.confirm, response: answers({ 200: TOTP_SCHEMAS.recoveryCodes }) },
    }, async (request): Promise<TotpRecoveryCodesResponse> => {
      const ctx = authContextOf(request);
      await limit(ctx, request.ip);
      if (!isTotpCode(request.body.code)) throw invalid('code', TOTP_MESSAGES.codeFormat);
      const status = await totp.status(ctx.user.id);
      if (!status.pending) throw invalid('code', status.enabled ? TOTP_MESSAGES.alreadyEnrolled : TOTP_MESSAGES.noPendingEnrolment);
      const recoveryCodes = await totp.confirm(ctx.user.id, request.body.code);
      if (!recoveryCodes) {
        await audit(ctx, TOTP_AUDIT_ACTIONS.confirmFailed, { ip: request.ip });
        throw invalid('code', TOTP_MESSAGES.codeWrong);
      }
      // The session lookup cache knows the user as not enrolled: forget it, so a required enrolment ends at once.
      services.auth.forgetUser(ctx.user.id);
      await audit(ctx, TOTP_AUDIT_ACTIONS.enrolled, { ip: request.ip });
      return { success: true, message: TOTP_MESSAGES.enrolled, recoveryCodes };
    });

    account.post(`${BASE}/disable`, {
      schema: { body: TOTP_SCHEMAS.disable, response: answers({ 200: TOTP_SCHEMAS.plain }) },
    }, async (request): Promise<TotpPlainResponse> => {
      const ctx = authContextOf(request);
      await limit(ctx, request.ip);
      if (!(await totp.status(ctx.user.id)).enabled) throw invalid('totp', TOTP_MESSAGES.notEnrolled);
      const found = await accounts.byUsername(ctx.user.username);
      if (!found || !await services.passwords.verify(found.user.passwordHash, request.body.password)) {
        await audit(ctx, TOTP_AUDIT_ACTIONS.disableRefused, { ip: request.ip, reason: 'current-password' });
        throw invalid('password', ACCOUNT_MESSAGES.currentPasswordWrong);
      }
      const proof = await totp.prove(ctx.user.id, request.body.code, { allowRecovery: true });
      if (!proof.ok) {
        await audit(ctx, TOTP_AUDIT_ACTIONS.disableRefused, { ip: request.ip, reason: 'second-factor' });
        throw invalid('code', TOTP_MESSAGES.disableNeedsCode);
      }
      await totp.disable(ctx.user.id);
      services.auth.forgetUser(ctx.user.id);
      await audit(ctx, TOTP_AUDIT_ACTIONS.disabled, { ip: request.ip, via: proof.via });
      return { success: true, message: TOTP_MESSAGES.disabled };
    });

    account.post(`${BASE}/recovery-codes`, {
      schema: { body: TOTP_SCHEMAS.regenerate, response: answers({ 200: TOTP_SCHEMAS.recoveryCodes }) },
    }, async (request): Promise<TotpRecoveryCodesResponse> => {
      const ctx = authContextOf(request);
      await limit(ctx, request.ip);
      if (!(await totp.status(ctx.user.id)).enabled) throw invalid('totp', TOTP_MESSAGES.notEnrolled);
      if (!isTotpCode(request.body.code)) throw invalid('code', TOTP_MESSAGES.codeFormat);
      const proof = await totp.prove(ctx.user.id, request.body.code, { allowRecovery: false });
      if (!proof.ok) {
        await audit(ctx, TOTP_AUDIT_ACTIONS.recoveryRefused, { ip: request.ip });
        throw invalid('code', TOTP_MESSAGES.codeWrong);
      }
      const recoveryCodes = await totp.regenerateRecoveryCodes(ctx.user.id);
      await audit(ctx, TOTP_AUDIT_ACTIONS.recoveryRegenerated, { ip: request.ip });
      return { success: true, message: TOTP_MESSAGES.recoveryRegenerated, recoveryCodes };
    });
  });
};
