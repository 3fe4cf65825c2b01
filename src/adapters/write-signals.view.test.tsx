/**
 * Issue 38, in the page: a Payments page open in this tab, a refund made in another. The page is the
 * real Analytics wiring (src/adapters/report-actors.ts: the REST client with its answer cache, the
 * document's visibility, this tab's write signals); the server is a fake `fetch` whose Net revenue drops
 * with each refund; the other tab is a second set of write signals on the same origin (over the
 * BroadcastChannel where there is one, else the storage event, as the browser would fire it here).
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COOKIE_NAMES } from '../../common/constants';
import { REPORTS_PATH } from '../../common/reports';
import { configureClient } from '../api/client';
import { clearReportCache } from '../api/report-cache';
import { PageLogicContext } from '../page-actors';
import { renderView, settle } from '../test-harness/render-view';
import { pageDefFor } from '../views/analytics/pages';
import { ReportPage } from '../views/analytics/ReportPage';
import { analyticsPages } from './report-actors';
import { browserWriteSignalHost, createWriteSignals, WRITE_SIGNAL_KEY } from './write-signals';

const PAYMENTS = pageDefFor('/analytics/payments');
const SEARCH = { from: '2026-11-01', to: '2026-11-30' };

/** The server: the Payments report with the Net revenue of the moment; counts its reads. */
function paymentsServer() {
  const state = { net: 1_117_64, reads: 0 };
  const fetch: typeof globalThis.fetch = async (url) => {
    if (!String(url).includes(REPORTS_PATH)) return new Response('{}', { status: 404 });
    state.reads += 1;
    const body = {
      success: true, report: 'payment_summary_report', params: SEARCH, generatedAt: `2026-11-30T12:00:0${state.reads}.000Z`,
      currency: 'USD', currencies: ['USD'],
      columns: [{ key: 'period', label: 'Period', kind: 'period' }, { key: 'revenue', label: 'Revenue', kind: 'money' }],
      rows: [{ period: '2026-11-30', revenue: state.net }],
      totals: { netRevenue: state.net, revenue: state.net },
    };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { state, fetch };
}

/** Another tab of the console: posts as its support page would after a refund committed. */
function otherTab() {
  const host = browserWriteSignalHost();
  return createWriteSignals({
    ...host,
    storage: {
      getItem: (key) => window.localStorage.getItem(key),
      // The browser fires `storage` in the OTHER tabs of the origin: here, in this window.
      setItem: (key, value) => {
        window.localStorage.setItem(key, value);
        window.dispatchEvent(new StorageEvent('storage', { key, newValue: value }));
      },
    },
  });
}

const page = () => (
  <PageLogicContext.Provider value={{ report: analyticsPages.report }}>
    <ReportPage def={PAYMENTS} search={SEARCH} />
  </PageLogicContext.Provider>
);
const netRevenue = () => screen.getByTestId('total-netRevenue').textContent;
/** BroadcastChannel messages arrive after a turn of the event loop. */
const delivered = () => new Promise((resolve) => setTimeout(resolve, 30));

beforeEach(() => {
  document.cookie = `${COOKIE_NAMES.accessToken}=tok; path=/`;
  document.cookie = `${COOKIE_NAMES.managementKey}=key; path=/`;
  window.localStorage.removeItem(WRITE_SIGNAL_KEY);
  clearReportCache();
});
afterEach(() => {
  configureClient({ fetch: (...args) => globalThis.fetch(...args) });
  clearReportCache();
});

describe('a refund in another tab, on a Payments page open here (issue 38)', () => {
  it('the open page shows the new Net revenue without a reload', async () => {
    const server = paymentsServer();
    configureClient({ fetch: server.fetch });
    await renderView(page(), { url: PAYMENTS.path });
    await settle();
    expect(netRevenue()).toBe('$1,117.64');
    server.state.net -= 650;
    otherTab().post('payment');
    await delivered();
    await waitFor(() => expect(netRevenue()).toBe('$1,111.14'));
    expect(server.state.reads).toBe(2);
  });

  it('leaving the page and coming back reads fresh figures after a write elsewhere, and the cached ones when there was none', async () => {
    const server = paymentsServer();
    configureClient({ fetch: server.fetch });
    await renderView(page(), { url: PAYMENTS.path });
    await settle();
    expect(netRevenue()).toBe('$1,117.64');
    cleanup();
    // Back with no write in between: the answer cache serves it.
    await renderView(page(), { url: PAYMENTS.path });
    await settle();
    expect(server.state.reads).toBe(1);
    cleanup();
    // Away from the page (no report machine listening), another tab refunds; back: the server is asked.
    server.state.net -= 1_000;
    otherTab().post('payment');
    await delivered();
    await renderView(page(), { url: PAYMENTS.path });
    await settle();
    await waitFor(() => expect(netRevenue()).toBe('$1,107.64'));
    expect(server.state.reads).toBe(2);
  });
});
