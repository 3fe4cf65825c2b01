/**
 * Issue 41 (qoe-alerts): an incident as the API and the notifications show it (its filtered report's
 * address included), and the deliveries an opened or resolved incident queues: one e-mail-like
 * outbox row per address of the site's alert settings and one signed webhook POST, worked by the
 * delivery loop (server/domain/qoe-alert-delivery.ts) so evaluation never waits on them.
 */
import { QOE_ALERT_NOTICE } from '../../common/messages/qoe-alert-refusals';
import { isOneOf } from '../../common/one-of';
import {
  formatQoeFilters, QOE_INCIDENT_RESOLUTIONS,
  type QoeIncident, type QoeIncidentResolution, type QoeWebhookPayload,
} from '../../common/qoe';
import { siteDayOf } from '../../common/site-day';
import { comparisonOf, metricOf, type QoeAlertSettingsRow, type QoeDeliveryValues, type QoeIncidentRow } from './qoe-alert-ports';

/** The QoS page an incident links to (common/qoe.ts QoeIncident.reportPath). */
export const QOE_INCIDENT_REPORT_PAGE = '/analytics/qos-overall';

const round = (value: number) => Math.round(value * 100) / 100;

export type QoeIncidentAnswer = QoeIncident & { resolvedReason: QoeIncidentResolution | null };

export function incidentAnswer(row: QoeIncidentRow, timeZone: string, now: Date = new Date()): QoeIncidentAnswer {
  const params = new URLSearchParams({ from: siteDayOf(row.startedAt, timeZone), to: siteDayOf(row.resolvedAt ?? now, timeZone) });
  const f = formatQoeFilters(row.filters);
  if (f) params.set('f', f);
  return {
    id: row.id, ruleId: row.ruleId ?? '', ruleName: row.ruleName, metric: metricOf(row.metric), comparison: comparisonOf(row.comparison),
    threshold: row.threshold, filters: row.filters, state: row.state === 'open' ? 'open' : 'resolved',
    startedAt: row.startedAt.toISOString(), resolvedAt: row.resolvedAt?.toISOString() ?? null,
    peakValue: round(row.peakValue), lastValue: round(row.lastValue), reportPath: `${QOE_INCIDENT_REPORT_PAGE}?${params.toString()}`,
    resolvedReason: isOneOf(QOE_INCIDENT_RESOLUTIONS, row.resolvedReason) ? row.resolvedReason : null,
  };
}

/** The deliveries of one event of one incident to the site's settings (none when nothing is set). */
export function deliveriesFor(
  row: QoeIncidentRow, event: 'opened' | 'resolved', settings: QoeAlertSettingsRow | undefined, site: { name: string; timeZone: string },
): QoeDeliveryValues[] {
  if (!settings) return [];
  const incident = incidentAnswer(row, site.timeZone);
  const out: QoeDeliveryValues[] = [];
  if (settings.webhookUrl) {
    const payload: QoeWebhookPayload = { event: event === 'opened' ? 'incident.opened' : 'incident.resolved', site: site.name, incident };
    out.push({ siteId: row.siteId, incidentId: row.id, channel: 'webhook', event, target: settings.webhookUrl, payload: { ...payload } });
  }
  const subject = event === 'opened' ? QOE_ALERT_NOTICE.openedSubject(row.ruleName) : QOE_ALERT_NOTICE.resolvedSubject(row.ruleName);
  const reason = incident.resolvedReason ? QOE_ALERT_NOTICE.reasons[incident.resolvedReason] : null;
  const body = QOE_ALERT_NOTICE.body({
    rule: row.ruleName, metric: row.metric, comparison: row.comparison, threshold: row.threshold, value: incident.lastValue, peak: incident.peakValue,
    link: incident.reportPath, reason,
  });
  for (const address of settings.emails) {
    out.push({ siteId: row.siteId, incidentId: row.id, channel: 'email', event, target: address, payload: { subject, body } });
  }
  return out;
}
