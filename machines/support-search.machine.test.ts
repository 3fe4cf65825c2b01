import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import {
  SEARCH_TOTAL_CAP, SUPPORT_LIMITS, type SubscriberListItem, type SubscriberSearchPage, type SubscriberSearchRequest, type SubscriberStatus, type SubscriptionFilters,
} from '../common/support';
import type { ListQuery } from './list.machine';
import {
  NO_FILTERS, searchEvents, selectError, selectFilters, selectHasNoMatches, selectIsBusy, selectItems, selectNetworkOptions, selectPage,
  selectPageCount, selectPlanOptions, selectQuery, selectStatus, selectTotal, selectTotalIsCapped, subscriberFetchPage, subscriberSearchInput, subscriberSearchMachine,
} from './support-search.machine';

const PEOPLE: SubscriberListItem[] = Array.from({ length: 45 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: i % 3 === 0 ? `Maria ${i}` : `Jon ${i}`,
  email: i % 3 === 0 ? 'ma•••@example.com' : 'jo•••@example.com',
  phone: '•••• 4321',
  country: 'US',
  status: i === 3 ? 'suspended' : 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  planName: i % 5 === 0 ? null : 'Basic Monthly',
  subscriptionState: i % 5 === 0 ? null : 'paying',
}));

const PLANS = [{ value: '00000000-0000-4000-8000-00000000000a', label: 'Basic Monthly' }];

/** A fake server over PEOPLE: name prefix, status, pages; state "paying" = the ones in Spain. */
function serve(request: SubscriberSearchRequest): SubscriberSearchPage {
  const matching = PEOPLE.filter((p) => p.name.toLowerCase().startsWith(request.query.toLowerCase()) && (!request.status || p.status === request.status));
  const from = (request.page - 1) * request.pageSize;
  const filtered = request.state === 'paying' ? matching.filter((p) => p.country === 'ES') : matching;
  return { items: filtered.slice(from, from + request.pageSize), total: filtered.length, totalIsCapped: false, page: request.page, pageSize: request.pageSize, plans: PLANS, networks: [] };
}

function start(
  answer: (request: SubscriberSearchRequest, signal: AbortSignal) => Promise<SubscriberSearchPage> = async (r) => serve(r),
  input: { filters?: Partial<SubscriptionFilters>; status?: SubscriberStatus | null; page?: number } = {},
) {
  const requests: SubscriberSearchRequest[] = [];
  const signals: AbortSignal[] = [];
  const clock = new SimulatedClock();
  const clamped: ListQuery[] = [];
  const actor = createActor(subscriberSearchMachine.provide({
    actors: {
      fetchPage: subscriberFetchPage((request, signal) => {
        requests.push(request);
        signals.push(signal);
        return answer(request, signal);
      }),
    },
    actions: { queryChanged: ({ context }, params) => { if (params.clamped) clamped.push(context.query); } },
  }), { clock, input: subscriberSearchInput(input) }).start();
  return { actor, clock, requests, signals, clamped };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('subscriber search', () => {
  it('lists the newest subscribers at once, a page of 20 with the total', async () => {
    const { actor, requests } = start();
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    await settle();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('ready');
    expect(requests).toEqual([{ query: '', status: null, ...NO_FILTERS, page: 1, pageSize: SUPPORT_LIMITS.pageSize }]);
    expect(selectItems(snapshot)).toHaveLength(20);
    expect(selectTotal(snapshot)).toBe(45);
    expect(selectTotalIsCapped(snapshot)).toBe(false);
    expect(selectPageCount(snapshot)).toBe(3);
  });

  it('says a broad search was capped, and offers pages up to the cap (issue 38)', async () => {
    const { actor, requests } = start(async (r) => ({ ...serve(r), total: SEARCH_TOTAL_CAP, totalIsCapped: true }));
    await settle();
    expect(selectTotalIsCapped(actor.getSnapshot())).toBe(true);
    expect(selectTotal(actor.getSnapshot())).toBe(10_000);
    expect(selectPageCount(actor.getSnapshot())).toBe(500);
    actor.send(searchEvents.page(500));
    await settle();
    expect(requests.at(-1)?.page).toBe(500);
    actor.send(searchEvents.page(501));
    await settle();
    expect(requests.at(-1)?.page).toBe(500);
  });

  it('waits for typing to pause (each keystroke restarts the wait), then searches the trimmed query from page 1', async () => {
    const { actor, clock, requests } = start();
    await settle();
    actor.send(searchEvents.page(2));
    await settle();
    actor.send(searchEvents.type('ma'));
    clock.increment(SUPPORT_LIMITS.searchDebounceMs - 1);
    actor.send(searchEvents.type('maria '));
    clock.increment(SUPPORT_LIMITS.searchDebounceMs - 1);
    expect(requests).toHaveLength(2);
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    clock.increment(1);
    await settle();
    expect(requests[2]).toEqual({ query: 'maria', status: null, ...NO_FILTERS, page: 1, pageSize: 20 });
    expect(selectQuery(actor.getSnapshot())).toBe('maria ');
    expect(selectItems(actor.getSnapshot()).every((p) => p.name.startsWith('Maria'))).toBe(true);
    expect(selectTotal(actor.getSnapshot())).toBe(15);
  });

  it('aborts the search in flight when a newer one starts, and never shows its late answer', async () => {
    const releases: (() => void)[] = [];
    const { actor, clock, signals } = start((request) => new Promise((resolve) => { releases.push(() => resolve(serve(request))); }));
    releases[0]!();
    await settle();
    actor.send(searchEvents.type('jon'));
    clock.increment(SUPPORT_LIMITS.searchDebounceMs);
    expect(signals).toHaveLength(2);
    actor.send(searchEvents.type('maria'));
    expect(signals[1]!.aborted).toBe(true);
    clock.increment(SUPPORT_LIMITS.searchDebounceMs);
    releases[2]!();
    await settle();
    releases[1]!();
    await settle();
    expect(selectItems(actor.getSnapshot()).every((p) => p.name.startsWith('Maria'))).toBe(true);
    expect(selectTotal(actor.getSnapshot())).toBe(15);
  });

  it('filters by status at once, from page 1, and says when nothing matches', async () => {
    const { actor, requests } = start();
    await settle();
    actor.send(searchEvents.page(3));
    await settle();
    actor.send(searchEvents.status('suspended'));
    expect(selectPage(actor.getSnapshot())).toBe(1);
    await settle();
    expect(requests.at(-1)).toMatchObject({ status: 'suspended', page: 1 });
    expect(selectStatus(actor.getSnapshot())).toBe('suspended');
    expect(selectTotal(actor.getSnapshot())).toBe(1);
    actor.send(searchEvents.status('closed'));
    await settle();
    expect(selectHasNoMatches(actor.getSnapshot())).toBe(true);
  });

  it('pages within the answer and ignores pages that do not exist or are already shown', async () => {
    const { actor, requests } = start();
    await settle();
    for (const page of [0, 4, 1.5, 1]) actor.send(searchEvents.page(page));
    expect(requests).toHaveLength(1);
    actor.send(searchEvents.page(3));
    await settle();
    expect(selectPage(actor.getSnapshot())).toBe(3);
    expect(selectItems(actor.getSnapshot())).toHaveLength(5);
  });

  it('shows the failure and searches again on Retry', async () => {
    let fail = true;
    const { actor, requests } = start(async (request) => {
      if (fail) throw Object.assign(new Error('The server could not be reached. Please try again.'), { status: 500 });
      return serve(request);
    });
    await settle();
    expect(selectError(actor.getSnapshot())).toBe('The server could not be reached. Please try again.');
    fail = false;
    actor.send(searchEvents.retry());
    await settle();
    expect(selectError(actor.getSnapshot())).toBeNull();
    expect(selectTotal(actor.getSnapshot())).toBe(45);
    expect(requests).toHaveLength(2);
  });
});

describe('subscription filters (issue 27)', () => {
  it('starts from the filters of its input (the URL) and sends them with the first search', async () => {
    const { actor, requests } = start(undefined, { filters: { state: 'paying', network: 'sports-plus' } });
    await settle();
    expect(requests).toEqual([{ query: '', status: null, state: 'paying', plan: null, network: 'sports-plus', page: 1, pageSize: SUPPORT_LIMITS.pageSize }]);
    expect(selectFilters(actor.getSnapshot())).toEqual({ state: 'paying', plan: null, network: 'sports-plus' });
    expect(selectTotal(actor.getSnapshot())).toBe(0);
    expect(selectPlanOptions(actor.getSnapshot())).toEqual(PLANS);
    expect(selectNetworkOptions(actor.getSnapshot())).toEqual([]);
    expect(selectTotalIsCapped(actor.getSnapshot())).toBe(false);
  });

  it("starts from its input's status and page too (issue 38: the address), never from a typed query", async () => {
    const { actor, requests } = start(undefined, { filters: { state: 'paying' }, status: 'suspended', page: 3 });
    await settle();
    expect(requests).toEqual([{ query: '', status: 'suspended', state: 'paying', plan: null, network: null, page: 3, pageSize: SUPPORT_LIMITS.pageSize }]);
    expect(selectStatus(actor.getSnapshot())).toBe('suspended');
    expect(selectPage(actor.getSnapshot())).toBe(3);
    expect(selectQuery(actor.getSnapshot())).toBe('');
  });

  it('searches at once from page 1 when the filters change, keeping the query and status', async () => {
    const { actor, requests } = start();
    await settle();
    expect(selectFilters(actor.getSnapshot())).toEqual(NO_FILTERS);
    expect(selectPlanOptions(actor.getSnapshot())).toEqual(PLANS);
    actor.send(searchEvents.page(2));
    await settle();
    const filters = { state: 'past_due', plan: PLANS[0]!.value, network: null } as const;
    actor.send(searchEvents.filters(filters, null));
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    await settle();
    expect(requests.at(-1)).toEqual({ query: '', status: null, ...filters, page: 1, pageSize: SUPPORT_LIMITS.pageSize });
    expect(selectPage(actor.getSnapshot())).toBe(1);
  });

  it('shows no options before the first answer', () => {
    const { actor } = start(() => new Promise(() => undefined));
    expect(selectPlanOptions(actor.getSnapshot())).toEqual([]);
    expect(selectNetworkOptions(actor.getSnapshot())).toEqual([]);
  });
});

describe('a page past the last one (issue 38)', () => {
  it("shows the last page instead of an empty one, and reports the clamped page for the address", async () => {
    const { actor, requests, clamped } = start(undefined, { page: 9 });
    await settle();
    await settle();
    expect(requests.map((r) => r.page)).toEqual([9, 3]);
    expect(selectPage(actor.getSnapshot())).toBe(3);
    expect(selectItems(actor.getSnapshot())).toHaveLength(5);
    expect(clamped.map((q) => q.offset)).toEqual([40]);
  });
});
