/**
 * The authentication flows of spec §4.1, §4.2, §7.3: login (with optional SMS second factor),
 * OTP generate/verify, forgot and reset password, login info, logout. Each returns an outcome: what
 * the flow decided (`kind`) and the body the spec gives it; the HTTP layer picks the status of each
 * kind (server/http/auth-routes.ts). No Fastify here.
 *
 * Status choices (docs/security.md) made there: credential, OTP and reset refusals are 400 (not 401:
 * the browser client treats any 401 as "session ended" and goes to /logout); resend cooldowns are
 * 429; an SMS that could not be sent is 503; a missing or bad session is 401 (a thrown DomainError).
 */
import { createHash, randomBytes } from 'node:crypto';
import type {
  ForgotPasswordRequest, ForgotPasswordResponse, GenerateOtpRequest, GenerateOtpResponse, LoginRequest, LoginResponse,
  LogoutResponse, ResetPasswordRequest, ResetPasswordResponse, SiteProfile, VerifyOtpRequest, VerifyOtpResponse,
} from '../../common/contract';
import { ACCOUNT_MESSAGES, MESSAGES, OWN_MESSAGES } from '../../common/messages';
import type { AccountRepository } from './ports';
import type { UserWithSite } from './rows';
import type { AuditLog } from './audit';
import type { JobQueue } from './jobs';
import type { LoginThrottle } from './login-throttle';
import { readBearerToken, type Authenticator, type HeaderCarrier, type SiteRow, type StaffUserRow } from './auth-context';
import { rateLimited } from './errors';
import { RESET_TOKEN_TTL_MINUTES, type OtpPurpose } from './otp-constants';
import type { OtpService } from './otp';
import { newPasswordProblem, type PasswordHasher } from './passwords';
import type { RateLimitedAction, RateLimitTable, RateLimiter } from './rate-limit';
import type { SessionStore } from './sessions';
import { buildSiteProfile, obscureMobileNumber, siteFlags } from './site-profile';
import { otpSmsBody, type SmsTransport } from './sms';
import type { TokenService } from './tokens';
import { TOTP_AUDIT_ACTIONS, TOTP_MESSAGES } from '../../common/totp';
import { authenticatorRequired } from '../../common/second-factor-rule';
import { createTotpService, type TotpService } from './totp';

/** What a flow decided (`kind`) and the answer's body; the transport picks the status of each kind. */
export interface Outcome<K extends string, T> {
  kind: K;
  body: T;
}

/**
 * A login (password or identity provider): signed in; a second factor asked for (the SMS code sent,
 * or the authenticator app's); the SMS code could not be sent; refused (wrong credentials, a bad or
 * unlinked identity token); sign-in not available (identity providers not configured).
 */
export type LoginOutcome = Outcome<'signedIn' | 'codeRequired' | 'codeNotSent' | 'refused' | 'unavailable', LoginResponse>;

/** A code asked for: sent; refused; asked again within the resend cooldown (`retryAfterSeconds`); not sent (SMS failure). */
export type GenerateOtpOutcome =
  | Outcome<'sent' | 'refused' | 'notSent', GenerateOtpResponse>
  | (Outcome<'coolingDown', GenerateOtpResponse> & { retryAfterSeconds: number });

/** A code checked: verified (a session, or a reset token), or refused. */
export type VerifyOtpOutcome = Outcome<'verified' | 'refused', VerifyOtpResponse>;

/** A forgotten password: always accepted (known and unknown usernames answer alike). */
export type ForgotPasswordOutcome = Outcome<'accepted', ForgotPasswordResponse>;

/** A new password: set, or refused (mismatch, too weak, token bad, current password wrong, same as before). */
export type ResetPasswordOutcome = Outcome<'changed' | 'refused', ResetPasswordResponse>;

export interface RequestInfo extends HeaderCarrier {
  ip: string;
}

export interface AuthFlowDeps {
  accounts: AccountRepository;
  tokens: TokenService;
  sessions: SessionStore;
  passwords: PasswordHasher;
  otp: OtpService;
  sms: SmsTransport;
  limiter: RateLimiter;
  rateLimits: RateLimitTable;
  /** Per account+address back-off and the account's failure cap (server/domain/login-throttle.ts). */
  loginThrottle: LoginThrottle;
  /** Work after the answer (SMS sends), server/domain/jobs.ts. */
  jobs: JobQueue;
  audit: AuditLog;
  auth: Authenticator;
  encodingDisabledSite: string;
  log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

function normaliseUsername(username: string): string {
  return username.trim().toLowerCase();
}

/** Purposes of reset tokens the forgot / change password route accepts (never 'set-password'). */
const RESET_ROUTE_PURPOSES: ReadonlySet<string> = new Set(['reset', 'change']);

export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type { UserWithSite };

/** How the first factor was proven (recorded in the audit log). */
type LoginMethod = 'password' | 'google' | 'microsoft';

export function createAuthFlows(deps: AuthFlowDeps) {
  const { accounts } = deps;
  /** The authenticator-app factor (issue 19): its secrets' key and recovery-code pepper derive from the server secret. */
  const totp: TotpService = createTotpService({
    repo: accounts.totp,
    key: deps.tokens.deriveKey('totp-secret-encryption'),
    pepper: deps.tokens.deriveKey('totp-recovery-codes'),
  });

  async function hasAuthenticator(userId: string): Promise<boolean> {
    return (await totp.status(userId)).enabled;
  }

  /** The site requires an authenticator app that this (signed-in) user has not set up. */
  function enrolmentDue(site: SiteRow, authenticator: boolean): { authenticatorEnrolmentDue?: true } {
    return authenticatorRequired(site.secondFactorRule) && !authenticator ? { authenticatorEnrolmentDue: true } : {};
  }

  async function findUser(username: string | undefined): Promise<UserWithSite | undefined> {
    return username ? accounts.byUsername(normaliseUsername(username)) : undefined;
  }

  /** Counts one attempt per username and per client IP; throws 429 when either is over. */
  async function guard(action: RateLimitedAction, username: string | undefined, ip: string): Promise<void> {
    const rules = deps.rateLimits[action];
    const checks = [deps.limiter.hit(`${action}:ip:${ip}`, rules.perIp)];
    if (username) checks.push(deps.limiter.hit(`${action}:user:${normaliseUsername(username)}`, rules.perUsername));
    const results = await Promise.all(checks);
    const refused = results.filter((r) => !r.allowed);
    if (refused.length > 0) throw rateLimited(Math.max(...refused.map((r) => r.retryAfterSeconds)));
  }

  async function startSession(user: StaffUserRow, site: SiteRow, deviceId: string, req: RequestInfo): Promise<string> {
    const userAgent = req.headers['user-agent'];
    const session = await deps.sessions.create(user.id, deviceId, new Date(), {
      ipAddress: req.ip,
      userAgent: (Array.isArray(userAgent) ? userAgent[0] : userAgent) ?? '',
    });
    return deps.tokens.sign({ userId: user.id, sessionId: session.id, site: site.siteInternalName, sessionExpiresAt: session.expiresAt });
  }

  /** Issues a code and sends it; false when the SMS could not be sent. */
  async function issueAndSend(user: Pick<StaffUserRow, 'id' | 'phoneNumber'>, site: SiteRow, purpose: OtpPurpose, deviceId: string): Promise<boolean> {
    const code = await deps.otp.issue({ userId: user.id, purpose, deviceId });
    try {
      await deps.sms.send(user.phoneNumber, otpSmsBody(code));
    } catch (error) {
      deps.log.error({ err: error instanceof Error ? error.message : String(error), userId: user.id }, 'SMS send failed');
      return false;
    }
    await deps.audit.record({ action: 'otp.issued', actorUserId: user.id, siteId: site.id, detail: { purpose, transport: deps.sms.kind } });
    return true;
  }

  /**
   * A login whose first factor is proven (the password, or a verified identity-provider token): the
   * SMS second factor when the account asks for it, else a session (spec §4.1 steps 3-4).
   */
  async function completeLogin(found: UserWithSite, deviceId: string, req: RequestInfo, via: { method: LoginMethod }): Promise<LoginOutcome> {
    const { user, site } = found;
    const authenticator = await hasAuthenticator(user.id);
    if (authenticator) {
      // The authenticator app replaces the SMS code: nothing is sent (issue 19, SECURITY.md C-TOTP-2).
      await deps.audit.record({ action: 'login.otp_required', actorUserId: user.id, siteId: site.id, detail: { ip: req.ip, method: via.method, factor: 'totp' } });
      return {
        kind: 'codeRequired',
        body: {
          success: true, message: TOTP_MESSAGES.loginCodeRequired, isTwoFactorOnLogin: true, secondFactor: 'totp',
          obscureMobileNumber: '', username: user.username, accessToken: '', refreshToken: '', ...siteFlags(site),
          // The code step must present it: a code alone, without the password step, signs nobody in.
          loginAttemptToken: deps.otp.loginProof({ userId: user.id, deviceId }),
        },
      };
    }
    if (user.twoFactorOnLogin) {
      const cooldown = await deps.otp.acquireCooldown('login', user.username);
      // Within the cooldown the code sent moments ago stays valid for this device: no new SMS. When that
      // code is already used, dead or bound to another device, a new one goes out all the same (else the
      // user waits on a code that can never work); the proven first factor and the login limit bound these sends.
      const reuse = !cooldown.acquired && await deps.otp.hasLiveCode({ userId: user.id, purpose: 'login', deviceId });
      const sent = reuse ? true : await issueAndSend(user, site, 'login', deviceId);
      await deps.audit.record({ action: 'login.otp_required', actorUserId: user.id, siteId: site.id, detail: { ip: req.ip, method: via.method } });
      return {
        kind: sent ? 'codeRequired' : 'codeNotSent',
        body: {
          success: sent, message: sent ? OWN_MESSAGES.otpRequired : MESSAGES.otpNotSent, isTwoFactorOnLogin: true,
          obscureMobileNumber: obscureMobileNumber(user.phoneNumber), username: user.username,
          accessToken: '', refreshToken: '', ...siteFlags(site),
          // The proof an anonymous resend (generate/otp, isLogin) must present.
          ...(sent ? { loginAttemptToken: deps.otp.loginProof({ userId: user.id, deviceId }) } : {}),
        },
      };
    }
    const accessToken = await startSession(user, site, deviceId, req);
    await deps.audit.record({ action: 'login.success', actorUserId: user.id, siteId: site.id, detail: { ip: req.ip, secondFactor: false, method: via.method } });
    return {
      kind: 'signedIn',
      body: {
        success: true, message: OWN_MESSAGES.loginSuccess, isTwoFactorOnLogin: false, obscureMobileNumber: '', username: user.username,
        accessToken, refreshToken: '', ...siteFlags(site), ...enrolmentDue(site, false),
      },
    };
  }

  /** The login code step of an account with an authenticator app: its code or a recovery code, after the password step. */
  async function verifyAuthenticatorLogin(found: UserWithSite, input: VerifyOtpRequest, req: RequestInfo): Promise<VerifyOtpOutcome> {
    const deviceId = input.deviceId ?? '';
    if (!deps.otp.checkLoginProof({ userId: found.user.id, deviceId, proof: input.loginAttemptToken })) return otpFailed();
    const attempt = await deps.loginThrottle.begin({ username: found.user.username, userId: found.user.id, ip: req.ip, deviceId }, 'code');
    if (attempt.throttled) return otpFailed();
    const proof = await totp.prove(found.user.id, input.otp.trim(), { allowRecovery: true });
    if (!proof.ok) {
      await deps.audit.record({ action: TOTP_AUDIT_ACTIONS.loginCodeFailed, actorUserId: found.user.id, siteId: found.site.id, detail: { purpose: 'login', ip: req.ip } });
      if (attempt.failed()) await noticeFailureCap(found, 'login-code', req);
      return otpFailed();
    }
    await attempt.passed({ complete: true });
    if (proof.via === 'recovery') {
      await deps.audit.record({ action: TOTP_AUDIT_ACTIONS.recoveryUsed, actorUserId: found.user.id, siteId: found.site.id, detail: { ip: req.ip, recoveryLeft: proof.recoveryCodesLeft } });
    }
    const accessToken = await startSession(found.user, found.site, deviceId, req);
    await deps.audit.record({ action: 'login.success', actorUserId: found.user.id, siteId: found.site.id, detail: { ip: req.ip, secondFactor: true, factor: proof.via } });
    return { kind: 'verified', body: { success: true, message: OWN_MESSAGES.otpVerified, accessToken, v2ManagementApiEnabled: siteFlags(found.site).v2ManagementApiEnabled } };
  }

  const otpNotSent = (kind: 'refused' | 'notSent'): GenerateOtpOutcome => ({ kind, body: { success: false, message: MESSAGES.otpNotSent } });

  const otpCoolingDown = (retryAfterSeconds: number): GenerateOtpOutcome => ({
    kind: 'coolingDown', retryAfterSeconds, body: { success: false, message: MESSAGES.otpNotSent, retryAfterSeconds },
  });

  const otpFailed = (): VerifyOtpOutcome => ({
    kind: 'refused',
    body: { success: false, message: MESSAGES.otpVerifyFailed, accessToken: '', v2ManagementApiEnabled: false },
  });

  const invalidCredentials = (): LoginOutcome => ({
    kind: 'refused',
    body: {
      success: false, message: OWN_MESSAGES.invalidCredentials, isTwoFactorOnLogin: false, obscureMobileNumber: '', username: '',
      accessToken: '', refreshToken: '', v2ManagementApiEnabled: false, v2VodManagementApiEnabled: false,
    },
  });

  /** The account reached its cap of consecutive failures: audit it and tell the owner by SMS (after the answer). */
  async function noticeFailureCap(found: UserWithSite, via: 'password' | 'login-code' | 'reset-code', req: RequestInfo): Promise<void> {
    await deps.audit.record({ action: 'account.failure_cap_reached', actorUserId: found.user.id, siteId: found.site.id, detail: { ip: req.ip, via } });
    deps.jobs.enqueue('failure-cap-notice', () => deps.sms.send(found.user.phoneNumber, OWN_MESSAGES.failureCapSms));
  }

  /** Sends a password code after the answer, for a username known or not: both answer in the same time. */
  function sendPasswordCodeLater(username: string): void {
    deps.jobs.enqueue('password-code', async () => {
      const found = await findUser(username);
      if (found && !found.user.disabled) await issueAndSend(found.user, found.site, 'password', '');
    });
  }

  const resetRefused = (message: string): ResetPasswordOutcome => ({ kind: 'refused', body: { success: false, message } });
  const resetFailed = (): ResetPasswordOutcome => resetRefused(MESSAGES.passwordResetFailed);

  return {
    guard,
    completeLogin,
    /** The authenticator-app factor, for the account and admin routes (server/http/totp-routes.ts). */
    totp,
    async login(input: LoginRequest, req: RequestInfo): Promise<LoginOutcome> {
      const username = normaliseUsername(input.username);
      const deviceId = input.deviceId ?? '';
      const found = await findUser(input.username);
      const attempt = await deps.loginThrottle.begin({ username, userId: found?.user.id, ip: req.ip, deviceId }, 'password');
      if (attempt.throttled) {
        // Answered exactly like a wrong password, without checking it: no oracle while throttled.
        await deps.audit.record({ action: 'login.throttled', actorUserId: found?.user.id ?? null, siteId: found?.site.id ?? null, detail: { username: username.slice(0, 200), ip: req.ip, reason: attempt.reason } });
        return invalidCredentials();
      }
      const passwordOk = await deps.passwords.verify(found?.user.passwordHash, input.password);
      if (!found || !passwordOk || found.user.disabled) {
        await deps.audit.record({ action: 'login.failure', actorUserId: found?.user.id ?? null, siteId: found?.site.id ?? null, detail: { username: username.slice(0, 200), ip: req.ip } });
        if (attempt.failed() && found) await noticeFailureCap(found, 'password', req);
        return invalidCredentials();
      }
      await attempt.passed({ complete: !found.user.twoFactorOnLogin && !await hasAuthenticator(found.user.id) });
      return completeLogin(found, deviceId, req, { method: 'password' });
    },

    async generateOtp(input: GenerateOtpRequest, req: RequestInfo): Promise<GenerateOtpOutcome> {
      if (input.isLogin) {
        await guard('generateOtp', input.username, req.ip);
        const found = await findUser(input.username);
        const pending = found && !found.user.disabled ? await deps.otp.pendingLoginAttempt(found.user.id) : null;
        if (!found || !pending) return otpNotSent('refused');
        // Only the browser that passed the password step may ask for another code (SECURITY.md C-OTP-3).
        if (!deps.otp.checkLoginProof({ userId: found.user.id, deviceId: pending.deviceId, proof: input.loginAttemptToken })) return otpNotSent('refused');
        const cooldown = await deps.otp.acquireCooldown('login', found.user.username);
        if (!cooldown.acquired) return otpCoolingDown(cooldown.retryAfterSeconds);
        const sent = await issueAndSend(found.user, found.site, 'login', pending.deviceId);
        if (!sent) return otpNotSent('notSent');
        return { kind: 'sent', body: { success: true, message: MESSAGES.otpSent, obscureMobileNumber: obscureMobileNumber(found.user.phoneNumber) } };
      }

      if (readBearerToken(req)) {
        // Header "Change Password" flow: the signed-in user gets a 'password' code.
        const ctx = await deps.auth.authenticate(req, { apiKey: 'required' });
        await guard('generateOtp', ctx.user.username, req.ip);
        const cooldown = await deps.otp.acquireCooldown('password', ctx.user.username);
        if (!cooldown.acquired) return otpCoolingDown(cooldown.retryAfterSeconds);
        const sent = await issueAndSend(ctx.user, ctx.site, 'password', '');
        if (!sent) return otpNotSent('notSent');
        return { kind: 'sent', body: { success: true, message: MESSAGES.otpSent, obscureMobileNumber: obscureMobileNumber(ctx.user.phoneNumber) } };
      }

      // Forgot-password resend: the same answer whether or not the username exists.
      if (!input.username?.trim()) return { kind: 'refused', body: { success: false, message: OWN_MESSAGES.usernameRequired } };
      await guard('generateOtp', input.username, req.ip);
      const cooldown = await deps.otp.acquireCooldown('password', input.username);
      if (!cooldown.acquired) return otpCoolingDown(cooldown.retryAfterSeconds);
      sendPasswordCodeLater(input.username);
      return { kind: 'sent', body: { success: true, message: MESSAGES.otpSent } };
    },

    async verifyOtp(input: VerifyOtpRequest, req: RequestInfo): Promise<VerifyOtpOutcome> {
      const code = input.otp.trim();
      if (input.isLogin) {
        await guard('verifyOtp', input.username, req.ip);
        const found = await findUser(input.username);
        if (found && !found.user.disabled && await hasAuthenticator(found.user.id)) return verifyAuthenticatorLogin(found, input, req);
        if (!found || found.user.disabled || !/^\d{6}$/.test(code)) return otpFailed();
        const attempt = await deps.loginThrottle.begin({ username: found.user.username, userId: found.user.id, ip: req.ip, deviceId: input.deviceId ?? '' }, 'code');
        if (attempt.throttled) return otpFailed();
        const ok = await deps.otp.verify({ userId: found.user.id, purpose: 'login', code, deviceId: input.deviceId ?? '' });
        if (!ok) {
          await deps.audit.record({ action: 'otp.verify_failed', actorUserId: found.user.id, siteId: found.site.id, detail: { purpose: 'login', ip: req.ip } });
          if (attempt.failed()) await noticeFailureCap(found, 'login-code', req);
          return otpFailed();
        }
        await attempt.passed({ complete: true });
        const accessToken = await startSession(found.user, found.site, input.deviceId ?? '', req);
        await deps.audit.record({ action: 'login.success', actorUserId: found.user.id, siteId: found.site.id, detail: { ip: req.ip, secondFactor: true } });
        return { kind: 'verified', body: { success: true, message: OWN_MESSAGES.otpVerified, accessToken, v2ManagementApiEnabled: siteFlags(found.site).v2ManagementApiEnabled, ...enrolmentDue(found.site, false) } };
      }

      let found: UserWithSite | undefined;
      /** A token from the signed-in change flow needs the current password too (ASVS 6.2.3); the forgot flow's does not. */
      let tokenPurpose: 'reset' | 'change' = 'reset';
      if (readBearerToken(req)) {
        const ctx = await deps.auth.authenticate(req, { apiKey: 'optional' });
        found = await findUser(ctx.user.username);
        tokenPurpose = 'change';
      } else {
        found = await findUser(input.username);
      }
      await guard('verifyOtp', found?.user.username ?? input.username, req.ip);
      if (!found || found.user.disabled || !/^\d{6}$/.test(code)) return otpFailed();
      const attempt = await deps.loginThrottle.begin({ username: found.user.username, userId: found.user.id, ip: req.ip, deviceId: input.deviceId ?? '' }, 'code');
      if (attempt.throttled) return otpFailed();
      const ok = await deps.otp.verify({ userId: found.user.id, purpose: 'password', code });
      if (!ok) {
        await deps.audit.record({ action: 'otp.verify_failed', actorUserId: found.user.id, siteId: found.site.id, detail: { purpose: 'password', ip: req.ip } });
        if (attempt.failed()) await noticeFailureCap(found, 'reset-code', req);
        return otpFailed();
      }
      await attempt.passed({ complete: true });
      const resetToken = randomBytes(32).toString('base64url');
      const now = new Date();
      await accounts.insertResetToken({
        userId: found.user.id,
        purpose: tokenPurpose,
        tokenHash: hashResetToken(resetToken),
        createdAt: now,
        expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MINUTES * 60_000),
      });
      await deps.audit.record({ action: 'password.reset_token_issued', actorUserId: found.user.id, siteId: found.site.id, detail: { ip: req.ip } });
      return { kind: 'verified', body: { success: true, message: OWN_MESSAGES.otpVerified, accessToken: resetToken, v2ManagementApiEnabled: siteFlags(found.site).v2ManagementApiEnabled } };
    },

    async forgotPassword(input: ForgotPasswordRequest, req: RequestInfo): Promise<ForgotPasswordOutcome> {
      await guard('forgotPassword', input.username, req.ip);
      const accepted: ForgotPasswordOutcome = {
        kind: 'accepted',
        body: { success: true, message: OWN_MESSAGES.forgotPasswordAccepted, errorMessage: '' },
      };
      // The code is issued and sent after the answer (a job): known and unknown usernames answer alike.
      const cooldown = await deps.otp.acquireCooldown('password', input.username);
      if (cooldown.acquired) sendPasswordCodeLater(input.username);
      return accepted;
    },

    async resetPassword(input: ResetPasswordRequest, req: RequestInfo): Promise<ResetPasswordOutcome> {
      const token = input.token?.trim() || readBearerToken(req);
      await guard('resetPassword', token ? `token:${hashResetToken(token).slice(0, 32)}` : undefined, req.ip);
      if (input.newPassword !== input.confirmPassword) return resetRefused(MESSAGES.passwordMismatch);
      const problem = newPasswordProblem(input.newPassword);
      if (problem) return resetRefused(problem);
      if (!token) return resetFailed();
      const now = new Date();
      const tokenHash = hashResetToken(token);
      const row = await accounts.resetTokenByHash(tokenHash);
      // Tokens are bound to their purpose (issue 25): only this flow's own ('reset', 'change'); an Admin's
      // set-password token is refused here exactly like an unknown one (and the set-password route takes only its own).
      if (!row || !RESET_ROUTE_PURPOSES.has(row.purpose) || row.usedAt || new Date(row.expiresAt).getTime() <= now.getTime() || row.user.disabled) {
        const reason = !row ? 'unknown' : RESET_ROUTE_PURPOSES.has(row.purpose) ? 'used-or-expired' : 'wrong-purpose';
        await deps.audit.record({ action: 'password.reset_failed', actorUserId: row?.user.id ?? null, detail: { ip: req.ip, reason } });
        return resetFailed();
      }
      if (row.purpose === 'change') {
        // The header's change flow (ASVS 6.2.3): the current password as well as the code; each try counts per account.
        await guard('resetPassword', row.user.username, req.ip);
        if (!input.currentPassword) return resetRefused(ACCOUNT_MESSAGES.currentPasswordRequired);
        if (!await deps.passwords.verify(row.user.passwordHash, input.currentPassword)) {
          await deps.audit.record({ action: 'password.change_refused', actorUserId: row.user.id, siteId: row.user.siteId, detail: { ip: req.ip, reason: 'current-password' } });
          return resetRefused(ACCOUNT_MESSAGES.currentPasswordWrong);
        }
      }
      if (await deps.passwords.verify(row.user.passwordHash, input.newPassword)) {
        return resetRefused(OWN_MESSAGES.passwordMustDiffer);
      }
      const newHash = await deps.passwords.hash(input.newPassword);
      // Every other outstanding reset token, password code and session of the user dies with it.
      const changed = await accounts.changePasswordWithToken({ tokenId: row.tokenId, userId: row.user.id, passwordHash: newHash, now });
      if (!changed) return resetFailed();
      deps.auth.forgetUser(row.user.id);
      await deps.audit.record({ action: 'password.reset', actorUserId: row.user.id, siteId: row.user.siteId, detail: { ip: req.ip, sessionsRevoked: true } });
      return { kind: 'changed', body: { success: true, message: OWN_MESSAGES.passwordResetSuccess } };
    },

    /** The signed-in user's site profile (a bad session is the thrown 401). */
    async loginInfo(req: RequestInfo): Promise<SiteProfile> {
      // Called right after login, before the client holds the management key: bearer only.
      const ctx = await deps.auth.authenticate(req, { apiKey: 'ignored', authenticatorEnrolment: 'allowed' });
      const profile = buildSiteProfile(ctx.site, ctx.user, { encodingDisabledSite: deps.encodingDisabledSite });
      return ctx.authenticatorEnrolmentDue ? { ...profile, authenticatorEnrolmentDue: true } : profile;
    },

    /** Ends the caller's session (a bad session is the thrown 401). */
    async logout(req: RequestInfo): Promise<LogoutResponse> {
      const ctx = await deps.auth.authenticate(req, { apiKey: 'optional', authenticatorEnrolment: 'allowed' });
      await deps.sessions.revoke(ctx.session.id);
      deps.auth.forgetSession(ctx.session.id);
      await deps.audit.record({ action: 'logout', actorUserId: ctx.user.id, siteId: ctx.site.id, detail: { ip: req.ip } });
      return { success: true, message: OWN_MESSAGES.loggedOut };
    },
  };
}

export type AuthFlows = ReturnType<typeof createAuthFlows>;
