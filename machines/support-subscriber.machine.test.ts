import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type AnyActorLogic } from 'xstate';
import { SUPPORT_MESSAGES, type SubscriberDetail } from '../common/support';
import {
  commandOf, doneMessage, priceIn, refundableOf, selectActionError, selectCanAct, selectCanConfirm, selectContact, selectDetail, selectDraft,
  selectDraftPayment, selectDraftSubscription, selectIsDialogOpen, selectIsLoading, selectIsNotFound, selectIsRunning, selectLastDone, selectLoadError,
  changedObjectOf, hasPaymentHistory, historyObjectsOf, selectHistoryDisclosure,
  subscriberMachine, type ActionCommand, type ActionOutcome,
} from './support-subscriber.machine';
import { historyDisclosureMachine, selectDisclosureOpen } from './history-disclosure.machine';
import { pageHistoryMachine, type HistoryLoadInput, type HistoryPage } from './history.machine';
import { itReachesEveryStateAndTransition } from './test-harness/every-path';
import { fakeActor, pendingActor } from './test-harness/fakes';

const SUBSCRIBER_ID = '11111111-1111-4111-8111-111111111111';
const SUBSCRIPTION_ID = '22222222-2222-4222-8222-222222222222';
const DEVICE_ID = '33333333-3333-4333-8333-333333333333';
const PAYMENT_ID = '44444444-4444-4444-8444-444444444444';
const PLAN_ID = '55555555-5555-4555-8555-555555555555';
const PREMIUM_ID = '66666666-6666-4666-8666-666666666666';
const EURO_ONLY_ID = '77777777-7777-4777-8777-777777777777';

function detailWith(overrides: { profileVersion?: number; subscriptionVersion?: number; cancelAtPeriodEnd?: boolean } = {}): SubscriberDetail {
  return {
    profile: {
      id: SUBSCRIBER_ID, name: 'Maria Lopez', email: 'ma•••@example.com', phone: '•••• 4321', country: 'ES', status: 'active',
      createdAt: '2025-05-01T10:00:00.000Z', networkName: 'ViewLift', updatedAt: '2026-01-01T10:00:00.000Z', version: overrides.profileVersion ?? 1,
      planName: 'Monthly', subscriptionState: overrides.cancelAtPeriodEnd ? 'cancelling' : 'paying',
    },
    subscriptions: [{
      id: SUBSCRIPTION_ID, planName: 'Monthly', billingPeriod: 'month', status: 'active', startedAt: '2025-05-01T10:00:00.000Z',
      trialEndsAt: null, currentPeriodEnd: '2026-02-01T10:00:00.000Z', cancelAtPeriodEnd: overrides.cancelAtPeriodEnd ?? false,
      cancelledAt: null, endedAt: null, amount: 999, currency: 'USD', version: overrides.subscriptionVersion ?? 1,
      planId: PLAN_ID, currentPeriodStart: '2026-01-01T10:00:00.000Z', pendingPlanName: null, nextPaymentAdjustment: 0, renewalAmount: null,
    }],
    payments: [{
      id: PAYMENT_ID, at: '2026-01-01T10:00:00.000Z', planName: 'Monthly', amount: 999, currency: 'USD', status: 'succeeded', method: 'card',
      refundedAmount: 0, version: 1,
    }],
    planOptions: [
      { id: PLAN_ID, name: 'Monthly', billingPeriod: 'month', prices: [{ currency: 'USD', amount: 999 }] },
      { id: PREMIUM_ID, name: 'Premium', billingPeriod: 'month', prices: [{ currency: 'USD', amount: 1999 }] },
      { id: EURO_ONLY_ID, name: 'Euro', billingPeriod: 'month', prices: [{ currency: 'EUR', amount: 899 }] },
    ],
    devices: [{ id: DEVICE_ID, name: 'Roku', deviceType: 'roku', os: 'Roku OS', appVersion: '3.4', lastSeenAt: '2026-01-01T10:00:00.000Z', signedOutAt: null }],
    playback: [],
    notes: [],
  };
}

const EMPTY_VALUES = { reason: '', mode: 'AT_PERIOD_END', days: '', note: '', planId: '', when: 'NOW', amount: '' } as const;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function start(options: { canAct?: boolean; load?: AnyActorLogic; run?: (command: ActionCommand) => Promise<ActionOutcome>; historyLoads?: HistoryLoadInput[] } = {}) {
  const commands: ActionCommand[] = [];
  const notify = vi.fn();
  const machine = subscriberMachine.provide({
    actors: {
      loadSubscriber: options.load ?? fakeActor(() => detailWith()),
      runAction: fromPromise<ActionOutcome, ActionCommand>(async ({ input }) => {
        commands.push(input);
        return options.run ? options.run(input) : { kind: 'detail', detail: detailWith({ subscriptionVersion: 2, cancelAtPeriodEnd: true }) };
      }),
      historyDisclosure: historyDisclosureMachine.provide({
        actors: {
          history: pageHistoryMachine.provide({
            actors: {
              load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input }) => {
                options.historyLoads?.push(input);
                return { items: [], total: 0, page: 1, pageSize: 20, canRestore: false, restorable: false };
              }),
            },
          }),
        },
      }),
    },
    actions: { notify: (_, params) => notify(params) },
  });
  const actor = createActor(machine, { input: { subscriberId: SUBSCRIBER_ID, canAct: options.canAct ?? true } }).start();
  return { actor, commands, notify };
}

const conflictError = () => Object.assign(new Error(SUPPORT_MESSAGES.conflict), { code: 'CONFLICT', status: 409 });

describe('subscriber', () => {
  it('loads the subscriber, then shows the page', async () => {
    const { actor } = start();
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(selectDetail(actor.getSnapshot())?.profile.name).toBe('Maria Lopez');
  });

  it('shows a load failure and reads again on Retry', async () => {
    let fail = true;
    const { actor } = start({ load: fakeActor(() => { if (fail) throw new Error(SUPPORT_MESSAGES.subscriberNotFound); return detailWith(); }) });
    await settle();
    expect(selectLoadError(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.subscriberNotFound);
    fail = false;
    actor.send({ type: 'subscriber.retry' });
    await settle();
    expect(selectLoadError(actor.getSnapshot())).toBeNull();
    expect(selectDetail(actor.getSnapshot())).not.toBeNull();
  });

  it('cancels at period end after a confirmation with a reason, with the version it read, and says so', async () => {
    const { actor, commands, notify } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID } });
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(true);
    expect(selectDraftSubscription(actor.getSnapshot())?.planName).toBe('Monthly');
    expect(selectCanConfirm(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.confirm' });
    expect(selectIsRunning(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.reason', value: '  Moving abroad  ' });
    expect(selectCanConfirm(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'action.confirm' });
    expect(selectIsRunning(actor.getSnapshot())).toBe(true);
    await settle();
    const requestId = actor.getSnapshot().context.changeRequestId;
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(commands).toEqual([{ kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID, mode: 'AT_PERIOD_END', reason: 'Moving abroad', version: 1, requestId }]);
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(false);
    expect(selectDetail(actor.getSnapshot())?.subscriptions[0]?.cancelAtPeriodEnd).toBe(true);
    expect(selectLastDone(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.cancelledAtPeriodEnd);
    // Issue 28: the snackbar offers Undo of this request, this page told once it is undone.
    expect(notify).toHaveBeenCalledWith({ message: SUPPORT_MESSAGES.cancelledAtPeriodEnd, severity: 'success', undo: { requestId, replyRef: actor } });
  });

  it('reads the subscriber again once the snackbar\'s Undo resumed the subscription (undo.done), offering no Undo any more', async () => {
    let resumed = false;
    const { actor } = start({ load: fakeActor(() => detailWith(resumed ? { subscriptionVersion: 3 } : {})) });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.reason', value: 'Moving abroad' });
    actor.send({ type: 'action.confirm' });
    await settle();
    const requestId = actor.getSnapshot().context.undoOffer?.requestId;
    expect(requestId).toBeTruthy();
    resumed = true;
    actor.send({ type: 'undo.done', requestId: requestId! });
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
    expect(actor.getSnapshot().context.undoOffer).toBeNull();
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true);
    expect(selectDetail(actor.getSnapshot())?.subscriptions[0]).toMatchObject({ cancelAtPeriodEnd: false, version: 3 });
  });

  it('cancels now when the agent picks it (no Undo offered: only a cancel at period end is undone)', async () => {
    const { actor, commands, notify } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.mode', mode: 'NOW' });
    actor.send({ type: 'action.reason', value: 'Charged twice' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(commands[0]).toMatchObject({ kind: 'cancelSubscription', mode: 'NOW' });
    expect(commands[0]).not.toHaveProperty('requestId');
    expect(selectLastDone(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.cancelledNow);
    expect(notify).toHaveBeenCalledWith({ message: SUPPORT_MESSAGES.cancelledNow, severity: 'success' });
  });

  it('grants complimentary days only with a whole number of days in range', async () => {
    const { actor, commands } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.reason', value: 'Outage on Sunday' });
    for (const value of ['', '0', '366', '2.5', 'ten']) {
      actor.send({ type: 'action.days', value });
      expect(selectCanConfirm(actor.getSnapshot())).toBe(false);
    }
    actor.send({ type: 'action.days', value: '14' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(commands).toEqual([{ kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID, days: 14, reason: 'Outage on Sunday', version: 1 }]);
    expect(selectLastDone(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.daysGranted(14));
  });

  it('signs out one device or all of them with the subscriber version, and adds a note without a separate reason', async () => {
    const { actor, commands } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'signOutDevices', deviceId: DEVICE_ID } });
    actor.send({ type: 'action.reason', value: 'Lost phone' });
    actor.send({ type: 'action.confirm' });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'signOutDevices', deviceId: null } });
    actor.send({ type: 'action.reason', value: 'Account shared' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(selectLastDone(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.signedOutAll);
    actor.send({ type: 'action.start', request: { kind: 'addNote' } });
    actor.send({ type: 'action.note', value: '   ' });
    expect(selectCanConfirm(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.note', value: 'Explained how to reset the Roku app.' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(commands).toEqual([
      { kind: 'signOutDevices', subscriberId: SUBSCRIBER_ID, deviceId: DEVICE_ID, reason: 'Lost phone', version: 1 },
      { kind: 'signOutDevices', subscriberId: SUBSCRIBER_ID, deviceId: null, reason: 'Account shared', version: 1 },
      { kind: 'addNote', subscriberId: SUBSCRIBER_ID, body: 'Explained how to reset the Roku app.' },
    ]);
    expect(selectLastDone(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.noteAdded);
  });

  it('offers no action to a read-only agent except revealing the contact, which it keeps until hidden', async () => {
    const contact = { email: 'maria.lopez@example.com', phone: '+34 600 000 321' };
    const { actor, commands } = start({ canAct: false, run: async () => ({ kind: 'contact', contact }) });
    await settle();
    expect(selectCanAct(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.start', request: { kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.start', request: { kind: 'addNote' } });
    expect(selectDraft(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'action.start', request: { kind: 'revealContact' } });
    actor.send({ type: 'action.reason', value: 'Identity check on a call' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(commands).toEqual([{ kind: 'revealContact', subscriberId: SUBSCRIBER_ID, reason: 'Identity check on a call' }]);
    expect(selectContact(actor.getSnapshot())).toEqual(contact);
    actor.send({ type: 'contact.hide' });
    expect(selectContact(actor.getSnapshot())).toBeNull();
  });

  it('keeps the confirmation open with the message when the action fails; Cancel asks first (typed input), Leave closes it', async () => {
    const { actor } = start({ run: async () => { throw new Error('You do not have access to this area.'); } });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'signOutDevices', deviceId: null } });
    actor.send({ type: 'action.reason', value: 'Account shared' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(selectActionError(actor.getSnapshot())).toBe('You do not have access to this area.');
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'action.reason', value: 'Account shared twice' });
    expect(selectActionError(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'action.cancel' });
    expect(actor.getSnapshot().matches({ ready: 'confirmingLeave' })).toBe(true);
    actor.send({ type: 'action.leave' });
    expect(selectIsDialogOpen(actor.getSnapshot())).toBe(false);
    expect(selectDraft(actor.getSnapshot())).toBeNull();
  });

  it('on a conflict reads the latest subscriber and retries with its new version', async () => {
    let loads = 0;
    let conflictOnce = true;
    const { actor, commands } = start({
      load: fakeActor(() => { loads += 1; return detailWith({ subscriptionVersion: loads }); }),
      run: async () => {
        if (conflictOnce) { conflictOnce = false; throw conflictError(); }
        return { kind: 'detail', detail: detailWith({ subscriptionVersion: 3 }) };
      },
    });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.days', value: '7' });
    actor.send({ type: 'action.reason', value: 'Outage on Sunday' });
    actor.send({ type: 'action.confirm' });
    await settle();
    await settle();
    expect(selectActionError(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.conflict);
    expect(selectDetail(actor.getSnapshot())?.subscriptions[0]?.version).toBe(2);
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(commands.map((c) => ('version' in c ? c.version : null))).toEqual([1, 2]);
    expect(actor.getSnapshot().matches({ ready: 'done' })).toBe(true);
  });

  it('builds no command for a subscription that is not on the page', () => {
    const draft = { request: { kind: 'cancelSubscription' as const, subscriptionId: 'gone' }, reason: 'Moving abroad', mode: 'NOW' as const, days: '', note: '', planId: '', when: 'NOW' as const, amount: '' };
    expect(commandOf({ subscriberId: SUBSCRIBER_ID, detail: detailWith(), draft })).toBeNull();
    expect(commandOf({ subscriberId: SUBSCRIBER_ID, detail: null, draft })).toBeNull();
    expect(doneMessage({ kind: 'revealContact', subscriberId: SUBSCRIBER_ID, reason: 'x' })).toBe(SUPPORT_MESSAGES.contactRevealed);
    expect(doneMessage({ kind: 'signOutDevices', subscriberId: SUBSCRIBER_ID, deviceId: DEVICE_ID, reason: 'x', version: 1 })).toBe(SUPPORT_MESSAGES.signedOutOne);
    const base = { reason: 'Moving abroad', mode: 'NOW' as const, days: '', note: '', planId: PREMIUM_ID, when: 'NOW' as const, amount: '1.00' };
    expect(commandOf({ subscriberId: SUBSCRIBER_ID, detail: detailWith(), draft: { ...base, request: { kind: 'resumeSubscription', subscriptionId: 'gone' } } })).toBeNull();
    expect(commandOf({ subscriberId: SUBSCRIBER_ID, detail: detailWith(), draft: { ...base, request: { kind: 'changePlan', subscriptionId: 'gone' } } })).toBeNull();
    expect(commandOf({ subscriberId: SUBSCRIBER_ID, detail: detailWith(), draft: { ...base, request: { kind: 'refundPayment', paymentId: 'gone' } } })).toBeNull();
    expect(priceIn(null, PREMIUM_ID, 'USD')).toBeNull();
    expect(priceIn(detailWith(), PREMIUM_ID, 'USD')).toBe(1999);
  });

  it('a malformed or unknown id is not found: no retry, no message of the server', async () => {
    for (const code of ['NOT_FOUND', 'BAD_USER_INPUT']) {
      const { actor } = start({ load: fakeActor(() => { throw Object.assign(new Error('id is not a valid id.'), { code }); }) });
      await settle();
      expect(selectIsNotFound(actor.getSnapshot())).toBe(true);
      expect(selectLoadError(actor.getSnapshot())).toBeNull();
      expect(actor.getSnapshot().status).toBe('done');
    }
  });

  it('resumes a subscription cancelling at period end with a reason and the version it read', async () => {
    const { actor, commands, notify } = start({ load: fakeActor(() => detailWith({ cancelAtPeriodEnd: true, subscriptionVersion: 4 })) });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'resumeSubscription', subscriptionId: SUBSCRIPTION_ID } });
    expect(selectDraftSubscription(actor.getSnapshot())?.cancelAtPeriodEnd).toBe(true);
    expect(selectCanConfirm(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.reason', value: 'Changed their mind' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(commands).toEqual([{ kind: 'resumeSubscription', subscriptionId: SUBSCRIPTION_ID, reason: 'Changed their mind', version: 4 }]);
    expect(notify).toHaveBeenCalledWith({ message: SUPPORT_MESSAGES.resumed, severity: 'success' });
  });

  it('changes plan only to a plan priced in the subscription\'s currency, now or at period end', async () => {
    const { actor, commands } = start();
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'changePlan', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.reason', value: 'Wants 4K' });
    expect(selectCanConfirm(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.plan', planId: EURO_ONLY_ID });
    expect(selectCanConfirm(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'action.plan', planId: PREMIUM_ID });
    actor.send({ type: 'action.when', when: 'AT_PERIOD_END' });
    expect(selectDraft(actor.getSnapshot())?.when).toBe('AT_PERIOD_END');
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(commands).toEqual([{ kind: 'changePlan', subscriptionId: SUBSCRIPTION_ID, planId: PREMIUM_ID, planName: 'Premium', when: 'AT_PERIOD_END', reason: 'Wants 4K', version: 1 }]);
    expect(selectLastDone(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.planChangeScheduled('Premium'));
    expect(doneMessage({ kind: 'changePlan', subscriptionId: SUBSCRIPTION_ID, planId: PREMIUM_ID, planName: 'Premium', when: 'NOW', reason: 'Wants 4K', version: 1 })).toBe(SUPPORT_MESSAGES.planChangedNow('Premium'));
  });

  it('refunds what is left by default, or a part of it in the currency\'s decimals, never more', async () => {
    const refunded = detailWith();
    refunded.payments[0] = { ...refunded.payments[0]!, status: 'partially_refunded', refundedAmount: 499, version: 2 };
    const { actor, commands } = start({ run: async () => ({ kind: 'detail', detail: refunded }) });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'refundPayment', paymentId: PAYMENT_ID } });
    expect(selectDraftPayment(actor.getSnapshot())?.id).toBe(PAYMENT_ID);
    expect(selectDraft(actor.getSnapshot())?.amount).toBe('9.99');
    actor.send({ type: 'action.reason', value: 'Outage for a week' });
    for (const value of ['10.00', '0', '0.00', '4.999', 'half', '']) {
      actor.send({ type: 'action.amount', value });
      expect(selectCanConfirm(actor.getSnapshot()), value).toBe(false);
    }
    actor.send({ type: 'action.amount', value: '4.99' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(commands).toEqual([{ kind: 'refundPayment', paymentId: PAYMENT_ID, amount: 499, full: false, reason: 'Outage for a week', version: 1 }]);
    expect(selectLastDone(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.partlyRefunded);
    expect(selectDetail(actor.getSnapshot())?.payments[0]?.refundedAmount).toBe(499);
    expect(doneMessage({ kind: 'refundPayment', paymentId: PAYMENT_ID, amount: 499, full: true, reason: 'Outage for a week', version: 1 })).toBe(SUPPORT_MESSAGES.refunded);
    expect(refundableOf({ ...detailWith().payments[0]!, refundedAmount: 500 })).toBe(499);
  });

  it('says a full refund went through, worded from the command sent (the answer leaves nothing to refund)', async () => {
    const refunded = detailWith();
    refunded.payments[0] = { ...refunded.payments[0]!, status: 'refunded', refundedAmount: 999, version: 2 };
    const { actor, commands } = start({ run: async () => ({ kind: 'detail', detail: refunded }) });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'refundPayment', paymentId: PAYMENT_ID } });
    actor.send({ type: 'action.reason', value: 'Charged twice' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(commands).toEqual([{ kind: 'refundPayment', paymentId: PAYMENT_ID, amount: 999, full: true, reason: 'Charged twice', version: 1 }]);
    expect(selectLastDone(actor.getSnapshot())).toBe(SUPPORT_MESSAGES.refunded);
  });
});

describe('subscriber machine: every path', () => {
  const detail = detailWith();
  const events = [
    { type: 'subscriber.retry' },
    { type: 'xstate.done.actor.loadSubscriber', output: detail },
    { type: 'xstate.error.actor.loadSubscriber', error: new Error('down') },
    { type: 'action.start', request: { kind: 'signOutDevices', deviceId: null } },
    { type: 'action.reason', value: 'Account shared' },
    { type: 'action.mode', mode: 'NOW' },
    { type: 'action.days', value: '3' },
    { type: 'action.note', value: 'Called about buffering' },
    { type: 'action.plan', planId: PREMIUM_ID },
    { type: 'action.when', when: 'AT_PERIOD_END' },
    { type: 'action.amount', value: '1.00' },
    { type: 'xstate.error.actor.loadSubscriber', error: Object.assign(new Error('gone'), { code: 'NOT_FOUND' }) },
    { type: 'action.confirm' },
    { type: 'action.cancel' },
    { type: 'contact.hide' },
    { type: 'undo.done', requestId: '88888888-8888-4888-8888-888888888888' },
    { type: 'xstate.done.actor.runAction', output: { kind: 'detail', detail } },
    { type: 'xstate.error.actor.runAction', error: new Error('down') },
    { type: 'xstate.error.actor.runAction', error: conflictError() },
    { type: 'xstate.done.actor.refreshSubscriber', output: detail },
    { type: 'xstate.error.actor.refreshSubscriber', error: new Error('down') },
    { type: 'action.navigate' },
    { type: 'action.stay' },
    { type: 'action.leave' },
    { type: 'draft.settle' },
    // A draft kept before a reload: at the version shown (it reopens) and at an older one (dropped).
    { type: 'xstate.done.actor.keptDraft', output: { request: { kind: 'signOutDevices', deviceId: null }, version: 1, values: { ...EMPTY_VALUES, reason: 'Kept' } } },
    { type: 'xstate.done.actor.keptDraft', output: { request: { kind: 'signOutDevices', deviceId: null }, version: 9, values: { ...EMPTY_VALUES, reason: 'Old' } } },
  ];
  itReachesEveryStateAndTransition(subscriberMachine, {
    input: { subscriberId: SUBSCRIBER_ID, canAct: true },
    events,
    logic: subscriberMachine.provide({ actors: { loadSubscriber: pendingActor(), runAction: pendingActor(), readActionDraft: pendingActor() } }),
    serializeState: (s) => JSON.stringify([
      s.value, s.context.detail !== null, s.context.draft?.reason ?? null, s.context.contact !== null, s.context.keptDraft?.version ?? null, s.context.actionError !== null,
    ]),
  });
});

describe('subscriber: the History of each subscription and refunded payment', () => {
  const refunded = (detail: SubscriberDetail): SubscriberDetail => ({
    ...detail, payments: detail.payments.map((p) => ({ ...p, status: 'partially_refunded', refundedAmount: 100, version: p.version + 1 })),
  });

  it('a payment has a History once refunded; every subscription has one', () => {
    const payment = detailWith().payments[0]!;
    expect(hasPaymentHistory(payment)).toBe(false);
    expect(hasPaymentHistory({ ...payment, status: 'partially_refunded', refundedAmount: 100 })).toBe(true);
    expect(historyObjectsOf(detailWith())).toEqual([{ kind: 'subscription', id: SUBSCRIPTION_ID }]);
    expect(historyObjectsOf(refunded(detailWith()))).toEqual([{ kind: 'subscription', id: SUBSCRIPTION_ID }, { kind: 'payment', id: PAYMENT_ID }]);
    expect(historyObjectsOf(null)).toEqual([]);
  });

  it('names the object a command changes (none for the subscriber\'s own actions)', () => {
    expect(changedObjectOf({ kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID, mode: 'NOW', reason: 'x', version: 1 })).toEqual({ kind: 'subscription', id: SUBSCRIPTION_ID });
    expect(changedObjectOf({ kind: 'refundPayment', paymentId: PAYMENT_ID, amount: 1, full: false, reason: 'x', version: 1 })).toEqual({ kind: 'payment', id: PAYMENT_ID });
    expect(changedObjectOf({ kind: 'addNote', subscriberId: SUBSCRIBER_ID, body: 'x' })).toBeNull();
    expect(changedObjectOf(null)).toBeNull();
  });

  it('spawns a closed disclosure per subscription; opening it reads that subscription\'s History', async () => {
    const historyLoads: HistoryLoadInput[] = [];
    const { actor } = start({ historyLoads });
    await settle();
    const disclosure = selectHistoryDisclosure('subscription', SUBSCRIPTION_ID)(actor.getSnapshot())!;
    expect(disclosure).toBeDefined();
    expect(selectHistoryDisclosure('payment', PAYMENT_ID)(actor.getSnapshot())).toBeUndefined();
    expect(selectDisclosureOpen(disclosure.getSnapshot())).toBe(false);
    expect(historyLoads).toEqual([]);
    disclosure.send({ type: 'disclosure.open' });
    await settle();
    expect(historyLoads).toEqual([expect.objectContaining({ kind: 'subscription', objectId: SUBSCRIPTION_ID })]);
  });

  it('after a cancel at period end the open History of that subscription reads again, and the disclosure is the same one', async () => {
    const historyLoads: HistoryLoadInput[] = [];
    const { actor } = start({ historyLoads });
    await settle();
    const disclosure = selectHistoryDisclosure('subscription', SUBSCRIPTION_ID)(actor.getSnapshot())!;
    disclosure.send({ type: 'disclosure.open' });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'cancelSubscription', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.reason', value: 'Moving abroad' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'done' })).toBe(true);
    expect(historyLoads).toHaveLength(2);
    expect(selectHistoryDisclosure('subscription', SUBSCRIPTION_ID)(actor.getSnapshot())).toBe(disclosure);
    expect(selectDisclosureOpen(disclosure.getSnapshot())).toBe(true);
  });

  it('a refund gives the payment its History; once open, the next refund reads it again', async () => {
    const historyLoads: HistoryLoadInput[] = [];
    const { actor } = start({ historyLoads, run: async () => ({ kind: 'detail', detail: refunded(detailWith()) }) });
    await settle();
    const refund = () => {
      actor.send({ type: 'action.start', request: { kind: 'refundPayment', paymentId: PAYMENT_ID } });
      actor.send({ type: 'action.reason', value: 'Charged twice' });
      actor.send({ type: 'action.amount', value: '1.00' });
      actor.send({ type: 'action.confirm' });
    };
    refund();
    await settle();
    const disclosure = selectHistoryDisclosure('payment', PAYMENT_ID)(actor.getSnapshot())!;
    expect(disclosure).toBeDefined();
    disclosure.send({ type: 'disclosure.open' });
    await settle();
    expect(historyLoads.map((l) => l.objectId)).toEqual([PAYMENT_ID]);
    refund();
    await settle();
    expect(historyLoads.map((l) => l.objectId)).toEqual([PAYMENT_ID, PAYMENT_ID]);
  });

  it('a subscriber action (a note) leaves the open History alone; an Undo reads every open History again', async () => {
    const historyLoads: HistoryLoadInput[] = [];
    const { actor } = start({ historyLoads, run: async () => ({ kind: 'detail', detail: detailWith() }) });
    await settle();
    selectHistoryDisclosure('subscription', SUBSCRIPTION_ID)(actor.getSnapshot())!.send({ type: 'disclosure.open' });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'addNote' } });
    actor.send({ type: 'action.note', value: 'Called about buffering' });
    actor.send({ type: 'action.confirm' });
    await settle();
    expect(historyLoads).toHaveLength(1);
    actor.send({ type: 'undo.done', requestId: '88888888-8888-4888-8888-888888888888' });
    await settle();
    expect(historyLoads).toHaveLength(2);
  });

  it('after a conflict the re-read subscriber reads every open History again', async () => {
    const historyLoads: HistoryLoadInput[] = [];
    const { actor } = start({ historyLoads, run: async () => { throw conflictError(); } });
    await settle();
    selectHistoryDisclosure('subscription', SUBSCRIPTION_ID)(actor.getSnapshot())!.send({ type: 'disclosure.open' });
    await settle();
    actor.send({ type: 'action.start', request: { kind: 'grantDays', subscriptionId: SUBSCRIPTION_ID } });
    actor.send({ type: 'action.reason', value: 'Outage' });
    actor.send({ type: 'action.days', value: '3' });
    actor.send({ type: 'action.confirm' });
    await settle();
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'failed' })).toBe(true);
    expect(historyLoads).toHaveLength(2);
  });
});
