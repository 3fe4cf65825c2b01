/**
 * Issue 38: after a refund (any support action) or an Undo, a report read before is not shown again
 * from the answer cache: going back to Payments shows the new Net revenue without a reload.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { UNDO_PATH } from '../../common/revisions';
import { configureClient } from '../api/client';
import { createGraphqlClient } from '../api/graphql';
import { clearReportCache, fetchReport } from '../api/reports';
import { createSupportActors } from './support-actors';
import { createUndoActors } from './undo-actors';

const CREDENTIALS = { accessToken: 'tok', apiKey: 'key' };
const PARAMS = { from: '2026-11-01', to: '2026-11-30' };

/** A report request counter: each call answers the next net revenue. */
function reports() {
  let net = 1000;
  const request = vi.fn(async () => ({ status: 200, success: true, columns: [], rows: [], totals: { netRevenue: net++ } }));
  return { request: request as never, calls: () => request.mock.calls.length };
}

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  clearReportCache();
  configureClient({ fetch: (...args) => globalThis.fetch(...args) });
});

describe('report answers after a change (issue 38)', () => {
  it('a support action drops the cached answers: the next read asks the server again', async () => {
    const r = reports();
    const first = await fetchReport('payment_summary_report', PARAMS, { credentials: CREDENTIALS, request: r.request });
    expect(await fetchReport('payment_summary_report', PARAMS, { credentials: CREDENTIALS, request: r.request })).toEqual(first);
    expect(r.calls()).toBe(1);
    const detail = { profile: {}, subscriptions: [], payments: [], devices: [], notes: [], planOptions: [] };
    const fetch = vi.fn(async () => json({ data: { paymentRefund: detail } }));
    const client = createGraphqlClient({ url: 'http://test/management/graphql', fetch: fetch as unknown as typeof globalThis.fetch, getCredentials: () => CREDENTIALS });
    const refund = createActor(createSupportActors(client).runAction, {
      input: { kind: 'refundPayment', paymentId: 'p1', amount: 650, full: false, reason: 'Outage', version: 1 },
    }).start();
    await toPromise(refund);
    const after = await fetchReport('payment_summary_report', PARAMS, { credentials: CREDENTIALS, request: r.request });
    expect(r.calls()).toBe(2);
    expect(after.totals).toEqual({ netRevenue: 1001 });
  });

  it('an Undo drops them too; a failed one keeps them', async () => {
    const r = reports();
    await fetchReport('payment_summary_report', PARAMS, { credentials: CREDENTIALS, request: r.request });
    let status = 409;
    configureClient({ fetch: (async (url: RequestInfo | URL) => (String(url) === UNDO_PATH
      ? new Response(JSON.stringify(status === 200 ? { success: true, revisions: [] } : { success: false, message: 'changed since' }), { status, headers: { 'content-type': 'application/json' } })
      : json({}))) as typeof globalThis.fetch });
    const undo = () => toPromise(createActor(createUndoActors(() => CREDENTIALS).applyUndo, { input: { requestId: 'r1' } }).start());
    await expect(undo()).rejects.toThrow('changed since');
    await fetchReport('payment_summary_report', PARAMS, { credentials: CREDENTIALS, request: r.request });
    expect(r.calls()).toBe(1);
    status = 200;
    await undo();
    await fetchReport('payment_summary_report', PARAMS, { credentials: CREDENTIALS, request: r.request });
    expect(r.calls()).toBe(2);
  });
});
