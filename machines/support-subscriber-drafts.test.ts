/**
 * Issue 38 on the subscriber page: a support action's dialog asks before typed input is lost (Go back,
 * Escape, a navigation away), keeps what was typed as the tab's draft (tied to subscriber, action and the
 * object's version) and opens it again after a reload while the object is unchanged.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { SubscriberDetail } from '../common/support';
import { sameActionForm, supportGuardsLeaving } from './support-subscriber-leaving';
import {
  selectDraft, selectHasLeftAction, selectIsConfirmingLeave, selectIsDialogOpen, selectSupportGuardsLeaving, subscriberMachine,
  type ActionOutcome, type SupportDraft,
} from './support-subscriber.machine';
import { supportDraftOf, targetVersionOf } from './support-subscriber.rules';
import { fakeActor, pendingActor } from './test-harness/fakes';

const SUBSCRIBER_ID = '11111111-1111-4111-8111-111111111111';
const SUBSCRIPTION_ID = '22222222-2222-4222-8222-222222222222';
const PAYMENT_ID = '44444444-4444-4444-8444-444444444444';

function detail(subscriptionVersion = 3): SubscriberDetail {
  return {
    profile: {
      id: SUBSCRIBER_ID, name: 'Maria Lopez', email: 'ma•••@example.com', phone: '•••• 4321', country: 'ES', status: 'active',
      createdAt: '2025-05-01T10:00:00.000Z', networkName: 'ViewLift', updatedAt: '2026-01-01T10:00:00.000Z', version: 7,
      planName: 'Monthly', subscriptionState: 'paying',
    },
    subscriptions: [{
      id: SUBSCRIPTION_ID, planName: 'Monthly', billingPeriod: 'month', status: 'active', startedAt: '2025-05-01T10:00:00.000Z',
      trialEndsAt: null, currentPeriodEnd: '2026-02-01T10:00:00.000Z', cancelAtPeriodEnd: false,
      cancelledAt: null, endedAt: null, amount: 999, currency: 'USD', version: subscriptionVersion,
      planId: 'p', currentPeriodStart: '2026-01-01T10:00:00.000Z', pendingPlanName: null, nextPaymentAdjustment: 0, renewalAmount: null,
    }],
    payments: [{ id: PAYMENT_ID, at: '2026-01-01T10:00:00.000Z', planName: 'Monthly', amount: 999, currency: 'USD', status: 'succeeded', method: 'card', refundedAmount: 0, version: 5 }],
    planOptions: [], devices: [], playback: [], notes: [],
  };
}

const VALUES = { reason: '', mode: 'AT_PERIOD_END', days: '', note: '', planId: '', when: 'NOW', amount: '' } as const;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(options: { kept?: SupportDraft | null; canAct?: boolean; run?: () => Promise<ActionOutcome>; load?: () => SubscriberDetail } = {}) {
  const keepDraft = vi.fn();
  const forgetDraft = vi.fn();
  const machine = subscriberMachine.provide({
    actors: {
      loadSubscriber: fakeActor(options.load ?? (() => detail())),
      runAction: options.run ? fromPromise(options.run) : pendingActor(),
      readActionDraft: fakeActor(() => options.kept ?? null),
    },
    actions: {
      keepDraft: (_, params) => keepDraft(params),
      forgetDraft: (_, params) => forgetDraft(params),
      notify: () => undefined,
    },
  });
  const actor = createActor(machine, { input: { subscriberId: SUBSCRIBER_ID, canAct: options.canAct ?? true } }).start();
  return { actor, keepDraft, forgetDraft };
}

describe('support action dialog: asks before typed input is lost', () => {
  it('Go back (and Escape, the same event) with nothing typed closes at once and drops the draft', async () => {
    const { actor, forgetDraft } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID } });
    expect(selectSupportGuardsLeaving(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.cancel' });
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(false);
    expect(forgetDraft).toHaveBeenCalledWith({ subscriberId: SUBSCRIBER_ID });
  });

  it('Go back with typed input asks; Stay keeps every field, Leave closes and drops the draft', async () => {
    const { actor, forgetDraft } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.days', value: '14' });
    actor.send({ type: 'action.reason', value: 'Outage' });
    expect(selectSupportGuardsLeaving(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'action.cancel' });
    expect(selectIsConfirmingLeave(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'action.stay' });
    expect(actor.getSnapshot().matches({ ready: 'confirming' })).toBe(true);
    expect(selectDraft(actor.getSnapshot())).toMatchObject({ days: '14', reason: 'Outage' });
    actor.send({ type: 'action.cancel' });
    actor.send({ type: 'action.leave' });
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(false);
    expect(selectDraft(actor.getSnapshot())).toBeNull();
    expect(forgetDraft).toHaveBeenCalledTimes(1);
  });

  it('a navigation away asks with typed input (the router waits: not left until Leave), and passes without', async () => {
    const { actor } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'addNote' } });
    actor.send({ type: 'action.navigate' });
    expect(selectIsConfirmingLeave(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.note', value: 'Called twice' });
    actor.send({ type: 'action.navigate' });
    expect(selectIsConfirmingLeave(actor.getSnapshot())).toBe(true);
    expect(selectHasLeftAction(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.stay' });
    expect(selectHasLeftAction(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.navigate' });
    actor.send({ type: 'action.leave' });
    expect(selectHasLeftAction(actor.getSnapshot())).toBe(true);
  });

  it('after a failure Stay comes back to the failure with its message; leaving asks', async () => {
    const { actor } = start({ run: async () => { throw new Error('Server down'); } });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'signOutDevices', deviceId: null } });
    actor.send({ type: 'action.reason', value: 'Shared account' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'failed' })).toBe(true);
    actor.send({ type: 'action.navigate' });
    expect(selectIsConfirmingLeave(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'action.stay' });
    expect(actor.getSnapshot().matches({ ready: 'failed' })).toBe(true);
    expect(actor.getSnapshot().context.actionError).toBe('Server down');
  });
});

describe('support action dialog: the draft', () => {
  it('keeps each edit with the action, its object and the object\'s version; back to how it opened, nothing is kept', async () => {
    const { actor, keepDraft } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'refundPayment', paymentId: PAYMENT_ID } });
    actor.send({ type: 'action.amount', value: '4.00' });
    expect(keepDraft).toHaveBeenLastCalledWith({
      subscriberId: SUBSCRIBER_ID,
      draft: { request: { kind: 'refundPayment', paymentId: PAYMENT_ID }, version: 5, values: { ...VALUES, amount: '4.00' } },
    });
    actor.send({ type: 'action.amount', value: '9.99' });
    expect(keepDraft).toHaveBeenLastCalledWith({ subscriberId: SUBSCRIBER_ID, draft: null });
  });

  it('a done action drops its draft', async () => {
    const { actor, forgetDraft } = start({ run: async () => ({ kind: 'detail', detail: detail(4) }) });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'resumeSubscription', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.reason', value: 'Asked to stay' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'done' })).toBe(true);
    expect(forgetDraft).toHaveBeenCalledWith({ subscriberId: SUBSCRIBER_ID });
  });

  it('reopens a kept draft over the same version, dirty (leaving asks)', async () => {
    const kept: SupportDraft = { request: { kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID }, version: 3, values: { ...VALUES, days: '7', reason: 'Outage' } };
    const { actor } = start({ kept });
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'confirming' })).toBe(true);
    expect(selectDraft(actor.getSnapshot())).toEqual({ request: kept.request, ...kept.values });
    expect(selectSupportGuardsLeaving(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'action.cancel' });
    expect(selectIsConfirmingLeave(actor.getSnapshot())).toBe(true);
  });

  it('drops a kept draft whose object changed since, or that the role may not start', async () => {
    const stale: SupportDraft = { request: { kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID }, version: 2, values: { ...VALUES, days: '7' } };
    const first = start({ kept: stale });
    await settle();
    expect(first.actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(first.actor.getSnapshot().context.keptDraft).toBeNull();
    expect(first.forgetDraft).toHaveBeenCalledWith({ subscriberId: SUBSCRIBER_ID });

    const second = start({ kept: { ...stale, version: 3 }, canAct: false });
    await settle();
    expect(second.actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    // Revealing the contact needs no write role: its draft reopens for a reader.
    const reveal = start({ kept: { request: { kind: 'revealContact' }, version: 7, values: { ...VALUES, reason: 'Verify' } }, canAct: false });
    await settle();
    expect(reveal.actor.getSnapshot().matches({ ready: 'confirming' })).toBe(true);
  });

  it('an Undo\'s re-read sets the open action aside and opens it again over the same version', async () => {
    const { actor } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'signOutDevices', deviceId: null } });
    actor.send({ type: 'action.reason', value: 'Lost phone' });
    actor.send({ type: 'undo.done', requestId: 'r1' });
    expect(selectDraft(actor.getSnapshot())).toBeNull();
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'confirming' })).toBe(true);
    expect(selectDraft(actor.getSnapshot())?.reason).toBe('Lost phone');
  });

  it('names the version of each action\'s object; the leaving rule compares every field', () => {
    const d = detail();
    expect(targetVersionOf(d, { kind: 'changePlan', subscriptionId: SUBSCRIPTION_ID })).toBe(3);
    expect(targetVersionOf(d, { kind: 'refundPayment', paymentId: PAYMENT_ID })).toBe(5);
    expect(targetVersionOf(d, { kind: 'addNote' })).toBe(7);
    expect(targetVersionOf(d, { kind: 'refundPayment', paymentId: 'gone' })).toBeNull();
    expect(targetVersionOf(null, { kind: 'addNote' })).toBeNull();
    expect(supportDraftOf({ detail: d, draft: null, draftStart: null })).toBeNull();
    for (const field of Object.keys(VALUES) as (keyof typeof VALUES)[]) {
      expect(sameActionForm({ ...VALUES }, { ...VALUES, [field]: 'x' })).toBe(false);
    }
    expect(supportGuardsLeaving({ context: { draft: { ...VALUES, reason: 'x' }, draftStart: null } })).toBe(false);
  });
});
