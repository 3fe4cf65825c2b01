/**
 * One subscriber's page in the Users area (issue 16): everything about them, and the support actions.
 *
 *   loading → ready | notFound | failed
 *   ready: idle → confirming → running → done | failed
 *                                   ↘ refreshing (a 409: someone else changed the subscriber) → failed
 *
 * Each action opens a confirmation that asks for a reason (the note's text is its own reason); the
 * confirm button works only once the form is complete. The versions sent are read from the detail
 * at that moment, so after a conflict the refreshed detail makes a retry safe. Actions other than
 * revealing the contact need `canAct` (Customer Support write or contributor); the server refuses
 * them anyway. I/O actors are supplied by src/adapters/support-actors.ts.
 *
 * History (read-only: neither kind is restorable): the machine spawns one History disclosure
 * (history-disclosure.machine.ts, closed ⇄ open) per subscription it shows and per payment that has
 * been refunded (only a support refund writes a payment's revision, so an untouched payment's History
 * would always be empty), kept across reloads by object. After one of its own actions changes an
 * object it tells that object's disclosure (`disclosure.changed`), so an open History shows the new
 * revision at once; after an Undo or a conflict's re-read every open History reads again.
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import { formatMoney as moneyText, parseMoney } from '../common/monetization-rules';
import {
  SUPPORT_MESSAGES, isValidComplimentaryDays, isValidReason, SUPPORT_LIMITS,
  type CancelMode, type PaymentRow, type PlanChangeWhen, type RevealedContact, type SubscriberDetail, type SubscriptionRow,
} from '../common/support';
import { historyDisclosureMachine, type HistoryDisclosureRef } from './history-disclosure.machine';
import { failureMessage, type NotifyParams } from './notify';
import { notify } from './system-actions';
import type { UndoOffer } from './undo.machine';
import { providedLater } from './unprovided';

/** What the agent asked to do, before the form is filled in. */
export type ActionRequest =
  | { kind: 'cancelSubscription'; subscriptionId: string }
  | { kind: 'grantDays'; subscriptionId: string }
  | { kind: 'signOutDevices'; deviceId: string | null }
  | { kind: 'addNote' }
  | { kind: 'revealContact' }
  | { kind: 'resumeSubscription'; subscriptionId: string }
  | { kind: 'changePlan'; subscriptionId: string }
  | { kind: 'refundPayment'; paymentId: string };

/** The filled-in form of the action being confirmed. */
export interface ActionDraft {
  request: ActionRequest;
  reason: string;
  mode: CancelMode;
  days: string;
  note: string;
  /** Plan change: the plan chosen ('' until one is) and when it takes effect. */
  planId: string;
  when: PlanChangeWhen;
  /** Refund: the amount in major units as typed ("4.99"); starts at what is left of the payment. */
  amount: string;
}

/** What the `runAction` actor sends to the server. */
export type ActionCommand =
  | { kind: 'cancelSubscription'; subscriptionId: string; mode: CancelMode; reason: string; version: number; requestId?: string }
  | { kind: 'grantDays'; subscriptionId: string; days: number; reason: string; version: number }
  | { kind: 'signOutDevices'; subscriberId: string; deviceId: string | null; reason: string; version: number }
  | { kind: 'addNote'; subscriberId: string; body: string }
  | { kind: 'revealContact'; subscriberId: string; reason: string }
  | { kind: 'resumeSubscription'; subscriptionId: string; reason: string; version: number }
  | { kind: 'changePlan'; subscriptionId: string; planId: string; planName: string; when: PlanChangeWhen; reason: string; version: number }
  | { kind: 'refundPayment'; paymentId: string; amount: number; full: boolean; reason: string; version: number };

export type ActionOutcome =
  | { kind: 'detail'; detail: SubscriberDetail }
  | { kind: 'contact'; contact: RevealedContact };

export interface SubscriberMachineInput {
  subscriberId: string;
  /** Customer Support write or contributor. */
  canAct: boolean;
}

export interface SubscriberContext {
  subscriberId: string;
  canAct: boolean;
  detail: SubscriberDetail | null;
  loadError: string | null;
  draft: ActionDraft | null;
  actionError: string | null;
  /** The message of the last action that went through. */
  lastDone: string | null;
  contact: RevealedContact | null;
  /** The handle of the action under way (issue 28: a "cancel at period end" is named so the snackbar can Undo it; the adapter keeps the server's request id under it, issue 37). */
  changeRequestId: string | null;
  /** The Undo the last action's message offers (a "cancel at period end": its request, this page told once undone), else null. */
  undoOffer: UndoOffer | null;
  /** One History disclosure per object shown, by `historyKey(kind, id)`. */
  disclosures: Readonly<Record<string, HistoryDisclosureRef>>;
}

/** The kinds of object the subscriber page shows a History of. */
export type SupportHistoryKind = 'subscription' | 'payment';

/** The key of an object's History disclosure in the context. */
export const historyKey = (kind: SupportHistoryKind, id: string): string => `${kind}:${id}`;

/** A payment has a History once it has been refunded (in part or in full). */
export function hasPaymentHistory(payment: PaymentRow): boolean {
  return payment.refundedAmount > 0 || payment.status === 'refunded' || payment.status === 'partially_refunded';
}

/** The objects of a detail that get a History: every subscription, every refunded payment. */
export function historyObjectsOf(detail: SubscriberDetail | null): { kind: SupportHistoryKind; id: string }[] {
  if (!detail) return [];
  return [
    ...detail.subscriptions.map((s) => ({ kind: 'subscription' as const, id: s.id })),
    ...detail.payments.filter(hasPaymentHistory).map((p) => ({ kind: 'payment' as const, id: p.id })),
  ];
}

/** The object a command changes (its History is read again), or null for the subscriber's own actions. */
export function changedObjectOf(command: ActionCommand | null): { kind: SupportHistoryKind; id: string } | null {
  if (!command) return null;
  switch (command.kind) {
    case 'cancelSubscription': case 'grantDays': case 'resumeSubscription': case 'changePlan':
      return { kind: 'subscription', id: command.subscriptionId };
    case 'refundPayment':
      return { kind: 'payment', id: command.paymentId };
    default:
      return null;
  }
}

export type SubscriberEvent =
  | { type: 'subscriber.retry' }
  | { type: 'action.start'; request: ActionRequest }
  | { type: 'action.reason'; value: string }
  | { type: 'action.mode'; mode: CancelMode }
  | { type: 'action.days'; value: string }
  | { type: 'action.note'; value: string }
  | { type: 'action.plan'; planId: string }
  | { type: 'action.when'; when: PlanChangeWhen }
  | { type: 'action.amount'; value: string }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' }
  | { type: 'contact.hide' }
  /** The snackbar's Undo of this page's "cancel at period end" went through: the subscriber is read again. */
  | { type: 'undo.done'; requestId: string };

/** The error code the GraphQL client reports for a stale version. */
const CONFLICT_CODE = 'CONFLICT';
/** Codes of a subscriber id that names nobody: unknown (or another site's), or not an id at all. */
const NOT_FOUND_CODES: readonly unknown[] = ['NOT_FOUND', 'BAD_USER_INPUT'];

function subscriptionOf(detail: SubscriberDetail | null, id: string): SubscriptionRow | undefined {
  return detail?.subscriptions.find((s) => s.id === id);
}

function paymentOf(detail: SubscriberDetail | null, id: string): PaymentRow | undefined {
  return detail?.payments.find((p) => p.id === id);
}

/** What is left to refund of a payment, in minor units. */
export function refundableOf(payment: PaymentRow): number {
  return payment.amount - payment.refundedAmount;
}

/** The price of a plan option in a currency, in minor units, or null when it has none. */
export function priceIn(detail: SubscriberDetail | null, planId: string, currency: string): number | null {
  return detail?.planOptions.find((p) => p.id === planId)?.prices.find((p) => p.currency === currency)?.amount ?? null;
}

/** The draft as a command, or null while the form is incomplete. */
export function commandOf(context: Pick<SubscriberContext, 'subscriberId' | 'detail' | 'draft'> & { changeRequestId?: string | null }): ActionCommand | null {
  const { draft, detail, subscriberId } = context;
  if (!draft || !detail) return null;
  const { request } = draft;
  const reason = draft.reason.trim();
  if (request.kind === 'addNote') {
    const body = draft.note.trim();
    return body.length > 0 && body.length <= SUPPORT_LIMITS.maxNoteLength ? { kind: 'addNote', subscriberId, body } : null;
  }
  if (!isValidReason(reason)) return null;
  switch (request.kind) {
    case 'revealContact':
      return { kind: 'revealContact', subscriberId, reason };
    case 'signOutDevices':
      return { kind: 'signOutDevices', subscriberId, deviceId: request.deviceId, reason, version: detail.profile.version };
    case 'cancelSubscription': {
      const subscription = subscriptionOf(detail, request.subscriptionId);
      if (!subscription) return null;
      const requestId = draft.mode === 'AT_PERIOD_END' && context.changeRequestId ? { requestId: context.changeRequestId } : {};
      return { kind: 'cancelSubscription', subscriptionId: subscription.id, mode: draft.mode, reason, version: subscription.version, ...requestId };
    }
    case 'grantDays': {
      const subscription = subscriptionOf(detail, request.subscriptionId);
      const days = Number(draft.days);
      return subscription && isValidComplimentaryDays(days)
        ? { kind: 'grantDays', subscriptionId: subscription.id, days, reason, version: subscription.version }
        : null;
    }
    case 'resumeSubscription': {
      const subscription = subscriptionOf(detail, request.subscriptionId);
      return subscription ? { kind: 'resumeSubscription', subscriptionId: subscription.id, reason, version: subscription.version } : null;
    }
    case 'changePlan': {
      const subscription = subscriptionOf(detail, request.subscriptionId);
      const plan = detail.planOptions.find((p) => p.id === draft.planId);
      if (!subscription || !plan || priceIn(detail, plan.id, subscription.currency) === null) return null;
      return { kind: 'changePlan', subscriptionId: subscription.id, planId: plan.id, planName: plan.name, when: draft.when, reason, version: subscription.version };
    }
    case 'refundPayment': {
      const payment = paymentOf(detail, request.paymentId);
      const amount = payment ? parseMoney(draft.amount, payment.currency) : null;
      return payment && amount !== null && amount >= 1 && amount <= refundableOf(payment)
        ? { kind: 'refundPayment', paymentId: payment.id, amount, full: amount === refundableOf(payment), reason, version: payment.version }
        : null;
    }
  }
}

/** The confirmation's words for the outcome of a command. */
export function doneMessage(command: ActionCommand): string {
  switch (command.kind) {
    case 'cancelSubscription': return command.mode === 'NOW' ? SUPPORT_MESSAGES.cancelledNow : SUPPORT_MESSAGES.cancelledAtPeriodEnd;
    case 'grantDays': return SUPPORT_MESSAGES.daysGranted(command.days);
    case 'signOutDevices': return command.deviceId ? SUPPORT_MESSAGES.signedOutOne : SUPPORT_MESSAGES.signedOutAll;
    case 'addNote': return SUPPORT_MESSAGES.noteAdded;
    case 'revealContact': return SUPPORT_MESSAGES.contactRevealed;
    case 'resumeSubscription': return SUPPORT_MESSAGES.resumed;
    case 'changePlan': return command.when === 'NOW' ? SUPPORT_MESSAGES.planChangedNow(command.planName) : SUPPORT_MESSAGES.planChangeScheduled(command.planName);
    case 'refundPayment': return command.full ? SUPPORT_MESSAGES.refunded : SUPPORT_MESSAGES.partlyRefunded;
  }
}

const EMPTY_DRAFT: Omit<ActionDraft, 'request'> = { reason: '', mode: 'AT_PERIOD_END', days: '', note: '', planId: '', when: 'NOW', amount: '' };

/** A new draft: a refund starts at what is left of the payment. */
function draftFor(detail: SubscriberDetail | null, request: ActionRequest): ActionDraft {
  const payment = request.kind === 'refundPayment' ? paymentOf(detail, request.paymentId) : undefined;
  return { request, ...EMPTY_DRAFT, amount: payment ? moneyText(refundableOf(payment), payment.currency) : '' };
}

export const subscriberMachine = setup({
  types: {
    context: {} as SubscriberContext,
    events: {} as SubscriberEvent,
    input: {} as SubscriberMachineInput,
  },
  actors: {
    /** GraphQL subscriber(id). */
    loadSubscriber: providedLater<SubscriberDetail, { subscriberId: string }>('loadSubscriber'),
    /** The GraphQL mutation of the command. */
    runAction: providedLater<ActionOutcome, ActionCommand>('runAction'),
    /** One object's History behind a disclosure (its `history` logic: the wiring's). */
    historyDisclosure: historyDisclosureMachine,
  },
  actions: {
    notify,
    setDetail: assign((_, params: { detail: SubscriberDetail }) => ({ detail: params.detail, loadError: null })),
    setLoadError: assign((_, params: { error: unknown }) => ({ loadError: failureMessage(params.error, SUPPORT_MESSAGES.loadFailed) })),
    openDraft: assign(({ context }, params: { request: ActionRequest }) => ({ draft: draftFor(context.detail, params.request), actionError: null, lastDone: null })),
    editDraft: assign(({ context }, params: Partial<Omit<ActionDraft, 'request'>>) => ({
      draft: context.draft ? { ...context.draft, ...params } : null,
    })),
    closeDraft: assign({ draft: null, actionError: null }),
    /** A new handle for the action about to run (issue 28: its Undo names it; never sent, issue 37). */
    nameChange: assign(() => ({ changeRequestId: crypto.randomUUID() })),
    forgetUndo: assign({ undoOffer: null }),
    setActionError: assign((_, params: { error: unknown }) => ({ actionError: failureMessage(params.error, SUPPORT_MESSAGES.loadFailed) })),
    applyOutcome: assign((_, params: { outcome: ActionOutcome }) => (params.outcome.kind === 'detail'
      ? { detail: params.outcome.detail }
      : { contact: params.outcome.contact })),
    markDone: assign(({ context, self }) => {
      const command = commandOf(context);
      const requestId = command?.kind === 'cancelSubscription' ? command.requestId : undefined;
      return { lastDone: command ? doneMessage(command) : null, draft: null, actionError: null, undoOffer: requestId ? { requestId, replyRef: self } : null };
    }),
    hideContact: assign({ contact: null }),
    /** A History disclosure for each object shown that has none yet (those already there keep their state). */
    spawnDisclosures: assign(({ context, spawn }) => {
      const missing = historyObjectsOf(context.detail).filter((o) => !context.disclosures[historyKey(o.kind, o.id)]);
      if (missing.length === 0) return {};
      const added = Object.fromEntries(missing.map((o) => [
        historyKey(o.kind, o.id),
        spawn('historyDisclosure', { id: `history-${o.kind}-${o.id}`, input: { kind: o.kind, objectId: o.id } }),
      ]));
      return { disclosures: { ...context.disclosures, ...added } };
    }),
    /** The object the command under way changed (read from the draft, so before markDone): its open History reads again. */
    tellChanged: ({ context }) => {
      const object = changedObjectOf(commandOf(context));
      const disclosure = object ? context.disclosures[historyKey(object.kind, object.id)] : undefined;
      disclosure?.send({ type: 'disclosure.changed' });
    },
    /** Someone (an Undo, another agent) changed the subscriber: every open History reads again. */
    tellAllChanged: ({ context }) => {
      for (const disclosure of Object.values(context.disclosures)) disclosure.send({ type: 'disclosure.changed' });
    },
  },
  guards: {
    mayStart: ({ context }, params: { request: ActionRequest }) => params.request.kind === 'revealContact' || context.canAct,
    isComplete: ({ context }) => commandOf(context) !== null,
    isConflict: (_, params: { error: unknown }) => (params.error as { code?: unknown } | null)?.code === CONFLICT_CODE,
    isNotFound: (_, params: { error: unknown }) => NOT_FOUND_CODES.includes((params.error as { code?: unknown } | null)?.code),
  },
}).createMachine({
  id: 'subscriber',
  description: 'One subscriber: profile, subscriptions, payments, devices, recent playback and notes, with the support actions.',
  context: ({ input }) => ({
    subscriberId: input.subscriberId,
    canAct: input.canAct,
    detail: null,
    loadError: null,
    draft: null,
    actionError: null,
    lastDone: null,
    contact: null,
    changeRequestId: null,
    undoOffer: null,
    disclosures: {},
  }),
  initial: 'loading',
  states: {
    loading: {
      description: 'The subscriber is being read.',
      invoke: {
        id: 'loadSubscriber',
        src: 'loadSubscriber',
        input: ({ context }) => ({ subscriberId: context.subscriberId }),
        onDone: { target: 'ready', actions: [{ type: 'setDetail', params: ({ event }) => ({ detail: event.output }) }, 'spawnDisclosures'] },
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'failed', actions: { type: 'setLoadError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    notFound: {
      description: 'The id names no subscriber of this site (unknown, another site\'s, or not an id): a not-found page with a way back; reading again cannot help.',
      type: 'final',
    },
    failed: {
      description: 'The subscriber could not be read (not found, or the server failed); Retry reads again.',
      on: { 'subscriber.retry': 'loading' },
    },
    ready: {
      description: 'The subscriber page is shown.',
      initial: 'idle',
      on: {
        'contact.hide': { actions: 'hideContact' },
        'undo.done': { target: 'loading', actions: ['forgetUndo', 'tellAllChanged'] },
      },
      states: {
        idle: {
          description: 'No action under way.',
          on: {
            'action.start': {
              guard: { type: 'mayStart', params: ({ event }) => ({ request: event.request }) },
              target: 'confirming',
              actions: { type: 'openDraft', params: ({ event }) => ({ request: event.request }) },
            },
          },
        },
        confirming: {
          description: 'The confirmation is open: the agent gives a reason (and the mode, days or note text).',
          on: {
            'action.reason': { actions: { type: 'editDraft', params: ({ event }) => ({ reason: event.value }) } },
            'action.mode': { actions: { type: 'editDraft', params: ({ event }) => ({ mode: event.mode }) } },
            'action.days': { actions: { type: 'editDraft', params: ({ event }) => ({ days: event.value }) } },
            'action.note': { actions: { type: 'editDraft', params: ({ event }) => ({ note: event.value }) } },
            'action.plan': { actions: { type: 'editDraft', params: ({ event }) => ({ planId: event.planId }) } },
            'action.when': { actions: { type: 'editDraft', params: ({ event }) => ({ when: event.when }) } },
            'action.amount': { actions: { type: 'editDraft', params: ({ event }) => ({ amount: event.value }) } },
            'action.confirm': { guard: 'isComplete', target: 'running' },
            'action.cancel': { target: 'idle', actions: 'closeDraft' },
          },
        },
        running: {
          description: 'The action is with the server; the confirmation shows it busy.',
          entry: 'nameChange',
          invoke: {
            id: 'runAction',
            src: 'runAction',
            // isComplete let us in, so the command exists.
            input: ({ context }) => commandOf(context)!,
            onDone: {
              target: 'done',
              // The done message is worded from the command as sent, before the answer changes the detail it reads
              // (after a refund, what is left of the payment is less than the amount that was refunded).
              actions: [
                // Before markDone clears the draft the command is made of.
                'tellChanged',
                'markDone',
                { type: 'applyOutcome', params: ({ event }) => ({ outcome: event.output }) },
                'spawnDisclosures',
                {
                  type: 'notify',
                  params: ({ context }): NotifyParams => ({ message: context.lastDone ?? '', severity: 'success', ...(context.undoOffer ? { undo: context.undoOffer } : {}) }),
                },
              ],
            },
            onError: [
              {
                guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
                target: 'refreshing',
                actions: { type: 'setActionError', params: ({ event }) => ({ error: event.error }) },
              },
              { target: 'failed', actions: { type: 'setActionError', params: ({ event }) => ({ error: event.error }) } },
            ],
          },
        },
        refreshing: {
          description: 'Someone else changed the subscriber: the latest data is read before the agent tries again.',
          invoke: {
            id: 'refreshSubscriber',
            src: 'loadSubscriber',
            input: ({ context }) => ({ subscriberId: context.subscriberId }),
            onDone: { target: 'failed', actions: [{ type: 'setDetail', params: ({ event }) => ({ detail: event.output }) }, 'spawnDisclosures', 'tellAllChanged'] },
            onError: { target: 'failed' },
          },
        },
        failed: {
          description: 'The action failed; the confirmation stays open with the message until the agent edits, retries or cancels.',
          on: {
            'action.reason': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ reason: event.value }) } },
            'action.mode': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ mode: event.mode }) } },
            'action.days': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ days: event.value }) } },
            'action.note': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ note: event.value }) } },
            'action.plan': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ planId: event.planId }) } },
            'action.when': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ when: event.when }) } },
            'action.amount': { target: 'confirming', actions: { type: 'editDraft', params: ({ event }) => ({ amount: event.value }) } },
            'action.confirm': { guard: 'isComplete', target: 'running' },
            'action.cancel': { target: 'idle', actions: 'closeDraft' },
          },
        },
        done: {
          description: 'The action went through; its outcome is shown on the page.',
          on: {
            'action.start': {
              guard: { type: 'mayStart', params: ({ event }) => ({ request: event.request }) },
              target: 'confirming',
              actions: { type: 'openDraft', params: ({ event }) => ({ request: event.request }) },
            },
          },
        },
      },
    },
  },
});

export type SubscriberMachine = typeof subscriberMachine;
export type SubscriberSnapshot = SnapshotFrom<SubscriberMachine>;

export const selectDetail = (s: SubscriberSnapshot): SubscriberDetail | null => s.context.detail;
export const selectIsLoading = (s: SubscriberSnapshot): boolean => s.matches('loading');
export const selectLoadError = (s: SubscriberSnapshot): string | null => (s.matches('failed') ? s.context.loadError : null);
export const selectIsNotFound = (s: SubscriberSnapshot): boolean => s.matches('notFound');
export const selectCanAct = (s: SubscriberSnapshot): boolean => s.context.canAct;
export const selectDraft = (s: SubscriberSnapshot): ActionDraft | null => s.context.draft;
export const selectIsDialogOpen = (s: SubscriberSnapshot): boolean =>
  s.matches({ ready: 'confirming' }) || s.matches({ ready: 'running' }) || s.matches({ ready: 'refreshing' }) || s.matches({ ready: 'failed' });
export const selectIsRunning = (s: SubscriberSnapshot): boolean => s.matches({ ready: 'running' }) || s.matches({ ready: 'refreshing' });
export const selectCanConfirm = (s: SubscriberSnapshot): boolean =>
  (s.matches({ ready: 'confirming' }) || s.matches({ ready: 'failed' })) && commandOf(s.context) !== null;
export const selectActionError = (s: SubscriberSnapshot): string | null => (s.matches({ ready: 'failed' }) ? s.context.actionError : null);
export const selectLastDone = (s: SubscriberSnapshot): string | null => (s.matches({ ready: 'done' }) ? s.context.lastDone : null);
export const selectContact = (s: SubscriberSnapshot): RevealedContact | null => s.context.contact;
/** The History disclosure of an object the page shows (undefined until the detail is read). */
export const selectHistoryDisclosure = (kind: SupportHistoryKind, id: string) =>
  (s: SubscriberSnapshot): HistoryDisclosureRef | undefined => s.context.disclosures[historyKey(kind, id)];
/** The subscription the open confirmation is about, for its wording. */
export const selectDraftSubscription = (s: SubscriberSnapshot): SubscriptionRow | null => {
  const request = s.context.draft?.request;
  return request && (request.kind === 'cancelSubscription' || request.kind === 'grantDays' || request.kind === 'resumeSubscription' || request.kind === 'changePlan')
    ? subscriptionOf(s.context.detail, request.subscriptionId) ?? null
    : null;
};
/** The payment the open refund is about. */
export const selectDraftPayment = (s: SubscriberSnapshot): PaymentRow | null => {
  const request = s.context.draft?.request;
  return request?.kind === 'refundPayment' ? paymentOf(s.context.detail, request.paymentId) ?? null : null;
};
