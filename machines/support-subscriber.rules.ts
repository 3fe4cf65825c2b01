/**
 * The subscriber page's vocabulary and rules (machines/support-subscriber.machine.ts): what an agent asks for,
 * the form it fills in, the command that form makes, the words of its outcome, and which objects show a
 * History. Pure functions of the page's context; the machine's setup, actions and states use them.
 */
import { formatMoney as moneyText, parseMoney } from '../common/monetization-rules';
import {
  SUPPORT_MESSAGES, isValidComplimentaryDays, isValidReason, SUPPORT_LIMITS,
  type CancelMode, type PaymentRow, type PlanChangeWhen, type RevealedContact, type SubscriberDetail, type SubscriptionRow,
} from '../common/support';
import type { HistoryDisclosureRef } from './history-disclosure.machine';
import { sameActionForm } from './support-subscriber-leaving';
import type { UndoOffer } from './undo.machine';

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
  /** The open action's form as it opened: what was typed since is what leaving would lose (issue 38). */
  draftStart: ActionDraft | null;
  /** The draft kept in the tab before a reload (issue 38), until the page decides whether it reopens. */
  keptDraft: SupportDraft | null;
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
  /** Go back, Escape or the close button: asks first when something was typed (issue 38). */
  | { type: 'action.cancel' }
  /** A navigation the page did not start (a link, Back): asks first when something was typed. */
  | { type: 'action.navigate' }
  /** The answers to "Unsaved changes". */
  | { type: 'action.stay' }
  | { type: 'action.leave' }
  | { type: 'contact.hide' }
  /** Raised (never sent from outside) once the subscriber or the kept draft is read: whether the draft's action reopens. */
  | { type: 'draft.settle' }
  /** The snackbar's Undo of this page's "cancel at period end" went through: the subscriber is read again. */
  | { type: 'undo.done'; requestId: string };

export function subscriptionOf(detail: SubscriberDetail | null, id: string): SubscriptionRow | undefined {
  return detail?.subscriptions.find((s) => s.id === id);
}

export function paymentOf(detail: SubscriberDetail | null, id: string): PaymentRow | undefined {
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

/**
 * What an agent typed into an action and did not send, kept in the tab across a reload (issue 38): which
 * action on which object, the object's version when it was typed, and the typed values (never a secret: the
 * form has none).
 */
export interface SupportDraft {
  request: ActionRequest;
  version: number;
  values: Omit<ActionDraft, 'request'>;
}

/** The version of the object an action is about (the subscriber's own for device, contact and note actions), or null when it is not shown. */
export function targetVersionOf(detail: SubscriberDetail | null, request: ActionRequest): number | null {
  switch (request.kind) {
    case 'cancelSubscription': case 'grantDays': case 'resumeSubscription': case 'changePlan':
      return subscriptionOf(detail, request.subscriptionId)?.version ?? null;
    case 'refundPayment':
      return paymentOf(detail, request.paymentId)?.version ?? null;
    default:
      return detail?.profile.version ?? null;
  }
}

/** The open action's draft to keep, or null when nothing differs from how it opened (the kept one is then dropped). */
export function supportDraftOf(context: Pick<SubscriberContext, 'detail' | 'draft' | 'draftStart'>): SupportDraft | null {
  const { draft, draftStart, detail } = context;
  if (!draft || !draftStart || sameActionForm(draft, draftStart)) return null;
  const { request, ...values } = draft;
  return { request, version: targetVersionOf(detail, request) ?? 0, values };
}

/** A new draft: a refund starts at what is left of the payment. */
export function draftFor(detail: SubscriberDetail | null, request: ActionRequest): ActionDraft {
  const payment = request.kind === 'refundPayment' ? paymentOf(detail, request.paymentId) : undefined;
  return { request, ...EMPTY_DRAFT, amount: payment ? moneyText(refundableOf(payment), payment.currency) : '' };
}
