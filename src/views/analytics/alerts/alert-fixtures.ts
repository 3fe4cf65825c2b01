/** Wire-shaped alerts and saved views for the view tests of ./ and ../saved (issue 41). */
import type { QoeAlertRule, QoeIncident, QoeSavedView } from '../../../../common/qoe';
import type { AlertsData } from '../../../../machines/qoe-alerts.machine';

export const RULE: QoeAlertRule = {
  id: 'rule-1', name: 'Sports rebuffering', metric: 'rebufferPct', comparison: 'above', threshold: 2, durationMinutes: 10,
  filters: [{ dimension: 'device', exclude: false, values: ['android', 'web'] }, { dimension: 'isp', exclude: true, values: ['Slow Net'] }],
  enabled: true, version: 3, createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z',
  breachingSince: null, lastValue: 1.2, lastEvaluatedAt: '2026-12-06T12:00:00.000Z',
};

export const OPEN: QoeIncident = {
  id: 'inc-1', ruleId: 'rule-1', ruleName: 'Sports rebuffering', metric: 'rebufferPct', comparison: 'above', threshold: 2,
  filters: RULE.filters, state: 'open', startedAt: '2026-12-06T11:40:00.000Z', resolvedAt: null, peakValue: 7.5, lastValue: 6.25,
  reportPath: '/analytics/qos-overall?f=device%3Aandroid%2Cweb&from=2026-12-06&to=2026-12-06',
};

export const RESOLVED: QoeIncident = {
  ...OPEN, id: 'inc-0', state: 'resolved', startedAt: '2026-12-05T08:00:00.000Z', resolvedAt: '2026-12-05T08:30:00.000Z', peakValue: 4,
};

export function alertsData(overrides: Partial<AlertsData> = {}): AlertsData {
  return {
    rules: [RULE], open: [OPEN], resolved: { items: [RESOLVED], total: 1, page: 1, pageSize: 20 },
    settings: { webhookUrl: 'https://hooks.example.com/cms', emails: ['ops@example.com'], version: 1, secretFingerprint: '1a2b3c4d' }, ...overrides,
  };
}

export const MY_VIEW: QoeSavedView = {
  id: 'view-1', name: 'Android on Slow Net', path: '/analytics/qos-overall', search: { days: '7', f: 'device:android;isp:Slow%20Net' },
  shared: false, ownerId: 'u1', ownerName: 'Ada Admin', mine: true, version: 1, createdAt: '2026-12-06T10:00:00.000Z', updatedAt: '2026-12-06T10:00:00.000Z',
};

export const SHARED_VIEW: QoeSavedView = {
  ...MY_VIEW, id: 'view-2', name: 'Live errors', path: '/analytics/qos-isp', search: { days: '30' }, shared: true, ownerId: 'u2', ownerName: 'Tess', mine: false,
};
