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
import type { SnapshotFrom } from 'xstate';
import type { PaymentRow, RevealedContact, SubscriberDetail, SubscriptionRow } from '../common/support';
import type { HistoryDisclosureRef } from './history-disclosure.machine';
import { subscriberSetup } from './support-subscriber.actions';
import { commandOf, historyKey, paymentOf, subscriptionOf, type ActionDraft, type SupportHistoryKind } from './support-subscriber.rules';
import { failedState } from './support-subscriber.state.failed';
import { loadingState } from './support-subscriber.state.loading';
import { notFoundState } from './support-subscriber.state.notFound';
import { readyState } from './support-subscriber.state.ready';
import { supportGuardsLeaving } from './support-subscriber-leaving';

export {
  changedObjectOf, commandOf, doneMessage, hasPaymentHistory, historyKey, historyObjectsOf, priceIn, refundableOf,
  type ActionCommand, type ActionDraft, type ActionOutcome, type ActionRequest, type SubscriberContext, type SubscriberEvent,
  type SubscriberMachineInput, type SupportDraft, type SupportHistoryKind,
} from './support-subscriber.rules';

export const subscriberMachine = subscriberSetup.createMachine({
  id: 'subscriber',
  description: 'One subscriber: profile, subscriptions, payments, devices, recent playback and notes, with the support actions.',
  context: ({ input }) => ({
    subscriberId: input.subscriberId,
    canAct: input.canAct,
    detail: null,
    loadError: null,
    draft: null,
    draftStart: null,
    keptDraft: null,
    actionError: null,
    lastDone: null,
    contact: null,
    changeRequestId: null,
    undoOffer: null,
    disclosures: {},
  }),
  // Issue 38: an action typed before a reload opens again (the ready state's `idle` decides).
  invoke: {
    id: 'keptDraft',
    src: 'readActionDraft',
    input: ({ context }) => ({ subscriberId: context.subscriberId }),
    onDone: { actions: [{ type: 'storeKeptDraft', params: ({ event }) => ({ draft: event.output }) }, 'settleDraft'] },
  },
  initial: 'loading',
  states: {
    loading: loadingState,
    notFound: notFoundState,
    failed: failedState,
    ready: readyState,
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
/** "Unsaved changes" is asked (Go back, Escape or a navigation away with typed input). */
export const selectIsConfirmingLeave = (s: SubscriberSnapshot): boolean => s.matches({ ready: 'confirmingLeave' });
/** The answer to "Unsaved changes" was Leave: no action is open any more (the router's guard lets its navigation go on). */
export const selectHasLeftAction = (s: SubscriberSnapshot): boolean => !selectIsConfirmingLeave(s) && s.context.draft === null;
/** The one beforeunload guard's question (src/unsaved-edits.ts): would leaving now lose typed input? */
export const selectSupportGuardsLeaving = (s: SubscriberSnapshot): boolean => supportGuardsLeaving(s);
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
