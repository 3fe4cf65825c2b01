import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { OWN_MESSAGES } from '../common/messages';
import {
  pageActionMachine, selectActionError, selectActionMessage, selectActionPending, selectActionRunning, type PageActionAnswer, type PageActionRequest,
} from './page-action.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { pendingActor } from './test-harness/fakes';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(answer: (request: PageActionRequest) => string | Promise<string>) {
  const requests: PageActionRequest[] = [];
  let performed = 0;
  const actor = createActor(pageActionMachine.provide({
    actors: { perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => { requests.push(input); return answer(input); }) },
    actions: { performed: () => { performed += 1; } },
  }), { input: { confirm: ['delete'] } }).start();
  return { actor, requests, performed: () => performed };
}

const DELETE = { type: 'action.request', name: 'delete', args: { id: 'p1', version: 3 }, label: 'Gold' } as const;
const DUPLICATE = { type: 'action.request', name: 'duplicate', args: { id: 'p1' }, label: 'Gold' } as const;

describe('pageAction', () => {
  it('offers Undo of an answer naming its request in the snackbar, and has the page read again once undone (issue 28)', async () => {
    const effects: unknown[] = [];
    const notices: unknown[] = [];
    const actor = createActor(pageActionMachine.provide({
      actors: { perform: fromPromise<PageActionAnswer, PageActionRequest>(async () => ({ message: 'Coupon GOLD disabled.', undoRequestId: 'req-9' })) },
      actions: { performed: (_, params) => { effects.push(params); }, notify: (_, params) => { notices.push(params); } },
    }), { input: {} }).start();
    actor.send({ type: 'action.request', name: 'setStatus', args: { id: 'c1', version: 1, status: 'disabled' }, label: 'GOLD' });
    await settle();
    expect(selectActionMessage(actor.getSnapshot())).toBe('Coupon GOLD disabled.');
    expect(notices).toEqual([{ message: 'Coupon GOLD disabled.', severity: 'success', undo: { requestId: 'req-9', replyRef: actor } }]);
    actor.send({ type: 'undo.done', requestId: 'req-9' });
    expect(effects).toEqual([{ draft: {}, reread: false }, { draft: {}, reread: true }]);
  });

  it('shows the message of an answer with effects and tells the page what it changed; a plain answer changes nothing', async () => {
    const effects: unknown[] = [];
    const actor = createActor(pageActionMachine.provide({
      actors: {
        perform: fromPromise<PageActionAnswer, PageActionRequest>(async ({ input }) => {
          if (input.name === 'upload') return { message: 'Logo uploaded. Save to use it.', draft: { logoUrl: '/files/logo.png' } };
          return input.name === 'rotate' ? { message: 'Signing key rotated.', reread: true } : 'Duplicated.';
        }),
      },
      actions: { performed: (_, params) => { effects.push(params); } },
    }), { input: {} }).start();
    actor.send({ type: 'action.request', name: 'upload', args: { slot: 'logo' }, label: 'Logo' });
    await settle();
    expect(selectActionMessage(actor.getSnapshot())).toBe('Logo uploaded. Save to use it.');
    actor.send({ type: 'action.request', name: 'rotate', args: {}, label: 'signing key' });
    await settle();
    expect(selectActionMessage(actor.getSnapshot())).toBe('Signing key rotated.');
    actor.send({ type: 'action.request', name: 'duplicate', args: {}, label: 'Gold' });
    await settle();
    expect(selectActionMessage(actor.getSnapshot())).toBe('Duplicated.');
    expect(effects).toEqual([{ draft: { logoUrl: '/files/logo.png' }, reread: false }, { draft: {}, reread: true }, { draft: {}, reread: false }]);
  });

  it('asks before an action named in confirm, and runs it with its arguments once confirmed', async () => {
    const { actor, requests, performed } = start(() => 'Deleted.');
    actor.send(DELETE);
    expect(selectActionPending(actor.getSnapshot())).toEqual({ name: 'delete', args: { id: 'p1', version: 3 }, label: 'Gold' });
    expect(requests).toHaveLength(0);
    actor.send({ type: 'action.confirm' });
    expect(selectActionRunning(actor.getSnapshot())).toMatchObject({ name: 'delete' });
    await settle();
    expect(requests).toEqual([{ name: 'delete', args: { id: 'p1', version: 3 }, label: 'Gold' }]);
    expect(actor.getSnapshot().matches({ settled: 'done' })).toBe(true);
    expect(selectActionMessage(actor.getSnapshot())).toBe('Deleted.');
    expect(performed()).toBe(1);
  });

  it('runs an action without confirm at once, and ignores requests while one runs', async () => {
    const { actor, requests } = start(() => 'Duplicated as “Gold (copy)”.');
    actor.send(DUPLICATE);
    actor.send(DELETE);
    await settle();
    expect(requests.map((r) => r.name)).toEqual(['duplicate']);
    expect(selectActionPending(actor.getSnapshot())).toBeNull();
    expect(selectActionMessage(actor.getSnapshot())).toBe('Duplicated as “Gold (copy)”.');
  });

  it('cancelling runs nothing', () => {
    const { actor, requests } = start(() => 'Deleted.');
    actor.send(DELETE);
    actor.send({ type: 'action.cancel' });
    expect(actor.getSnapshot().matches({ settled: 'idle' })).toBe(true);
    expect(selectActionPending(actor.getSnapshot())).toBeNull();
    expect(requests).toHaveLength(0);
  });

  it('shows a refusal, still reloads the page, and clears on dismiss', async () => {
    const { actor, performed } = start(() => Promise.reject(new Error('Someone else changed this plan.')));
    actor.send(DUPLICATE);
    await settle();
    expect(actor.getSnapshot().matches({ settled: 'failed' })).toBe(true);
    expect(selectActionError(actor.getSnapshot())).toBe('Someone else changed this plan.');
    expect(performed()).toBe(1);
    actor.send({ type: 'action.dismiss' });
    expect(selectActionError(actor.getSnapshot())).toBeNull();
    expect(selectActionMessage(actor.getSnapshot())).toBeNull();
  });

  it('says the action could not be completed when the failure has no message', async () => {
    const { actor } = start(() => Promise.reject(new Error('')));
    actor.send(DUPLICATE);
    await settle();
    expect(selectActionError(actor.getSnapshot())).toBe(OWN_MESSAGES.actionFailed);
  });

  it('a new request after an answer replaces it', async () => {
    let n = 0;
    const { actor } = start(() => `answer ${++n}`);
    actor.send(DUPLICATE);
    await settle();
    actor.send(DUPLICATE);
    expect(selectActionMessage(actor.getSnapshot())).toBeNull();
    await settle();
    expect(selectActionMessage(actor.getSnapshot())).toBe('answer 2');
  });
});

describe('pageAction: every path', () => {
  const events = [
    DELETE,
    DUPLICATE,
    { type: 'action.confirm' },
    { type: 'action.cancel' },
    { type: 'action.dismiss' },
    { type: 'xstate.done.actor.perform', output: 'Done.' },
    { type: 'xstate.done.actor.perform', output: { message: 'Disabled.', undoRequestId: 'req-1' } },
    { type: 'undo.done', requestId: 'req-1' },
    { type: 'xstate.error.actor.perform', error: new Error('down') },
  ];
  itReachesEveryStateAndTransition(pageActionMachine, {
    events,
    input: { confirm: ['delete'] },
    logic: pageActionMachine.provide({ actors: { perform: pendingActor() } }),
  });
});
