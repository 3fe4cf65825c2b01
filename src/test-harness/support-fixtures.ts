/** Fixtures of the Users view tests: a signed-in support agent, a subscriber's page, fake machine logic. */
import { fromPromise } from 'xstate';
import type { Roles } from '../../common/contract';
import type { Revision } from '../../common/revisions';
import { supportRevisionInWords } from '../../common/support-revision-words';
import { historyDisclosureMachine } from '../../machines/history-disclosure.machine';
import { pageHistoryMachine, type HistoryLoadInput, type HistoryPage } from '../../machines/history.machine';
import type { SubscriberDetail, SubscriberListItem, SubscriberSearchPage, SubscriberSearchRequest } from '../../common/support';
import type { Session } from '../../machines/auth.types';
import type { ActionCommand, ActionOutcome } from '../../machines/support-subscriber.machine';
import { siteProfile } from '../../machines/test-harness/fixtures';
import { subscriberFetchPage, subscriberSearchMachine } from '../../machines/support-search.machine';
import { subscriberMachine } from '../../machines/support-subscriber.machine';

export const SUBSCRIBER_ID = '0b6f7c1e-2a3d-4c5e-8f90-1a2b3c4d5e6f';
export const SUBSCRIPTION_ID = '1c7a8d2f-3b4e-4d6f-9a01-2b3c4d5e6f70';
export const DEVICE_ID = '2d8b9e3a-4c5f-4e7a-8b12-3c4d5e6f7081';
export const PLAN_ID = '3e9c0f4b-5d6a-4f8b-9c23-4d5e6f708192';
export const FAMILY_PLAN_ID = '4fad1a5c-6e7b-4a9c-8d34-5e6f708192a3';

export function agentSignedIn(roles: Roles): Session {
  return {
    accessToken: 'token-1', apiKey: 'key-1', site: 'viewlift-demo', username: 'support@demo.test', roles,
    accessFlags: { adminAccess: false, contentAccess: false, subOfferAccess: false, custAccess: true },
    encodingEnabled: true, profile: siteProfile({ roles }),
  };
}

export function listItem(n: number, over: Partial<SubscriberListItem> = {}): SubscriberListItem {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `Maria Lopez ${n}`, email: 'ma•••@example.com', phone: '•••• 4321', country: 'ES', status: 'active',
    createdAt: '2025-05-01T10:00:00.000Z', planName: 'Premium Monthly', subscriptionState: 'paying', ...over,
  };
}

export const PLAN_OPTIONS = [{ value: '3e9c0f4b-5d6a-4f8b-9c23-4d5e6f708192', label: 'Basic Monthly' }];
export const NETWORK_OPTIONS = [{ value: 'sports-plus', label: 'Sports Plus' }];

export function searchPage(items: SubscriberListItem[], total = items.length, page = 1, totalIsCapped = false): SubscriberSearchPage {
  return { items, total, totalIsCapped, page, pageSize: 20, plans: PLAN_OPTIONS, networks: NETWORK_OPTIONS };
}

export function subscriberDetail(over: {
  cancelAtPeriodEnd?: boolean; status?: 'active' | 'cancelled'; endedAt?: string | null; refundedAmount?: number; paymentStatus?: string;
} = {}): SubscriberDetail {
  return {
    profile: {
      id: SUBSCRIBER_ID, name: 'Maria Lopez', email: 'ma•••@example.com', phone: '•••• 4321', country: 'ES', status: 'active',
      createdAt: '2025-05-01T10:00:00.000Z', networkName: 'ViewLift Main', updatedAt: '2026-01-01T10:00:00.000Z', version: 1,
      planName: 'Premium Monthly', subscriptionState: over.cancelAtPeriodEnd ? 'cancelling' : 'paying',
    },
    subscriptions: [{
      id: SUBSCRIPTION_ID, planName: 'Premium Monthly', billingPeriod: 'month', status: over.status ?? 'active',
      startedAt: '2025-05-01T10:00:00.000Z', trialEndsAt: null, currentPeriodEnd: '2026-02-01T10:00:00.000Z',
      cancelAtPeriodEnd: over.cancelAtPeriodEnd ?? false, cancelledAt: null, endedAt: over.endedAt ?? null,
      amount: 1299, currency: 'EUR', version: 1,
      planId: PLAN_ID, currentPeriodStart: '2026-01-01T10:00:00.000Z', pendingPlanName: null, nextPaymentAdjustment: 0, renewalAmount: null,
    }],
    payments: [
      { id: 'p2', at: '2026-01-01T10:00:00.000Z', planName: 'Premium Monthly', amount: 1299, currency: 'EUR', status: 'failed', method: 'card', refundedAmount: 0, version: 1 },
      {
        id: 'p1', at: '2025-12-01T10:00:00.000Z', planName: 'Premium Monthly', amount: 1299, currency: 'EUR', status: over.paymentStatus ?? 'succeeded', method: 'paypal',
        refundedAmount: over.refundedAmount ?? 0, version: 1,
      },
    ],
    planOptions: [
      { id: PLAN_ID, name: 'Premium Monthly', billingPeriod: 'month', prices: [{ currency: 'EUR', amount: 1299 }] },
      { id: FAMILY_PLAN_ID, name: 'Family Monthly', billingPeriod: 'month', prices: [{ currency: 'EUR', amount: 1899 }, { currency: 'USD', amount: 1999 }] },
      { id: 'a0000000-0000-4000-8000-000000000001', name: 'US Basic', billingPeriod: 'month', prices: [{ currency: 'USD', amount: 599 }] },
    ],
    devices: [
      { id: DEVICE_ID, name: 'Living room Roku', deviceType: 'roku', os: 'Roku OS 12', appVersion: '3.4.1', lastSeenAt: '2026-01-10T20:00:00.000Z', signedOutAt: null },
      { id: 'd2', name: 'Old iPad', deviceType: 'ios', os: 'iPadOS 16', appVersion: '5.0.0', lastSeenAt: '2025-08-10T20:00:00.000Z', signedOutAt: '2025-09-01T00:00:00.000Z' },
    ],
    playback: [
      { id: 'pb1', startedAt: '2026-01-10T20:05:00.000Z', contentTitle: 'The Long Night', deviceType: 'roku', watchedSeconds: 1200, startupMs: 6200, rebufferCount: 7, rebufferSeconds: 95, avgBitrateKbps: 2400, errorCode: 'NET-408' },
      { id: 'pb2', startedAt: '2026-01-09T19:00:00.000Z', contentTitle: 'Harbour Lights', deviceType: 'roku', watchedSeconds: 3000, startupMs: 900, rebufferCount: 0, rebufferSeconds: 0, avgBitrateKbps: 5200, errorCode: null },
    ],
    notes: [{ id: 'n1', body: 'Asked about 4K on Roku.', authorName: 'Sam Support', createdAt: '2026-01-02T09:00:00.000Z' }],
  };
}

/**
 * The Users page machines with fake actors, for `renderView(…, { pages: fake.pages })`; records what
 * they asked the server.
 */
/** A support revision as GET /v1/revisions/:kind/:objectId sends it. */
export function supportRevision(over: Partial<Revision> & Pick<Revision, 'kind' | 'objectId' | 'changes'>): Revision {
  return {
    seq: 1, objectName: null, networkId: null, objectVersion: 2, actor: { id: 'u1', username: 'sam@demo.test' },
    at: '2026-01-05T09:30:00.000Z', reason: 'Moving abroad', requestId: null, restoredFrom: null, ...over,
  };
}

export function fakeSupportLogic(options: {
  search?: (request: SubscriberSearchRequest) => SubscriberSearchPage | Promise<SubscriberSearchPage>;
  load?: () => SubscriberDetail | Promise<SubscriberDetail>;
  run?: (command: ActionCommand) => ActionOutcome | Promise<ActionOutcome>;
  /** The revisions of an object's History (as the server sends them; put in words as the wiring does). */
  history?: (input: HistoryLoadInput) => Revision[];
} = {}) {
  const searches: SubscriberSearchRequest[] = [];
  const commands: ActionCommand[] = [];
  const historyLoads: HistoryLoadInput[] = [];
  const pages = {
    subscriberSearch: subscriberSearchMachine.provide({
      actors: {
        fetchPage: subscriberFetchPage(async (input) => {
          searches.push(input);
          return options.search ? options.search(input) : searchPage([listItem(1), listItem(2)]);
        }),
      },
    }),
    subscriber: subscriberMachine.provide({
      actors: {
        loadSubscriber: fromPromise<SubscriberDetail, { subscriberId: string }>(async () => (options.load ? options.load() : subscriberDetail())),
        runAction: fromPromise<ActionOutcome, ActionCommand>(async ({ input }) => {
          commands.push(input);
          return options.run ? options.run(input) : { kind: 'detail', detail: subscriberDetail({ cancelAtPeriodEnd: true }) };
        }),
        historyDisclosure: historyDisclosureMachine.provide({
          actors: {
            history: pageHistoryMachine.provide({
              actors: {
                load: fromPromise<HistoryPage, HistoryLoadInput>(async ({ input }) => {
                  historyLoads.push(input);
                  const items = (options.history?.(input) ?? []).map((revision) => supportRevisionInWords(revision));
                  return { items, total: items.length, page: 1, pageSize: 20, canRestore: false, restorable: false };
                }),
              },
            }),
          },
        }),
      },
    }),
  };
  return { pages, searches, commands, historyLoads };
}
