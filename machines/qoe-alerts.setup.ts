/**
 * Dashboard 360 › Alerts' setup (machines/qoe-alerts.machine.ts assembles it with its states): the
 * machine's types, its I/O actors (provided by src/adapters/qoe-alert-actors.ts), its actions and guards by name.
 */
import { assign, enqueueActions, setup, stopChild } from 'xstate';
import type { QoeAlertRule } from '../common/qoe';
import { QOE_ALERT_MESSAGES as M } from '../common/messages/qoe-alerts';
import { isConflictError, pageHistoryMachine } from './history.machine';
import { machineTypes } from './machine-types';
import { errorStatusOf } from './error-code';
import { providedLater } from './unprovided';
import { qoeFiltersMachine } from './qoe-filters.machine';
import {
  draftOf, EMPTY_DRAFT, ruleDraftErrors, ruleFiltersQuery, ruleName, ruleRevisionKind, sameDraft, settingsDraftOf, settingsErrors,
  type AlertsData, type DeleteRuleInput, type FetchIncidentsInput, type IncidentPage, type QoeAlertsContext,
  type QoeAlertsEvent, type QoeAlertsInput, type RotateSecretInput, type SavedAlertSettings, type SaveRuleInput, type SaveSettingsInput, type StoredAlertSettings,
} from './qoe-alerts.types';

type Args = { context: QoeAlertsContext; event: QoeAlertsEvent };
/** The settings as kept (the secret itself never is, beyond `newSecret`). */
const storedOf = (s: SavedAlertSettings): StoredAlertSettings => ({ webhookUrl: s.webhookUrl, emails: s.emails, version: s.version, secretFingerprint: s.secretFingerprint });
export const idOf = ({ event }: Args) => ({ id: 'id' in event ? event.id : null });

export const qoeAlertsSetup = setup({
  types: machineTypes<{
    input: QoeAlertsInput; context: QoeAlertsContext; events: QoeAlertsEvent;
    children: {
      fetchAlerts: 'fetchAlerts'; fetchIncidents: 'fetchIncidents'; saveRule: 'saveRule'; toggleRule: 'saveRule';
      deleteRule: 'deleteRule'; fetchRule: 'fetchRule'; saveSettings: 'saveSettings'; rotateSecret: 'rotateSecret'; ruleHistory: 'ruleHistory';
      ruleFilters: 'ruleFilters';
    };
  }>(),
  actors: {
    fetchAlerts: providedLater<AlertsData, QoeAlertsInput>('fetchAlerts'),
    fetchIncidents: providedLater<IncidentPage, FetchIncidentsInput>('fetchIncidents'),
    saveRule: providedLater<QoeAlertRule, SaveRuleInput>('saveRule'),
    deleteRule: providedLater<unknown, DeleteRuleInput>('deleteRule'),
    fetchRule: providedLater<QoeAlertRule, { id: string }>('fetchRule'),
    saveSettings: providedLater<SavedAlertSettings, SaveSettingsInput>('saveSettings'),
    rotateSecret: providedLater<SavedAlertSettings, RotateSecretInput>('rotateSecret'),
    ruleHistory: pageHistoryMachine,
    /** The editor's chips and picker (owner 'parent': it tells this machine `filters.changed`); its I/O provided with the page's. */
    ruleFilters: qoeFiltersMachine,
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
    takeFilters: assign(({ context, event }) => (event.type === 'filters.changed'
      ? { draft: { ...context.draft, filters: event.filters.map((f) => ({ ...f, values: [...f.values] })) }, fieldErrors: {} } : {})),
    /** The editor's filter picker, on the draft's filters (one at a time: a left-over one is stopped first). */
    startRuleFilters: enqueueActions(({ context, enqueue }) => {
      enqueue.stopChild('ruleFilters');
      enqueue.spawnChild('ruleFilters', { id: 'ruleFilters', input: { filters: context.draft.filters, query: ruleFiltersQuery(context.today), owner: 'parent' } });
    }),
    stopRuleFilters: stopChild('ruleFilters'),
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
    storeSettings: assign(({ context }, params: { settings: SavedAlertSettings }) => ({
      settings: storedOf(params.settings), settingsDraft: settingsDraftOf(params.settings), error: null,
      newSecret: params.settings.webhookSecret ?? context.newSecret,
      notice: params.settings.webhookSecret ? M.settingsSavedWithSecret : M.settingsSaved,
    })),
    storeRotated: assign(({ context }, params: { settings: SavedAlertSettings }) => ({
      settings: context.settings ? { ...context.settings, version: params.settings.version, secretFingerprint: params.settings.secretFingerprint } : storedOf(params.settings),
      newSecret: params.settings.webhookSecret, notice: M.secretRotated, error: null,
    })),
    dismissSecret: assign({ newSecret: null }),
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
    /** An editor, once the settings were saved (the secret is made by the first save). */
    canRotate: ({ context }) => context.canEdit && (context.settings?.version ?? 0) > 0,
  },
});
