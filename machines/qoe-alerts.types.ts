/**
 * Dashboard 360 › Alerts' types and rules (machines/qoe-alerts.machine.ts assembles the machine from
 * ./qoe-alerts.setup.ts and its states): the data read, the editor's drafts and what is wrong with them.
 */
import {
  QOE_ALERTABLE_METRICS, QOE_METRICS,
  type QoeAlertComparison, type QoeAlertRule, type QoeAlertRuleInput, type QoeAlertSettings,
  type QoeFilter, type QoeIncident, type QoeMetricKey, type QoeQuery,
} from '../common/qoe';
import { QOE_ALERT_MESSAGES as M } from '../common/messages/qoe-alerts';
import { addDays } from '../common/report-dates';
import { isRevisionKind, type RevisionKind } from '../common/revisions';
import type { QoeFiltersChangedEvent } from './qoe-filters.machine';

/** The revision kind of an alert rule (its History); the server names its revisions so. */
export const QOE_ALERT_RULE_KIND = 'qoeAlertRule';

export interface IncidentPage {
  items: QoeIncident[];
  total: number;
  page: number;
  pageSize: number;
}

export interface AlertsData {
  rules: QoeAlertRule[];
  open: QoeIncident[];
  resolved: IncidentPage;
  /** Null for a reader (the settings are the write role's). */
  settings: StoredAlertSettings | null;
}

/**
 * The alert settings as read, with the version a save is checked against (0 before the first save) and
 * the fingerprint of the signing secret in use (null before the first save).
 */
export type StoredAlertSettings = QoeAlertSettings & { version: number; secretFingerprint: string | null };

/** The settings as a save or a rotation answers them: the signing secret when that write made it (shown once), else null. */
export type SavedAlertSettings = StoredAlertSettings & { webhookSecret: string | null };

export interface RotateSecretInput { version: number }
/** What a save of the settings sends: the addresses with the version read. */
export type SaveSettingsInput = QoeAlertSettings & { version: number };

/** A rule as its editor holds it: the threshold as typed. */
export interface RuleDraft {
  name: string;
  metric: QoeMetricKey;
  comparison: QoeAlertComparison;
  threshold: string;
  durationMinutes: QoeAlertRuleInput['durationMinutes'];
  filters: QoeFilter[];
  enabled: boolean;
}

export interface SettingsDraft {
  webhookUrl: string;
  emails: string;
}

export interface QoeAlertsInput {
  canEdit: boolean;
  /** Only the open incidents (the Dashboard overview's list): no rules, resolved incidents or settings are read. */
  openOnly?: boolean;
  /** The site's today ('YYYY-MM-DD'): the rule editor's picker counts values over it and the day before. */
  today?: string;
}

export interface QoeAlertsContext extends AlertsData {
  canEdit: boolean;
  openOnly: boolean;
  today: string;
  /** The rule open in the editor ('' for a new one), or null when the editor is closed. */
  editingId: string | null;
  editingVersion: number;
  draft: RuleDraft;
  /** The draft as opened (unsaved changes = draft differs). */
  original: RuleDraft;
  /** The rule asked about (delete) or changed in place (on/off). */
  targetId: string | null;
  historyOf: string | null;
  settingsDraft: SettingsDraft;
  /** A signing secret just made (first save or rotation), shown once until dismissed; null otherwise. */
  newSecret: string | null;
  fieldErrors: Partial<Record<'name' | 'threshold' | 'filters' | 'webhookUrl' | 'emails', string>>;
  error: string | null;
  notice: string | null;
}

export type QoeAlertsEvent =
  | { type: 'alerts.retry' }
  | { type: 'alerts.refresh' }
  | { type: 'incidents.page'; page: number }
  | { type: 'rules.new' }
  | { type: 'rules.edit'; id: string }
  | { type: 'rules.toggle'; id: string }
  | { type: 'rules.delete'; id: string }
  | { type: 'rules.history'; id: string }
  | { type: 'rules.closeHistory' }
  | { type: 'draft.change'; patch: Partial<Omit<RuleDraft, 'filters'>> }
  /** From the editor's filter picker (the `ruleFilters` child, machines/qoe-filters.machine.ts): the rule's new filter set. */
  | QoeFiltersChangedEvent
  | { type: 'editor.save' }
  | { type: 'editor.cancel' }
  | { type: 'discard.confirm' }
  | { type: 'discard.cancel' }
  | { type: 'conflict.reload' }
  | { type: 'conflict.keep' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'settings.change'; patch: Partial<SettingsDraft> }
  | { type: 'settings.save' }
  | { type: 'secret.rotate' }
  | { type: 'rotate.confirm' }
  | { type: 'rotate.cancel' }
  | { type: 'secret.dismiss' }
  | { type: 'history.restored' }
  | { type: 'history.stale' };

export interface SaveRuleInput { id: string | null; version: number; rule: QoeAlertRuleInput }
export interface DeleteRuleInput { id: string; version: number }
export interface FetchIncidentsInput { page: number }

const FIRST_METRIC: QoeMetricKey = QOE_ALERTABLE_METRICS[0] ?? 'rebufferPct';
export const EMPTY_DRAFT: RuleDraft = {
  name: '', metric: FIRST_METRIC, comparison: 'above', threshold: '', durationMinutes: 10, filters: [], enabled: true,
};
export const EMPTY_SETTINGS: SettingsDraft = { webhookUrl: '', emails: '' };

/**
 * The window the editor's picker counts values over: the site's yesterday and today (a values request
 * takes whole days; a rule's duration is minutes, too short to count a value's sessions by).
 */
export function ruleFiltersQuery(today: string): QoeQuery {
  return { from: addDays(today, -1), to: today };
}

export function draftOf(rule: QoeAlertRule): RuleDraft {
  return {
    name: rule.name, metric: rule.metric, comparison: rule.comparison, threshold: String(rule.threshold),
    durationMinutes: rule.durationMinutes, filters: rule.filters.map((f) => ({ ...f, values: [...f.values] })), enabled: rule.enabled,
  };
}

export function inputOf(draft: RuleDraft): QoeAlertRuleInput {
  return {
    name: draft.name.trim(), metric: draft.metric, comparison: draft.comparison, threshold: Number(draft.threshold.trim().replace(',', '.')),
    durationMinutes: draft.durationMinutes, filters: draft.filters.filter((f) => f.values.length > 0), enabled: draft.enabled,
  };
}

export function settingsDraftOf(settings: QoeAlertSettings | null): SettingsDraft {
  return settings ? { webhookUrl: settings.webhookUrl ?? '', emails: settings.emails.join('\n') } : EMPTY_SETTINGS;
}

export function settingsOf(draft: SettingsDraft): QoeAlertSettings {
  const url = draft.webhookUrl.trim();
  return { webhookUrl: url === '' ? null : url, emails: draft.emails.split(/[\s,;]+/).map((e) => e.trim()).filter((e) => e !== '') };
}

/** What is wrong with a draft, per field (empty: it may be saved). */
export function ruleDraftErrors(draft: RuleDraft): QoeAlertsContext['fieldErrors'] {
  const errors: QoeAlertsContext['fieldErrors'] = {};
  const name = draft.name.trim();
  if (name === '') errors.name = M.nameRequired;
  else if (name.length > 120) errors.name = M.nameTooLong;
  const raw = draft.threshold.trim().replace(',', '.');
  const value = Number(raw);
  const unit = QOE_METRICS.find((m) => m.key === draft.metric)?.unit;
  if (raw === '' || !Number.isFinite(value)) errors.threshold = M.thresholdRequired;
  else if (value < 0) errors.threshold = M.thresholdNegative;
  else if (unit === 'percent' && value > 100) errors.threshold = M.thresholdRange;
  if (draft.filters.some((f) => f.values.length === 0)) errors.filters = M.filterNeedsValues;
  return errors;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function settingsErrors(draft: SettingsDraft): QoeAlertsContext['fieldErrors'] {
  const errors: QoeAlertsContext['fieldErrors'] = {};
  const settings = settingsOf(draft);
  if (settings.webhookUrl !== null && !/^https:\/\/\S+$|^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/\S*)?$/.test(settings.webhookUrl)) errors.webhookUrl = M.webhookInvalid;
  const bad = settings.emails.find((e) => !EMAIL.test(e));
  if (bad) errors.emails = M.emailInvalid(bad);
  return errors;
}

export function sameDraft(a: RuleDraft, b: RuleDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function ruleName(context: QoeAlertsContext, id: string | null): string {
  return context.rules.find((r) => r.id === id)?.name ?? '';
}

/** The rule's revision kind once the revisions vocabulary names it (the server adds it there); null before. */
export function ruleRevisionKind(): RevisionKind | null {
  const kind: unknown = QOE_ALERT_RULE_KIND;
  return isRevisionKind(kind) ? kind : null;
}
