/**
 * Issue 41 (qoe-alerts): SQL of the alert rules, incidents, alert settings, deliveries and saved
 * views (migration 0042). Functions take the database (or a transaction) first; the stores the rules
 * are handed (server/domain/qoe-alert-ports.ts) are built at the end of this file.
 */
import { and, asc, count, desc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db } from './client';
import { insertAuditEvent } from './audit-repository';
import { transactionalStore } from './bound-store';
import { insertOutboxMessage } from './outbox-repository';
import { insertRevision } from './revision-repository';
import { qoeAlertDeliveries, qoeAlertRules, qoeAlertSettings, qoeIncidents, qoeSavedViews, sites, staffUsers } from './schema';

type RuleRow = typeof qoeAlertRules.$inferSelect;
type QoeAlertRuleValues = Pick<RuleRow, 'name' | 'metric' | 'comparison' | 'threshold' | 'durationMinutes' | 'filters' | 'enabled'>;
type QoeDeliveryValues = Pick<typeof qoeAlertDeliveries.$inferInsert, 'siteId' | 'incidentId' | 'channel' | 'event' | 'target' | 'payload'>;
type QoeSavedViewValues = Pick<typeof qoeSavedViews.$inferInsert, 'name' | 'path' | 'search' | 'shared'>;

/* ------------------------------- Rules ------------------------------- */

export async function listRules(db: Db, siteId: string) {
  return db.select().from(qoeAlertRules).where(eq(qoeAlertRules.siteId, siteId)).orderBy(asc(sql`lower(${qoeAlertRules.name})`), asc(qoeAlertRules.id));
}

export async function findRule(db: Db, siteId: string, id: string) {
  const [row] = await db.select().from(qoeAlertRules).where(and(eq(qoeAlertRules.siteId, siteId), eq(qoeAlertRules.id, id))).limit(1);
  return row;
}

export async function ruleNameTaken(db: Db, siteId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db.select({ id: qoeAlertRules.id }).from(qoeAlertRules)
    .where(and(eq(qoeAlertRules.siteId, siteId), sql`lower(${qoeAlertRules.name}) = lower(${name})`, exceptId ? ne(qoeAlertRules.id, exceptId) : undefined)).limit(1);
  return rows.length > 0;
}

export async function insertRule(db: Db, siteId: string, values: QoeAlertRuleValues, createdBy: string | null, at: Date) {
  const [row] = await db.insert(qoeAlertRules).values({ siteId, ...values, createdBy, createdAt: at, updatedAt: at }).returning();
  if (!row) throw new Error('alert rule insert returned nothing');
  return row;
}

/** A change with the version read; `resetBreach`: the rule's terms changed, its past breach no longer counts. */
export async function updateRule(db: Db, siteId: string, id: string, version: number, values: QoeAlertRuleValues, resetBreach: boolean, at: Date) {
  const [row] = await db.update(qoeAlertRules)
    .set({ ...values, version: sql`${qoeAlertRules.version} + 1`, updatedAt: at, ...(resetBreach ? { breachingSince: null } : {}) })
    .where(and(eq(qoeAlertRules.siteId, siteId), eq(qoeAlertRules.id, id), eq(qoeAlertRules.version, version))).returning();
  return row;
}

export async function deleteRule(db: Db, siteId: string, id: string, version: number) {
  const [row] = await db.delete(qoeAlertRules)
    .where(and(eq(qoeAlertRules.siteId, siteId), eq(qoeAlertRules.id, id), eq(qoeAlertRules.version, version))).returning();
  return row;
}

export async function enabledRules(db: Db) {
  return db.select().from(qoeAlertRules).where(eq(qoeAlertRules.enabled, true)).orderBy(asc(qoeAlertRules.id));
}

/** The evaluator's bookkeeping: no version change (an editor's save is not stale because a rule was judged). */
export async function setRuleState(db: Db, id: string, state: { breachingSince: Date | null; lastValue: number | null; lastEvaluatedAt: Date }): Promise<void> {
  await db.update(qoeAlertRules).set(state).where(eq(qoeAlertRules.id, id));
}

/* ------------------------------- Incidents ------------------------------- */

/**
 * Opens the rule's incident unless one is already open: qoe_incidents_one_open_idx (one open per
 * rule) makes a second instance's insert do nothing. Answers the row only to the call that opened it.
 */
export async function openIncident(db: Db, rule: RuleRow, startedAt: Date, value: number) {
  const [row] = await db.insert(qoeIncidents).values({
    siteId: rule.siteId, ruleId: rule.id, ruleName: rule.name, metric: rule.metric, comparison: rule.comparison, threshold: rule.threshold,
    filters: rule.filters, state: 'open', startedAt, peakValue: value, lastValue: value,
  }).onConflictDoNothing().returning();
  return row;
}

export async function touchIncident(db: Db, ruleId: string, value: number, above: boolean): Promise<void> {
  await db.update(qoeIncidents).set({
    lastValue: value,
    peakValue: above ? sql`GREATEST(${qoeIncidents.peakValue}, ${value}::float8)` : sql`LEAST(${qoeIncidents.peakValue}, ${value}::float8)`,
  }).where(and(eq(qoeIncidents.ruleId, ruleId), eq(qoeIncidents.state, 'open')));
}

/** Closes the rule's open incident; answers it only to the call that closed it. */
export async function resolveOpenIncident(db: Db, ruleId: string, at: Date, reason: string) {
  const [row] = await db.update(qoeIncidents).set({ state: 'resolved', resolvedAt: at, resolvedReason: reason })
    .where(and(eq(qoeIncidents.ruleId, ruleId), eq(qoeIncidents.state, 'open'))).returning();
  return row;
}

export async function listIncidents(db: Db, siteId: string, state: 'all' | 'open' | 'resolved', page: { offset: number; limit: number }) {
  const where = and(eq(qoeIncidents.siteId, siteId), state === 'all' ? undefined : eq(qoeIncidents.state, state));
  const [rows, [total]] = await Promise.all([
    db.select().from(qoeIncidents).where(where)
      .orderBy(sql`CASE WHEN ${qoeIncidents.state} = 'open' THEN 0 ELSE 1 END`, desc(qoeIncidents.startedAt), desc(qoeIncidents.id))
      .offset(page.offset).limit(page.limit),
    db.select({ n: count() }).from(qoeIncidents).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function countOpenIncidents(db: Db, siteId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(qoeIncidents).where(and(eq(qoeIncidents.siteId, siteId), eq(qoeIncidents.state, 'open')));
  return Number(row?.n ?? 0);
}

/* ------------------------------- Settings and deliveries ------------------------------- */

export async function findSettings(db: Db, siteId: string) {
  const [row] = await db.select().from(qoeAlertSettings).where(eq(qoeAlertSettings.siteId, siteId)).limit(1);
  return row;
}

/** Saves the site's settings with the version read (0: none saved yet); undefined when stale. */
export async function upsertSettings(db: Db, siteId: string, version: number, values: { webhookUrl: string | null; emails: string[] }, secret: string, at: Date) {
  if (version === 0) {
    const [row] = await db.insert(qoeAlertSettings).values({ siteId, ...values, webhookSecret: secret, version: 1, updatedAt: at }).onConflictDoNothing().returning();
    return row;
  }
  const [row] = await db.update(qoeAlertSettings).set({ ...values, version: sql`${qoeAlertSettings.version} + 1`, updatedAt: at })
    .where(and(eq(qoeAlertSettings.siteId, siteId), eq(qoeAlertSettings.version, version))).returning();
  return row;
}

/** A new signing secret with the version read (the settings must exist); undefined when stale. */
export async function rotateSecret(db: Db, siteId: string, version: number, secret: string, at: Date) {
  const [row] = await db.update(qoeAlertSettings).set({ webhookSecret: secret, version: sql`${qoeAlertSettings.version} + 1`, updatedAt: at })
    .where(and(eq(qoeAlertSettings.siteId, siteId), eq(qoeAlertSettings.version, version))).returning();
  return row;
}

export async function siteNames(db: Db, siteId: string): Promise<{ name: string; timeZone: string } | undefined> {
  const [row] = await db.select({ name: sites.siteInternalName, timeZone: sites.defaultTimezone }).from(sites).where(eq(sites.id, siteId)).limit(1);
  return row;
}

export async function insertDeliveries(db: Db, values: readonly QoeDeliveryValues[]): Promise<void> {
  if (values.length > 0) await db.insert(qoeAlertDeliveries).values([...values]);
}

/**
 * Takes up to `limit` due deliveries (pending, next attempt past), counting the attempt and leasing
 * them for `leaseMs` (another instance skips them: SKIP LOCKED, then the lease).
 */
export async function claimDue(db: Db, now: Date, limit: number, leaseMs: number) {
  const due = db.select({ id: qoeAlertDeliveries.id }).from(qoeAlertDeliveries)
    .where(and(eq(qoeAlertDeliveries.status, 'pending'), sql`${qoeAlertDeliveries.nextAttemptAt} <= ${now.toISOString()}::timestamptz`))
    .orderBy(asc(qoeAlertDeliveries.nextAttemptAt)).limit(limit).for('update', { skipLocked: true });
  return db.update(qoeAlertDeliveries)
    .set({ attempts: sql`${qoeAlertDeliveries.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + leaseMs) })
    .where(inArray(qoeAlertDeliveries.id, due)).returning();
}

export async function markSent(db: Db, id: string, at: Date): Promise<void> {
  await db.update(qoeAlertDeliveries).set({ status: 'sent', sentAt: at, lastError: null }).where(eq(qoeAlertDeliveries.id, id));
}

/** A failed attempt: its error kept; tried again at `nextAttemptAt`, or given up (failed) when null. */
export async function markRetry(db: Db, id: string, error: string, nextAttemptAt: Date | null): Promise<void> {
  await db.update(qoeAlertDeliveries)
    .set(nextAttemptAt ? { lastError: error.slice(0, 1000), nextAttemptAt } : { lastError: error.slice(0, 1000), status: 'failed' })
    .where(eq(qoeAlertDeliveries.id, id));
}

export async function deliveriesOf(db: Db, incidentId: string) {
  return db.select().from(qoeAlertDeliveries).where(eq(qoeAlertDeliveries.incidentId, incidentId)).orderBy(asc(qoeAlertDeliveries.createdAt), asc(qoeAlertDeliveries.channel));
}

/* ------------------------------- Saved views ------------------------------- */

const viewColumns = {
  id: qoeSavedViews.id, siteId: qoeSavedViews.siteId, ownerId: qoeSavedViews.ownerId,
  ownerName: sql<string>`coalesce(nullif(${staffUsers.displayName}, ''), ${staffUsers.username})`,
  name: qoeSavedViews.name, path: qoeSavedViews.path, search: qoeSavedViews.search, shared: qoeSavedViews.shared,
  version: qoeSavedViews.version, createdAt: qoeSavedViews.createdAt, updatedAt: qoeSavedViews.updatedAt,
};

/** The caller's own views and those shared with the site, by name. */
export async function listViews(db: Db, siteId: string, ownerId: string) {
  return db.select(viewColumns).from(qoeSavedViews).innerJoin(staffUsers, eq(staffUsers.id, qoeSavedViews.ownerId))
    .where(and(eq(qoeSavedViews.siteId, siteId), or(eq(qoeSavedViews.ownerId, ownerId), eq(qoeSavedViews.shared, true))))
    .orderBy(asc(sql`lower(${qoeSavedViews.name})`), asc(qoeSavedViews.id));
}

export async function findView(db: Db, siteId: string, id: string) {
  const [row] = await db.select(viewColumns).from(qoeSavedViews).innerJoin(staffUsers, eq(staffUsers.id, qoeSavedViews.ownerId))
    .where(and(eq(qoeSavedViews.siteId, siteId), eq(qoeSavedViews.id, id))).limit(1);
  return row;
}

export async function viewNameTaken(db: Db, siteId: string, ownerId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await db.select({ id: qoeSavedViews.id }).from(qoeSavedViews).where(and(
    eq(qoeSavedViews.siteId, siteId), eq(qoeSavedViews.ownerId, ownerId), sql`lower(${qoeSavedViews.name}) = lower(${name})`,
    exceptId ? ne(qoeSavedViews.id, exceptId) : undefined,
  )).limit(1);
  return rows.length > 0;
}

export async function insertView(db: Db, siteId: string, ownerId: string, values: QoeSavedViewValues, at: Date) {
  const [row] = await db.insert(qoeSavedViews).values({ siteId, ownerId, ...values, createdAt: at, updatedAt: at }).returning({ id: qoeSavedViews.id });
  if (!row) throw new Error('saved view insert returned nothing');
  return row;
}

export async function updateView(db: Db, siteId: string, id: string, version: number, values: QoeSavedViewValues, at: Date) {
  const [row] = await db.update(qoeSavedViews).set({ ...values, version: sql`${qoeSavedViews.version} + 1`, updatedAt: at })
    .where(and(eq(qoeSavedViews.siteId, siteId), eq(qoeSavedViews.id, id), eq(qoeSavedViews.version, version))).returning({ id: qoeSavedViews.id });
  return row;
}

export async function deleteView(db: Db, siteId: string, id: string, version: number) {
  const [row] = await db.delete(qoeSavedViews)
    .where(and(eq(qoeSavedViews.siteId, siteId), eq(qoeSavedViews.id, id), eq(qoeSavedViews.version, version))).returning({ id: qoeSavedViews.id });
  return row;
}

/* ------------------------------- Stores ------------------------------- */

const READS = { listRules, findRule, ruleNameTaken, listIncidents, countOpenIncidents, findSettings, siteNames, listViews, findView, viewNameTaken };
const WRITES = {
  insertAuditEvent, insertRevision, insertRule, updateRule, deleteRule, resolveOpenIncident, upsertSettings, rotateSecret, findSettings, insertDeliveries, siteNames,
  insertView, updateView, deleteView,
};

/** The API's store: reads, and writes in one transaction with their revision and audit row. */
export function createQoeAlertStore(db: Db) {
  const store = transactionalStore(db, { ...READS, ...WRITES });
  return store;
}

export function createQoeEvaluationStore(db: Db) {
  return transactionalStore(db, { enabledRules, setRuleState, openIncident, touchIncident, resolveOpenIncident, findSettings, insertDeliveries, siteNames });
}

export function createQoeDeliveryStore(db: Db) {
  return transactionalStore(db, { claimDue, markSent, markRetry, findSettings, insertOutboxMessage, deliveriesOf });
}
