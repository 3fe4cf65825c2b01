/**
 * The QoE pages' wiring file (issue 41): the Add filter picker's values (GET /qoe/values), the Views
 * list (GET /qoe/views) and one view (GET /qoe/views/:sessionId) over the REST client with the
 * session's credentials and the machine's abort signal; read by src/adapters/page-logic.ts when a
 * QoS page or a Views page first renders.
 */
import { fromPromise } from 'xstate';
import { QOE_VALUES_PATH, QOE_VIEWS_PATH, type QoeValue, type QoeValuesAnswer, type QoeViewAnswer, type QoeViewsAnswer } from '../../common/qoe';
import { CredentialsMissingError } from '../../machines/network.machine';
import { qoeFiltersMachine, type LoadLabelsInput, type LoadValuesInput, type QoeValueLabels } from '../../machines/qoe-filters.machine';
import { qoeViewMachine, qoeViewsMachine, type QoeViewInput, type QoeViewsInput } from '../../machines/qoe-views.machine';
import { ApiError, apiRequest, authHeaders } from '../api/client';
import { readNetworkCredentials } from './network-credentials';

/** A path with its query (empty values left out, keys in a stable order). */
export function qoeUrl(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params).sort(([a], [b]) => a.localeCompare(b))) {
    if (value !== undefined && value !== '') query.set(key, String(value));
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

async function getJson<T extends { success: true }>(url: string, signal: AbortSignal, fallback: string): Promise<T> {
  const credentials = readNetworkCredentials();
  if (!credentials) throw new CredentialsMissingError();
  const body = await apiRequest<T & { message?: string }>(url, { headers: authHeaders(credentials), signal });
  if (body.status !== 200 || body.success !== true) throw new ApiError(body.message ?? fallback, body.status, body);
  return body;
}

export function valuesUrl(input: LoadValuesInput): string {
  return qoeUrl(QOE_VALUES_PATH, { dimension: input.dimension, ...input.query });
}

export function viewsUrl(input: QoeViewsInput): string {
  return qoeUrl(QOE_VIEWS_PATH, { ...input.query, page: input.page, sort: input.sort, dir: input.dir });
}

export function viewUrl(input: QoeViewInput): string {
  return `${QOE_VIEWS_PATH}/${encodeURIComponent(input.sessionId)}`;
}

export const loadValuesActor = fromPromise<QoeValue[], LoadValuesInput>(async ({ input, signal }) =>
  (await getJson<QoeValuesAnswer>(valuesUrl(input), signal, 'The values could not be loaded.')).values);

/** The names of the filtered-on ids of each named dimension: the values answer labels them (it always holds the values filtered on). */
export const loadLabelsActor = fromPromise<QoeValueLabels, LoadLabelsInput>(async ({ input, signal }) => {
  const labels: QoeValueLabels = {};
  await Promise.all(input.dimensions.map(async (dimension) => {
    const { values } = await getJson<QoeValuesAnswer>(valuesUrl({ dimension, query: input.query }), signal, 'The values could not be loaded.');
    labels[dimension] = Object.fromEntries(values.map((v) => [v.value, v.label]));
  }));
  return labels;
});

export const loadViewsActor = fromPromise<QoeViewsAnswer, QoeViewsInput>(async ({ input, signal }) => {
  const { success, total, page, pageSize, rows } = await getJson<QoeViewsAnswer>(viewsUrl(input), signal, 'The views could not be loaded.');
  return { success, total, page, pageSize, rows };
});

export const loadViewActor = fromPromise<QoeViewAnswer, QoeViewInput>(async ({ input, signal }) => {
  const { success, view, timeline } = await getJson<QoeViewAnswer>(viewUrl(input), signal, 'The view could not be loaded.');
  return { success, view, timeline };
});

export const qoePages = {
  qoeFilters: qoeFiltersMachine.provide({ actors: { loadValues: loadValuesActor, loadLabels: loadLabelsActor } }),
  qoeViews: qoeViewsMachine.provide({ actors: { loadViews: loadViewsActor } }),
  qoeView: qoeViewMachine.provide({ actors: { loadView: loadViewActor } }),
};
