/**
 * Issue 41 (qoe-alerts): evaluation of every enabled alert rule, and the delivery of the
 * notifications it queues.
 *
 * A rule is judged over the sessions seen in its window — the last durationMinutes, at most
 * QOE_ALERT_WINDOW_MINUTES (their last event in the window: server/db/qoe-repository.ts qoeTotals
 * with select 'active') — under its filters. With fewer than QOE_ALERT_MIN_SESSIONS sessions, or no
 * value, it is not past its threshold. Past it, `breaching_since` is set (kept while it stays past);
 * once it has been past for durationMinutes an incident opens (one per rule: the partial unique index
 * makes a second instance's insert do nothing, so two servers on one PostgreSQL open it once and
 * notify once); while open its latest and worst (peak) values follow; when the metric over the
 * window is back (or the sessions are too few to judge) the incident resolves by itself
 * ('recovered'). Turning a rule off, changing its terms or deleting it resolves its incident at once
 * (server/domain/qoe-alerts.ts).
 *
 * Why the window is the rule's duration (issue 41, alerts-polish): it used to be a fixed 5 minutes, so
 * a session that had stopped sending still counted for 5 minutes after its last event and an
 * incident of a 1-minute rule resolved ~5 minutes after the bad events stopped. Now an incident
 * resolves once the sessions of the rule's last durationMinutes (at most 5) are within the threshold:
 * the bad sessions leave the window durationMinutes after their last event (plus at most one
 * evaluation period). A player that keeps playing stays in the window with each heartbeat.
 *
 * The server runs `evaluate` every QOE_ALERT_EVAL_MS (15 s) and `deliver` every
 * QOE_ALERT_DELIVERY_MS (5 s): an alert opens within duration + 15 s of the events that cross its
 * threshold being folded into the sessions. Notifications are rows written beside the incident;
 * sending them never blocks evaluation.
 */
import { QOE_ALERT_MIN_SESSIONS, QOE_ALERT_WINDOW_MINUTES } from '../../common/qoe';
import { deliveriesFor } from './qoe-alert-notify';
import { metricOf, type QoeAlertRuleRow, type QoeDeliveryStore, type QoeEvaluationStore, type QoeTotals } from './qoe-alert-ports';
import { postWebhook } from './qoe-alert-webhook';

interface Log { warn(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void }

export interface QoeRuleOutcome {
  ruleId: string;
  value: number | null;
  sessions: number;
  breaching: boolean;
  opened: boolean;
  resolved: boolean;
}

/** Whether a value is past a rule's threshold. */
export function pastThreshold(rule: Pick<QoeAlertRuleRow, 'comparison' | 'threshold'>, value: number): boolean {
  return rule.comparison === 'below' ? value < rule.threshold : value > rule.threshold;
}

/** The minutes a rule is judged over: its duration, at most QOE_ALERT_WINDOW_MINUTES. */
export function qoeAlertWindowMinutes(rule: Pick<QoeAlertRuleRow, 'durationMinutes'>): number {
  return Math.max(1, Math.min(rule.durationMinutes, QOE_ALERT_WINDOW_MINUTES));
}

export function createQoeAlertEvaluator(deps: { store: QoeEvaluationStore; totals: QoeTotals; log: Log }) {
  const { store, totals, log } = deps;

  async function notify(row: Parameters<typeof deliveriesFor>[0], event: 'opened' | 'resolved'): Promise<void> {
    const site = await store.siteNames(row.siteId);
    if (site) await store.insertDeliveries(deliveriesFor(row, event, await store.findSettings(row.siteId), site));
  }

  async function evaluateRule(rule: QoeAlertRuleRow, now: Date): Promise<QoeRuleOutcome> {
    const since = new Date(now.getTime() - qoeAlertWindowMinutes(rule) * 60_000);
    // The window's end is just after `now` (the selection's end is exclusive).
    const figures = await totals({ siteId: rule.siteId, filters: rule.filters, since, until: new Date(now.getTime() + 1), select: 'active' });
    const sessions = figures.sessions ?? 0;
    const raw = figures[metricOf(rule.metric)];
    const value = raw === null || raw === undefined || !Number.isFinite(raw) ? null : raw;
    const breaching = value !== null && sessions >= QOE_ALERT_MIN_SESSIONS && pastThreshold(rule, value);
    const outcome: QoeRuleOutcome = { ruleId: rule.id, value, sessions, breaching, opened: false, resolved: false };
    if (breaching) {
      const since = rule.breachingSince ?? now;
      await store.setRuleState(rule.id, { breachingSince: since, lastValue: value, lastEvaluatedAt: now });
      if (now.getTime() - since.getTime() >= rule.durationMinutes * 60_000) {
        const opened = await store.openIncident(rule, since, value);
        if (opened) {
          outcome.opened = true;
          await notify(opened, 'opened');
        } else {
          await store.touchIncident(rule.id, value, rule.comparison !== 'below');
        }
      }
    } else {
      await store.setRuleState(rule.id, { breachingSince: null, lastValue: value, lastEvaluatedAt: now });
      const resolved = await store.resolveOpenIncident(rule.id, now, 'recovered');
      if (resolved) {
        outcome.resolved = true;
        await notify({ ...resolved, lastValue: value ?? resolved.lastValue }, 'resolved');
      }
    }
    return outcome;
  }

  return {
    evaluateRule,
    /** Every enabled rule once; a rule that fails is logged and the others still run. */
    async evaluate(now: Date = new Date()): Promise<QoeRuleOutcome[]> {
      const outcomes: QoeRuleOutcome[] = [];
      for (const rule of await store.enabledRules()) {
        try {
          outcomes.push(await evaluateRule(rule, now));
        } catch (error) {
          log.warn({ ruleId: rule.id, err: error instanceof Error ? error.message : String(error) }, 'alert rule evaluation failed');
        }
      }
      return outcomes;
    },
  };
}

export type QoeAlertEvaluator = ReturnType<typeof createQoeAlertEvaluator>;

/** Waits between attempts of a delivery (then it is marked failed, its last error kept). */
export const QOE_DELIVERY_BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000] as const;

export function createQoeAlertDelivery(deps: { store: QoeDeliveryStore; allowPrivate: boolean; timeoutMs?: number; log: Log }) {
  const { store, log } = deps;
  return {
    /** Sends what is due (at most `limit`); answers how many were sent. */
    async deliver(now: Date = new Date(), limit = 20): Promise<{ sent: number; failed: number }> {
      const due = await store.claimDue(now, limit, 60_000);
      let sent = 0;
      let failed = 0;
      for (const row of due) {
        try {
          if (row.channel === 'email') {
            const subject = typeof row.payload.subject === 'string' ? row.payload.subject : '';
            const body = typeof row.payload.body === 'string' ? row.payload.body : '';
            await store.insertOutboxMessage(row.target, `${subject}\n\n${body}`);
          } else {
            const settings = await store.findSettings(row.siteId);
            if (!settings) throw new Error('the site has no alert settings any more');
            const status = await postWebhook(row.target, JSON.stringify(row.payload), settings.webhookSecret, {
              allowPrivate: deps.allowPrivate, timeoutMs: deps.timeoutMs ?? 10_000, now,
            });
            if (status < 200 || status >= 300) throw new Error(`the webhook answered ${status}`);
          }
          await store.markSent(row.id, new Date());
          sent += 1;
        } catch (error) {
          failed += 1;
          const message = error instanceof Error ? error.message : String(error);
          const wait = QOE_DELIVERY_BACKOFF_MS[row.attempts - 1];
          await store.markRetry(row.id, message, wait === undefined ? null : new Date(now.getTime() + wait));
          log.warn({ deliveryId: row.id, channel: row.channel, attempt: row.attempts, err: message }, 'alert delivery failed');
        }
      }
      return { sent, failed };
    },
  };
}

export type QoeAlertDelivery = ReturnType<typeof createQoeAlertDelivery>;
