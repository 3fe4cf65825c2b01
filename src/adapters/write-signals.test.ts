/**
 * Issue 38: a refund in one tab reaches a report page open in another (./write-signals.ts): over a real
 * BroadcastChannel (Node's, the browser's API) and over the `storage` event where there is none; the
 * report wiring drops this tab's cached answers and tells its machine; the support and monetization
 * writers post after a write that committed, and only then.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, toPromise } from 'xstate';
import { createGraphqlClient } from '../api/graphql';
import type { GraphqlClient } from '../api/graphql';
import { PLAN_ACTIONS } from '../../common/monetization-contract';
import { planActionActor } from './monetization-actors';
import { createStaleAnswerDrop, writeSignalsActorOf } from './report-actors';
import { createSupportActors, writeKindOf } from './support-actors';
import { announceUndo, createUndoActors } from './undo-actors';
import { configureClient } from '../api/client';
import {
  WRITE_SIGNAL_CHANNEL, WRITE_SIGNAL_KEY, createWriteSignals, writeSignalOf, writeSignals,
  type SignalChannel, type StorageChange, type WriteSignal, type WriteSignalHost,
} from './write-signals';

/** Local storage shared by the tabs of one origin. */
function sharedStorage() {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => { items.set(key, value); } };
}

/** The origin's `storage` events: a write in one tab is an event in every OTHER tab (as browsers do). */
function storageEvents(storage: ReturnType<typeof sharedStorage>) {
  const tabs: { listeners: Set<(event: StorageChange) => void> }[] = [];
  return {
    tab(now: () => number): WriteSignalHost {
      const me = { listeners: new Set<(event: StorageChange) => void>() };
      tabs.push(me);
      return {
        now,
        storage: {
          getItem: storage.getItem,
          setItem: (key, value) => {
            storage.setItem(key, value);
            for (const other of tabs) if (other !== me) for (const listener of other.listeners) listener({ key, newValue: value });
          },
        },
        onStorage: (listener) => {
          me.listeners.add(listener);
          return () => me.listeners.delete(listener);
        },
      };
    },
    listening: () => tabs.reduce((n, tab) => n + tab.listeners.size, 0),
  };
}

const opened: SignalChannel[] = [];
function realChannel(name: string): SignalChannel {
  const channel = new BroadcastChannel(name);
  opened.push(channel);
  return channel;
}
/** Until a BroadcastChannel message has been delivered (they are asynchronous). */
const delivered = () => new Promise((resolve) => setTimeout(resolve, 20));

afterEach(() => {
  for (const channel of opened.splice(0)) channel.close();
});

describe('write signals across tabs (issue 38)', () => {
  it('over a BroadcastChannel: the other tab hears the write, the writing tab does not hear itself', async () => {
    const storage = sharedStorage();
    const a = createWriteSignals({ openChannel: realChannel, storage, now: () => 1_000 });
    const b = createWriteSignals({ openChannel: realChannel, storage, now: () => 2_000 });
    const heardByA: WriteSignal[] = [];
    const heardByB: WriteSignal[] = [];
    a.subscribe((signal) => heardByA.push(signal));
    const stopB = b.subscribe((signal) => heardByB.push(signal));
    expect(a.post('payment')).toEqual({ kind: 'payment', at: 1_000 });
    await delivered();
    expect(heardByB).toEqual([{ kind: 'payment', at: 1_000 }]);
    expect(heardByA).toEqual([]);
    expect(b.lastWriteAt()).toBe(1_000);
    stopB();
    a.post('subscription');
    await delivered();
    expect(heardByB).toHaveLength(1);
  });

  it('a message on the channel that is not a signal is ignored', async () => {
    const b = createWriteSignals({ openChannel: realChannel });
    const heard = vi.fn();
    b.subscribe(heard);
    const stranger = realChannel(WRITE_SIGNAL_CHANNEL);
    stranger.postMessage({ kind: 'everything', at: 1 });
    stranger.postMessage('hello');
    stranger.postMessage({ kind: 'payment', at: 5 });
    await delivered();
    expect(heard.mock.calls).toEqual([[{ kind: 'payment', at: 5 }]]);
  });

  it('without a BroadcastChannel, over the storage event of its key: other tabs hear it, other keys and bad values are ignored', () => {
    const storage = sharedStorage();
    const origin = storageEvents(storage);
    const a = createWriteSignals(origin.tab(() => 3_000));
    const bHost = origin.tab(() => 4_000);
    const b = createWriteSignals(bHost);
    const heardByA = vi.fn();
    const heardByB = vi.fn();
    const alsoByB = vi.fn();
    a.subscribe(heardByA);
    const stop = b.subscribe(heardByB);
    const stopAlso = b.subscribe(alsoByB);
    a.post('payment');
    expect(heardByB.mock.calls).toEqual([[{ kind: 'payment', at: 3_000 }]]);
    expect(alsoByB.mock.calls).toEqual([[{ kind: 'payment', at: 3_000 }]]);
    expect(heardByA).not.toHaveBeenCalled();
    bHost.storage!.setItem('other-key', JSON.stringify({ kind: 'payment', at: 1 }));
    bHost.storage!.setItem(WRITE_SIGNAL_KEY, 'not json');
    expect(heardByA).not.toHaveBeenCalled();
    stop();
    expect(origin.listening()).toBe(2);
    stopAlso();
    stopAlso();
    expect(origin.listening()).toBe(1);
    a.post('subscription');
    expect(heardByB).toHaveBeenCalledTimes(1);
    expect(alsoByB).toHaveBeenCalledTimes(1);
    expect(b.lastWriteAt()).toBe(3_000);
  });

  it('never throws: no storage, storage that refuses, a channel that cannot open; lastWriteAt is 0 when nothing is known', () => {
    const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    const signals = createWriteSignals({ storage: refusing, openChannel: () => { throw new Error('no channel'); } });
    expect(() => signals.post('payment')).not.toThrow();
    expect(signals.lastWriteAt()).toBe(0);
    const stop = signals.subscribe(() => undefined);
    expect(() => stop()).not.toThrow();
    const bare = createWriteSignals({});
    expect(bare.post('subscription').kind).toBe('subscription');
    expect(bare.lastWriteAt()).toBe(0);
    bare.subscribe(() => undefined)();
  });

  it('reads a signal from the wire or from storage text, and nothing else', () => {
    expect(writeSignalOf({ kind: 'payment', at: 7 })).toEqual({ kind: 'payment', at: 7 });
    expect(writeSignalOf('{"kind":"subscription","at":8}')).toEqual({ kind: 'subscription', at: 8 });
    for (const bad of [null, undefined, 3, '{', '"x"', { kind: 'payment' }, { at: 1 }, { kind: 'refund', at: 1 }, { kind: 'payment', at: '1' }, { kind: 'payment', at: Number.NaN }]) {
      expect(writeSignalOf(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('the report wiring hears them (issue 38)', () => {
  it('a write elsewhere drops this tab\'s cached answers, then tells the report machine which kind', async () => {
    const storage = sharedStorage();
    const origin = storageEvents(storage);
    const elsewhere = createWriteSignals(origin.tab(() => 10));
    const here = createWriteSignals(origin.tab(() => 20));
    const order: string[] = [];
    const parent = createMachine({
      invoke: { src: writeSignalsActorOf(here, () => order.push('cache dropped')) },
      on: { 'report.staleFromElsewhere': { actions: ({ event }) => order.push(`stale: ${String(event.kind)}`) } },
    });
    const actor = createActor(parent).start();
    elsewhere.post('payment');
    elsewhere.post('subscription');
    expect(order).toEqual(['cache dropped', 'stale: payment', 'cache dropped', 'stale: subscription']);
    actor.stop();
    expect(origin.listening()).toBe(0);
    elsewhere.post('payment');
    expect(order).toHaveLength(4);
  });

  it('coming back to a report after a write elsewhere (this tab was on another page) drops the answers cached before it, once', () => {
    let last = 0;
    const clear = vi.fn();
    const drop = createStaleAnswerDrop({ lastWriteAt: () => last }, clear);
    drop();
    expect(clear).not.toHaveBeenCalled();
    last = 1_000;
    drop();
    drop();
    expect(clear).toHaveBeenCalledTimes(1);
    last = 2_000;
    drop();
    expect(clear).toHaveBeenCalledTimes(2);
  });
});

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const CREDENTIALS = { accessToken: 'tok', apiKey: 'key' };
function clientAnswering(body: () => Response): GraphqlClient {
  const fetch: typeof globalThis.fetch = async () => body();
  return createGraphqlClient({ url: 'http://test/management/graphql', fetch, getCredentials: () => CREDENTIALS });
}

describe('the writers post after a write that committed (issue 38)', () => {
  const detail = { profile: {}, subscriptions: [], payments: [], devices: [], notes: [], planOptions: [] };

  it('a refund posts "payment", a plan change "subscription"; grant days and notes move no figure and post nothing', async () => {
    const announce = vi.fn();
    const refund = createActor(createSupportActors(clientAnswering(() => json({ data: { paymentRefund: detail } })), announce).runAction, {
      input: { kind: 'refundPayment', paymentId: 'p1', amount: 650, full: false, reason: 'Outage', version: 1 },
    }).start();
    await toPromise(refund);
    expect(announce.mock.calls).toEqual([['payment']]);
    expect(writeKindOf('changePlan')).toBe('subscription');
    expect(writeKindOf('cancelSubscription')).toBe('subscription');
    expect(writeKindOf('resumeSubscription')).toBe('subscription');
    for (const kind of ['grantDays', 'signOutDevices', 'addNote', 'revealContact'] as const) expect(writeKindOf(kind), kind).toBeNull();
  });

  it('a refused refund posts nothing', async () => {
    const announce = vi.fn();
    const refund = createActor(createSupportActors(clientAnswering(() => json({ errors: [{ message: 'Someone else changed this payment.' }] })), announce).runAction, {
      input: { kind: 'refundPayment', paymentId: 'p1', amount: 650, full: false, reason: 'Outage', version: 1 },
    }).start();
    await expect(toPromise(refund)).rejects.toThrow();
    expect(announce).not.toHaveBeenCalled();
  });

  it('an Undo that committed posts both kinds (it may reverse a refund or a subscription change); a refused one posts nothing', async () => {
    const announce = vi.fn();
    let status = 409;
    configureClient({ fetch: (async () => new Response(JSON.stringify(status === 200 ? { success: true, revisions: [] } : { success: false, message: 'changed since' }), { status, headers: { 'content-type': 'application/json' } })) });
    const undo = () => toPromise(createActor(createUndoActors(() => CREDENTIALS, announce).applyUndo, { input: { requestId: 'r1' } }).start());
    await expect(undo()).rejects.toThrow('changed since');
    expect(announce).not.toHaveBeenCalled();
    status = 200;
    await undo();
    expect(announce).toHaveBeenCalledTimes(1);
    configureClient({ fetch: (...args) => globalThis.fetch(...args) });
  });

  it('announceUndo posts a payment and a subscription write to the other tabs', async () => {
    const posted: string[] = [];
    const stop = writeSignals().subscribe(() => undefined);
    const other = createWriteSignals({ openChannel: realChannel });
    other.subscribe((signal) => posted.push(signal.kind));
    await announceUndo();
    await delivered();
    expect(posted).toEqual(['payment', 'subscription']);
    stop();
  });

  it('moving a plan\'s subscribers to its current price posts "subscription" when any moved', async () => {
    const announce = vi.fn();
    let moved = 416;
    const actor = planActionActor(clientAnswering(() => json({ data: { planMoveSubscribersAtRenewal: { moved } } })), announce);
    const move = () => toPromise(createActor(actor, { input: { name: PLAN_ACTIONS.moveAtRenewal, args: { id: 'plan-1', version: '3' }, label: 'Basic Monthly' } }).start());
    await move();
    expect(announce.mock.calls).toEqual([['subscription']]);
    moved = 0;
    await move();
    expect(announce).toHaveBeenCalledTimes(1);
  });
});
