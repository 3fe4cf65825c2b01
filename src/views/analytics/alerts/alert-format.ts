/**
 * How the Alerts views write a metric, its value, a rule's terms and its filters, from the one list of
 * metrics (common/qoe.ts QOE_METRICS → common/figures.ts FIGURES for the label and definition).
 */
import { figureHelp, figureLabel } from '../../../../common/figures';
import {
  QOE_MESSAGES, QOE_METRICS, QOE_NOT_REPORTED, qoeDimensionLabel,
  type QoeAlertComparison, type QoeFilter, type QoeMetricKey, type QoeUnit,
} from '../../../../common/qoe';
import { QOE_ALERT_MESSAGES as M } from '../../../../common/messages/qoe-alerts';

const number = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function metricOf(key: QoeMetricKey) {
  return QOE_METRICS.find((m) => m.key === key);
}

export function metricLabel(key: QoeMetricKey): string {
  const metric = metricOf(key);
  return (metric && figureLabel(metric.figure)) ?? key;
}

export function metricDefinition(key: QoeMetricKey): string {
  const metric = metricOf(key);
  return (metric && figureHelp(metric.figure)) ?? '';
}

const UNIT_WORDS: Record<QoeUnit, string> = { count: '', ms: ' ms', percent: ' %', kbps: ' kbps', hours: ' h', 'per-hour': ' per hour' };

export function unitWord(key: QoeMetricKey): string {
  const unit = metricOf(key)?.unit;
  return unit ? UNIT_WORDS[unit].trim() : '';
}

export function formatMetricValue(key: QoeMetricKey, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '—';
  const unit = metricOf(key)?.unit;
  return `${number.format(value)}${unit ? UNIT_WORDS[unit] : ''}`;
}

export function comparisonWord(comparison: QoeAlertComparison): string {
  return comparison === 'above' ? M.above : M.below;
}

/** "Rebuffer ratio (%) above 2 % for 10 minutes". */
export function ruleTerms(rule: { metric: QoeMetricKey; comparison: QoeAlertComparison; threshold: number; durationMinutes?: number }): string {
  const terms = `${metricLabel(rule.metric)} ${comparisonWord(rule.comparison)} ${formatMetricValue(rule.metric, rule.threshold)}`;
  return rule.durationMinutes === undefined ? terms : `${terms} for ${M.minutes(rule.durationMinutes)}`;
}

/** "Device type is web, ios" / "ISP is not Slow Net". */
export function filterWords(filter: QoeFilter): string {
  const values = filter.values.map((v) => (v === '' ? QOE_NOT_REPORTED : v)).join(', ');
  return `${qoeDimensionLabel(filter.dimension)} ${filter.exclude ? QOE_MESSAGES.exclude : QOE_MESSAGES.include} ${values}`;
}

export function filtersWords(filters: readonly QoeFilter[]): string {
  return filters.length === 0 ? M.allSessions : filters.map(filterWords).join('; ');
}
