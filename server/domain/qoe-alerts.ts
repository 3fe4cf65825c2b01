/**
 * Issue 41 (qoe-alerts): alert rules, incidents and the site's alert settings, as the API
 * (server/http/qoe-alert-routes.ts) calls them. Reads need Dashboard 360 read, writes Dashboard 360
 * write (after ANALYTICS_ALLOWED_SITES, like the reports); everything is the caller's site only (a
 * rule of another site is not found). Every write commits with its revision and its audit row in one
 * transaction; a stale version is the editors' 409. Turning a rule off, changing its terms or
 * deleting it closes its open incident at once (resolved: disabled / changed / deleted) and notifies.
 *
 * The webhook signing secret is the site's (one per site, in its alert settings): made at the first
 * save, replaced by a rotation (Dashboard 360 write, with the settings' version), and shown once — in
 * the answer of the write that made it. Reads answer its fingerprint only (8 hex of its SHA-256), to
 * editors; revisions and audit rows carry the fingerprints, never the secret. A rotation takes effect
 * at once: deliveries sent after it (retries of older ones included) are signed with the new secret.
 */
import { createHash, randomBytes } from 'node:crypto';
import { scrubDetail } from '../../common/audit-detail';
import { AREAS } from '../../common/constants';
import { QOE_ALERT_REFUSALS as M } from '../../common/messages/qoe-alert-refusals';
import { isOneOf, isRecord } from '../../common/one-of';
import {
  formatQoeFilters, parseQoeFilters, QOE_ALERT_COMPARISONS, QOE_ALERT_DURATIONS, QOE_ALERT_EMAILS_MAX, QOE_ALERT_NAME_MAX, QOE_ALERTABLE_METRICS,
  QOE_INCIDENTS_PAGE_SIZE, QOE_METRICS, isQoeDimension,
  type QoeAlertRule, type QoeAlertRuleAnswer, type QoeAlertRuleRequest, type QoeAlertRulesAnswer, type QoeAlertSettingsAnswer,
  type QoeAlertSettingsRequest, type QoeFilter, type QoeIncidentCountAnswer, type QoeIncidentsAnswer,
} from '../../common/qoe';
import { applyAllowedSites, canContinue, canEdit } from '../../common/roles';
import type { Roles } from '../../common/contract';
import type { AuthContext } from './auth-context';
import { conflict, forbidden, invalid, notFound } from './errors';
import { deliveriesFor, incidentAnswer } from './qoe-alert-notify';
import {
  comparisonOf, durationOf, isDuplicate, metricOf,
  type Loose, type QoeAlertRuleRow, type QoeAlertRuleValues, type QoeAlertSettingsRow, type QoeAlertStore, type QoeAlertWrites,
} from './qoe-alert-ports';
import { webhookRefusal } from './qoe-alert-webhook';
import { auditObject, recordRevision } from './revisions';

/** The audit actions of alerts and saved views (common/audit-actions.ts). */
export const QOE_ALERT_AUDIT = {
  ruleCreate: 'qoe.alert_rule.create',
  ruleUpdate: 'qoe.alert_rule.update',
  ruleDelete: 'qoe.alert_rule.delete',
  settingsSave: 'qoe.alert_settings.save',
  secretRotate: 'qoe.alert_settings.rotate_secret',
  viewCreate: 'qoe.saved_view.create',
  viewUpdate: 'qoe.saved_view.update',
  viewDelete: 'qoe.saved_view.delete',
} as const;

export interface QoeAccessConfig {
  /** ANALYTICS_ALLOWED_SITES: a site outside it has no Dashboard 360 role. */
  analyticsAllowedSites: readonly string[];
  /** Webhooks to private/loopback hosts allowed (development, tests: QOE_WEBHOOK_ALLOW_PRIVATE). */
  allowPrivateWebhooks: boolean;
}

export function qoeRoles(ctx: AuthContext, config: Pick<QoeAccessConfig, 'analyticsAllowedSites'>): Roles {
  return applyAllowedSites(ctx.user.roles, ctx.site.siteInternalName, config.analyticsAllowedSites);
}

export function requireQoeRead(ctx: AuthContext, config: Pick<QoeAccessConfig, 'analyticsAllowedSites'>): Roles {
  const roles = qoeRoles(ctx, config);
  if (!canContinue(roles, AREAS.dashboard360)) throw forbidden();
  return roles;
}

function requireQoeWrite(ctx: AuthContext, config: Pick<QoeAccessConfig, 'analyticsAllowedSites'>): void {
  if (!canEdit(requireQoeRead(ctx, config), AREAS.dashboard360)) throw forbidden();
}

const field = (name: string, message: string) => invalid(name, message, { [name]: message });

export function cleanName(value: unknown, messages: { required: string; tooLong: string }): string {
  const name = typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '';
  if (!name) throw field('name', messages.required);
  if (name.length > QOE_ALERT_NAME_MAX) throw field('name', messages.tooLong);
  return name;
}

function cleanFilters(value: unknown): QoeFilter[] {
  if (value === undefined || value === null || value === '') return [];
  let text: string;
  if (typeof value === 'string') text = value;
  else if (Array.isArray(value)) {
    // A list is read through the URL form, so both answer the same words.
    const list: QoeFilter[] = [];
    for (const item of value) {
      if (!isRecord(item) || typeof item.dimension !== 'string' || !Array.isArray(item.values) || !item.values.every((v) => typeof v === 'string')) {
        throw field('filters', M.badFilters('each filter names a dimension and its values.'));
      }
      if (!isQoeDimension(item.dimension)) {
        const parsed = parseQoeFilters(`${item.dimension}:x`);
        throw field('filters', M.badFilters(parsed.ok ? '' : parsed.message));
      }
      list.push({ dimension: item.dimension, exclude: item.exclude === true, values: item.values.map(String) });
    }
    const empty = list.find((f) => f.values.length === 0);
    if (empty) {
      const parsed = parseQoeFilters(`${empty.exclude ? '!' : ''}${empty.dimension}`);
      throw field('filters', M.badFilters(parsed.ok ? '' : parsed.message));
    }
    text = formatQoeFilters(list);
  } else throw field('filters', M.badFilters('give them as text (f=) or a list.'));
  const parsed = parseQoeFilters(text);
  if (!parsed.ok) throw field('filters', M.badFilters(parsed.message));
  return parsed.filters;
}

function cleanRule(request: Loose<QoeAlertRuleRequest>, current?: QoeAlertRuleRow): QoeAlertRuleValues {
  const name = cleanName(request.name, { required: M.nameRequired, tooLong: M.nameTooLong });
  const metricValue: unknown = request.metric;
  if (!isOneOf(QOE_ALERTABLE_METRICS, metricValue)) throw field('metric', M.unknownMetric(String(metricValue ?? '')));
  const comparisonValue: unknown = request.comparison;
  if (!isOneOf(QOE_ALERT_COMPARISONS, comparisonValue)) throw field('comparison', M.badComparison);
  const thresholdValue: unknown = request.threshold;
  const threshold = typeof thresholdValue === 'number' ? thresholdValue : typeof thresholdValue === 'string' && thresholdValue.trim() !== '' ? Number(thresholdValue) : NaN;
  if (!Number.isFinite(threshold)) throw field('threshold', M.thresholdNotNumber);
  if (threshold < 0) throw field('threshold', M.thresholdNegative);
  const unit = QOE_METRICS.find((m) => m.key === metricValue)?.unit;
  if (unit === 'percent' && threshold > 100) throw field('threshold', M.thresholdRange);
  const durationValue: unknown = request.durationMinutes;
  if (!isOneOf<number>(QOE_ALERT_DURATIONS, durationValue)) throw field('durationMinutes', M.badDuration);
  const enabledValue: unknown = request.enabled;
  if (enabledValue !== undefined && typeof enabledValue !== 'boolean') throw field('enabled', M.badEnabled);
  return {
    name, metric: metricValue, comparison: comparisonValue, threshold, durationMinutes: durationValue, filters: cleanFilters(request.filters),
    enabled: typeof enabledValue === 'boolean' ? enabledValue : current?.enabled ?? true,
  };
}

export function toRule(row: QoeAlertRuleRow): QoeAlertRule {
  return {
    id: row.id, name: row.name, metric: metricOf(row.metric), comparison: comparisonOf(row.comparison), threshold: row.threshold,
    durationMinutes: durationOf(row.durationMinutes), filters: row.filters, enabled: row.enabled, version: row.version,
    createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(), breachingSince: row.breachingSince?.toISOString() ?? null,
    lastValue: row.lastValue === null ? null : Math.round(row.lastValue * 100) / 100, lastEvaluatedAt: row.lastEvaluatedAt?.toISOString() ?? null,
  };
}

/** The fields of a rule a revision compares. */
const ruleView = (v: QoeAlertRuleValues) => ({
  name: v.name, metric: v.metric, comparison: v.comparison, threshold: v.threshold, durationMinutes: v.durationMinutes, filters: formatQoeFilters(v.filters), enabled: v.enabled,
});

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

function versionOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw field('version', M.versionRequired);
  return value;
}

/** Closes the rule's open incident inside the write's transaction and queues its notifications. */
async function closeOpenIncident(tx: QoeAlertWrites, ruleId: string, siteId: string, at: Date, reason: 'disabled' | 'changed' | 'deleted'): Promise<void> {
  const closed = await tx.resolveOpenIncident(ruleId, at, reason);
  if (!closed) return;
  const site = await tx.siteNames(siteId);
  if (site) await tx.insertDeliveries(deliveriesFor(closed, 'resolved', await tx.findSettings(siteId), site));
}

export function createQoeAlerts(deps: { store: QoeAlertStore; config: QoeAccessConfig; now?: () => Date }) {
  const { store, config } = deps;
  const now = deps.now ?? (() => new Date());
  const ruleObject = (row: { id: string; name: string }) => ({ kind: 'qoeAlertRule', objectId: row.id, objectName: row.name }) as const;
  const settingsObject = (siteId: string) => ({ kind: 'qoeAlertSettings', objectId: siteId, objectName: null }) as const;

  async function ruleOf(ctx: AuthContext, id: string): Promise<QoeAlertRuleRow> {
    const row = await store.findRule(ctx.site.id, id);
    if (!row) throw notFound(M.ruleNotFound);
    return row;
  }

  return {
    async listRules(ctx: AuthContext): Promise<QoeAlertRulesAnswer> {
      const roles = requireQoeRead(ctx, config);
      return { success: true, rules: (await store.listRules(ctx.site.id)).map(toRule), canEdit: canEdit(roles, AREAS.dashboard360) };
    },

    async getRule(ctx: AuthContext, id: string): Promise<QoeAlertRuleAnswer> {
      requireQoeRead(ctx, config);
      return { success: true, rule: toRule(await ruleOf(ctx, id)) };
    },

    async createRule(ctx: AuthContext, request: Loose<QoeAlertRuleRequest>): Promise<QoeAlertRuleAnswer> {
      requireQoeWrite(ctx, config);
      const siteId = ctx.site.id;
      const values = cleanRule(request);
      if (await store.ruleNameTaken(siteId, values.name)) throw field('name', M.nameTaken(values.name));
      const at = now();
      const row = await store.transaction(async (tx) => {
        const created = await tx.insertRule(siteId, values, ctx.user.id, at);
        const object = ruleObject(created);
        await recordRevision(tx, { ...object, siteId, actorUserId: ctx.user.id, objectVersion: created.version, before: null, after: ruleView(values) });
        await tx.insertAuditEvent({ at, action: QOE_ALERT_AUDIT.ruleCreate, actorUserId: ctx.user.id, siteId, ...auditObject(object), detail: scrubDetail(ruleView(values)) });
        return created;
      }).catch((error: unknown) => {
        if (isDuplicate(error, 'qoe_alert_rules_site_name_idx')) throw field('name', M.nameTaken(values.name));
        throw error;
      });
      return { success: true, rule: toRule(row) };
    },

    async updateRule(ctx: AuthContext, id: string, request: Loose<QoeAlertRuleRequest>): Promise<QoeAlertRuleAnswer> {
      requireQoeWrite(ctx, config);
      const siteId = ctx.site.id;
      const current = await ruleOf(ctx, id);
      const version = versionOf(request.version);
      const values = cleanRule(request, current);
      if (await store.ruleNameTaken(siteId, values.name, id)) throw field('name', M.nameTaken(values.name));
      if (current.version !== version) throw conflict(M.ruleConflict);
      const before = ruleView(current);
      const after = ruleView(values);
      const termsChanged = (['metric', 'comparison', 'threshold', 'durationMinutes', 'filters'] as const).some((k) => before[k] !== after[k]);
      const at = now();
      const row = await store.transaction(async (tx) => {
        const saved = await tx.updateRule(siteId, id, version, values, termsChanged || !values.enabled, at);
        if (!saved) throw conflict(M.ruleConflict);
        const object = ruleObject(saved);
        const revision = await recordRevision(tx, { ...object, siteId, actorUserId: ctx.user.id, objectVersion: saved.version, before, after });
        await tx.insertAuditEvent({
          at, action: QOE_ALERT_AUDIT.ruleUpdate, actorUserId: ctx.user.id, siteId, ...auditObject(object),
          detail: scrubDetail({ before, after, changed: revision?.changes.map((c) => c.field) ?? [] }),
        });
        if (!values.enabled && current.enabled) await closeOpenIncident(tx, id, siteId, at, 'disabled');
        else if (termsChanged) await closeOpenIncident(tx, id, siteId, at, 'changed');
        return saved;
      });
      return { success: true, rule: toRule(row) };
    },

    async deleteRule(ctx: AuthContext, id: string, versionValue: unknown): Promise<{ success: true }> {
      requireQoeWrite(ctx, config);
      const siteId = ctx.site.id;
      const current = await ruleOf(ctx, id);
      const version = versionOf(versionValue);
      if (current.version !== version) throw conflict(M.ruleConflict);
      const at = now();
      await store.transaction(async (tx) => {
        // The open incident closes first (it keeps the rule's name and terms once the rule is gone).
        await closeOpenIncident(tx, id, siteId, at, 'deleted');
        const deleted = await tx.deleteRule(siteId, id, version);
        if (!deleted) throw conflict(M.ruleConflict);
        const object = ruleObject(deleted);
        await recordRevision(tx, { ...object, siteId, actorUserId: ctx.user.id, objectVersion: deleted.version, before: ruleView(deleted), after: null });
        await tx.insertAuditEvent({ at, action: QOE_ALERT_AUDIT.ruleDelete, actorUserId: ctx.user.id, siteId, ...auditObject(object), detail: scrubDetail(ruleView(deleted)) });
      });
      return { success: true };
    },

    async listIncidents(ctx: AuthContext, query: { state?: string; page?: number | string }): Promise<QoeIncidentsAnswer> {
      requireQoeRead(ctx, config);
      const state = query.state ?? 'all';
      if (state !== 'open' && state !== 'resolved' && state !== 'all') throw field('state', M.badState);
      const page = query.page === undefined ? 1 : Number(query.page);
      if (!Number.isInteger(page) || page < 1 || page > 100_000) throw field('page', M.badPage);
      const pageSize = QOE_INCIDENTS_PAGE_SIZE;
      const { rows, total } = await store.listIncidents(ctx.site.id, state, { offset: (page - 1) * pageSize, limit: pageSize });
      const at = now();
      return { success: true, incidents: rows.map((r) => incidentAnswer(r, ctx.site.defaultTimezone, at)), total, page, pageSize };
    },

    async countOpen(ctx: AuthContext): Promise<QoeIncidentCountAnswer> {
      requireQoeRead(ctx, config);
      return { success: true, open: await store.countOpenIncidents(ctx.site.id) };
    },

    async getSettings(ctx: AuthContext): Promise<QoeAlertSettingsAnswer> {
      const roles = requireQoeRead(ctx, config);
      return settingsAnswer(await store.findSettings(ctx.site.id), canEdit(roles, AREAS.dashboard360));
    },

    async saveSettings(ctx: AuthContext, request: Loose<QoeAlertSettingsRequest>): Promise<QoeAlertSettingsAnswer> {
      requireQoeWrite(ctx, config);
      const siteId = ctx.site.id;
      const version = versionOf(request.version);
      const rawUrl: unknown = request.webhookUrl;
      const webhookUrl = typeof rawUrl === 'string' && rawUrl.trim() !== '' ? rawUrl.trim() : null;
      if (rawUrl !== null && rawUrl !== undefined && typeof rawUrl !== 'string') throw field('webhookUrl', M.webhookInvalid);
      if (webhookUrl) {
        const refusal = webhookRefusal(webhookUrl, config.allowPrivateWebhooks);
        if (refusal) throw field('webhookUrl', refusal);
      }
      const rawEmails: unknown = request.emails;
      if (rawEmails !== undefined && !(Array.isArray(rawEmails) && rawEmails.every((e) => typeof e === 'string'))) throw field('emails', M.emailInvalid(String(rawEmails)));
      const emails = [...new Set((Array.isArray(rawEmails) ? rawEmails : []).map((e) => String(e).trim().toLowerCase()).filter(Boolean))];
      if (emails.length > QOE_ALERT_EMAILS_MAX) throw field('emails', M.tooManyEmails);
      const bad = emails.find((e) => e.length > 254 || !EMAIL.test(e));
      if (bad !== undefined) throw field('emails', M.emailInvalid(bad));
      const current = await store.findSettings(siteId);
      if ((current?.version ?? 0) !== version) throw conflict(M.settingsConflict);
      const at = now();
      const made = current ? null : newSecret();
      const saved = await store.transaction(async (tx) => {
        const row = await tx.upsertSettings(siteId, version, { webhookUrl, emails }, current?.webhookSecret ?? made ?? newSecret(), at);
        if (!row) throw conflict(M.settingsConflict);
        const object = settingsObject(siteId);
        const before = current ? { webhookUrl: current.webhookUrl, emails: current.emails } : null;
        const after = { webhookUrl, emails };
        const revision = await recordRevision(tx, { ...object, siteId, actorUserId: ctx.user.id, objectVersion: row.version, before, after });
        await tx.insertAuditEvent({
          at, action: QOE_ALERT_AUDIT.settingsSave, actorUserId: ctx.user.id, siteId, ...auditObject(object),
          detail: scrubDetail({ before, after, changed: revision?.changes.map((c) => c.field) ?? [] }),
        });
        return row;
      });
      // The secret is shown once: in the answer of the save that made it.
      return settingsAnswer(saved, true, made !== null && saved.webhookSecret === made);
    },

    /** A new signing secret for the site's webhook (Dashboard 360 write), with the settings' version as read; answered once. */
    async rotateSecret(ctx: AuthContext, request: { version?: unknown }): Promise<QoeAlertSettingsAnswer> {
      requireQoeWrite(ctx, config);
      const siteId = ctx.site.id;
      if (typeof request.version !== 'number' || !Number.isInteger(request.version) || request.version < 0) throw field('version', M.settingsVersionRequired);
      const version = request.version;
      const current = await store.findSettings(siteId);
      if (!current) throw field('version', M.secretNoSettings);
      if (current.version !== version) throw conflict(M.settingsConflict);
      const at = now();
      const secret = newSecret();
      const saved = await store.transaction(async (tx) => {
        const row = await tx.rotateSecret(siteId, version, secret, at);
        if (!row) throw conflict(M.settingsConflict);
        const object = settingsObject(siteId);
        const before = { webhookSigning: `fingerprint ${secretFingerprint(current.webhookSecret)}` };
        const after = { webhookSigning: `fingerprint ${secretFingerprint(secret)}` };
        await recordRevision(tx, { ...object, siteId, actorUserId: ctx.user.id, objectVersion: row.version, before, after });
        await tx.insertAuditEvent({
          at, action: QOE_ALERT_AUDIT.secretRotate, actorUserId: ctx.user.id, siteId, ...auditObject(object),
          detail: scrubDetail({ before, after, changed: ['webhookSigning'] }),
        });
        return row;
      });
      return settingsAnswer(saved, true, true);
    },
  };
}

const newSecret = () => randomBytes(32).toString('hex');

/** Which secret is in use, without giving it away: the first 8 hex of its SHA-256. */
export function secretFingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 8);
}

function settingsAnswer(row: QoeAlertSettingsRow | undefined, writer: boolean, showSecret = false): QoeAlertSettingsAnswer {
  return {
    success: true,
    settings: {
      webhookUrl: row?.webhookUrl ?? null, emails: row?.emails ?? [], version: row?.version ?? 0,
      webhookSecret: writer && showSecret ? row?.webhookSecret ?? null : null,
      secretFingerprint: writer && row ? secretFingerprint(row.webhookSecret) : null,
    },
    canEdit: writer,
  };
}

export type QoeAlerts = ReturnType<typeof createQoeAlerts>;
