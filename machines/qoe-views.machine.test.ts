import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyStateMachine } from 'xstate';
import type { QoeViewAnswer, QoeViewsAnswer } from '../common/qoe';
import {
  qoeViewMachine, qoeViewsMachine, selectOneView, selectViewAnswer, selectViewCanRetry, selectViewError, selectViewsAnswer, selectViewsCanRetry,
  selectViewsError, selectViewsPaging, selectViewsView, timelinePositions, type QoeViewInput, type QoeViewsInput,
} from './qoe-views.machine';
import { allStateNodes, createCoverage } from './test-harness/coverage';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const INPUT: QoeViewsInput = { query: { from: '2026-11-01', to: '2026-11-30', f: 'device:android' }, page: 2, sort: 'rebufferPct', dir: 'desc' };
const page = (total: number, rows: number): QoeViewsAnswer => ({
  success: true, total, page: 2, pageSize: 50,
  rows: Array.from({ length: rows }, (_, i) => ({
    sessionId: `s-${i}`, startedAt: '2026-11-02T10:00:00Z', endedAt: null, subscriberId: 'u', viewer: 'v', contentId: 'c', contentType: 'movie', title: 't',
    device: 'android', os: '', player: '', country: 'US', isp: '', cdn: '', watchedSeconds: 10, startupMs: 900, rebufferCount: 0, rebufferPct: 0, bitrateKbps: null, errorCode: null,
  })),
});
const viewsCoverage = createCoverage(qoeViewsMachine);
const viewCoverage = createCoverage(qoeViewMachine);

function described(machine: AnyStateMachine): void {
  expect(machine.root.description).toBeTruthy();
  expect(allStateNodes(machine).filter((n) => !n.description).map((n) => n.id)).toEqual([]);
  const events = new Set(allStateNodes(machine).flatMap((n) => n.ownEvents).concat(machine.root.ownEvents));
  expect([...events].filter((t) => !t.startsWith('xstate.') && !/^[a-z]+(\.[a-z][A-Za-z]*)+$/.test(t))).toEqual([]);
}

describe('qoeViews machine', () => {
  it('describes itself and every state, with dot-namespaced events', () => {
    described(qoeViewsMachine);
    described(qoeViewMachine);
  });

  it('reads the page of the address and says where it is among them', async () => {
    const calls: QoeViewsInput[] = [];
    const actor = createActor(qoeViewsMachine.provide({ actors: { loadViews: fromPromise(async ({ input }: { input: QoeViewsInput }) => { calls.push(input); return page(73, 23); }) } }),
      { input: INPUT, inspect: viewsCoverage.inspect }).start();
    expect(selectViewsView(actor.getSnapshot())).toBe('loading');
    expect(selectViewsPaging(actor.getSnapshot())).toEqual({ page: 2, pageCount: 1, first: 0, last: 0, total: 0 });
    await flush();
    expect(calls).toEqual([INPUT]);
    expect(selectViewsView(actor.getSnapshot())).toBe('ready');
    expect(selectViewsAnswer(actor.getSnapshot())?.total).toBe(73);
    expect(selectViewsPaging(actor.getSnapshot())).toEqual({ page: 2, pageCount: 2, first: 51, last: 73, total: 73 });
  });

  it('is empty with no session, and fails with Retry only when asking again can help', async () => {
    const empty = createActor(qoeViewsMachine.provide({ actors: { loadViews: fromPromise(async () => page(0, 0)) } }), { input: INPUT, inspect: viewsCoverage.inspect }).start();
    await flush();
    expect(selectViewsView(empty.getSnapshot())).toBe('empty');
    let calls = 0;
    const failing = createActor(qoeViewsMachine.provide({
      actors: { loadViews: fromPromise<QoeViewsAnswer, QoeViewsInput>(async () => { calls += 1; if (calls === 1) throw Object.assign(new Error('The server is busy.'), { status: 503 }); throw Object.assign(new Error('"x" is not something sessions can be filtered by.'), { status: 400 }); }) },
    }), { input: INPUT, inspect: viewsCoverage.inspect }).start();
    await flush();
    expect(selectViewsView(failing.getSnapshot())).toBe('failed');
    expect(selectViewsError(failing.getSnapshot())).toBe('The server is busy.');
    expect(selectViewsCanRetry(failing.getSnapshot())).toBe(true);
    failing.send({ type: 'views.retry' });
    await flush();
    expect(selectViewsCanRetry(failing.getSnapshot())).toBe(false);
    expect(viewsCoverage.report().states.missing).toEqual([]);
    expect(viewsCoverage.report().transitions.missing).toEqual([]);
  });
});

describe('qoeView machine', () => {
  const ANSWER: QoeViewAnswer = {
    success: true,
    view: { ...page(1, 1).rows[0]!, dimensions: [{ dimension: 'device', value: 'android', label: 'android' }] },
    timeline: [
      { at: '2026-11-02T10:00:00Z', kind: 'start', playheadSeconds: 0, text: 'Started after 900 ms' },
      { at: '2026-11-02T10:00:30Z', kind: 'rebuffer', playheadSeconds: 30, text: 'Rebuffered 3 s' },
      { at: '2026-11-02T10:01:40Z', kind: 'end', playheadSeconds: 100, text: 'Ended' },
    ],
  };

  it('reads one view; a view that does not exist is not found; a failure offers Retry', async () => {
    const calls: QoeViewInput[] = [];
    let outcome: 'ok' | '404' | '500' = 'ok';
    const logic = qoeViewMachine.provide({
      actors: {
        loadView: fromPromise(async ({ input }: { input: QoeViewInput }) => {
          calls.push(input);
          if (outcome === '404') throw Object.assign(new Error('No such view.'), { status: 404 });
          if (outcome === '500') throw Object.assign(new Error('The server failed.'), { status: 500 });
          return ANSWER;
        }),
      },
    });
    const ok = createActor(logic, { input: { sessionId: 's-0' }, inspect: viewCoverage.inspect }).start();
    expect(selectOneView(ok.getSnapshot())).toBe('loading');
    await flush();
    expect(calls).toEqual([{ sessionId: 's-0' }]);
    expect(selectOneView(ok.getSnapshot())).toBe('ready');
    expect(selectViewAnswer(ok.getSnapshot())?.timeline).toHaveLength(3);
    outcome = '404';
    const missing = createActor(logic, { input: { sessionId: 'nope' }, inspect: viewCoverage.inspect }).start();
    await flush();
    expect(selectOneView(missing.getSnapshot())).toBe('notFound');
    outcome = '500';
    const failed = createActor(logic, { input: { sessionId: 's-0' }, inspect: viewCoverage.inspect }).start();
    await flush();
    expect(selectOneView(failed.getSnapshot())).toBe('failed');
    expect(selectViewError(failed.getSnapshot())).toBe('The server failed.');
    expect(selectViewCanRetry(failed.getSnapshot())).toBe(true);
    outcome = 'ok';
    failed.send({ type: 'view.retry' });
    await flush();
    expect(selectOneView(failed.getSnapshot())).toBe('ready');
    expect(viewCoverage.report().states.missing).toEqual([]);
    expect(viewCoverage.report().transitions.missing).toEqual([]);
  });

  it('places the timeline on its strip from first to last entry', () => {
    expect(timelinePositions(ANSWER.timeline)).toEqual([0, 30, 100]);
    expect(timelinePositions([{ at: '2026-11-02T10:00:00Z' }])).toEqual([0]);
  });
});
