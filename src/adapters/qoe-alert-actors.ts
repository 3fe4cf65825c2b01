/**
 * The real I/O of Dashboard 360's alerts and saved views (issue 41; paths and shapes in common/qoe.ts,
 * server/http/qoe-alert-routes.ts): the Alerts page, the header's count of open incidents, "Save view"
 * and the Saved views list; and the Alerts page's "Player events not placed" (issue 42:
 * INGEST_DEAD_LETTERS_PATH of common/ingest-contract.ts, server/http/ingest-routes.ts), over the REST client with the session's credentials. A refusal rejects
 * with the server's words and HTTP status (409: the machines' conflict).
 */
import { fromCallback, fromPromise } from 'xstate';
import {
  QOE_ALERT_RULES_PATH, QOE_ALERT_SECRET_PATH, QOE_ALERT_SETTINGS_PATH, QOE_INCIDENT_COUNT_PATH, QOE_INCIDENTS_PATH, QOE_SAVED_VIEWS_PATH,
  type QoeAlertRule, type QoeAlertRuleAnswer, type QoeAlertRulesAnswer, type QoeAlertSettingsAnswer, type QoeIncidentCountAnswer,
  type QoeIncidentsAnswer, type QoeSavedView, type QoeSavedViewAnswer, type QoeSavedViewInput, type QoeSavedViewsAnswer,
} from '../../common/qoe';
import { QOE_ALERT_MESSAGES, QOE_SAVED_VIEW_MESSAGES } from '../../common/messages/qoe-alerts';
import { INGEST_DEAD_LETTERS_PATH, type IngestDeadLetterCounts } from '../../common/ingest-contract';
import { INGEST_DEAD_LETTER_MESSAGES } from '../../common/messages/ingest-dead-letters';
import { ingestDeadLettersMachine } from '../../machines/ingest-dead-letters.machine';
import {
  qoeAlertsMachine, type AlertsData, type DeleteRuleInput, type FetchIncidentsInput, type IncidentPage, type QoeAlertsInput,
  type RotateSecretInput, type SavedAlertSettings, type SaveRuleInput, type SaveSettingsInput, type StoredAlertSettings,
} from '../../machines/qoe-alerts.machine';
import { pageHistoryMachine } from '../../machines/history.machine';
import { qoeAlertCountMachine, type QoeAlertCountEvent } from '../../machines/qoe-alert-count.machine';
import { qoeSaveViewMachine } from '../../machines/qoe-saved-view-save.machine';
import { qoeSavedViewsMachine, savedViewHref, type DeleteViewInput, type UpdateViewInput } from '../../machines/qoe-saved-views.machine';
import { ApiError, apiRequest, authHeaders, type RequestOptions } from '../api/client';
import { historyActors } from './history-io';
import { qoePages } from './qoe-actors';
import { navigateTo } from './navigation';
import { readNetworkCredentials } from './network-credentials';

async function call<T extends object>(url: string, fallback: string, options: RequestOptions = {}): Promise<T> {
  const credentials = readNetworkCredentials();
  const headers = credentials ? authHeaders(credentials) : {};
  const answer = await apiRequest<T & { message?: unknown; success?: unknown }>(url, { ...options, headers: { ...headers, ...options.headers } });
  if (answer.status >= 400 || answer.success === false) {
    throw new ApiError(typeof answer.message === 'string' && answer.message !== '' ? answer.message : fallback, answer.status, answer);
  }
  return answer;
}

function incidentPage(answer: QoeIncidentsAnswer): IncidentPage {
  return { items: answer.incidents, total: answer.total, page: answer.page, pageSize: answer.pageSize };
}

async function readSettings(signal: AbortSignal): Promise<StoredAlertSettings> {
  const { settings } = await call<QoeAlertSettingsAnswer>(QOE_ALERT_SETTINGS_PATH, QOE_ALERT_MESSAGES.loadFailed, { signal });
  return { webhookUrl: settings.webhookUrl, emails: settings.emails, version: settings.version, secretFingerprint: settings.secretFingerprint };
}

/** A save's or a rotation's answer: the secret only when that write made it (shown once). */
function savedSettings({ settings }: QoeAlertSettingsAnswer): SavedAlertSettings {
  return { webhookUrl: settings.webhookUrl, emails: settings.emails, version: settings.version, secretFingerprint: settings.secretFingerprint, webhookSecret: settings.webhookSecret };
}

export const qoeAlertsActors = {
  fetchAlerts: fromPromise<AlertsData, QoeAlertsInput>(async ({ input, signal }) => {
    if (input.openOnly) {
      const open = await call<QoeIncidentsAnswer>(`${QOE_INCIDENTS_PATH}?state=open`, QOE_ALERT_MESSAGES.incidentsFailed, { signal });
      return { rules: [], open: open.incidents, resolved: { items: [], total: 0, page: 1, pageSize: open.pageSize }, settings: null };
    }
    // Resolved incidents are paged by the server (state=resolved), one page at a time.
    const [rules, open, resolved, settings] = await Promise.all([
      call<QoeAlertRulesAnswer>(QOE_ALERT_RULES_PATH, QOE_ALERT_MESSAGES.loadFailed, { signal }),
      call<QoeIncidentsAnswer>(`${QOE_INCIDENTS_PATH}?state=open`, QOE_ALERT_MESSAGES.incidentsFailed, { signal }),
      call<QoeIncidentsAnswer>(`${QOE_INCIDENTS_PATH}?state=resolved&page=1`, QOE_ALERT_MESSAGES.incidentsFailed, { signal }),
      input.canEdit ? readSettings(signal) : Promise.resolve(null),
    ]);
    return { rules: rules.rules, open: open.incidents, resolved: incidentPage(resolved), settings };
  }),
  fetchIncidents: fromPromise<IncidentPage, FetchIncidentsInput>(async ({ input, signal }) =>
    incidentPage(await call<QoeIncidentsAnswer>(`${QOE_INCIDENTS_PATH}?state=resolved&page=${input.page}`, QOE_ALERT_MESSAGES.incidentsFailed, { signal }))),
  saveRule: fromPromise<QoeAlertRule, SaveRuleInput>(async ({ input, signal }) => {
    const url = input.id === null ? QOE_ALERT_RULES_PATH : `${QOE_ALERT_RULES_PATH}/${encodeURIComponent(input.id)}`;
    const body = input.id === null ? input.rule : { ...input.rule, version: input.version };
    return (await call<QoeAlertRuleAnswer>(url, QOE_ALERT_MESSAGES.saveFailed, { method: input.id === null ? 'POST' : 'PUT', body, signal })).rule;
  }),
  deleteRule: fromPromise<unknown, DeleteRuleInput>(({ input, signal }) =>
    call<object>(`${QOE_ALERT_RULES_PATH}/${encodeURIComponent(input.id)}?version=${input.version}`, QOE_ALERT_MESSAGES.deleteFailed, { method: 'DELETE', signal })),
  fetchRule: fromPromise<QoeAlertRule, { id: string }>(async ({ input, signal }) =>
    (await call<QoeAlertRuleAnswer>(`${QOE_ALERT_RULES_PATH}/${encodeURIComponent(input.id)}`, QOE_ALERT_MESSAGES.loadFailed, { signal })).rule),
  saveSettings: fromPromise<SavedAlertSettings, SaveSettingsInput>(async ({ input, signal }) => savedSettings(await call<QoeAlertSettingsAnswer>(
    QOE_ALERT_SETTINGS_PATH, QOE_ALERT_MESSAGES.settingsFailed, { method: 'PUT', body: { webhookUrl: input.webhookUrl, emails: input.emails, version: input.version }, signal },
  ))),
  rotateSecret: fromPromise<SavedAlertSettings, RotateSecretInput>(async ({ input, signal }) => savedSettings(await call<QoeAlertSettingsAnswer>(
    QOE_ALERT_SECRET_PATH, QOE_ALERT_MESSAGES.rotateFailed, { method: 'POST', body: { version: input.version }, signal },
  ))),
};

/** page.hidden / page.visible from the document's visibility, starting with the current one. */
export const countVisibilityActor = fromCallback<QoeAlertCountEvent>(({ sendBack }) => {
  const report = () => sendBack({ type: document.visibilityState === 'hidden' ? 'page.hidden' : 'page.visible' });
  if (document.visibilityState === 'hidden') report();
  document.addEventListener('visibilitychange', report);
  return () => document.removeEventListener('visibilitychange', report);
});

export const qoeSavedViewActors = {
  createView: fromPromise<QoeSavedView, QoeSavedViewInput>(async ({ input, signal }) =>
    (await call<QoeSavedViewAnswer>(QOE_SAVED_VIEWS_PATH, QOE_SAVED_VIEW_MESSAGES.saveFailed, { method: 'POST', body: input, signal })).view),
  fetchViews: fromPromise<QoeSavedView[]>(async ({ signal }) =>
    (await call<QoeSavedViewsAnswer>(QOE_SAVED_VIEWS_PATH, QOE_SAVED_VIEW_MESSAGES.loadFailed, { signal })).views),
  fetchView: fromPromise<QoeSavedView, { id: string }>(async ({ input, signal }) =>
    (await call<QoeSavedViewAnswer>(`${QOE_SAVED_VIEWS_PATH}/${encodeURIComponent(input.id)}`, QOE_SAVED_VIEW_MESSAGES.notFound, { signal })).view),
  updateView: fromPromise<QoeSavedView, UpdateViewInput>(async ({ input, signal }) =>
    (await call<QoeSavedViewAnswer>(`${QOE_SAVED_VIEWS_PATH}/${encodeURIComponent(input.id)}`, QOE_SAVED_VIEW_MESSAGES.changeFailed, {
      method: 'PUT', body: { ...input.view, version: input.version }, signal,
    })).view),
  deleteView: fromPromise<unknown, DeleteViewInput>(({ input, signal }) =>
    call<object>(`${QOE_SAVED_VIEWS_PATH}/${encodeURIComponent(input.id)}?version=${input.version}`, QOE_SAVED_VIEW_MESSAGES.changeFailed, { method: 'DELETE', signal })),
};

/**
 * The alerts' and saved views' wiring (issue 41), read by src/adapters/page-logic.ts when one of
 * their views first renders (the header's count included: loaded only for Dashboard 360 users).
 */
export const qoeAlertPages = {
  qoeAlerts: qoeAlertsMachine.provide({
    actors: { ...qoeAlertsActors, ruleHistory: pageHistoryMachine.provide({ actors: historyActors() }), ruleFilters: qoePages.qoeFilters },
  }),
  qoeAlertCount: qoeAlertCountMachine.provide({
    actors: {
      fetchCount: fromPromise<number>(async ({ signal }) =>
        (await call<QoeIncidentCountAnswer>(QOE_INCIDENT_COUNT_PATH, QOE_ALERT_MESSAGES.incidentsFailed, { signal, handleAuthErrors: false })).open),
      visibility: countVisibilityActor,
    },
  }),
  qoeSaveView: qoeSaveViewMachine.provide({ actors: { createView: qoeSavedViewActors.createView } }),
  qoeSavedViews: qoeSavedViewsMachine.provide({
    actors: { fetchViews: qoeSavedViewActors.fetchViews, fetchView: qoeSavedViewActors.fetchView, updateView: qoeSavedViewActors.updateView, deleteView: qoeSavedViewActors.deleteView },
    actions: { openView: (_, params) => navigateTo(savedViewHref(params), { replace: params.replace }) },
  }),
  ingestDeadLetters: ingestDeadLettersMachine.provide({
    actors: {
      fetchDeadLetters: fromPromise<IngestDeadLetterCounts>(({ signal }) =>
        call<IngestDeadLetterCounts>(INGEST_DEAD_LETTERS_PATH, INGEST_DEAD_LETTER_MESSAGES.loadFailed, { signal })),
    },
  }),
};
