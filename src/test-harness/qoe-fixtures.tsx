/** Issue 41: the QoE page machines with fake I/O for the analytics view tests (values, views, one view). */
import { fromPromise } from 'xstate';
import type { QoeValue, QoeViewAnswer, QoeViewRow, QoeViewsAnswer } from '../../common/qoe';
import { qoeFiltersMachine, type LoadLabelsInput, type LoadValuesInput, type QoeValueLabels } from '../../machines/qoe-filters.machine';
import { qoeViewMachine, qoeViewsMachine, type QoeViewInput, type QoeViewsInput } from '../../machines/qoe-views.machine';

/**
 * The picker's machine answering `values(input)` for every dimension (or failing when it throws); calls
 * recorded. The chips' names come from the same answers (one per named dimension filtered on).
 */
export function fakeQoeFilters(values: (input: LoadValuesInput) => QoeValue[] = () => []) {
  const calls: LoadValuesInput[] = [];
  const labelCalls: LoadLabelsInput[] = [];
  const logic = qoeFiltersMachine.provide({
    actors: {
      loadValues: fromPromise<QoeValue[], LoadValuesInput>(async ({ input }) => { calls.push(input); return values(input); }),
      loadLabels: fromPromise<QoeValueLabels, LoadLabelsInput>(async ({ input }) => {
        labelCalls.push(input);
        const labels: QoeValueLabels = {};
        for (const dimension of input.dimensions) labels[dimension] = Object.fromEntries(values({ dimension, query: input.query }).map((v) => [v.value, v.label]));
        return labels;
      }),
    },
  });
  return { calls, labelCalls, logic };
}

export function viewRow(overrides: Partial<QoeViewRow> = {}): QoeViewRow {
  return {
    sessionId: '0b6f3c2e-1111-4a4a-9b9b-000000000001', startedAt: '2026-12-01T10:00:00.000Z', endedAt: '2026-12-01T10:20:00.000Z',
    subscriberId: 's-1', viewer: 'ann@example.test', contentId: 'c-1', contentType: 'movie', title: 'Night Drive', device: 'android', os: 'Android',
    player: 'ExoPlayer', country: 'US', isp: 'Slow Net', cdn: 'akamai', watchedSeconds: 1190, startupMs: 2400, rebufferCount: 3, rebufferPct: 4.2,
    bitrateKbps: 2100, errorCode: null, ...overrides,
  };
}

export function fakeQoeViews(answer: (input: QoeViewsInput) => QoeViewsAnswer) {
  const calls: QoeViewsInput[] = [];
  const logic = qoeViewsMachine.provide({
    actors: { loadViews: fromPromise<QoeViewsAnswer, QoeViewsInput>(async ({ input }) => { calls.push(input); return answer(input); }) },
  });
  return { calls, logic };
}

export function fakeQoeView(answer: (input: QoeViewInput) => QoeViewAnswer) {
  const calls: QoeViewInput[] = [];
  const logic = qoeViewMachine.provide({
    actors: { loadView: fromPromise<QoeViewAnswer, QoeViewInput>(async ({ input }) => { calls.push(input); return answer(input); }) },
  });
  return { calls, logic };
}
