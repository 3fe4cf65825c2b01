/**
 * The real I/O actors of the Users area's machines (machines/support-search.machine.ts,
 * machines/support-subscriber.machine.ts), over the management GraphQL endpoint with one urql client.
 * Every actor passes its abort signal on, so a search overtaken by a newer one is cancelled.
 *
 *   supportPages().subscriberSearch  // subscriberSearchMachine with its actor
 *   supportPages().subscriber        // subscriberMachine with its actors
 */
import { fromPromise } from 'xstate';
import { HISTORY_PANEL_MESSAGES, REVISION_PATHS, type RevisionHistoryResponse } from '../../common/revisions';
import type { SubscriberDetail, SubscriberSearchPage, SubscriberSearchRequest } from '../../common/support';
import { supportRevisionInWords } from '../../common/support-revision-words';
import { historyDisclosureMachine } from '../../machines/history-disclosure.machine';
import { pageHistoryMachine, type HistoryLoadInput, type HistoryPage } from '../../machines/history.machine';
import { subscriberFetchPage, subscriberSearchMachine } from '../../machines/support-search.machine';
import {
  subscriberMachine, type ActionCommand, type ActionDraft, type ActionOutcome, type ActionRequest, type SupportDraft,
} from '../../machines/support-subscriber.machine';
import { forgetFormDraft, keepFormDraft, readFormDraft } from './form-drafts';
import { ApiError, apiRequest, authHeaders, reportUnauthorized } from '../api/client';
import { createGraphqlClient, type GraphqlClient, runGraphql } from '../api/graphql';
import { clearReportCache } from '../api/report-cache';
import * as api from '../api/support';
import { ROUTES } from '../../common/constants';
import { usersSearchOf } from '../views/support/search';
import { replaceAddressSearch } from './list-address';
import { readNetworkCredentials } from './network-credentials';
import { rememberRequestId } from './undo-actors';
import { postWrite, type WriteKind } from './write-signals';

let sharedClient: GraphqlClient | undefined;

/**
 * A support action's draft (issue 38) in the one draft store (./form-drafts.ts, session storage, any secret
 * field dropped there): one per subscriber (one action is open at a time), naming the action, its object and
 * the object's version. The subscriber machine says when to keep, forget and reopen it.
 */
const draftKey = (subscriberId: string) => `supportAction:${subscriberId}`;

export function keepSupportDraft(subscriberId: string, draft: SupportDraft | null): void {
  if (!draft) {
    forgetFormDraft(draftKey(subscriberId));
    return;
  }
  const { request } = draft;
  const target = request.kind === 'refundPayment' ? request.paymentId
    : request.kind === 'signOutDevices' ? request.deviceId ?? ''
      : 'subscriptionId' in request ? request.subscriptionId : '';
  keepFormDraft(draftKey(subscriberId), { version: draft.version, values: { ...draft.values, action: request.kind, target } });
}

function requestOf(action: unknown, target: unknown): ActionRequest | null {
  if (typeof target !== 'string') return null;
  switch (action) {
    case 'cancelSubscription': case 'grantDays': case 'resumeSubscription': case 'changePlan':
      return target ? { kind: action, subscriptionId: target } : null;
    case 'refundPayment': return target ? { kind: action, paymentId: target } : null;
    case 'signOutDevices': return { kind: action, deviceId: target || null };
    case 'addNote': case 'revealContact': return { kind: action };
    default: return null;
  }
}

/** The kept draft of a subscriber's action, or null (none, unreadable, or naming no action). */
export function readSupportDraft(subscriberId: string): SupportDraft | null {
  const kept = readFormDraft(draftKey(subscriberId));
  const request = kept ? requestOf(kept.values.action, kept.values.target) : null;
  if (!kept || !request) return null;
  const text = (name: keyof Omit<ActionDraft, 'request'>, fallback: string): string => {
    const value = kept.values[name];
    return typeof value === 'string' ? value : fallback;
  };
  const mode = text('mode', 'AT_PERIOD_END') === 'NOW' ? 'NOW' : 'AT_PERIOD_END';
  const when = text('when', 'NOW') === 'AT_PERIOD_END' ? 'AT_PERIOD_END' : 'NOW';
  return {
    request, version: kept.version,
    values: { reason: text('reason', ''), mode, days: text('days', ''), note: text('note', ''), planId: text('planId', ''), when, amount: text('amount', '') },
  };
}

export function forgetSupportDraft(subscriberId: string): void {
  forgetFormDraft(draftKey(subscriberId));
}

/**
 * One urql client for the Users pages, made on first use. A 403 here is an action the role may not
 * take, not a dead session: it shows as the action's error instead of leaving the page.
 */
function supportClient(): GraphqlClient {
  sharedClient ??= createGraphqlClient({
    getCredentials: readNetworkCredentials,
    onUnauthorized: reportUnauthorized,
  });
  return sharedClient;
}

/** Runs one support command as its mutation. */
async function runCommand(client: GraphqlClient, command: ActionCommand, signal: AbortSignal): Promise<ActionOutcome> {
  const detail = (data: SubscriberDetail): ActionOutcome => ({ kind: 'detail', detail: data });
  switch (command.kind) {
    case 'cancelSubscription': {
      const { subscriptionId, mode, reason, version, requestId: handle } = command;
      // Issue 28: a "cancel at period end" is named, so the snackbar's Undo can resume it; issue 37: by the id the server answered.
      const remember = handle ? (requestId: string | null) => rememberRequestId(handle, requestId) : undefined;
      return detail((await runGraphql(client, 'mutation', api.SUBSCRIPTION_CANCEL, { subscriptionId, mode, reason, version }, signal, undefined, remember)).subscriptionCancel);
    }
    case 'grantDays': {
      const { subscriptionId, days, reason, version } = command;
      return detail((await runGraphql(client, 'mutation', api.SUBSCRIPTION_GRANT_DAYS, { subscriptionId, days, reason, version }, signal)).subscriptionGrantDays);
    }
    case 'signOutDevices': {
      const { subscriberId, deviceId, reason, version } = command;
      return detail((await runGraphql(client, 'mutation', api.SUBSCRIBER_SIGN_OUT_DEVICES, { subscriberId, deviceId, reason, version }, signal)).subscriberSignOutDevices);
    }
    case 'addNote': {
      const { subscriberId, body } = command;
      return detail((await runGraphql(client, 'mutation', api.SUBSCRIBER_ADD_NOTE, { subscriberId, body }, signal)).subscriberAddNote);
    }
    case 'revealContact': {
      const { subscriberId, reason } = command;
      const data = await runGraphql(client, 'mutation', api.SUBSCRIBER_REVEAL_CONTACT, { subscriberId, reason }, signal);
      return { kind: 'contact', contact: data.subscriberRevealContact };
    }
    case 'resumeSubscription': {
      const { subscriptionId, reason, version } = command;
      return detail((await runGraphql(client, 'mutation', api.SUBSCRIPTION_RESUME, { subscriptionId, reason, version }, signal)).subscriptionResume);
    }
    case 'changePlan': {
      const { subscriptionId, planId, when, reason, version } = command;
      return detail((await runGraphql(client, 'mutation', api.SUBSCRIPTION_CHANGE_PLAN, { subscriptionId, planId, when, reason, version }, signal)).subscriptionChangePlan);
    }
    case 'refundPayment': {
      const { paymentId, amount, reason, version } = command;
      return detail((await runGraphql(client, 'mutation', api.PAYMENT_REFUND, { paymentId, amount, reason, version }, signal)).paymentRefund);
    }
  }
}

/**
 * What a support action moves, for the other tabs (issue 38, ./write-signals.ts): a refund moves money, a
 * cancellation, resume or plan change the subscription counts; grant days, sign-outs, notes and reveals move
 * no figure.
 */
export function writeKindOf(kind: ActionCommand['kind']): WriteKind | null {
  switch (kind) {
    case 'refundPayment': return 'payment';
    case 'cancelSubscription': case 'resumeSubscription': case 'changePlan': return 'subscription';
    default: return null;
  }
}

export function createSupportActors(client: GraphqlClient = supportClient(), announce: (kind: WriteKind) => void = postWrite) {
  // The currency of each subscription and payment the page was given: a History's amounts read in it
  // (a revision names its currency only when the currency itself changed).
  const currencyOf = new Map<string, string>();
  const keepCurrencies = (detail: SubscriberDetail): SubscriberDetail => {
    for (const row of [...detail.subscriptions, ...detail.payments]) currencyOf.set(row.id, row.currency);
    return detail;
  };
  return {
    /** GraphQL subscriberSearch (the search list's `fetchPage` reads through it; aborted with the list's read). */
    searchSubscribers: async (input: SubscriberSearchRequest, signal: AbortSignal): Promise<SubscriberSearchPage> =>
      (await runGraphql(client, 'query', api.SUBSCRIBER_SEARCH, input, signal)).subscriberSearch,
    loadSubscriber: fromPromise<SubscriberDetail, { subscriberId: string }>(async ({ input, signal }) =>
      keepCurrencies((await runGraphql(client, 'query', api.SUBSCRIBER, { id: input.subscriberId }, signal)).subscriber)),
    runAction: fromPromise<ActionOutcome, ActionCommand>(async ({ input, signal }) => {
      const outcome = await runCommand(client, input, signal);
      // Issue 38: a refund, cancellation or plan change moves the Dashboard's figures at once (the server
      // refreshes the day's rollups in the same transaction): no report answer read before it is shown again.
      clearReportCache();
      // ...and a report page open in another tab reads them again (./write-signals.ts).
      const moved = writeKindOf(input.kind);
      if (moved) announce(moved);
      if (outcome.kind === 'detail') keepCurrencies(outcome.detail);
      return outcome;
    }),
    /** One page of a subscription's or payment's History (GET /v1/revisions/:kind/:objectId), its changes in words. */
    loadHistory: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input, signal }) => {
      const credentials = readNetworkCredentials();
      const url = `${REVISION_PATHS.history}/${encodeURIComponent(input.kind)}/${encodeURIComponent(input.objectId)}?page=${input.page}`;
      const answer = await apiRequest<RevisionHistoryResponse & { message?: string }>(url, { headers: credentials ? authHeaders(credentials) : {}, signal });
      if (answer.status >= 400) throw new ApiError(answer.message || HISTORY_PANEL_MESSAGES.loadFailed, answer.status, answer);
      return {
        items: answer.items.map((revision) => supportRevisionInWords(revision, currencyOf.get(input.objectId))), total: answer.total, page: answer.page, pageSize: answer.pageSize,
        canRestore: answer.canRestore, restorable: answer.restorable,
      };
    }),
  };
}

/**
 * The Customer Support area's wiring file (issue 26): its page machines with their real actors, read by
 * src/adapters/page-logic.ts when a Users page first renders.
 */
export function supportPageLogic(actors: ReturnType<typeof createSupportActors> = createSupportActors()) {
  return {
    subscriberSearch: subscriberSearchMachine.provide({
      actors: { fetchPage: subscriberFetchPage(actors.searchSubscribers) },
      // Issue 38: a page past the last one shows the last page, and the address says so (replaced).
      actions: { queryChanged: ({ context }, params) => { if (params.clamped) replaceAddressSearch(ROUTES.users, { ...usersSearchOf(context.query) }); } },
    }),
    subscriber: subscriberMachine.provide({
      actors: {
        readActionDraft: fromPromise<SupportDraft | null, { subscriberId: string }>(async ({ input }) => readSupportDraft(input.subscriberId)),
        loadSubscriber: actors.loadSubscriber,
        runAction: actors.runAction,
        // Read-only Histories: neither a subscription nor a payment can be restored.
        historyDisclosure: historyDisclosureMachine.provide({
          actors: { history: pageHistoryMachine.provide({ actors: { load: actors.loadHistory } }) },
        }),
      },
      actions: {
        keepDraft: (_, params) => keepSupportDraft(params.subscriberId, params.draft),
        forgetDraft: (_, params) => forgetSupportDraft(params.subscriberId),
      },
    }),
  };
}

let pages: ReturnType<typeof supportPageLogic> | undefined;

/** The area's pages, made on first use (the urql client is made then, not when this module loads). */
export function supportPages(): ReturnType<typeof supportPageLogic> {
  pages ??= supportPageLogic();
  return pages;
}
