/**
 * Issue 41 (qoe-alerts): alert rules, incidents, where alerts are sent, and saved views, over REST
 * (common/qoe.ts; the rules are server/domain/qoe-alerts.ts and server/domain/qoe-saved-views.ts):
 *
 *   GET    /appcms/v2/qoe/alert-rules             the site's rules (+ whether the caller may edit)
 *   POST   /appcms/v2/qoe/alert-rules             create (Dashboard 360 write)
 *   GET    /appcms/v2/qoe/alert-rules/:id         one rule
 *   PUT    /appcms/v2/qoe/alert-rules/:id         change (version required)
 *   DELETE /appcms/v2/qoe/alert-rules/:id?version= delete (its open incident resolves: deleted)
 *   GET    /appcms/v2/qoe/incidents?state=open|resolved|all&page=  incidents, open first, newest first
 *   GET    /appcms/v2/qoe/incidents/count         how many are open (the header's count)
 *   GET    /appcms/v2/qoe/alert-settings          webhook and e-mail addresses (the secret's fingerprint to editors)
 *   PUT    /appcms/v2/qoe/alert-settings          save them (version required; Dashboard 360 write)
 *   POST   /appcms/v2/qoe/alert-settings/secret   a new webhook signing secret (version required; write), shown once
 *   GET    /appcms/v2/qoe/saved-views             mine + shared with the site
 *   POST   /appcms/v2/qoe/saved-views             save (private: any reader; shared: write)
 *   GET    /appcms/v2/qoe/saved-views/:id         one (mine or shared)
 *   PUT    /appcms/v2/qoe/saved-views/:id         change (owner only; version required)
 *   DELETE /appcms/v2/qoe/saved-views/:id?version= delete (owner only)
 *
 * An id that is not a UUID is not found (404), like another site's rule or view.
 */
import { QOE_ALERT_REFUSALS as M } from '../../common/messages/qoe-alert-refusals';
import {
  QOE_ALERT_RULES_PATH, QOE_ALERT_SECRET_PATH, QOE_ALERT_SETTINGS_PATH, QOE_INCIDENT_COUNT_PATH, QOE_INCIDENTS_PATH, QOE_SAVED_VIEWS_PATH,
} from '../../common/qoe';
import { notFound } from '../domain/errors';
import { authContextOf, requireAuth } from './auth-hooks';
import { answers } from './response-schemas';
import type { RoutePlugin } from './type-provider';
import './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkedId(id: string, message: string): string {
  if (!UUID.test(id)) throw notFound(message);
  return id.toLowerCase();
}

const str = { type: 'string' } as const;
const strOrNull = { type: ['string', 'null'] } as const;
const num = { type: 'number' } as const;
const numOrNull = { type: ['number', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const strings = { type: 'array', items: str } as const;
const object = <P extends Record<string, unknown>>(properties: P) => ({ type: 'object', properties }) as const;

const filter = object({ dimension: str, exclude: bool, values: strings });
const filters = { type: 'array', items: filter } as const;
const rule = object({
  id: str, name: str, metric: str, comparison: str, threshold: num, durationMinutes: num, filters, enabled: bool, version: num,
  createdAt: str, updatedAt: str, breachingSince: strOrNull, lastValue: numOrNull, lastEvaluatedAt: strOrNull,
});
const incident = object({
  id: str, ruleId: str, ruleName: str, metric: str, comparison: str, threshold: num, filters, state: str, startedAt: str, resolvedAt: strOrNull,
  peakValue: num, lastValue: num, reportPath: str, resolvedReason: strOrNull,
});
const settings = object({ webhookUrl: strOrNull, emails: strings, version: num, webhookSecret: strOrNull, secretFingerprint: strOrNull });
const view = object({
  id: str, name: str, path: str, search: { type: 'object', additionalProperties: str }, shared: bool, ownerId: str, ownerName: str, mine: bool,
  version: num, createdAt: str, updatedAt: str,
});

export const QOE_ALERT_RESPONSES = {
  rules: object({ success: bool, rules: { type: 'array', items: rule }, canEdit: bool }),
  rule: object({ success: bool, rule }),
  incidents: object({ success: bool, incidents: { type: 'array', items: incident }, total: num, page: num, pageSize: num }),
  count: object({ success: bool, open: num }),
  settings: object({ success: bool, settings, canEdit: bool }),
  views: object({ success: bool, views: { type: 'array', items: view } }),
  view: object({ success: bool, view }),
  done: object({ success: bool }),
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;
const versionQuery = { type: 'object', properties: { version: { type: 'integer', minimum: 0, maximum: 2147483647 } }, additionalProperties: false } as const;
/** Loose bodies: the rules check every field and answer 400 with words naming it. */
const ruleBody = {
  type: 'object',
  properties: {
    name: {}, metric: {}, comparison: {}, threshold: {}, durationMinutes: {}, enabled: {}, version: {},
    filters: { anyOf: [{ type: 'string', maxLength: 20_000 }, { type: 'array', maxItems: 50 }, { type: 'null' }] },
  },
  additionalProperties: false,
} as const;
const settingsBody = {
  type: 'object',
  properties: { webhookUrl: {}, emails: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 1000 } }, version: {} },
  additionalProperties: false,
} as const;
const secretBody = { type: 'object', properties: { version: {} }, additionalProperties: false } as const;
const viewBody = {
  type: 'object',
  properties: { name: {}, path: {}, search: { type: 'object' }, shared: {}, version: {} },
  additionalProperties: false,
} as const;
const incidentsQuery = {
  type: 'object',
  properties: { state: { type: 'string', maxLength: 10 }, page: { type: 'string', maxLength: 10 } },
  additionalProperties: false,
} as const;

export const qoeAlertRoutes: RoutePlugin = async (app) => {
  const { qoeAlerts } = app.services;
  const rules = qoeAlerts.alerts;
  const views = qoeAlerts.savedViews;
  app.addHook('onRequest', requireAuth);

  app.get(QOE_ALERT_RULES_PATH, { schema: { response: answers({ 200: QOE_ALERT_RESPONSES.rules }) } },
    async (request) => rules.listRules(authContextOf(request)));

  app.post(QOE_ALERT_RULES_PATH, { schema: { body: ruleBody, response: answers({ 200: QOE_ALERT_RESPONSES.rule }) } },
    async (request) => rules.createRule(authContextOf(request), request.body));

  app.get(`${QOE_ALERT_RULES_PATH}/:id`, { schema: { params: idParams, response: answers({ 200: QOE_ALERT_RESPONSES.rule }) } },
    async (request) => rules.getRule(authContextOf(request), checkedId(request.params.id, M.ruleNotFound)));

  app.put(`${QOE_ALERT_RULES_PATH}/:id`, { schema: { params: idParams, body: ruleBody, response: answers({ 200: QOE_ALERT_RESPONSES.rule }) } },
    async (request) => rules.updateRule(authContextOf(request), checkedId(request.params.id, M.ruleNotFound), request.body));

  app.delete(`${QOE_ALERT_RULES_PATH}/:id`, { schema: { params: idParams, querystring: versionQuery, response: answers({ 200: QOE_ALERT_RESPONSES.done }) } },
    async (request) => rules.deleteRule(authContextOf(request), checkedId(request.params.id, M.ruleNotFound), request.query.version));

  app.get(QOE_INCIDENTS_PATH, { schema: { querystring: incidentsQuery, response: answers({ 200: QOE_ALERT_RESPONSES.incidents }) } },
    async (request) => rules.listIncidents(authContextOf(request), request.query));

  app.get(QOE_INCIDENT_COUNT_PATH, { schema: { response: answers({ 200: QOE_ALERT_RESPONSES.count }) } },
    async (request) => rules.countOpen(authContextOf(request)));

  app.get(QOE_ALERT_SETTINGS_PATH, { schema: { response: answers({ 200: QOE_ALERT_RESPONSES.settings }) } },
    async (request) => rules.getSettings(authContextOf(request)));

  app.put(QOE_ALERT_SETTINGS_PATH, { schema: { body: settingsBody, response: answers({ 200: QOE_ALERT_RESPONSES.settings }) } },
    async (request) => rules.saveSettings(authContextOf(request), request.body));

  app.post(QOE_ALERT_SECRET_PATH, { schema: { body: secretBody, response: answers({ 200: QOE_ALERT_RESPONSES.settings }) } },
    async (request) => rules.rotateSecret(authContextOf(request), request.body ?? {}));

  app.get(QOE_SAVED_VIEWS_PATH, { schema: { response: answers({ 200: QOE_ALERT_RESPONSES.views }) } },
    async (request) => views.list(authContextOf(request)));

  app.post(QOE_SAVED_VIEWS_PATH, { schema: { body: viewBody, response: answers({ 200: QOE_ALERT_RESPONSES.view }) } },
    async (request) => views.create(authContextOf(request), request.body));

  app.get(`${QOE_SAVED_VIEWS_PATH}/:id`, { schema: { params: idParams, response: answers({ 200: QOE_ALERT_RESPONSES.view }) } },
    async (request) => views.get(authContextOf(request), checkedId(request.params.id, M.viewNotFound)));

  app.put(`${QOE_SAVED_VIEWS_PATH}/:id`, { schema: { params: idParams, body: viewBody, response: answers({ 200: QOE_ALERT_RESPONSES.view }) } },
    async (request) => views.update(authContextOf(request), checkedId(request.params.id, M.viewNotFound), request.body));

  app.delete(`${QOE_SAVED_VIEWS_PATH}/:id`, { schema: { params: idParams, querystring: versionQuery, response: answers({ 200: QOE_ALERT_RESPONSES.done }) } },
    async (request) => views.remove(authContextOf(request), checkedId(request.params.id, M.viewNotFound), request.query.version));
};
