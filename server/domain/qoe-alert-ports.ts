/**
 * Issue 41 (qoe-alerts): the rows and the stores the alert rules, incidents, alert settings, their
 * deliveries and saved views are read and written through. server/db/qoe-alert-repository.ts
 * implements them; server/composition-qoe-alerts.ts hands them in.
 */
import { isRecord } from '../../common/one-of';
import { QOE_ALERT_DURATIONS, isQoeMetricKey, type QoeAlertComparison, type QoeFilter, type QoeMetricKey } from '../../common/qoe';

/** A stored rule's metric, comparison and duration as the contract types them (the writes store only those). */
export const metricOf = (value: string): QoeMetricKey => (isQoeMetricKey(value) ? value : 'rebufferPct');
export const comparisonOf = (value: string): QoeAlertComparison => (value === 'below' ? 'below' : 'above');
export const durationOf = (value: number): (typeof QOE_ALERT_DURATIONS)[number] => QOE_ALERT_DURATIONS.find((d) => d === value) ?? 5;

/** A body as the routes' loose schemas let it through: every field checked by the rules. */
export type Loose<T> = { [K in keyof T]?: unknown };

/** Whether a write failed on a unique index (a duplicate name). */
export function isDuplicate(error: unknown, index: string): boolean {
  const cause = isRecord(error) && 'cause' in error ? error.cause : error;
  return new RegExp(`${index}|duplicate key`, 'i').test(String(cause));
}
import type { RevisionSink } from './revisions';
import type { AuditEventValues } from './rows';

export interface QoeAlertRuleRow {
  id: string;
  siteId: string;
  name: string;
  metric: string;
  comparison: string;
  threshold: number;
  durationMinutes: number;
  filters: QoeFilter[];
  enabled: boolean;
  version: number;
  breachingSince: Date | null;
  lastValue: number | null;
  lastEvaluatedAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type QoeAlertRuleValues = Pick<QoeAlertRuleRow, 'name' | 'metric' | 'comparison' | 'threshold' | 'durationMinutes' | 'filters' | 'enabled'>;

export interface QoeIncidentRow {
  id: string;
  siteId: string;
  ruleId: string | null;
  ruleName: string;
  metric: string;
  comparison: string;
  threshold: number;
  filters: QoeFilter[];
  state: string;
  startedAt: Date;
  resolvedAt: Date | null;
  resolvedReason: string | null;
  peakValue: number;
  lastValue: number;
  createdAt: Date;
}

export interface QoeAlertSettingsRow {
  siteId: string;
  webhookUrl: string | null;
  webhookSecret: string;
  emails: string[];
  version: number;
  updatedAt: Date;
}

export interface QoeDeliveryRow {
  id: string;
  siteId: string;
  incidentId: string;
  channel: string;
  event: string;
  target: string;
  payload: Record<string, unknown>;
  status: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  sentAt: Date | null;
  createdAt: Date;
}

export type QoeDeliveryValues = Pick<QoeDeliveryRow, 'siteId' | 'incidentId' | 'channel' | 'event' | 'target' | 'payload'>;

export interface QoeSavedViewRow {
  id: string;
  siteId: string;
  ownerId: string;
  ownerName: string;
  name: string;
  path: string;
  search: Record<string, string>;
  shared: boolean;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export type QoeSavedViewValues = Pick<QoeSavedViewRow, 'name' | 'path' | 'search' | 'shared'>;

/** The SQL the rule, settings and incident writes of the API use (one transaction per write). */
export interface QoeAlertWrites extends RevisionSink {
  insertAuditEvent(values: AuditEventValues): Promise<void>;
  insertRule(siteId: string, values: QoeAlertRuleValues, createdBy: string | null, at: Date): Promise<QoeAlertRuleRow>;
  updateRule(siteId: string, id: string, version: number, values: QoeAlertRuleValues, resetBreach: boolean, at: Date): Promise<QoeAlertRuleRow | undefined>;
  deleteRule(siteId: string, id: string, version: number): Promise<QoeAlertRuleRow | undefined>;
  resolveOpenIncident(ruleId: string, at: Date, reason: string): Promise<QoeIncidentRow | undefined>;
  upsertSettings(siteId: string, version: number, values: Pick<QoeAlertSettingsRow, 'webhookUrl' | 'emails'>, secret: string, at: Date): Promise<QoeAlertSettingsRow | undefined>;
  /** Replaces the signing secret with the version read; undefined when stale. */
  rotateSecret(siteId: string, version: number, secret: string, at: Date): Promise<QoeAlertSettingsRow | undefined>;
  findSettings(siteId: string): Promise<QoeAlertSettingsRow | undefined>;
  insertDeliveries(values: readonly QoeDeliveryValues[]): Promise<void>;
  siteNames(siteId: string): Promise<{ name: string; timeZone: string } | undefined>;
  insertView(siteId: string, ownerId: string, values: QoeSavedViewValues, at: Date): Promise<{ id: string }>;
  updateView(siteId: string, id: string, version: number, values: QoeSavedViewValues, at: Date): Promise<{ id: string } | undefined>;
  deleteView(siteId: string, id: string, version: number): Promise<{ id: string } | undefined>;
}

export interface QoeAlertReads {
  listRules(siteId: string): Promise<QoeAlertRuleRow[]>;
  findRule(siteId: string, id: string): Promise<QoeAlertRuleRow | undefined>;
  ruleNameTaken(siteId: string, name: string, exceptId?: string): Promise<boolean>;
  /** One page of the site's incidents: all (open first), open only or resolved only; newest first. */
  listIncidents(siteId: string, state: 'all' | 'open' | 'resolved', page: { offset: number; limit: number }): Promise<{ rows: QoeIncidentRow[]; total: number }>;
  countOpenIncidents(siteId: string): Promise<number>;
  findSettings(siteId: string): Promise<QoeAlertSettingsRow | undefined>;
  siteNames(siteId: string): Promise<{ name: string; timeZone: string } | undefined>;
  listViews(siteId: string, ownerId: string): Promise<QoeSavedViewRow[]>;
  findView(siteId: string, id: string): Promise<QoeSavedViewRow | undefined>;
  viewNameTaken(siteId: string, ownerId: string, name: string, exceptId?: string): Promise<boolean>;
}

export interface QoeAlertStore extends QoeAlertReads {
  transaction<R>(work: (tx: QoeAlertWrites) => Promise<R>): Promise<R>;
}

/** What the evaluator reads and writes (server/domain/qoe-alert-evaluator.ts). */
export interface QoeEvaluationStore {
  /** Every enabled rule of every site. */
  enabledRules(): Promise<QoeAlertRuleRow[]>;
  setRuleState(id: string, state: { breachingSince: Date | null; lastValue: number | null; lastEvaluatedAt: Date }): Promise<void>;
  /** Opens the rule's incident unless one is open (the partial unique index decides between instances): the row when this call opened it. */
  openIncident(rule: QoeAlertRuleRow, startedAt: Date, value: number): Promise<QoeIncidentRow | undefined>;
  /** The open incident's latest and worst value. */
  touchIncident(ruleId: string, value: number, above: boolean): Promise<void>;
  resolveOpenIncident(ruleId: string, at: Date, reason: string): Promise<QoeIncidentRow | undefined>;
  findSettings(siteId: string): Promise<QoeAlertSettingsRow | undefined>;
  insertDeliveries(values: readonly QoeDeliveryValues[]): Promise<void>;
  siteNames(siteId: string): Promise<{ name: string; timeZone: string } | undefined>;
}

/** The metric of a filter set over the sessions active in a window (server/db/qoe-repository.ts qoeTotals). */
export type QoeTotals = (selection: { siteId: string; filters: readonly QoeFilter[]; since: Date; until: Date; select: 'active' }) =>
  Promise<Record<QoeMetricKey, number | null>>;

/** The delivery queue (server/domain/qoe-alert-delivery.ts). */
export interface QoeDeliveryStore {
  claimDue(now: Date, limit: number, leaseMs: number): Promise<QoeDeliveryRow[]>;
  markSent(id: string, at: Date): Promise<void>;
  markRetry(id: string, error: string, nextAttemptAt: Date | null): Promise<void>;
  findSettings(siteId: string): Promise<QoeAlertSettingsRow | undefined>;
  /** The e-mail-like outbox (sms_outbox, listed by GET /__dev/outbox). */
  insertOutboxMessage(to: string, body: string): Promise<void>;
}
