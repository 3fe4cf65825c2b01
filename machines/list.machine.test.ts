import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { OWN_MESSAGES } from '../common/messages';
import {
  LIST_SEARCH_DEBOUNCE_MS, listMachine, selectListError, selectListIsEmpty, selectListIsLoading, selectListPaging,
  selectListMeta, selectListQuery, selectListRows, selectListSelected, selectListTotal, type ListPage, type ListQuery,
} from './list.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';
import { delayedEvents } from './test-harness/paths';

const ROWS = Array.from({ length: 45 }, (_, i) => ({ id: `row-${i}`, name: i % 2 === 0 ? `Gold ${i}` : `Silver ${i}` }));

/** A fake server over ROWS: search by name, a `kind` filter, paging. */
function serve(query: ListQuery): ListPage {
  const matching = ROWS.filter((r) => r.name.toLowerCase().includes(query.search.toLowerCase())
    && (!query.filters.kind || r.name.startsWith(query.filters.kind)));
  return { items: matching.slice(query.offset, query.offset + query.limit), total: matching.length };
}

function start(answer: (query: ListQuery) => ListPage | Promise<ListPage> = serve) {
  const queries: ListQuery[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(listMachine.provide({
    actors: { fetchPage: fromPromise<ListPage, ListQuery>(async ({ input }) => { queries.push(input); return answer(input); }) },
  }), { clock, input: { filters: { kind: '' } } }).start();
  return { actor, clock, queries };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('list', () => {
  it('loads the first page with the total and the paging', async () => {
    const { actor } = start();
    expect(selectListIsLoading(actor.getSnapshot())).toBe(true);
    await settle();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('ready');
    expect(selectListRows(snapshot)).toHaveLength(20);
    expect(selectListTotal(snapshot)).toBe(45);
    expect(selectListPaging(snapshot)).toEqual({ page: 1, pages: 3, from: 1, to: 20, previousOffset: null, nextOffset: 20 });
  });

  it('pages forward and back, and ignores a page out of range', async () => {
    const { actor, queries } = start();
    await settle();
    actor.send({ type: 'list.page', offset: 40 });
    await settle();
    expect(selectListPaging(actor.getSnapshot())).toEqual({ page: 3, pages: 3, from: 41, to: 45, previousOffset: 20, nextOffset: null });
    actor.send({ type: 'list.page', offset: 60 });
    actor.send({ type: 'list.page', offset: -20 });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(queries).toHaveLength(2);
  });

  it('waits for typing to pause, then searches from the first page', async () => {
    const { actor, clock, queries } = start();
    await settle();
    actor.send({ type: 'list.page', offset: 20 });
    await settle();
    actor.send({ type: 'list.search', search: 'Go' });
    clock.increment(LIST_SEARCH_DEBOUNCE_MS - 1);
    actor.send({ type: 'list.search', search: 'Gold 4' });
    clock.increment(LIST_SEARCH_DEBOUNCE_MS - 1);
    expect(queries).toHaveLength(2);
    clock.increment(1);
    await settle();
    expect(queries[2]).toMatchObject({ search: 'Gold 4', offset: 0 });
    expect(selectListRows<{ id: string; name: string }>(actor.getSnapshot()).map((r) => r.name)).toEqual(['Gold 4', 'Gold 40', 'Gold 42', 'Gold 44']);
    expect(selectListQuery(actor.getSnapshot()).search).toBe('Gold 4');
  });

  it('filters from the first page and shows an empty result as empty', async () => {
    const { actor } = start();
    await settle();
    actor.send({ type: 'list.filter', name: 'kind', value: 'Bronze' });
    await settle();
    expect(selectListIsEmpty(actor.getSnapshot())).toBe(true);
    expect(selectListPaging(actor.getSnapshot())).toMatchObject({ page: 1, pages: 1, from: 0, to: 0 });
  });

  it('applies several filters together from the first page', async () => {
    const { actor, queries } = start();
    await settle();
    actor.send({ type: 'list.page', offset: 20 });
    await settle();
    actor.send({ type: 'list.filters', filters: { kind: 'Silver', status: 'x' } });
    await settle();
    expect(queries.at(-1)).toMatchObject({ filters: { kind: 'Silver', status: 'x' }, offset: 0 });
    expect(selectListTotal(actor.getSnapshot())).toBe(22);
  });

  it('keeps what the server answers beside the rows', async () => {
    const { actor } = start((q) => ({ ...serve(q), meta: { canEdit: true } }));
    expect(selectListMeta(actor.getSnapshot())).toBeNull();
    await settle();
    expect(selectListMeta(actor.getSnapshot())).toEqual({ canEdit: true });
  });

  it('tags the states views read: loading while reading or waiting, error after a failed read', async () => {
    let fail = true;
    const { actor, clock } = start((q) => {
      if (fail) throw new Error('down');
      return serve(q);
    });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    await settle();
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().hasTag('loading')).toBe(false);
    fail = false;
    actor.send({ type: 'list.search', search: 'Gold' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    clock.increment(LIST_SEARCH_DEBOUNCE_MS);
    await settle();
    expect(actor.getSnapshot().tags.size).toBe(0);
  });

  it('selects rows of the page, and keeps only those still shown after a reload', async () => {
    let rows = ROWS;
    const { actor } = start((q) => ({ items: rows.slice(q.offset, q.offset + q.limit), total: rows.length }));
    await settle();
    actor.send({ type: 'list.toggle', id: 'row-1' });
    actor.send({ type: 'list.toggle', id: 'row-2' });
    actor.send({ type: 'list.toggle', id: 'row-1' });
    actor.send({ type: 'list.toggle', id: 'not-on-page' });
    expect(selectListSelected(actor.getSnapshot())).toEqual(['row-2']);
    actor.send({ type: 'list.selectPage' });
    expect(selectListSelected(actor.getSnapshot())).toHaveLength(20);
    rows = ROWS.slice(10);
    actor.send({ type: 'list.reload' });
    await settle();
    expect(selectListSelected(actor.getSnapshot())).toEqual(ROWS.slice(10, 20).map((r) => r.id));
    actor.send({ type: 'list.clearSelection' });
    expect(selectListSelected(actor.getSnapshot())).toEqual([]);
  });

  it('shows the failure and loads again on reload', async () => {
    let fail = true;
    const { actor } = start((q) => {
      if (fail) throw new Error('The server could not be reached. Please try again.');
      return serve(q);
    });
    await settle();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(selectListError(actor.getSnapshot())).toBe('The server could not be reached. Please try again.');
    fail = false;
    actor.send({ type: 'list.reload' });
    await settle();
    expect(actor.getSnapshot().value).toBe('ready');
    expect(selectListError(actor.getSnapshot())).toBeNull();
  });

  it('says the list could not be loaded when the failure has no message', async () => {
    const { actor } = start(() => Promise.reject(new Error('')));
    await settle();
    expect(selectListError(actor.getSnapshot())).toBe(OWN_MESSAGES.listLoadFailed);
  });

  it("says the page's own words for a failure when it has them, also when the server was not reached", async () => {
    const offline = Object.assign(new Error('The server could not be reached.'), { status: 0 });
    const actor = createActor(listMachine.provide({ actors: { fetchPage: fromPromise<ListPage, ListQuery>(() => Promise.reject(offline)) } }),
      { input: { failedMessage: 'The audit log could not be loaded.' } }).start();
    await settle();
    expect(selectListError(actor.getSnapshot())).toBe('The audit log could not be loaded.');
  });

  it('shows the last page when the page asked for is past it, and reports the clamped query (issue 38)', async () => {
    const reported: { offset: number; clamped: boolean }[] = [];
    const queries: ListQuery[] = [];
    const actor = createActor(listMachine.provide({
      actors: { fetchPage: fromPromise<ListPage, ListQuery>(async ({ input }) => { queries.push(input); return serve(input); }) },
      actions: { queryChanged: ({ context }, params) => { reported.push({ offset: context.query.offset, clamped: params.clamped }); } },
    }), { input: { offset: 200 } }).start();
    await settle();
    await settle();
    expect(queries.map((q) => q.offset)).toEqual([200, 40]);
    expect(reported).toEqual([{ offset: 40, clamped: true }]);
    expect(selectListPaging(actor.getSnapshot())).toEqual({ page: 3, pages: 3, from: 41, to: 45, previousOffset: 20, nextOffset: null });
  });

  it('keeps an empty list on its first page (nothing to clamp to)', async () => {
    const { actor, queries } = start(() => ({ items: [], total: 0 }));
    await settle();
    expect(queries).toHaveLength(1);
    expect(selectListIsEmpty(actor.getSnapshot())).toBe(true);
  });

  it('takes a whole query at once from a parent that keeps it, and reports it', async () => {
    const reported: ListQuery[] = [];
    const loaded: number[] = [];
    const actor = createActor(listMachine.provide({
      actors: { fetchPage: fromPromise<ListPage, ListQuery>(async ({ input }) => serve(input)) },
      actions: {
        queryChanged: ({ context }) => { reported.push(context.query); },
        pageLoaded: (_, params) => { loaded.push(params.page.total); },
      },
    }), { input: {} }).start();
    await settle();
    actor.send({ type: 'list.query', search: 'Silver', filters: { kind: 'Silver' }, offset: 20 });
    await settle();
    expect(reported).toEqual([{ search: 'Silver', filters: { kind: 'Silver' }, offset: 20, limit: 20 }]);
    expect(selectListPaging(actor.getSnapshot())).toMatchObject({ page: 2, from: 21, to: 22 });
    expect(loaded).toEqual([45, 22]);
    actor.send({ type: 'list.query', search: '', filters: {} });
    expect(selectListQuery(actor.getSnapshot()).offset).toBe(0);
  });

  it('aborts the running request when the query changes during a load', async () => {
    const signals: AbortSignal[] = [];
    const actor = createActor(listMachine.provide({
      actors: {
        fetchPage: fromPromise<ListPage, ListQuery>(({ signal }) => {
          signals.push(signal);
          return new Promise(() => {});
        }),
      },
    }), { input: {} }).start();
    actor.send({ type: 'list.filter', name: 'status', value: 'active' });
    expect(signals).toHaveLength(2);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
  });
});

describe('list: every path', () => {
  const page: ListPage = { items: [{ id: 'a' }, { id: 'b' }], total: 30 };
  const events = [
    { type: 'list.search', search: 'gold' },
    { type: 'list.filter', name: 'status', value: 'active' },
    { type: 'list.filters', filters: { status: 'ended' } },
    { type: 'list.query', search: '', filters: {}, offset: 40 },
    { type: 'list.page', offset: 20 },
    { type: 'list.page', offset: 99 },
    { type: 'list.reload' },
    { type: 'list.toggle', id: 'a' },
    { type: 'list.toggle', id: 'zz' },
    { type: 'list.selectPage' },
    { type: 'list.clearSelection' },
    { type: 'xstate.done.actor.fetchPage', output: page },
    { type: 'xstate.done.actor.fetchPage', output: { items: [], total: 30 } },
    { type: 'xstate.error.actor.fetchPage', error: new Error('down') },
    ...delayedEvents(listMachine),
  ];
  itReachesEveryStateAndTransition(listMachine, {
    events,
    input: {},
    logic: listMachine.provide({ actors: { fetchPage: pendingActor() } }),
    serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.query.offset, snapshot.context.selected.length > 0, snapshot.context.items.length]),
  });
});
