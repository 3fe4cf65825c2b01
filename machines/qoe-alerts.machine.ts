/**
 * Dashboard 360 › Alerts (issue 41): open incidents first, resolved ones below (paged), the alert
 * rules, one rule's editor (write role), its History, and where alerts are sent (write role).
 * The rule editor asks before dropping changes, a save refused on version (409) offers to reload the
 * rule, a delete asks first and says what it does. The server decides every permission again; this
 * machine only offers what the role may do (`canEdit` from the page). I/O: src/adapters/qoe-alert-actors.ts.
 * The machine is assembled here from ./qoe-alerts.setup.ts (types, actors, actions, guards; the data types and
 * rules in ./qoe-alerts.types.ts) and its big states (./qoe-alerts.state.main.ts, ./qoe-alerts.state.history.ts).
 */
import type { DoneActorEvent, ErrorActorEvent, SnapshotFrom } from 'xstate';
import { QOE_ALERT_DURATIONS, QOE_ALERTABLE_METRICS } from '../common/qoe';
import { isoDay } from '../common/report-dates';
import { QOE_ALERT_MESSAGES as M } from '../common/messages/qoe-alerts';
import { failureMessage } from './notify';
import { qoeAlertsSetup } from './qoe-alerts.setup';
import { mainState } from './qoe-alerts.state.main';
import { historyState } from './qoe-alerts.state.history';
import { EMPTY_DRAFT, EMPTY_SETTINGS, sameDraft, type AlertsData } from './qoe-alerts.types';

export {
  draftOf, EMPTY_DRAFT, inputOf, QOE_ALERT_RULE_KIND, ruleDraftErrors, ruleFiltersQuery, ruleRevisionKind, settingsErrors, settingsOf,
  type AlertsData, type DeleteRuleInput, type FetchIncidentsInput, type IncidentPage, type QoeAlertsContext, type QoeAlertsEvent,
  type QoeAlertsInput, type RotateSecretInput, type RuleDraft, type SavedAlertSettings, type SaveRuleInput, type SaveSettingsInput, type SettingsDraft, type StoredAlertSettings,
} from './qoe-alerts.types';

export const qoeAlertsMachine = qoeAlertsSetup.createMachine({
  id: 'qoeAlerts',
  description: 'Dashboard 360 › Alerts: incidents (open, then resolved by page), the alert rules with their editor and History, and where alerts are sent.',
  context: ({ input }) => ({
    canEdit: input.canEdit && input.openOnly !== true, openOnly: input.openOnly === true, today: input.today ?? isoDay(new Date()), rules: [], open: [], resolved: { items: [], total: 0, page: 1, pageSize: 20 }, settings: null,
    editingId: null, editingVersion: 0, draft: EMPTY_DRAFT, original: EMPTY_DRAFT, targetId: null, historyOf: null,
    settingsDraft: EMPTY_SETTINGS, newSecret: null, fieldErrors: {}, error: null, notice: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The rules, the open incidents, the first page of resolved ones and (write role) the alert settings are being read.',
      tags: ['busy'],
      invoke: {
        id: 'fetchAlerts', src: 'fetchAlerts',
        input: ({ context }) => ({ canEdit: context.canEdit, openOnly: context.openOnly }),
        onDone: { target: 'ready', actions: { type: 'storeData', params: ({ event }: { event: DoneActorEvent<AlertsData> }) => ({ data: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.loadFailed) }) } },
      },
    },
    failed: {
      description: 'The alerts could not be read; the person may try again.',
      on: { 'alerts.retry': { target: 'loading', actions: 'clearMessages' } },
    },
    ready: {
      description: 'Incidents and rules are shown; the editor, a question, or a rule\'s History may be open beside them.',
      type: 'parallel',
      on: {
        'alerts.refresh': { target: 'loading' },
        'secret.dismiss': { actions: 'dismissSecret' },
      },
      states: {
        main: mainState,
        history: historyState,
      },
    },
  },
});

export type QoeAlertsMachine = typeof qoeAlertsMachine;
export type QoeAlertsSnapshot = SnapshotFrom<QoeAlertsMachine>;
export type QoeAlertsActorRef = import('xstate').ActorRefFrom<QoeAlertsMachine>;

export type QoeAlertsPhase = 'loading' | 'failed' | 'idle' | 'paging' | 'editing' | 'confirmingDiscard' | 'saving' | 'conflict' | 'reloading'
  | 'toggling' | 'confirmingDelete' | 'deleting' | 'sendingSettings' | 'confirmingRotate' | 'rotatingSecret';

export function selectAlertsPhase(s: QoeAlertsSnapshot): QoeAlertsPhase {
  if (s.matches('loading')) return 'loading';
  if (s.matches('failed')) return 'failed';
  const main = [
    'paging', 'editing', 'confirmingDiscard', 'saving', 'conflict', 'reloading', 'toggling', 'confirmingDelete', 'deleting', 'sendingSettings',
    'confirmingRotate', 'rotatingSecret',
  ] as const;
  return main.find((p) => s.matches({ ready: { main: p } })) ?? 'idle';
}
export const selectAlertsContext = (s: QoeAlertsSnapshot) => s.context;
export const selectEditorOpen = (s: QoeAlertsSnapshot) => s.hasTag('editor');
export const selectAlertsBusy = (s: QoeAlertsSnapshot) => s.hasTag('busy');
export const selectRuleHistory = (s: QoeAlertsSnapshot) => s.children.ruleHistory;
/** The editor's chips and picker (machines/qoe-filters.machine.ts), while the editor is open. */
export const selectRuleFilters = (s: QoeAlertsSnapshot) => s.children.ruleFilters;
export const selectNewSecret = (s: QoeAlertsSnapshot) => s.context.newSecret;
export const selectHasUnsavedRule = (s: QoeAlertsSnapshot) => s.hasTag('editor') && !sameDraft(s.context.draft, s.context.original);

/** Metric words: the FIGURES entry a metric names (label and definition), for lists and the editor. */
export { QOE_ALERT_DURATIONS, QOE_ALERTABLE_METRICS };
