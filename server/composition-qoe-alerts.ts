/**
 * Issue 41 (qoe-alerts): the alerts part of the composition root (server/composition.ts): the rules'
 * API services (rules, incidents, settings, saved views), the evaluator over the QoE engine's
 * totals (server/db/qoe-repository.ts), the delivery of notifications, and the two loops the
 * server runs beside its requests (evaluation every QOE_ALERT_EVAL_MS, delivery every
 * QOE_ALERT_DELIVERY_MS; 0 turns a loop off, e.g. in tests that drive them with their own clock).
 * Any number of instances may run the loops on one PostgreSQL (server/domain/qoe-alert-evaluator.ts).
 */
import type { Db } from './db/client';
import { createQoeAlertStore, createQoeDeliveryStore, createQoeEvaluationStore } from './db/qoe-alert-repository';
import { qoeTotals } from './db/qoe-repository';
import { createQoeAlertDelivery, createQoeAlertEvaluator, type QoeAlertDelivery, type QoeAlertEvaluator } from './domain/qoe-alert-evaluator';
import { createQoeAlerts, type QoeAlerts } from './domain/qoe-alerts';
import { createQoeSavedViews, type QoeSavedViews } from './domain/qoe-saved-views';

export interface QoeAlertConfig {
  /** Evaluation period in ms (default 15 000; 0: no loop). */
  evalMs: number;
  /** Delivery period in ms (default 5 000; 0: no loop). */
  deliveryMs: number;
  /** Webhooks may reach private/loopback addresses: QOE_WEBHOOK_ALLOW_PRIVATE=1, or NODE_ENV=development. */
  allowPrivateWebhooks: boolean;
}

function period(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

export function loadQoeAlertConfig(env: NodeJS.ProcessEnv): QoeAlertConfig {
  return {
    evalMs: period(env.QOE_ALERT_EVAL_MS, 15_000),
    deliveryMs: period(env.QOE_ALERT_DELIVERY_MS, 5_000),
    allowPrivateWebhooks: env.QOE_WEBHOOK_ALLOW_PRIVATE === '1' || env.NODE_ENV === 'development',
  };
}

export interface QoeAlertServices {
  alerts: QoeAlerts;
  savedViews: QoeSavedViews;
  evaluator: QoeAlertEvaluator;
  delivery: QoeAlertDelivery;
  config: QoeAlertConfig;
  /** Starts the loops (composeServer). */
  start(): void;
  /** Stops them and waits for a run in progress. */
  stop(): Promise<void>;
}

interface Log { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void }

export function buildQoeAlertServices(input: { db: Db; analyticsAllowedSites: readonly string[]; config: QoeAlertConfig; log: Log }): QoeAlertServices {
  const { db, config, log } = input;
  const access = { analyticsAllowedSites: input.analyticsAllowedSites, allowPrivateWebhooks: config.allowPrivateWebhooks };
  const store = createQoeAlertStore(db);
  const evaluator = createQoeAlertEvaluator({ store: createQoeEvaluationStore(db), totals: (selection) => qoeTotals(db, selection), log });
  const delivery = createQoeAlertDelivery({ store: createQoeDeliveryStore(db), allowPrivate: config.allowPrivateWebhooks, log });
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<unknown>>();
  const busy = { evaluate: false, deliver: false };

  function every(ms: number, key: keyof typeof busy, work: () => Promise<unknown>): void {
    if (ms <= 0) return;
    const timer = setInterval(() => {
      if (busy[key]) return;
      busy[key] = true;
      const run = work()
        .catch((error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, `alert ${key} failed`))
        .finally(() => { busy[key] = false; running.delete(run); });
      running.add(run);
    }, ms);
    timer.unref();
    timers.push(timer);
  }

  return {
    alerts: createQoeAlerts({ store, config: access }),
    savedViews: createQoeSavedViews({ store, config: access }),
    evaluator,
    delivery,
    config,
    start() {
      every(config.evalMs, 'evaluate', () => evaluator.evaluate(new Date()));
      every(config.deliveryMs, 'deliver', () => delivery.deliver(new Date()));
    },
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
