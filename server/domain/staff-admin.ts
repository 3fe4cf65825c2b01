/**
 * The Admin area's rules (issue 18): staff accounts of the caller's own site, their roles per area,
 * sessions, set-password links, the site's second-factor rule and the audit log.
 *
 * - Admin read (or any level) may list; only Admin write or contributor may change anything.
 * - Nobody ever sees a password: a new account (or a reset an admin triggers) gets a one-time
 *   set-password link, valid SET_PASSWORD_TTL_HOURS, shown to the admin once and sent by SMS.
 * - Disabling an account, changing its roles or resetting its second factor ends its sessions at once
 *   (rows revoked and this instance's lookup cache forgotten), so its next call answers 401.
 * - A site keeps at least one enabled Admin editor; an admin cannot disable themself.
 * - Every change is audit-logged with who, what, before and after.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ADMIN_AUDIT_ACTIONS, AUDIT_PAGE_SIZE, SET_PASSWORD_TTL_HOURS, STAFF_PAGE_SIZE,
  type AuditListResponse, type AuditQuery, type CreateStaffRequest, type EndSessionsResponse,
  type ResetSecondFactorRequest, type SetPasswordCheckResponse, type SetPasswordLink, type SetPasswordRequest, type SetPasswordResponse,
  type StaffChangeResponse, type StaffListQuery, type StaffListResponse, type StaffMember, type StaffSessionsResponse, type UpdateStaffRequest,
} from '../../common/admin-contract';
import { AREAS, ROUTES } from '../../common/constants';
import { UUID_PATTERN, type Roles } from '../../common/contract';
import { grantsAboveOwn } from '../../common/grant-cap';
import { ADMIN_MESSAGES, MESSAGES } from '../../common/messages';
import { canEdit, parseRoles } from '../../common/roles';
import {
  SECOND_FACTOR_AUDIT_ACTION, SECOND_FACTOR_DONE, SECOND_FACTOR_TEXT, smsCodeApplies, type SecondFactorRule, type SetSecondFactorRuleResponse,
} from '../../common/second-factor-rule';
import type { StaffAdminRepository, StaffAdminStore } from './ports';
import type { StaffRecord } from './rows';
import { scrubDetail } from './audit';
import { auditObject, recordRevision } from './revisions';
import type { AuditLog } from './audit';
import type { AuthContext, Authenticator } from './auth-context';
import { sessionsAnswer } from './own-sessions';
import { siteDayBounds } from './audit-log';
import { conflict, forbidden, invalid, notFound } from './errors';
import { newPasswordProblem, type PasswordHasher } from './passwords';
import { obscureMobileNumber } from './site-profile';
import type { SmsTransport } from './sms';

export interface StaffAdminDeps {
  repo: StaffAdminRepository;
  passwords: PasswordHasher;
  sms: SmsTransport;
  audit: AuditLog;
  auth: Pick<Authenticator, 'forgetUser' | 'forgetSite'>;
  log: { error(obj: unknown, msg?: string): void };
  /**
   * Issue 25: where set-password links point (PUBLIC_URL, server/env.ts), without a trailing slash;
   * never taken from the request (its Host or X-Forwarded-Host is the sender's choice).
   */
  publicUrl: string;
}


/**
 * Issue 25: audit action of a create whose e-mail belongs to another site's account. Recorded without
 * a site (operators see it, neither tenant's Admin audit log does).
 */
export const CREATE_ELSEWHERE_AUDIT = 'staff.create_elsewhere_hidden';

const UUID = new RegExp(UUID_PATTERN);

type StaffWithSessions = StaffRecord & { lastSeenAt: Date | null; activeSessions: number };

export function hashSetPasswordToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function toMember(row: StaffWithSessions): StaffMember {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    displayName: row.displayName,
    phoneNumber: row.phoneNumber,
    twoFactorOnLogin: row.twoFactorOnLogin,
    roles: parseRoles(row.roles),
    disabled: row.disabled,
    createdAt: new Date(row.createdAt).toISOString(),
    lastSeenAt: row.lastSeenAt ? new Date(row.lastSeenAt).toISOString() : null,
    activeSessions: row.activeSessions,
    version: row.version,
  };
}

/**
 * Issue 30: a mobile number is required only where the SMS second factor applies to the account (its own
 * setting or the site's `required` rule, common/second-factor-rule.ts); the staff dialog's machine checks
 * the same rule before Save.
 */
function requirePhoneForSms(input: { phoneNumber: string; twoFactorOnLogin: boolean }, rule: SecondFactorRule): void {
  if (input.phoneNumber.trim() === '' && smsCodeApplies(input.twoFactorOnLogin, rule)) {
    throw invalid('phoneNumber', ADMIN_MESSAGES.phoneRequiredForSms);
  }
}

/** What the audit log keeps of an account: never its password hash; the phone masked. */
function auditView(row: Pick<StaffRecord, 'displayName' | 'phoneNumber' | 'twoFactorOnLogin' | 'roles' | 'disabled'>) {
  return {
    displayName: row.displayName,
    // No number is "(none)", not a mask of nothing ('******'; issue 38).
    phone: row.phoneNumber.trim() === '' ? null : obscureMobileNumber(row.phoneNumber),
    twoFactorOnLogin: row.twoFactorOnLogin,
    roles: parseRoles(row.roles),
    disabled: row.disabled,
  };
}

function sameRoles(a: Roles, b: Roles): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof Roles>;
  return [...keys].every((k) => a[k] === b[k]);
}

function isAdminEditor(roles: Roles): boolean {
  return canEdit(roles, AREAS.admin);
}

function pageOf(page: number | undefined, pageSize: number | undefined, fallbackSize: number) {
  const size = pageSize ?? fallbackSize;
  const current = page ?? 1;
  return { page: current, pageSize: size, offset: (current - 1) * size, limit: size };
}

export function createStaffAdmin(deps: StaffAdminDeps) {
  const { repo } = deps;

  function requireEditor(ctx: AuthContext): void {
    if (!isAdminEditor(ctx.user.roles)) throw forbidden(ADMIN_MESSAGES.noEditRole);
  }

  async function loadTarget(ctx: AuthContext, id: string): Promise<StaffWithSessions> {
    if (!UUID.test(id)) throw notFound(ADMIN_MESSAGES.staffNotFound);
    const row = await repo.findStaff(ctx.site.id, id);
    if (!row) throw notFound(ADMIN_MESSAGES.staffNotFound);
    return row;
  }

  /** Reloads after a change; a row that vanished between two statements is a conflict, not a 500. */
  async function reload(ctx: AuthContext, id: string): Promise<StaffMember> {
    const row = await repo.findStaff(ctx.site.id, id);
    if (!row) throw conflict(ADMIN_MESSAGES.conflict);
    return toMember(row);
  }

  /** Refuses a change after which the site would have no enabled Admin editor. */
  async function keepOneAdmin(ctx: AuthContext, target: StaffRecord, stillEditor: boolean): Promise<void> {
    if (stillEditor || !isAdminEditor(parseRoles(target.roles)) || target.disabled) return;
    if (await repo.countOtherAdminEditors(ctx.site.id, target.id) === 0) throw conflict(ADMIN_MESSAGES.lastAdmin);
  }

  async function endSessionsOf(userId: string): Promise<number> {
    const ended = await repo.revokeSessions(userId);
    deps.auth.forgetUser(userId);
    return ended;
  }

  async function issueLink(target: Pick<StaffRecord, 'id' | 'phoneNumber'>): Promise<SetPasswordLink> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + SET_PASSWORD_TTL_HOURS * 3_600_000);
    await repo.issueSetPasswordToken(target.id, hashSetPasswordToken(token), now, expiresAt);
    const url = `${deps.publicUrl}${ROUTES.setPassword}?token=${encodeURIComponent(token)}`;
    // No mobile number (the SMS second factor does not apply to the account): the admin hands the link over.
    if (target.phoneNumber.trim() === '') return { url, expiresAt: expiresAt.toISOString() };
    try {
      await deps.sms.send(target.phoneNumber, ADMIN_MESSAGES.setPasswordSms(url));
    } catch (error) {
      // The admin still holds the link to hand over; the SMS is a convenience.
      deps.log.error({ err: error instanceof Error ? error.message : String(error), userId: target.id }, 'set-password SMS failed');
    }
    return { url, expiresAt: expiresAt.toISOString() };
  }

  function record(ctx: AuthContext, action: string, target: Pick<StaffRecord, 'id' | 'username'> | null, detail: Record<string, unknown>) {
    return deps.audit.record({
      action,
      actorUserId: ctx.user.id,
      siteId: ctx.site.id,
      ...(target ? { objectKind: 'staff', objectId: target.id, objectName: target.username } : {}),
      detail: target ? { targetUserId: target.id, targetUsername: target.username, ...detail } : detail,
    });
  }

  /**
   * A change of an account (or of the site's two-factor rule) with its revision and its audit entry,
   * in the transaction `tx` of the change (issue 28).
   */
  async function recordChange(
    tx: StaffAdminStore, ctx: AuthContext, action: string, object: { kind: 'staff' | 'siteSecurity'; objectId: string; objectName: string | null; objectVersion?: number | null },
    before: Record<string, unknown> | null, after: Record<string, unknown>, detail: Record<string, unknown>,
  ): Promise<void> {
    await recordRevision(tx, { ...object, siteId: ctx.site.id, actorUserId: ctx.user.id, before, after });
    await tx.audit({
      at: new Date(), action, actorUserId: ctx.user.id, siteId: ctx.site.id, ...auditObject(object),
      detail: scrubDetail(object.kind === 'staff' ? { targetUserId: object.objectId, ...detail } : detail),
    });
  }

  const staffObject = (row: Pick<StaffRecord, 'id' | 'displayName' | 'username' | 'version'>) =>
    ({ kind: 'staff' as const, objectId: row.id, objectName: `${row.displayName} (${row.username})`, objectVersion: row.version });

  /** The grant cap (common/grant-cap.ts): a refusal is audited and nothing changes. */
  async function capGrants(ctx: AuthContext, target: Pick<StaffRecord, 'id' | 'username'> | null, before: Roles, after: Roles): Promise<void> {
    const above = grantsAboveOwn(ctx.user.roles, before, after);
    if (above.length === 0) return;
    await record(ctx, ADMIN_AUDIT_ACTIONS.grantRefused, target, { before: { roles: before }, after: { roles: after }, areas: above, ...(target ? {} : { creating: true }) });
    throw forbidden(ADMIN_MESSAGES.grantAboveOwn(above));
  }

  /**
   * Password links, second-factor resets, disabling and ending sessions act on an account as a whole:
   * on an account holding roles above the caller's they would be a way around the grant cap (a
   * password link for a more powerful account is that account), so they are refused and audited.
   */
  async function capTarget(ctx: AuthContext, target: StaffRecord, action: string): Promise<void> {
    const roles = parseRoles(target.roles);
    const above = grantsAboveOwn(ctx.user.roles, {}, roles);
    if (above.length === 0) return;
    await record(ctx, ADMIN_AUDIT_ACTIONS.grantRefused, target, { refusedAction: action, roles, areas: above });
    throw forbidden(ADMIN_MESSAGES.targetAboveOwn(above));
  }

  /**
   * An e-mail held by another site's account: answered like a successful create (issue 25), so one
   * tenant learns nothing about another's staff. Nothing is stored and no SMS is sent; see
   * /tmp/sec-admin.md (docs) for why usernames stay unique across sites.
   */
  async function hiddenCreate(ctx: AuthContext, input: CreateStaffRequest, username: string, roles: Roles, twoFactorOnLogin: boolean): Promise<StaffChangeResponse> {
    await deps.audit.record({ action: CREATE_ELSEWHERE_AUDIT, actorUserId: ctx.user.id, siteId: null, detail: { callerSiteId: ctx.site.id, username } });
    const now = new Date();
    const displayName = input.displayName.trim();
    const token = randomBytes(32).toString('base64url');
    return {
      success: true,
      message: ADMIN_MESSAGES.created(displayName),
      staff: {
        id: randomUUID(), username, email: username, displayName, phoneNumber: input.phoneNumber.trim(), twoFactorOnLogin, roles,
        disabled: false, createdAt: now.toISOString(), lastSeenAt: null, activeSessions: 0, version: 1,
      },
      link: {
        url: `${deps.publicUrl}${ROUTES.setPassword}?token=${encodeURIComponent(token)}`,
        expiresAt: new Date(now.getTime() + SET_PASSWORD_TTL_HOURS * 3_600_000).toISOString(),
      },
    };
  }

  return {
    async list(ctx: AuthContext, query: StaffListQuery): Promise<StaffListResponse> {
      const paging = pageOf(query.page, query.pageSize, STAFF_PAGE_SIZE);
      const [result, secondFactor] = await Promise.all([
        repo.listStaff(ctx.site.id, { search: query.search ?? '', offset: paging.offset, limit: paging.limit }),
        repo.secondFactorStateOf(ctx.site.id, ctx.user.id),
      ]);
      return {
        success: true,
        items: result.rows.map(toMember),
        total: result.total,
        page: paging.page,
        pageSize: paging.pageSize,
        canEdit: isAdminEditor(ctx.user.roles),
        selfId: ctx.user.id,
        secondFactor,
        grantable: isAdminEditor(ctx.user.roles) ? parseRoles(ctx.user.roles) : {},
      };
    },

    async get(ctx: AuthContext, id: string): Promise<StaffMember> {
      return toMember(await loadTarget(ctx, id));
    },

    async create(ctx: AuthContext, input: CreateStaffRequest): Promise<StaffChangeResponse> {
      requireEditor(ctx);
      const username = input.email.trim().toLowerCase();
      const roles = parseRoles(input.roles);
      await capGrants(ctx, null, {}, roles);
      const rule = await repo.secondFactorRuleOf(ctx.site.id);
      requirePhoneForSms(input, rule);
      const smsOn = smsCodeApplies(input.twoFactorOnLogin, rule);
      // Nobody knows this password: the account is usable only once its owner follows the link.
      // Hashed before the e-mail check, so a hidden create (another site's e-mail) takes as long as a real one.
      const unusable = await deps.passwords.hash(randomBytes(32).toString('base64url'));
      const takenBy = await repo.siteOfUsername(username);
      if (takenBy === ctx.site.id) throw conflict(ADMIN_MESSAGES.usernameTaken);
      if (takenBy !== undefined) return hiddenCreate(ctx, input, username, roles, smsOn);
      let created: StaffRecord;
      try {
        created = await repo.transaction(async (tx) => {
          const row = await tx.insertStaff({
            siteId: ctx.site.id,
            username,
            email: username,
            displayName: input.displayName.trim(),
            phoneNumber: input.phoneNumber.trim(),
            twoFactorOnLogin: smsOn,
            roles,
            passwordHash: unusable,
          });
          await recordChange(tx, ctx, ADMIN_AUDIT_ACTIONS.created, staffObject(row), null, auditView(row),
            { targetUsername: row.username, before: null, after: auditView(row) });
          return row;
        });
      } catch (error) {
        // Two admins creating the same e-mail at once: the unique index decides.
        if ((error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505') {
          const winner = await repo.siteOfUsername(username);
          if (winner !== undefined && winner !== ctx.site.id) return hiddenCreate(ctx, input, username, roles, smsOn);
          throw conflict(ADMIN_MESSAGES.usernameTaken);
        }
        throw error;
      }
      const link = await issueLink(created);
      await record(ctx, ADMIN_AUDIT_ACTIONS.passwordLinkIssued, created, { expiresAt: link.expiresAt, sentTo: created.phoneNumber.trim() === '' ? null : obscureMobileNumber(created.phoneNumber) });
      return { success: true, message: ADMIN_MESSAGES.created(created.displayName), staff: await reload(ctx, created.id), link };
    },

    async update(ctx: AuthContext, id: string, input: UpdateStaffRequest): Promise<StaffChangeResponse> {
      requireEditor(ctx);
      const target = await loadTarget(ctx, id);
      const roles = parseRoles(input.roles);
      await capGrants(ctx, target, parseRoles(target.roles), roles);
      // The mobile number receives the password-reset codes and the 2FA codes: changing it, or turning the second
      // factor off, on an account above the caller's roles would be a way into that account.
      if (target.phoneNumber !== input.phoneNumber.trim() || (target.twoFactorOnLogin && !input.twoFactorOnLogin)) {
        await capTarget(ctx, target, ADMIN_AUDIT_ACTIONS.updated);
      }
      const rule = await repo.secondFactorRuleOf(ctx.site.id);
      if (rule === 'required' && !input.twoFactorOnLogin) throw invalid('twoFactorOnLogin', SECOND_FACTOR_TEXT.smsLocked);
      requirePhoneForSms(input, rule);
      await keepOneAdmin(ctx, target, isAdminEditor(roles));
      const changes = {
        displayName: input.displayName.trim(),
        phoneNumber: input.phoneNumber.trim(),
        twoFactorOnLogin: input.twoFactorOnLogin,
        roles,
      };
      const rolesChanged = !sameRoles(parseRoles(target.roles), roles);
      const { updated, sessionsEnded } = await repo.transaction(async (tx) => {
        const row = await tx.updateStaff(ctx.site.id, id, input.version, changes);
        if (!row) throw conflict(ADMIN_MESSAGES.conflict);
        const phoneChanged = target.phoneNumber !== row.phoneNumber;
        if (phoneChanged) await tx.voidOtpCodes(id);
        const ended = rolesChanged || phoneChanged ? await tx.revokeSessions(id) : 0;
        await recordChange(tx, ctx, ADMIN_AUDIT_ACTIONS.updated, staffObject(row), auditView(target), auditView(row),
          { targetUsername: row.username, before: auditView(target), after: auditView(row), sessionsEnded: ended });
        return { updated: row, sessionsEnded: rolesChanged || phoneChanged ? ended : null };
      });
      const phoneChanged = target.phoneNumber !== updated.phoneNumber;
      // After the commit: this instance's (and every other's) session lookups forget the account.
      if (sessionsEnded !== null) deps.auth.forgetUser(id);
      const message = rolesChanged || phoneChanged ? ADMIN_MESSAGES.updated(updated.displayName) : ADMIN_MESSAGES.updatedNoSessions(updated.displayName);
      return { success: true, message, staff: await reload(ctx, id) };
    },

    async setDisabled(ctx: AuthContext, id: string, disabled: boolean, version: number): Promise<StaffChangeResponse> {
      requireEditor(ctx);
      if (disabled && id === ctx.user.id) throw conflict(ADMIN_MESSAGES.cannotDisableSelf);
      const target = await loadTarget(ctx, id);
      await capTarget(ctx, target, disabled ? ADMIN_AUDIT_ACTIONS.disabled : ADMIN_AUDIT_ACTIONS.enabled);
      if (disabled) await keepOneAdmin(ctx, target, false);
      const updated = await repo.transaction(async (tx) => {
        const row = await tx.updateStaff(ctx.site.id, id, version, { disabled });
        if (!row) throw conflict(ADMIN_MESSAGES.conflict);
        const sessionsEnded = disabled ? await tx.revokeSessions(id) : 0;
        await recordChange(tx, ctx, disabled ? ADMIN_AUDIT_ACTIONS.disabled : ADMIN_AUDIT_ACTIONS.enabled, staffObject(row),
          { disabled: target.disabled }, { disabled }, { targetUsername: row.username, before: { disabled: target.disabled }, after: { disabled }, sessionsEnded });
        return row;
      });
      if (disabled) deps.auth.forgetUser(id);
      const message = disabled ? ADMIN_MESSAGES.disabled(updated.displayName) : ADMIN_MESSAGES.enabled(updated.displayName);
      return { success: true, message, staff: await reload(ctx, id) };
    },

    async sessions(ctx: AuthContext, id: string): Promise<StaffSessionsResponse> {
      await loadTarget(ctx, id);
      return sessionsAnswer(await repo.listActiveSessions(id), ctx.session.id);
    },

    async endSessions(ctx: AuthContext, id: string): Promise<EndSessionsResponse> {
      requireEditor(ctx);
      const target = await loadTarget(ctx, id);
      await capTarget(ctx, target, ADMIN_AUDIT_ACTIONS.sessionsEnded);
      const ended = await endSessionsOf(id);
      await record(ctx, ADMIN_AUDIT_ACTIONS.sessionsEnded, target, { before: { activeSessions: target.activeSessions }, after: { activeSessions: 0 }, ended });
      return { success: true, message: ADMIN_MESSAGES.sessionsEnded(target.displayName, ended), ended };
    },

    async endSession(ctx: AuthContext, id: string, sessionId: string): Promise<EndSessionsResponse> {
      requireEditor(ctx);
      const target = await loadTarget(ctx, id);
      if (!UUID.test(sessionId)) throw notFound(ADMIN_MESSAGES.sessionsFailed);
      await capTarget(ctx, target, ADMIN_AUDIT_ACTIONS.sessionEnded);
      const ended = await repo.revokeSession(id, sessionId);
      if (!ended) throw notFound(ADMIN_MESSAGES.sessionsFailed);
      deps.auth.forgetUser(id);
      await record(ctx, ADMIN_AUDIT_ACTIONS.sessionEnded, target, { sessionId, before: { revoked: false }, after: { revoked: true } });
      return { success: true, message: ADMIN_MESSAGES.sessionEnded, ended: 1 };
    },

    async triggerPasswordReset(ctx: AuthContext, id: string): Promise<StaffChangeResponse> {
      requireEditor(ctx);
      const target = await loadTarget(ctx, id);
      await capTarget(ctx, target, ADMIN_AUDIT_ACTIONS.passwordLinkIssued);
      const link = await issueLink(target);
      await record(ctx, ADMIN_AUDIT_ACTIONS.passwordLinkIssued, target, { expiresAt: link.expiresAt, sentTo: target.phoneNumber.trim() === '' ? null : obscureMobileNumber(target.phoneNumber) });
      return { success: true, message: target.phoneNumber.trim() === '' ? ADMIN_MESSAGES.passwordLinkIssuedNoSms(target.displayName) : ADMIN_MESSAGES.passwordLinkIssued(target.displayName), staff: toMember(target), link };
    },

    async resetSecondFactor(ctx: AuthContext, id: string, input: ResetSecondFactorRequest): Promise<StaffChangeResponse> {
      requireEditor(ctx);
      const target = await loadTarget(ctx, id);
      await capTarget(ctx, target, ADMIN_AUDIT_ACTIONS.secondFactorReset);
      // Nothing to reset on an account that signs in without an SMS code (issue 38; the page does not offer it).
      if (!smsCodeApplies(target.twoFactorOnLogin, await repo.secondFactorRuleOf(ctx.site.id))) throw conflict(ADMIN_MESSAGES.noSmsSecondFactor(target.displayName));
      const updated = await repo.transaction(async (tx) => {
        const row = await tx.updateStaff(ctx.site.id, id, input.version, { phoneNumber: input.phoneNumber.trim() });
        if (!row) throw conflict(ADMIN_MESSAGES.conflict);
        await tx.voidOtpCodes(id);
        const sessionsEnded = await tx.revokeSessions(id);
        // The reset is a change even with the same number: its moment is the revision's field.
        await recordChange(tx, ctx, ADMIN_AUDIT_ACTIONS.secondFactorReset, staffObject(row),
          { phone: obscureMobileNumber(target.phoneNumber), secondFactorResetAt: null },
          { phone: obscureMobileNumber(row.phoneNumber), secondFactorResetAt: new Date().toISOString() }, {
          targetUsername: row.username,
          before: { phone: obscureMobileNumber(target.phoneNumber) }, after: { phone: obscureMobileNumber(row.phoneNumber) }, sessionsEnded,
        });
        return row;
      });
      deps.auth.forgetUser(id);
      return { success: true, message: ADMIN_MESSAGES.secondFactorReset(updated.displayName), staff: await reload(ctx, id) };
    },

    /**
     * The site's second-factor rule (issue 30, PUT /v3.0/user/admin/site/second-factor): the write (with
     * `required`, the SMS code switched on for every account that had it off), its revision (siteSecurity)
     * and its audit entry in one transaction. Choosing the rule in force changes nothing and records
     * nothing. Cached session lookups carry the site row and the accounts: they are forgotten, so every
     * session of the site sees the rule at its next call.
     */
    async setSecondFactorRule(ctx: AuthContext, rule: SecondFactorRule): Promise<SetSecondFactorRuleResponse> {
      requireEditor(ctx);
      const changed = await repo.transaction(async (tx) => {
        const before = await tx.secondFactorRuleOf(ctx.site.id);
        if (before === rule) return false;
        // The editor's own account first (GitHub's rule): without an app, 'authenticator' would lock them out at once.
        if (rule === 'authenticator' && !(await tx.secondFactorStateOf(ctx.site.id, ctx.user.id)).ownAuthenticator) {
          throw invalid('rule', SECOND_FACTOR_TEXT.enrolFirst);
        }
        const accountsSwitchedOn = await tx.setSecondFactorRule(ctx.site.id, rule);
        await recordChange(tx, ctx, SECOND_FACTOR_AUDIT_ACTION, { kind: 'siteSecurity', objectId: ctx.site.id, objectName: null },
          { secondFactorRule: before }, { secondFactorRule: rule }, { before: { secondFactorRule: before }, after: { secondFactorRule: rule }, accountsSwitchedOn });
        return true;
      });
      if (changed) deps.auth.forgetSite(ctx.site.id);
      return { success: true, message: SECOND_FACTOR_DONE[rule], secondFactor: await repo.secondFactorStateOf(ctx.site.id, ctx.user.id) };
    },

    async audit(ctx: AuthContext, query: AuditQuery): Promise<AuditListResponse> {
      const paging = pageOf(query.page, query.pageSize, AUDIT_PAGE_SIZE);
      // The site's days (issue 38), clamped at years 1 and 9999: the one rule of the audit log (audit-log.ts).
      const bounds = siteDayBounds(query, ctx.site.defaultTimezone);
      const result = await repo.listAudit(ctx.site.id, {
        who: query.who ?? '',
        action: query.action ?? '',
        ...bounds,
        offset: paging.offset,
        limit: paging.limit,
      });
      return {
        success: true,
        items: result.rows.map((r) => ({
          id: r.id,
          at: new Date(r.at).toISOString(),
          action: r.action,
          actor: r.actorUserId && r.actorUsername ? { id: r.actorUserId, username: r.actorUsername } : null,
          detail: r.detail,
          object: r.objectKind && r.objectId ? { kind: r.objectKind, id: r.objectId, name: r.objectName } : null,
        })),
        total: result.total,
        page: paging.page,
        pageSize: paging.pageSize,
      };
    },

    async checkSetPasswordToken(token: string): Promise<SetPasswordCheckResponse> {
      const row = await repo.findSetPasswordToken(hashSetPasswordToken(token));
      if (!row) throw invalid('token', ADMIN_MESSAGES.setPasswordInvalid);
      return { success: true, username: row.user.username, displayName: row.user.displayName };
    },

    async setPassword(input: SetPasswordRequest, ip: string): Promise<SetPasswordResponse> {
      if (input.newPassword !== input.confirmPassword) throw invalid('confirmPassword', MESSAGES.passwordMismatch);
      const problem = newPasswordProblem(input.newPassword);
      if (problem) throw invalid('newPassword', problem);
      const row = await repo.findSetPasswordToken(hashSetPasswordToken(input.token));
      if (!row) throw invalid('token', ADMIN_MESSAGES.setPasswordInvalid);
      const hash = await deps.passwords.hash(input.newPassword);
      if (!await repo.consumeSetPasswordToken(row.tokenId, row.user.id, hash)) throw invalid('token', ADMIN_MESSAGES.setPasswordInvalid);
      deps.auth.forgetUser(row.user.id);
      await deps.audit.record({
        action: ADMIN_AUDIT_ACTIONS.passwordSet,
        actorUserId: row.user.id,
        siteId: row.user.siteId,
        detail: { targetUserId: row.user.id, targetUsername: row.user.username, ip },
      });
      return { success: true, message: ADMIN_MESSAGES.setPasswordDone };
    },
  };
}

export type StaffAdmin = ReturnType<typeof createStaffAdmin>;
