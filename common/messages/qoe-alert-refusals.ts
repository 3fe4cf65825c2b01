/**
 * What the alerts and saved views APIs answer when they refuse (issue 41, server/domain/qoe-alerts.ts,
 * server/domain/qoe-saved-views.ts): a 400 names the field in words, a 404 the object, a 409 the
 * conflict. The console's own words for the same pages are common/messages/qoe-alerts.ts.
 */
import { QOE_ALERT_DURATIONS, QOE_ALERT_EMAILS_MAX, QOE_ALERT_NAME_MAX, QOE_ALERTABLE_METRICS } from '../qoe';

export const QOE_ALERT_REFUSALS = {
  nameRequired: 'Give the rule a name.',
  nameTooLong: `A rule name has at most ${QOE_ALERT_NAME_MAX} characters.`,
  nameTaken: (name: string) => `A rule named “${name}” already exists on this site: pick another name.`,
  unknownMetric: (metric: string) => `“${metric}” is not a metric an alert can watch; the metrics are ${QOE_ALERTABLE_METRICS.join(', ')}.`,
  badComparison: 'Say whether the rule opens when the metric is above or below its threshold.',
  thresholdNotNumber: 'Give the threshold as a number.',
  thresholdRange: 'A percentage threshold is between 0 and 100.',
  thresholdNegative: 'The threshold cannot be negative.',
  badDuration: `The duration is one of ${QOE_ALERT_DURATIONS.join(', ')} minutes.`,
  badFilters: (message: string) => `Filters: ${message}`,
  badEnabled: 'Say whether the rule is on (true) or off (false).',
  versionRequired: 'Give the version of the rule as you read it.',
  ruleNotFound: 'This alert rule does not exist: someone may have deleted it.',
  ruleConflict: 'Someone changed this rule since you opened it: reload it to see their version.',
  badState: 'state must be open, resolved or all.',
  badPage: 'page must be a whole number of 1 or more.',
  // Settings
  webhookInvalid: 'The webhook address must be a full http:// or https:// address.',
  webhookPrivate: 'The webhook address must be reachable on the internet: a private, local or loopback address is refused.',
  emailInvalid: (address: string) => `“${address}” is not an e-mail address.`,
  tooManyEmails: `At most ${QOE_ALERT_EMAILS_MAX} e-mail addresses.`,
  settingsConflict: 'Someone changed where alerts are sent since you opened it: reload to see their version.',
  secretNoSettings: 'Save where alerts are sent first: the signing secret is made with the first save.',
  settingsVersionRequired: 'Give the version of the alert settings as you read them.',
  // Saved views
  viewNameRequired: 'Give the view a name.',
  viewNameTooLong: `A view name has at most ${QOE_ALERT_NAME_MAX} characters.`,
  viewNameTaken: (name: string) => `You already have a view named “${name}”: pick another name.`,
  viewPathInvalid: 'A saved view opens a Dashboard 360 page: its path starts with /analytics.',
  viewSearchInvalid: 'A saved view keeps the page’s search parameters as names and text values (at most 30, 2,000 characters each).',
  viewShareNeedsWrite: 'Only Dashboard 360 editors can share a view with the site; save it as private.',
  viewNotFound: 'This saved view does not exist, or it is not shared with you.',
  viewNotOwner: 'Only the person who saved this view can change or delete it.',
  viewConflict: 'Someone changed this view meanwhile: reload the list and try again.',
} as const;

/** How an incident reads in a notification (e-mail subject and text). */
export const QOE_ALERT_NOTICE = {
  openedSubject: (rule: string) => `Incident opened: ${rule}`,
  resolvedSubject: (rule: string) => `Incident resolved: ${rule}`,
  body: (input: { rule: string; metric: string; comparison: string; threshold: number; value: number; peak: number; link: string; reason: string | null }) => [
    `Rule: ${input.rule} (${input.metric} ${input.comparison} ${input.threshold})`,
    `Latest value: ${input.value}; worst value: ${input.peak}`,
    input.reason ? `Closed because: ${input.reason}` : '',
    `Report: ${input.link}`,
  ].filter(Boolean).join('\n'),
  reasons: {
    recovered: 'the metric is back within its threshold (or too few sessions are left to judge it)',
    disabled: 'the rule was turned off',
    changed: 'the rule was changed',
    deleted: 'the rule was deleted',
  },
} as const;
