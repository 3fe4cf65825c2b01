/**
 * Customer Support over the management GraphQL endpoint (issue 16; the spec names no REST path for
 * it): the subscriber search and page, and the support actions. Merged into the management schema by
 * plugin.ts. Every resolver authenticates the caller, then hands its arguments to
 * server/domain/support.ts, which enforces roles, site isolation, reasons, versions and the audit log.
 * Arguments are strings and numbers checked by the domain, so bad input reads as our own message.
 */
import {
  addSupportNote, cancelSubscription, changeSubscriptionPlan, getSubscriber, grantComplimentaryDays, refundPayment,
  resumeSubscription, revealContact, searchSubscribers, signOutDevices, type SupportDeps,
} from '../domain/support';
import type { ManagementContext } from './resolvers';

/** What a search row and a subscriber's page both say about the subscriber. */
const SUBSCRIBER_FIELDS = /* GraphQL */ `
    id: ID!
    name: String!
    email: String!
    phone: String!
    country: String!
    status: String!
    createdAt: String!
    planName: String
    subscriptionState: String`;

export const supportSchema = /* GraphQL */ `
  type SupportSubscriber {${SUBSCRIBER_FIELDS}
  }

  type SupportFilterOption {
    value: String!
    label: String!
  }

  type SupportSearchPage {
    items: [SupportSubscriber!]!
    total: Int!
    totalIsCapped: Boolean!
    page: Int!
    pageSize: Int!
    plans: [SupportFilterOption!]!
    networks: [SupportFilterOption!]!
  }

  type SupportProfile {${SUBSCRIBER_FIELDS}
    networkName: String!
    updatedAt: String!
    version: Int!
  }

  type SupportSubscription {
    id: ID!
    planName: String!
    billingPeriod: String!
    status: String!
    startedAt: String!
    trialEndsAt: String
    currentPeriodEnd: String!
    cancelAtPeriodEnd: Boolean!
    cancelledAt: String
    endedAt: String
    amount: Int!
    currency: String!
    version: Int!
    planId: ID!
    currentPeriodStart: String!
    pendingPlanName: String
    nextPaymentAdjustment: Int!
    "The price it pays from its next renewal when moved to the plan's newer price (minor units); null when not moving."
    renewalAmount: Int
  }

  type SupportPayment {
    id: ID!
    at: String!
    planName: String
    amount: Int!
    currency: String!
    status: String!
    method: String!
    refundedAmount: Int!
    version: Int!
  }

  type SupportPrice {
    currency: String!
    amount: Int!
  }

  type SupportPlanOption {
    id: ID!
    name: String!
    billingPeriod: String!
    prices: [SupportPrice!]!
  }

  type SupportDevice {
    id: ID!
    name: String!
    deviceType: String!
    os: String!
    appVersion: String!
    lastSeenAt: String!
    signedOutAt: String
  }

  type SupportPlayback {
    id: ID!
    startedAt: String!
    contentTitle: String!
    deviceType: String!
    watchedSeconds: Int!
    startupMs: Int!
    rebufferCount: Int!
    rebufferSeconds: Int!
    avgBitrateKbps: Int!
    errorCode: String
  }

  type SupportNote {
    id: ID!
    body: String!
    authorName: String!
    createdAt: String!
  }

  type SupportSubscriberDetail {
    profile: SupportProfile!
    subscriptions: [SupportSubscription!]!
    payments: [SupportPayment!]!
    devices: [SupportDevice!]!
    playback: [SupportPlayback!]!
    notes: [SupportNote!]!
    planOptions: [SupportPlanOption!]!
  }

  type SupportContact {
    email: String!
    phone: String!
  }

  extend type Query {
    subscriberSearch(query: String!, status: String, state: String, plan: String, network: String, page: Int, pageSize: Int): SupportSearchPage!
    subscriber(id: ID!): SupportSubscriberDetail!
  }

  extend type Mutation {
    subscriptionCancel(subscriptionId: ID!, mode: String!, reason: String!, version: Int!): SupportSubscriberDetail!
    subscriptionGrantDays(subscriptionId: ID!, days: Int!, reason: String!, version: Int!): SupportSubscriberDetail!
    subscriberSignOutDevices(subscriberId: ID!, deviceId: ID, reason: String!, version: Int!): SupportSubscriberDetail!
    subscriberAddNote(subscriberId: ID!, body: String!): SupportSubscriberDetail!
    subscriberRevealContact(subscriberId: ID!, reason: String!): SupportContact!
    subscriptionResume(subscriptionId: ID!, reason: String!, version: Int!): SupportSubscriberDetail!
    subscriptionChangePlan(subscriptionId: ID!, planId: ID!, when: String!, reason: String!, version: Int!): SupportSubscriberDetail!
    paymentRefund(paymentId: ID!, amount: Int!, reason: String!, version: Int!): SupportSubscriberDetail!
  }
`;

type Caller = Awaited<ReturnType<ManagementContext['caller']>>;

export function supportResolvers(deps: SupportDeps) {
  // DomainErrors thrown below become GraphQL errors in plugin.ts's errorFormatter.
  const run = <TArgs, TResult>(action: (deps: SupportDeps, caller: Caller, args: TArgs) => Promise<TResult>) =>
    async (_root: unknown, args: TArgs, ctx: ManagementContext): Promise<TResult> => action(deps, await ctx.caller(), args);
  return {
    Query: {
      subscriberSearch: run(searchSubscribers),
      subscriber: run((d, caller, args: { id: unknown }) => getSubscriber(d, caller, args.id)),
    },
    Mutation: {
      subscriptionCancel: run(cancelSubscription),
      subscriptionGrantDays: run(grantComplimentaryDays),
      subscriberSignOutDevices: run(signOutDevices),
      subscriberAddNote: run(addSupportNote),
      subscriberRevealContact: run(revealContact),
      subscriptionResume: run(resumeSubscription),
      subscriptionChangePlan: run(changeSubscriptionPlan),
      paymentRefund: run(refundPayment),
    },
  };
}
