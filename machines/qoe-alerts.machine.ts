/**
 * Dashboard 360 › Alerts (issue 41): open incidents first, resolved ones below (paged), the alert
 * rules, one rule's editor (write role), its History, and where alerts are sent (write role).
 * The rule editor asks before dropping changes, a save refused on version (409) offers to reload the
 * rule, a delete asks first and says what it does. The server decides every permission again; this
 * machine only offers what the role may do (`canEdit` from the page). I/O: src/adapters/qoe-alert-actors.ts.
 */
import { and, assign, setup, type DoneActorEvent, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import {
  QOE_ALERT_DURATIONS, QOE_ALERTABLE_METRICS, QOE_METRICS,
  type QoeAlertComparison, type QoeAlertRule, type QoeAlertRuleInput, type QoeAlertSettings, type QoeDimension,
  type QoeFilter, type QoeIncident, type QoeMetricKey,
} from '../common/qoe';
import { QOE_ALERT_MESSAGES as M } from '../common/messages/qoe-alerts';
import { isRevisionKind, type RevisionKind } from '../common/revisions';
import { isConflictError, pageHistoryMachine, type HistoryInput } from './history.machine';
import { machineTypes } from './machine-types';
import { errorStatusOf } from './error-code';
import { failureMessage } from './notify';
import { providedLater } from './unprovided';

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

/** The alert settings as read, with the version a save is checked against (0 before the first save). */
export type StoredAlertSettings = QoeAlertSettings & { version: number };

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
}

export interface QoeAlertsContext extends AlertsData {
  canEdit: boolean;
  openOnly: boolean;
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
  | { type: 'draft.addFilter' }
  | { type: 'draft.changeFilter'; index: number; patch: Partial<QoeFilter> }
  | { type: 'draft.removeFilter'; index: number }
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
  | { type: 'history.restored' }
  | { type: 'history.stale' };

export interface SaveRuleInput { id: string | null; version: number; rule: QoeAlertRuleInput }
export interface DeleteRuleInput { id: string; version: number }
export interface FetchIncidentsInput { page: number }

const FIRST_METRIC: QoeMetricKey = QOE_ALERTABLE_METRICS[0] ?? 'rebufferPct';
export const EMPTY_DRAFT: RuleDraft = {
  name: '', metric: FIRST_METRIC, comparison: 'above', threshold: '', durationMinutes: 10, filters: [], enabled: true,
};
const EMPTY_SETTINGS: SettingsDraft = { webhookUrl: '', emails: '' };

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

function settingsDraftOf(settings: QoeAlertSettings | null): SettingsDraft {
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

function sameDraft(a: RuleDraft, b: RuleDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function ruleName(context: QoeAlertsContext, id: string | null): string {
  return context.rules.find((r) => r.id === id)?.name ?? '';
}

type Args = { context: QoeAlertsContext; event: QoeAlertsEvent };
const idOf = ({ event }: Args) => ({ id: 'id' in event ? event.id : null });

export const qoeAlertsMachine = setup({
  types: machineTypes<{
    input: QoeAlertsInput; context: QoeAlertsContext; events: QoeAlertsEvent;
    children: {
      fetchAlerts: 'fetchAlerts'; fetchIncidents: 'fetchIncidents'; saveRule: 'saveRule'; toggleRule: 'saveRule';
      deleteRule: 'deleteRule'; fetchRule: 'fetchRule'; saveSettings: 'saveSettings'; ruleHistory: 'ruleHistory';
    };
  }>(),
  actors: {
    fetchAlerts: providedLater<AlertsData, QoeAlertsInput>('fetchAlerts'),
    fetchIncidents: providedLater<IncidentPage, FetchIncidentsInput>('fetchIncidents'),
    saveRule: providedLater<QoeAlertRule, SaveRuleInput>('saveRule'),
    deleteRule: providedLater<unknown, DeleteRuleInput>('deleteRule'),
    fetchRule: providedLater<QoeAlertRule, { id: string }>('fetchRule'),
    saveSettings: providedLater<StoredAlertSettings, StoredAlertSettings>('saveSettings'),
    ruleHistory: pageHistoryMachine,
  },
  actions: {
    storeData: assign((_, params: { data: AlertsData }) => ({
      rules: params.data.rules, open: params.data.open, resolved: params.data.resolved, settings: params.data.settings,
      settingsDraft: settingsDraftOf(params.data.settings),
    })),
    storeResolved: assign((_, params: { page: IncidentPage }) => ({ resolved: params.page })),
    openEditor: assign(({ context }, params: { id: string | null }) => {
      const rule = context.rules.find((r) => r.id === params.id);
      const draft = rule ? draftOf(rule) : EMPTY_DRAFT;
      return { editingId: rule ? rule.id : '', editingVersion: rule?.version ?? 0, draft, original: draft, fieldErrors: {}, error: null, notice: null };
    }),
    closeEditor: assign({ editingId: null, draft: EMPTY_DRAFT, original: EMPTY_DRAFT, fieldErrors: {} }),
    changeDraft: assign(({ context, event }) => (event.type === 'draft.change'
      ? { draft: { ...context.draft, ...event.patch }, fieldErrors: {} } : {})),
    addFilter: assign(({ context }) => {
      const used = new Set(context.draft.filters.map((f) => f.dimension));
      const dimension: QoeDimension = (['device', 'country', 'isp', 'cdn', 'os', 'browser', 'player', 'title'] as const).find((d) => !used.has(d)) ?? 'device';
      return { draft: { ...context.draft, filters: [...context.draft.filters, { dimension, exclude: false, values: [] }] } };
    }),
    changeFilter: assign(({ context, event }) => (event.type === 'draft.changeFilter'
      ? { draft: { ...context.draft, filters: context.draft.filters.map((f, i) => (i === event.index ? { ...f, ...event.patch } : f)) }, fieldErrors: {} } : {})),
    removeFilter: assign(({ context, event }) => (event.type === 'draft.removeFilter'
      ? { draft: { ...context.draft, filters: context.draft.filters.filter((_, i) => i !== event.index) } } : {})),
    showDraftErrors: assign(({ context }) => ({ fieldErrors: ruleDraftErrors(context.draft) })),
    storeSavedRule: assign(({ context }, params: { rule: QoeAlertRule }) => {
      const known = context.rules.some((r) => r.id === params.rule.id);
      return {
        rules: known ? context.rules.map((r) => (r.id === params.rule.id ? params.rule : r)) : [...context.rules, params.rule],
        notice: known ? M.updated(params.rule.name) : M.created(params.rule.name), error: null,
      };
    }),
    storeToggledRule: assign(({ context }, params: { rule: QoeAlertRule }) => ({
      rules: context.rules.map((r) => (r.id === params.rule.id ? params.rule : r)),
      notice: params.rule.enabled ? M.turnedOn(params.rule.name) : M.turnedOff(params.rule.name), error: null, targetId: null,
    })),
    reloadDraft: assign(({ context }, params: { rule: QoeAlertRule }) => ({
      rules: context.rules.map((r) => (r.id === params.rule.id ? params.rule : r)),
      draft: draftOf(params.rule), original: draftOf(params.rule), editingVersion: params.rule.version, error: null, fieldErrors: {},
    })),
    dropRule: assign(({ context }) => ({
      notice: M.deleted(ruleName(context, context.targetId)), error: null,
      historyOf: context.historyOf === context.targetId ? null : context.historyOf,
    })),
    setTarget: assign((_, params: { id: string | null }) => ({ targetId: params.id, notice: null, error: null })),
    setHistoryOf: assign((_, params: { id: string | null }) => ({ historyOf: params.id })),
    changeSettings: assign(({ context, event }) => (event.type === 'settings.change'
      ? { settingsDraft: { ...context.settingsDraft, ...event.patch }, fieldErrors: {} } : {})),
    showSettingsErrors: assign(({ context }) => ({ fieldErrors: settingsErrors(context.settingsDraft) })),
    storeSettings: assign((_, params: { settings: StoredAlertSettings }) => ({
      settings: params.settings, settingsDraft: settingsDraftOf(params.settings), notice: M.settingsSaved, error: null,
    })),
    setError: assign((_, params: { message: string }) => ({ error: params.message, notice: null })),
    clearMessages: assign({ error: null, notice: null }),
  },
  guards: {
    canEdit: ({ context }) => context.canEdit,
    isKnownRule: ({ context }, params: { id: string | null }) => context.canEdit && context.rules.some((r) => r.id === params.id),
    /** A rule of the list, once rules have a History (the revisions vocabulary names their kind). */
    isRule: ({ context }, params: { id: string | null }) => ruleRevisionKind() !== null && context.rules.some((r) => r.id === params.id),
    draftIsValid: ({ context }) => Object.keys(ruleDraftErrors(context.draft)).length === 0,
    hasUnsavedChanges: ({ context }) => !sameDraft(context.draft, context.original),
    isConflict: (_, params: { error: unknown }) => isConflictError(params.error),
    isGone: (_, params: { error: unknown }) => errorStatusOf(params.error) === 404,
    settingsAreValid: ({ context }) => Object.keys(settingsErrors(context.settingsDraft)).length === 0,
  },
}).createMachine({
  id: 'qoeAlerts',
  description: 'Dashboard 360 › Alerts: incidents (open, then resolved by page), the alert rules with their editor and History, and where alerts are sent.',
  context: ({ input }) => ({
    canEdit: input.canEdit && input.openOnly !== true, openOnly: input.openOnly === true, rules: [], open: [], resolved: { items: [], total: 0, page: 1, pageSize: 20 }, settings: null,
    editingId: null, editingVersion: 0, draft: EMPTY_DRAFT, original: EMPTY_DRAFT, targetId: null, historyOf: null,
    settingsDraft: EMPTY_SETTINGS, fieldErrors: {}, error: null, notice: null,
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
      },
      states: {
        main: {
          description: 'What the person is doing with the rules and incidents.',
          initial: 'idle',
          states: {
            idle: {
              description: 'Nothing is being edited: a rule may be created (write role), edited, turned on or off, deleted, or its History shown; resolved incidents paged.',
              on: {
                'rules.new': { guard: 'canEdit', target: 'editing', actions: { type: 'openEditor', params: { id: null } } },
                'rules.edit': { guard: { type: 'isKnownRule', params: idOf }, target: 'editing', actions: { type: 'openEditor', params: idOf } },
                'rules.toggle': { guard: { type: 'isKnownRule', params: idOf }, target: 'toggling', actions: { type: 'setTarget', params: idOf } },
                'rules.delete': { guard: { type: 'isKnownRule', params: idOf }, target: 'confirmingDelete', actions: { type: 'setTarget', params: idOf } },
                'incidents.page': { target: 'paging' },
                'settings.change': { guard: 'canEdit', actions: 'changeSettings' },
                'settings.save': [
                  { guard: and(['canEdit', 'settingsAreValid']), target: 'sendingSettings' },
                  { guard: 'canEdit', actions: 'showSettingsErrors' },
                ],
              },
            },
            paging: {
              description: 'Another page of resolved incidents is being read.',
              tags: ['busy'],
              invoke: {
                id: 'fetchIncidents', src: 'fetchIncidents',
                input: ({ event }) => ({ page: event.type === 'incidents.page' ? Math.max(1, event.page) : 1 }),
                onDone: { target: 'idle', actions: { type: 'storeResolved', params: ({ event }: { event: DoneActorEvent<IncidentPage> }) => ({ page: event.output }) } },
                onError: { target: 'idle', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.incidentsFailed) }) } },
              },
            },
            editing: {
              description: 'The rule editor is open (a new rule or one of the list) with the person\'s draft.',
              tags: ['editor'],
              on: {
                'draft.change': { actions: 'changeDraft' },
                'draft.addFilter': { actions: 'addFilter' },
                'draft.changeFilter': { actions: 'changeFilter' },
                'draft.removeFilter': { actions: 'removeFilter' },
                'editor.save': [
                  { guard: 'draftIsValid', target: 'saving' },
                  { actions: 'showDraftErrors' },
                ],
                'editor.cancel': [
                  { guard: 'hasUnsavedChanges', target: 'confirmingDiscard' },
                  { target: 'idle', actions: 'closeEditor' },
                ],
              },
            },
            confirmingDiscard: {
              description: 'Closing the editor would drop unsaved changes: the person confirms or keeps editing.',
              tags: ['editor'],
              on: {
                'discard.confirm': { target: 'idle', actions: 'closeEditor' },
                'discard.cancel': { target: 'editing' },
              },
            },
            saving: {
              description: 'The rule is being created or saved with the version the editor read.',
              tags: ['editor', 'busy'],
              invoke: {
                id: 'saveRule', src: 'saveRule',
                input: ({ context }) => ({ id: context.editingId === '' ? null : context.editingId, version: context.editingVersion, rule: inputOf(context.draft) }),
                onDone: { target: 'idle', actions: [{ type: 'storeSavedRule', params: ({ event }: { event: DoneActorEvent<QoeAlertRule> }) => ({ rule: event.output }) }, 'closeEditor'] },
                onError: [
                  { guard: { type: 'isConflict', params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }) }, target: 'conflict' },
                  { guard: { type: 'isGone', params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }) }, target: 'editing', actions: { type: 'setError', params: { message: M.gone } } },
                  { target: 'editing', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.saveFailed) }) } },
                ],
              },
            },
            conflict: {
              description: 'The save was refused because someone changed the rule since it was read: reload it (dropping the draft) or keep the draft on screen.',
              tags: ['editor'],
              on: {
                'conflict.reload': { target: 'reloading' },
                'conflict.keep': { target: 'editing' },
              },
            },
            reloading: {
              description: 'The rule is read again; the editor then shows it as it is now, at its new version.',
              tags: ['editor', 'busy'],
              invoke: {
                id: 'fetchRule', src: 'fetchRule',
                input: ({ context }) => ({ id: context.editingId ?? '' }),
                onDone: { target: 'editing', actions: { type: 'reloadDraft', params: ({ event }: { event: DoneActorEvent<QoeAlertRule> }) => ({ rule: event.output }) } },
                onError: { target: 'editing', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.loadFailed) }) } },
              },
            },
            toggling: {
              description: 'The rule is being turned on or off.',
              tags: ['busy'],
              invoke: {
                id: 'toggleRule', src: 'saveRule',
                input: ({ context }) => {
                  const rule = context.rules.find((r) => r.id === context.targetId);
                  const draft = rule ? draftOf(rule) : EMPTY_DRAFT;
                  return { id: context.targetId, version: rule?.version ?? 0, rule: inputOf({ ...draft, enabled: !draft.enabled }) };
                },
                onDone: { target: 'idle', actions: { type: 'storeToggledRule', params: ({ event }: { event: DoneActorEvent<QoeAlertRule> }) => ({ rule: event.output }) } },
                onError: {
                  target: '#qoeAlerts.loading',
                  actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.saveFailed) }) },
                },
              },
            },
            confirmingDelete: {
              description: 'The person is asked whether to delete the rule (the question says what it does).',
              on: {
                'delete.confirm': { target: 'deleting' },
                'delete.cancel': { target: 'idle', actions: { type: 'setTarget', params: { id: null } } },
              },
            },
            deleting: {
              description: 'The rule is being deleted; the list and incidents are read again after it.',
              tags: ['busy'],
              invoke: {
                id: 'deleteRule', src: 'deleteRule',
                input: ({ context }) => ({ id: context.targetId ?? '', version: context.rules.find((r) => r.id === context.targetId)?.version ?? 0 }),
                onDone: { target: '#qoeAlerts.loading', actions: 'dropRule' },
                onError: {
                  target: '#qoeAlerts.loading',
                  actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.deleteFailed) }) },
                },
              },
            },
            sendingSettings: {
              description: 'The webhook address and e-mail addresses are being stored.',
              tags: ['busy'],
              invoke: {
                id: 'saveSettings', src: 'saveSettings',
                input: ({ context }) => ({ ...settingsOf(context.settingsDraft), version: context.settings?.version ?? 0 }),
                onDone: { target: 'idle', actions: { type: 'storeSettings', params: ({ event }: { event: DoneActorEvent<StoredAlertSettings> }) => ({ settings: event.output }) } },
                onError: { target: 'idle', actions: { type: 'setError', params: ({ event }: { event: ErrorActorEvent }) => ({ message: failureMessage(event.error, M.settingsFailed) }) } },
              },
            },
          },
        },
        history: {
          description: 'One rule\'s History beside the list, or none.',
          initial: 'hidden',
          states: {
            hidden: {
              description: 'No rule\'s History is shown.',
              on: { 'rules.history': { guard: { type: 'isRule', params: idOf }, target: 'shown', actions: { type: 'setHistoryOf', params: idOf } } },
            },
            shown: {
              description: 'One rule\'s History is shown; another rule shows its own afresh.',
              invoke: {
                id: 'ruleHistory', src: 'ruleHistory',
                input: ({ context }): HistoryInput => ({ kind: ruleRevisionKind() ?? 'content', objectId: context.historyOf ?? '' }),
              },
              on: {
                'rules.history': { guard: { type: 'isRule', params: idOf }, target: 'shown', reenter: true, actions: { type: 'setHistoryOf', params: idOf } },
                'rules.closeHistory': { target: 'hidden', actions: { type: 'setHistoryOf', params: { id: null } } },
                'history.restored': { target: '#qoeAlerts.loading' },
                'history.stale': { target: '#qoeAlerts.loading' },
              },
            },
          },
        },
      },
    },
  },
});

/** The rule's revision kind once the revisions vocabulary names it (the server adds it there); null before. */
export function ruleRevisionKind(): RevisionKind | null {
  const kind: unknown = QOE_ALERT_RULE_KIND;
  return isRevisionKind(kind) ? kind : null;
}

export type QoeAlertsMachine = typeof qoeAlertsMachine;
export type QoeAlertsSnapshot = SnapshotFrom<QoeAlertsMachine>;
export type QoeAlertsActorRef = import('xstate').ActorRefFrom<QoeAlertsMachine>;

export type QoeAlertsPhase = 'loading' | 'failed' | 'idle' | 'paging' | 'editing' | 'confirmingDiscard' | 'saving' | 'conflict' | 'reloading'
  | 'toggling' | 'confirmingDelete' | 'deleting' | 'sendingSettings';

export function selectAlertsPhase(s: QoeAlertsSnapshot): QoeAlertsPhase {
  if (s.matches('loading')) return 'loading';
  if (s.matches('failed')) return 'failed';
  const main = ['paging', 'editing', 'confirmingDiscard', 'saving', 'conflict', 'reloading', 'toggling', 'confirmingDelete', 'deleting', 'sendingSettings'] as const;
  return main.find((p) => s.matches({ ready: { main: p } })) ?? 'idle';
}
export const selectAlertsContext = (s: QoeAlertsSnapshot) => s.context;
export const selectEditorOpen = (s: QoeAlertsSnapshot) => s.hasTag('editor');
export const selectAlertsBusy = (s: QoeAlertsSnapshot) => s.hasTag('busy');
export const selectRuleHistory = (s: QoeAlertsSnapshot) => s.children.ruleHistory;
export const selectHasUnsavedRule = (s: QoeAlertsSnapshot) => s.hasTag('editor') && !sameDraft(s.context.draft, s.context.original);

/** Metric words: the FIGURES entry a metric names (label and definition), for lists and the editor. */
export { QOE_ALERT_DURATIONS, QOE_ALERTABLE_METRICS };
