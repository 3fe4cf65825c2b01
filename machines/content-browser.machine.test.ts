import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, type AnyActorLogic } from 'xstate';
import type { ContentSummary } from '../common/content';
import { AVAILABILITY_MESSAGES } from '../common/content-availability';
import { OWN_MESSAGES } from '../common/messages';
import {
  bulkDoneText, CONTENT_BULK_CONFLICT, CONTENT_PAGE_SIZE, contentBrowserMachine, contentFetchPage, contentListMachine, SEARCH_DEBOUNCE_MS,
  selectCanSelect, selectIsBulkSaving, selectIsEmpty, selectIsLoading, selectKeyword, selectKind, selectList, selectListError,
  selectPaging, selectRows, selectSelected, selectSort, selectStatusFilter, selectTab,
  selectAllMatching, selectBulkConfirm, selectCanSelectAllMatching, selectFilters,
  type BulkMatchingInput, type BulkOutcome, type BulkStatusInput, type ContentListPage, type LoadListInput,
} from './content-browser.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';
import { delayedEvents } from './test-harness/paths';

const row = (n: number, over: Partial<ContentSummary> = {}): ContentSummary => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  kind: 'video', title: `Title ${n}`, status: 'published', durationSeconds: 60 * n, plays30d: n,
  updatedAt: '2026-01-01T00:00:00.000Z', version: 1, artworkUrl: '', ...over,
});
const PAGE: ContentListPage = { items: [row(1), row(2), row(3)], total: 45, start: 0 };

type LoadList = (input: LoadListInput) => Promise<ContentListPage>;

/** A loadList whose answers the test releases one by one, in any order. */
function controlledLoads() {
  const calls: { input: LoadListInput; resolve: (page: ContentListPage) => void; reject: (e: unknown) => void }[] = [];
  const logic: LoadList = (input) => new Promise((resolve, reject) => {
    calls.push({ input, resolve, reject });
  });
  return { calls, logic };
}

/** The library's list child reading through `load` (as the wiring's fetch; by default it never answers). */
const listReading = (load: LoadList = () => new Promise(() => undefined)) => contentListMachine.provide({ actors: { fetchPage: contentFetchPage(load) } });

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(actors: { loadList?: LoadList; bulkStatus?: AnyActorLogic } = {}) {
  const clock = new SimulatedClock();
  const actor = createActor(contentBrowserMachine.provide({
    actors: { list: listReading(actors.loadList), bulkStatus: actors.bulkStatus ?? pendingActor() },
  }), { clock }).start();
  return { actor, clock };
}

describe('contentBrowser: spec §3 state', () => {
  it('starts on tab 0, kind video, no keyword, no list; loads when the library route is shown', async () => {
    const loads = controlledLoads();
    const { actor } = start({ loadList: loads.logic });
    const s = actor.getSnapshot();
    expect([selectTab(s), selectKind(s), selectKeyword(s), selectList(s)]).toEqual([0, 'video', '', null]);
    actor.send({ type: 'path.changed', path: '/content' });
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
    expect(loads.calls[0]!.input).toEqual({ mediaType: 'video', q: '', status: null, sort: '-updated', start: 0, limit: CONTENT_PAGE_SIZE });
    loads.calls[0]!.resolve(PAGE);
    await flush();
    expect(selectRows(actor.getSnapshot())).toEqual(PAGE.items);
    expect(selectPaging(actor.getSnapshot())).toEqual({ first: 1, last: 3, total: 45, previousStart: null, nextStart: CONTENT_PAGE_SIZE });
  });

  it('clears the keyword and the list on every route change, keeping tab, kind, filter and sort', async () => {
    const loads = controlledLoads();
    const { actor, clock } = start({ loadList: loads.logic });
    actor.send({ type: 'path.changed', path: '/content' });
    actor.send({ type: 'list.tab', index: 3 });
    actor.send({ type: 'list.status', status: 'draft' });
    actor.send({ type: 'list.sort', sort: 'title' });
    actor.send({ type: 'list.search', keyword: 'storm' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    loads.calls.at(-1)!.resolve(PAGE);
    await flush();
    expect(selectKeyword(actor.getSnapshot())).toBe('storm');

    actor.send({ type: 'path.changed', path: '/content/live/abc' });
    let s = actor.getSnapshot();
    expect(s.matches('away')).toBe(true);
    expect([selectKeyword(s), selectList(s)]).toEqual(['', null]);
    expect([selectTab(s), selectKind(s), selectStatusFilter(s), selectSort(s)]).toEqual([3, 'live', 'draft', 'title']);

    actor.send({ type: 'path.changed', path: '/content/' });
    s = actor.getSnapshot();
    expect(selectKeyword(s)).toBe('');
    expect(loads.calls.at(-1)!.input).toMatchObject({ mediaType: 'live', q: '', status: 'draft', sort: 'title', start: 0 });
  });

  it('ignores a tab index that has no kind', () => {
    const { actor } = start();
    actor.send({ type: 'path.changed', path: '/content' });
    actor.send({ type: 'list.tab', index: 9 });
    expect(selectTab(actor.getSnapshot())).toBe(0);
  });
});

describe('contentBrowser: debounced search and stale answers', () => {
  it('asks once typing pauses for the debounce delay', () => {
    const loads = controlledLoads();
    const { actor, clock } = start({ loadList: loads.logic });
    actor.send({ type: 'path.changed', path: '/content' });
    actor.send({ type: 'list.search', keyword: 's' });
    clock.increment(SEARCH_DEBOUNCE_MS - 1);
    actor.send({ type: 'list.search', keyword: 'st' });
    clock.increment(SEARCH_DEBOUNCE_MS - 1);
    actor.send({ type: 'list.search', keyword: 'sto ' });
    expect(loads.calls).toHaveLength(1);
    clock.increment(SEARCH_DEBOUNCE_MS);
    expect(loads.calls).toHaveLength(2);
    expect(loads.calls[1]!.input.q).toBe('sto');
  });

  it('drops the answer to an older query that arrives after a newer one started', async () => {
    const loads = controlledLoads();
    const { actor } = start({ loadList: loads.logic });
    actor.send({ type: 'path.changed', path: '/content' });
    actor.send({ type: 'list.page', start: 20 });
    const [older, newer] = loads.calls;
    newer!.resolve({ ...PAGE, start: 20 });
    await flush();
    older!.resolve({ ...PAGE, items: [row(99)] });
    await flush();
    expect(selectRows(actor.getSnapshot()).map((r) => r.title)).toEqual(['Title 1', 'Title 2', 'Title 3']);
    expect(selectPaging(actor.getSnapshot())).toMatchObject({ first: 21, previousStart: 0 });
  });

  it('shows the empty state when nothing matches, and the error with a retry when loading fails', async () => {
    const loads = controlledLoads();
    const { actor } = start({ loadList: loads.logic });
    actor.send({ type: 'path.changed', path: '/content' });
    loads.calls[0]!.reject(Object.assign(new Error('boom'), { status: 500 }));
    await flush();
    expect(selectListError(actor.getSnapshot())).toBe('boom');
    actor.send({ type: 'list.retry' });
    loads.calls[1]!.reject(Object.assign(new Error('fetch failed'), { status: 0 }));
    await flush();
    expect(selectListError(actor.getSnapshot())).toBe(OWN_MESSAGES.contentLoadFailed);
    actor.send({ type: 'list.retry' });
    loads.calls[2]!.resolve({ items: [], total: 0, start: 0 });
    await flush();
    expect(selectIsEmpty(actor.getSnapshot())).toBe(true);
    expect(selectPaging(actor.getSnapshot())).toMatchObject({ first: 0, last: 0, nextStart: null });
  });
});

describe('contentBrowser: selection and bulk status', () => {
  async function readyWith(bulk: AnyActorLogic) {
    const loads = controlledLoads();
    const started = start({ loadList: loads.logic, bulkStatus: bulk });
    started.actor.send({ type: 'path.changed', path: '/content' });
    loads.calls[0]!.resolve({ ...PAGE, items: [row(1), row(2, { version: 4 }), row(3)] });
    await flush();
    return { ...started, loads };
  }

  it('selects rows and pages, and sends each selected row with its version', async () => {
    const sent: BulkStatusInput[] = [];
    const { actor, loads } = await readyWith(fromPromise<BulkOutcome, BulkStatusInput>(async ({ input }) => { sent.push(input); return input.items.length; }));
    expect(selectCanSelect(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'list.selectPage', selected: true });
    expect(selectSelected(actor.getSnapshot())).toHaveLength(3);
    actor.send({ type: 'list.selectPage', selected: false });
    actor.send({ type: 'list.select', id: row(2).id, selected: true });
    actor.send({ type: 'list.select', id: row(3).id, selected: true });
    actor.send({ type: 'list.select', id: row(3).id, selected: true });
    actor.send({ type: 'list.select', id: row(1).id, selected: false });
    actor.send({ type: 'list.bulk', status: 'unpublished' });
    // It asks first, naming the action and the count; cancelling keeps the selection.
    expect(selectBulkConfirm(actor.getSnapshot())).toEqual({ status: 'unpublished', count: 2 });
    actor.send({ type: 'list.cancel' });
    expect(selectBulkConfirm(actor.getSnapshot())).toBeNull();
    expect(selectSelected(actor.getSnapshot())).toHaveLength(2);
    actor.send({ type: 'list.bulk', status: 'unpublished' });
    actor.send({ type: 'list.confirm' });
    expect(selectIsBulkSaving(actor.getSnapshot())).toBe(true);
    await flush();
    // One request, named by its own id so the snackbar's Undo can name it (issue 28).
    expect(sent).toEqual([{ status: 'unpublished', items: [{ id: row(2).id, version: 4 }, { id: row(3).id, version: 1 }], requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    expect(selectSelected(actor.getSnapshot())).toEqual([]);
    expect(loads.calls).toHaveLength(2);
  });

  it('does nothing without a selection', async () => {
    const { actor } = await readyWith(pendingActor());
    actor.send({ type: 'list.bulk', status: 'published' });
    expect(selectIsBulkSaving(actor.getSnapshot())).toBe(false);
  });

  it('reloads after a conflict; keeps the selection after another failure', async () => {
    let attempt = 0;
    const { actor, loads } = await readyWith(fromPromise(async () => {
      attempt += 1;
      throw attempt === 1 ? Object.assign(new Error('changed'), { code: CONTENT_BULK_CONFLICT }) : new Error('refused');
    }));
    actor.send({ type: 'list.select', id: row(1).id, selected: true });
    actor.send({ type: 'list.bulk', status: 'published' });
    actor.send({ type: 'list.confirm' });
    await flush();
    expect(loads.calls).toHaveLength(2);
    expect(selectSelected(actor.getSnapshot())).toEqual([]);
    loads.calls[1]!.resolve(PAGE);
    await flush();
    actor.send({ type: 'list.select', id: row(1).id, selected: true });
    actor.send({ type: 'list.bulk', status: 'published' });
    actor.send({ type: 'list.confirm' });
    await flush();
    expect(actor.getSnapshot().matches({ library: 'ready' })).toBe(true);
    expect(selectSelected(actor.getSnapshot())).toEqual([row(1).id]);
  });
});

describe('contentBrowser: the address (issue 29)', () => {
  function startWithUrl(actors: { loadList?: LoadList; bulkMatching?: AnyActorLogic } = {}) {
    const clock = new SimulatedClock();
    const urls: { to: string; replace: boolean }[] = [];
    const actor = createActor(contentBrowserMachine.provide({
      actors: { list: listReading(actors.loadList), bulkStatus: pendingActor(), bulkMatching: actors.bulkMatching ?? pendingActor() },
      actions: { navigateUrl: (_, params: { to: string; replace: boolean }) => { urls.push(params); } },
    }), { clock }).start();
    return { actor, clock, urls };
  }

  it('reads tab, keyword, status, sort and page from the address (reload, Back, a shared link) and writes nothing back', () => {
    const loads = controlledLoads();
    const { actor, urls } = startWithUrl({ loadList: loads.logic });
    actor.send({ type: 'path.changed', path: '/content', search: { tab: 'series', q: 'storm', status: 'draft', sort: 'title', page: 3 } });
    expect(loads.calls[0]!.input).toEqual({ mediaType: 'series', q: 'storm', status: 'draft', sort: 'title', start: 2 * CONTENT_PAGE_SIZE, limit: CONTENT_PAGE_SIZE });
    expect([selectTab(actor.getSnapshot()), selectKeyword(actor.getSnapshot())]).toEqual([1, 'storm']);
    expect(urls).toEqual([]);
    // Values the address may not hold are dropped: the defaults apply.
    actor.send({ type: 'path.changed', path: '/content', search: { tab: 'podcast', status: 'archived', sort: 'price', page: -4, q: 'x' } });
    expect(loads.calls[1]!.input).toEqual({ mediaType: 'video', q: 'x', status: null, sort: '-updated', start: 0, limit: CONTENT_PAGE_SIZE });
    expect(urls).toEqual([]);
  });

  it('back at the bare address from another page, keeps tab, filter and sort (spec §3) and writes them as the address', () => {
    const loads = controlledLoads();
    const { actor, urls } = startWithUrl({ loadList: loads.logic });
    actor.send({ type: 'path.changed', path: '/content', search: { tab: 'series', q: 'storm', status: 'draft' } });
    actor.send({ type: 'path.changed', path: '/content/series/abc', search: {} });
    actor.send({ type: 'path.changed', path: '/content', search: {} });
    expect(loads.calls.at(-1)!.input).toMatchObject({ mediaType: 'series', q: '', status: 'draft' });
    expect(urls).toEqual([{ to: '/content?tab=series&status=draft', replace: true }]);
    // On the library itself, the bare address (Back to it) is the default library.
    actor.send({ type: 'path.changed', path: '/content', search: {} });
    expect(loads.calls.at(-1)!.input).toMatchObject({ mediaType: 'video', q: '', status: null });
  });

  it('writes each change as the address: a new entry for tab, filter, sort and page, the same entry while typing; its own address is not read again', () => {
    const loads = controlledLoads();
    const { actor, clock, urls } = startWithUrl({ loadList: loads.logic });
    actor.send({ type: 'path.changed', path: '/content', search: {} });
    actor.send({ type: 'list.tab', index: 2 });
    actor.send({ type: 'list.status', status: 'published' });
    actor.send({ type: 'list.search', keyword: 'nig' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    actor.send({ type: 'list.page', start: CONTENT_PAGE_SIZE });
    expect(urls).toEqual([
      { to: '/content?tab=episode', replace: false },
      { to: '/content?tab=episode&status=published', replace: false },
      { to: '/content?tab=episode&q=nig&status=published', replace: true },
      { to: '/content?tab=episode&q=nig&status=published&page=2', replace: false },
    ]);
    const calls = loads.calls.length;
    actor.send({ type: 'path.changed', path: '/content', search: { tab: 'episode', q: 'nig', status: 'published', page: 2 } });
    expect(loads.calls).toHaveLength(calls);
    // Back to an earlier address: read and loaded.
    actor.send({ type: 'path.changed', path: '/content', search: { tab: 'episode' } });
    expect(loads.calls.at(-1)!.input).toMatchObject({ mediaType: 'episode', q: '', status: null, start: 0 });
    expect(urls).toHaveLength(4);
  });

  it("shows the last page for an address's page past it, and corrects the address in place (issue 38)", async () => {
    const reads: number[] = [];
    const { actor, urls } = startWithUrl({
      loadList: async (input) => { reads.push(input.start); return { items: input.start < 45 ? [41, 42, 43, 44, 45].map((n) => row(n)) : [], total: 45, start: input.start }; },
    });
    actor.send({ type: 'path.changed', path: '/content', search: { status: 'draft', page: 9 } });
    await flush();
    await flush();
    expect(reads).toEqual([8 * CONTENT_PAGE_SIZE, 2 * CONTENT_PAGE_SIZE]);
    expect(urls).toEqual([{ to: '/content?status=draft&page=3', replace: true }]);
    expect(selectPaging(actor.getSnapshot())).toMatchObject({ first: 41, last: 45, total: 45, previousStart: CONTENT_PAGE_SIZE, nextStart: null });
  });

  it('shows the filters as chips and clears them at once', async () => {
    const loads = controlledLoads();
    const { actor, urls } = startWithUrl({ loadList: loads.logic });
    actor.send({ type: 'path.changed', path: '/content', search: { q: 'storm', status: 'draft' } });
    expect(selectFilters(actor.getSnapshot())).toEqual({ keyword: 'storm', status: 'draft' });
    loads.calls[0]!.resolve({ items: [], total: 0, start: 0 });
    await flush();
    actor.send({ type: 'list.clearFilters' });
    expect(selectFilters(actor.getSnapshot())).toEqual({ keyword: '', status: null });
    expect(urls.at(-1)).toEqual({ to: '/content', replace: false });
    actor.send({ type: 'list.clearFilters' });
    expect(loads.calls).toHaveLength(2);
  });

  it('"select all N matching" sends the filter and the count shown, after asking', async () => {
    const loads = controlledLoads();
    const sent: BulkMatchingInput[] = [];
    const { actor } = startWithUrl({
      loadList: loads.logic,
      bulkMatching: fromPromise<BulkOutcome, BulkMatchingInput>(async ({ input }) => { sent.push(input); return input.expected; }),
    });
    actor.send({ type: 'path.changed', path: '/content', search: { q: 'night', status: 'published' } });
    loads.calls[0]!.resolve(PAGE);
    await flush();
    expect(selectCanSelectAllMatching(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'list.selectAllMatching' });
    expect(selectAllMatching(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'list.selectPage', selected: true });
    expect(selectCanSelectAllMatching(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'list.selectAllMatching' });
    expect(selectAllMatching(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'list.bulk', status: 'unpublished' });
    expect(selectBulkConfirm(actor.getSnapshot())).toEqual({ status: 'unpublished', count: 45 });
    actor.send({ type: 'list.confirm' });
    expect(selectIsBulkSaving(actor.getSnapshot())).toBe(true);
    await flush();
    expect(sent).toEqual([{ status: 'unpublished', expected: 45, mediaType: 'video', q: 'night', filterStatus: 'published' }]);
    expect(selectAllMatching(actor.getSnapshot())).toBe(false);
    expect(loads.calls).toHaveLength(2);
    // Unselecting a row leaves "all matching".
    loads.calls[1]!.resolve(PAGE);
    await flush();
    actor.send({ type: 'list.selectPage', selected: true });
    actor.send({ type: 'list.selectAllMatching' });
    actor.send({ type: 'list.select', id: row(1).id, selected: false });
    expect(selectAllMatching(actor.getSnapshot())).toBe(false);
  });
});

describe('contentBrowser: every path', () => {
  const events = [
    { type: 'path.changed', path: '/content' },
    { type: 'path.changed', path: '/analytics' },
    { type: 'list.tab', index: 1 },
    { type: 'list.tab', index: 7 },
    { type: 'list.search', keyword: 'storm' },
    { type: 'list.status', status: 'draft' },
    { type: 'list.sort', sort: 'title' },
    { type: 'list.page', start: 20 },
    { type: 'list.retry' },
    { type: 'list.select', id: row(1).id, selected: true },
    { type: 'list.selectPage', selected: false },
    { type: 'list.bulk', status: 'unpublished' },
    // What the list child reports: a page read, a query read (a page past the last one clamped to it).
    { type: 'list.loaded', page: PAGE },
    { type: 'list.queried', query: { search: '', filters: { mediaType: 'video', status: '', sort: '-updated' }, offset: 40, limit: CONTENT_PAGE_SIZE }, clamped: true },
    { type: 'xstate.done.actor.bulkStatus', output: 1 },
    { type: 'xstate.error.actor.bulkStatus', error: Object.assign(new Error('changed'), { code: CONTENT_BULK_CONFLICT }) },
    { type: 'xstate.error.actor.bulkStatus', error: new Error('refused') },
    { type: 'path.changed', path: '/content', search: { tab: 'series', q: 'storm' } },
    { type: 'path.changed', path: '/content', search: {} },
    { type: 'list.selectPage', selected: true },
    { type: 'list.selectAllMatching' },
    { type: 'list.confirm' },
    { type: 'list.cancel' },
    { type: 'list.clearFilters' },
    { type: 'undo.done', requestId: 'req-1' },
    { type: 'xstate.done.actor.bulkMatching', output: 45 },
    { type: 'xstate.error.actor.bulkMatching', error: Object.assign(new Error('changed'), { code: CONTENT_BULK_CONFLICT }) },
    { type: 'xstate.error.actor.bulkMatching', error: new Error('refused') },
    ...delayedEvents(contentBrowserMachine),
  ];
  // The paths are listed on snapshots of xstate/graph, which hold no children in the bulk states: there the
  // sends to the `list` and `lastBulk` children are left out (the same states and transitions); each path is
  // then driven on the real machine (`logic`), children and sends included.
  const explored = contentBrowserMachine.provide({ actions: { reloadList: () => undefined, keepLastBulk: () => undefined } });
  itReachesEveryStateAndTransition(explored, {
    events,
    logic: contentBrowserMachine.provide({ actors: { list: listReading(), bulkStatus: pendingActor(), bulkMatching: pendingActor() } }),
    serializeState: (s) => JSON.stringify([s.value, s.context.selected.length, s.context.tab, s.context.allMatching, s.context.lastUrl, s.context.keyword !== '', s.context.list !== null]),
  });
});

describe('bulkDoneText (issue 37)', () => {
  it('says the count, and what the change did besides when the server says so (a cancelled pending unpublish)', () => {
    const message = AVAILABILITY_MESSAGES.unpublishCancelledMany(2);
    expect(bulkDoneText(3)).toBe(OWN_MESSAGES.contentBulkDone(3, 'updated'));
    expect(bulkDoneText({ updated: 3 })).toBe(OWN_MESSAGES.contentBulkDone(3, 'updated'));
    expect(bulkDoneText({ updated: 3, message })).toBe(`${OWN_MESSAGES.contentBulkDone(3, 'updated')} ${message}`);
  });
});
