/**
 * The GraphQL documents of the Users area (server/graphql/support.ts): the subscriber search, the
 * subscriber page and the support actions. Every action answers with the whole page, so the browser
 * shows the server's truth after each one.
 */
import { gql } from 'urql';
import type {
  CancelMode, PlanChangeWhen, RevealedContact, SubscriberDetail, SubscriberSearchPage, SubscriberSearchRequest,
} from '../../common/support';

const DETAIL_FIELDS = gql`
  fragment SupportDetailFields on SupportSubscriberDetail {
    profile { id name email phone country status createdAt networkName updatedAt version planName subscriptionState }
    subscriptions {
      id planName billingPeriod status startedAt trialEndsAt currentPeriodEnd cancelAtPeriodEnd cancelledAt endedAt
      amount currency version planId currentPeriodStart pendingPlanName nextPaymentAdjustment renewalAmount
    }
    payments { id at planName amount currency status method refundedAmount version }
    planOptions { id name billingPeriod prices { currency amount } }
    devices { id name deviceType os appVersion lastSeenAt signedOutAt }
    playback { id startedAt contentTitle deviceType watchedSeconds startupMs rebufferCount rebufferSeconds avgBitrateKbps errorCode }
    notes { id body authorName createdAt }
  }
`;

export const SUBSCRIBER_SEARCH = gql<
  { subscriberSearch: SubscriberSearchPage },
  SubscriberSearchRequest
>`
  query subscriberSearch($query: String!, $status: String, $state: String, $plan: String, $network: String, $page: Int, $pageSize: Int) {
    subscriberSearch(query: $query, status: $status, state: $state, plan: $plan, network: $network, page: $page, pageSize: $pageSize) {
      total
      totalIsCapped
      page
      pageSize
      items { id name email phone country status createdAt planName subscriptionState }
      plans { value label }
      networks { value label }
    }
  }
`;

export const SUBSCRIBER = gql<{ subscriber: SubscriberDetail }, { id: string }>`
  query subscriber($id: ID!) {
    subscriber(id: $id) { ...SupportDetailFields }
  }
  ${DETAIL_FIELDS}
`;

export const SUBSCRIPTION_CANCEL = gql<
  { subscriptionCancel: SubscriberDetail },
  { subscriptionId: string; mode: CancelMode; reason: string; version: number }
>`
  mutation subscriptionCancel($subscriptionId: ID!, $mode: String!, $reason: String!, $version: Int!) {
    subscriptionCancel(subscriptionId: $subscriptionId, mode: $mode, reason: $reason, version: $version) { ...SupportDetailFields }
  }
  ${DETAIL_FIELDS}
`;

export const SUBSCRIPTION_GRANT_DAYS = gql<
  { subscriptionGrantDays: SubscriberDetail },
  { subscriptionId: string; days: number; reason: string; version: number }
>`
  mutation subscriptionGrantDays($subscriptionId: ID!, $days: Int!, $reason: String!, $version: Int!) {
    subscriptionGrantDays(subscriptionId: $subscriptionId, days: $days, reason: $reason, version: $version) { ...SupportDetailFields }
  }
  ${DETAIL_FIELDS}
`;

export const SUBSCRIBER_SIGN_OUT_DEVICES = gql<
  { subscriberSignOutDevices: SubscriberDetail },
  { subscriberId: string; deviceId: string | null; reason: string; version: number }
>`
  mutation subscriberSignOutDevices($subscriberId: ID!, $deviceId: ID, $reason: String!, $version: Int!) {
    subscriberSignOutDevices(subscriberId: $subscriberId, deviceId: $deviceId, reason: $reason, version: $version) { ...SupportDetailFields }
  }
  ${DETAIL_FIELDS}
`;

export const SUBSCRIBER_ADD_NOTE = gql<{ subscriberAddNote: SubscriberDetail }, { subscriberId: string; body: string }>`
  mutation subscriberAddNote($subscriberId: ID!, $body: String!) {
    subscriberAddNote(subscriberId: $subscriberId, body: $body) { ...SupportDetailFields }
  }
  ${DETAIL_FIELDS}
`;

export const SUBSCRIBER_REVEAL_CONTACT = gql<{ subscriberRevealContact: RevealedContact }, { subscriberId: string; reason: string }>`
  mutation subscriberRevealContact($subscriberId: ID!, $reason: String!) {
    subscriberRevealContact(subscriberId: $subscriberId, reason: $reason) { email phone }
  }
`;

export const SUBSCRIPTION_RESUME = gql<
  { subscriptionResume: SubscriberDetail },
  { subscriptionId: string; reason: string; version: number }
>`
  mutation subscriptionResume($subscriptionId: ID!, $reason: String!, $version: Int!) {
    subscriptionResume(subscriptionId: $subscriptionId, reason: $reason, version: $version) { ...SupportDetailFields }
  }
  ${DETAIL_FIELDS}
`;

export const SUBSCRIPTION_CHANGE_PLAN = gql<
  { subscriptionChangePlan: SubscriberDetail },
  { subscriptionId: string; planId: string; when: PlanChangeWhen; reason: string; version: number }
>`
  mutation subscriptionChangePlan($subscriptionId: ID!, $planId: ID!, $when: String!, $reason: String!, $version: Int!) {
    subscriptionChangePlan(subscriptionId: $subscriptionId, planId: $planId, when: $when, reason: $reason, version: $version) { ...SupportDetailFields }
  }
  ${DETAIL_FIELDS}
`;

export const PAYMENT_REFUND = gql<
  { paymentRefund: SubscriberDetail },
  { paymentId: string; amount: number; reason: string; version: number }
>`
  mutation paymentRefund($paymentId: ID!, $amount: Int!, $reason: String!, $version: Int!) {
    paymentRefund(paymentId: $paymentId, amount: $amount, reason: $reason, version: $version) { ...SupportDetailFields }
  }
  ${DETAIL_FIELDS}
`;
