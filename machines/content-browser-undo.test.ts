/**
 * Issue 28: a bulk publish / unpublish of the selected rows is one request named by its own id; once the
 * Undo went through (`undo.done`) the list is read again. Issue 38: the snackbar keeps its message, and
 * the Undo lasts on the page (the `lastBulk` child: "Undo publish of 2 items") until a newer bulk change
 * or leaving the library, no longer 8 s in the message.
 */
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, SimulatedClock } from 'xstate';
import type { ContentSummary } from '../common/content';
import { UNDO_ACCEPT_MS } from '../common/revisions';
import { selectLastingChange } from './lasting-undo.machine';
import { bulkUndoLabel, contentBrowserMachine, contentFetchPage, contentListMachine, selectLastBulk, selectSelected, type BulkOutcome, type BulkStatusInput, type ContentListPage, type LoadListInput } from './content-browser.machine';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

const row = (n: number): ContentSummary => ({
  id: `00000000-0000-4000-8000-00000000000${n}`, kind: 'video', title: `Item ${n}`, status: 'draft', version: n, updatedAt: '2026-01-01T00:00:00.000Z',
  durationSeconds: 60, plays30d: 0, artworkUrl: '',
});
const PAGE: ContentListPage = { items: [row(1), row(2)], total: 2, start: 0 };

function start() {
  const clock = new SimulatedClock();
  const shown: unknown[] = [];
  const sent: BulkStatusInput[] = [];
  const loads: LoadListInput[] = [];
  const browser = contentBrowserMachine.provide({
    actors: {
      list: contentListMachine.provide({ actors: { fetchPage: contentFetchPage(async (input: LoadListInput) => { loads.push(input); return PAGE; }) } }),
      bulkStatus: fromPromise<BulkOutcome, BulkStatusInput>(async ({ input }) => { sent.push(input); return input.items.length; }),
    },
  });
  const notifier = createMachine({ on: { 'notify.show': { actions: ({ event }) => { shown.push(event); } } } });
  // The browser and a stand-in notifier in one system, as in the app.
  const root = createActor(createMachine({
    invoke: [{ id: 'notifier', systemId: 'notifier', src: notifier }, { id: 'contentBrowser', systemId: 'contentBrowser', src: browser }],
  }), { clock }).start();
  const actor = root.system.get('contentBrowser');
  if (!actor) throw new Error('The contentBrowser actor is not in the system');
  const offered = () => selectLastingChange(selectLastBulk(actor.getSnapshot())?.getSnapshot());
  return { actor, shown, sent, loads, offered, clock };
}

describe('contentBrowser: Undo of a bulk change (issue 28)', () => {
  it('names the bulk request, says it in the snackbar and offers its Undo on the page; undo.done reads the list again', async () => {
    const { actor, shown, sent, loads, offered } = start();
    actor.send({ type: 'path.changed', path: '/content' });
    await flush();
    actor.send({ type: 'list.selectPage', selected: true });
    actor.send({ type: 'list.bulk', status: 'published' });
    actor.send({ type: 'list.confirm' });
    await flush();
    expect(sent).toHaveLength(1);
    const requestId = sent[0]!.requestId!;
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(shown).toEqual([{ type: 'notify.show', message: '2 items updated.', severity: 'success' }]);
    expect(offered()).toEqual({ requestId, label: 'Undo publish of 2 items', replyTo: 'contentBrowser' });
    const before = loads.length;
    actor.send({ type: 'list.select', id: row(1).id, selected: true });
    actor.send({ type: 'undo.done', requestId });
    expect(selectSelected(actor.getSnapshot())).toEqual([]);
    await flush();
    expect(loads).toHaveLength(before + 1);
    // The next bulk change is a request of its own.
    actor.send({ type: 'list.selectPage', selected: true });
    actor.send({ type: 'list.bulk', status: 'unpublished' });
    actor.send({ type: 'list.confirm' });
    await flush();
    expect(sent[1]!.requestId).not.toBe(requestId);
    // The newer change replaces the offer.
    expect(offered()).toEqual({ requestId: sent[1]!.requestId, label: 'Undo unpublish of 2 items', replyTo: 'contentBrowser' });
  });

  it('keeps offering the Undo past the snackbar\'s 8 s, until the server no longer accepts it or the library is left', async () => {
    const { actor, offered, clock } = start();
    actor.send({ type: 'path.changed', path: '/content' });
    await flush();
    actor.send({ type: 'list.selectPage', selected: true });
    actor.send({ type: 'list.bulk', status: 'published' });
    actor.send({ type: 'list.confirm' });
    await flush();
    clock.increment(UNDO_ACCEPT_MS - 1);
    expect(offered()?.label).toBe('Undo publish of 2 items');
    clock.increment(1);
    expect(offered()).toBeNull();
    actor.send({ type: 'list.selectPage', selected: true });
    actor.send({ type: 'list.bulk', status: 'published' });
    actor.send({ type: 'list.confirm' });
    await flush();
    expect(offered()).not.toBeNull();
    actor.send({ type: 'path.changed', path: '/content/video/00000000-0000-4000-8000-000000000001' });
    expect(selectLastBulk(actor.getSnapshot())).toBeUndefined();
  });

  it('words the Undo by the status and the count it changed', () => {
    expect(bulkUndoLabel('published', 1)).toBe('Undo publish of 1 item');
    expect(bulkUndoLabel('unpublished', { updated: 3, message: 'A pending unpublish was cancelled.' })).toBe('Undo unpublish of 3 items');
  });

  it('away from the library, an undo.done reads nothing', async () => {
    const { actor, loads } = start();
    actor.send({ type: 'undo.done', requestId: 'x' });
    await flush();
    expect(loads).toEqual([]);
  });
});
