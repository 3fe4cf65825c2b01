/**
 * Customer Support's wire contract (issue 16, Users at /users): the subscriber search, the subscriber
 * page and the support actions, spoken by the GraphQL module (server/graphql/support.ts), the two
 * machines and the views. The spec names no REST path for these, so they go over the management
 * GraphQL endpoint. Personal data arrives masked; the full e-mail and phone only through the logged
 * reveal action.
 */

import { SUBSCRIPTION_STATES, type SubscriptionState } from './figures';
import type { FilterOption } from './reports';

export const SUBSCRIBER_STATUSES = ['active', 'suspended', 'closed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** Statuses a subscription can still be cancelled or extended in. */
export const LIVE_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

export const CANCEL_MODES = ['AT_PERIOD_END', 'NOW'] as const;
export type CancelMode = (typeof CANCEL_MODES)[number];

export const SUPPORT_LIMITS = {
  pageSize: 20,
  maxPageSize: 100,
  /** Pages past this are refused: nobody pages 500 deep, a client that does has a bug. */
  maxPage: 500,
  maxQueryLength: 200,
  /** The search is debounced this long after the last keystroke. */
  searchDebounceMs: 300,
  /** The subscriber page lists this many playback sessions, newest first. */
  playbackSessions: 50,
  payments: 50,
  notes: 100,
  minReasonLength: 3,
  maxReasonLength: 500,
  maxNoteLength: 2000,
  minComplimentaryDays: 1,
  maxComplimentaryDays: 365,
} as const;

export interface SubscriberListItem {
  id: string;
  name: string;
  /** Partly hidden: `ma•••@example.com`. */
  email: string;
  /** Partly hidden: `•••• 4321`; '' when none. */
  phone: string;
  country: string;
  status: SubscriberStatus;
  createdAt: string;
}

/** Filters by the subscriber's subscriptions (issue 27): a subscriber matches when one subscription has them all. */
export interface SubscriptionFilters {
  /** A state of common/figures.ts (SUBSCRIPTION_STATE_RULES). */
  state: SubscriptionState | null;
  /** A plan id of the site. */
  plan: string | null;
  /** A network identifier of the site (the subscription's network). */
  network: string | null;
}

export interface SubscriberSearchRequest extends SubscriptionFilters {
  query: string;
  status: SubscriberStatus | null;
  page: number;
  pageSize: number;
}

export interface SubscriberSearchPage {
  items: SubscriberListItem[];
  total: number;
  page: number;
  pageSize: number;
  /** The site's plans and networks, for the filters (value = plan id / network identifier). */
  plans: FilterOption[];
  networks: FilterOption[];
}

export interface SubscriberProfile extends SubscriberListItem {
  networkName: string;
  updatedAt: string;
  version: number;
}

export interface SubscriptionRow {
  id: string;
  planName: string;
  billingPeriod: string;
  status: SubscriptionStatus;
  startedAt: string;
  trialEndsAt: string | null;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  cancelledAt: string | null;
  endedAt: string | null;
  amount: number;
  currency: string;
  version: number;
}

export interface PaymentRow {
  id: string;
  at: string;
  planName: string | null;
  amount: number;
  currency: string;
  status: string;
  method: string;
}

export interface DeviceRow {
  id: string;
  name: string;
  deviceType: string;
  os: string;
  appVersion: string;
  lastSeenAt: string;
  signedOutAt: string | null;
}

export interface PlaybackRow {
  id: string;
  startedAt: string;
  contentTitle: string;
  deviceType: string;
  watchedSeconds: number;
  startupMs: number;
  rebufferCount: number;
  rebufferSeconds: number;
  avgBitrateKbps: number;
  errorCode: string | null;
}

export interface SupportNoteRow {
  id: string;
  body: string;
  authorName: string;
  createdAt: string;
}

export interface SubscriberDetail {
  profile: SubscriberProfile;
  subscriptions: SubscriptionRow[];
  payments: PaymentRow[];
  devices: DeviceRow[];
  playback: PlaybackRow[];
  notes: SupportNoteRow[];
}

export interface RevealedContact {
  email: string;
  phone: string;
}

/** The support actions, each confirmed with a reason in the browser and audit-logged at the server. */
export type SupportAction =
  | { kind: 'cancelSubscription'; subscriptionId: string; mode: CancelMode; version: number }
  | { kind: 'grantDays'; subscriptionId: string; days: number; version: number }
  | { kind: 'signOutDevices'; deviceId: string | null; version: number }
  | { kind: 'addNote' }
  | { kind: 'revealContact' };

export type SupportActionKind = SupportAction['kind'];

/** Audit actions of Customer Support (audit_events.action). */
export const SUPPORT_AUDIT_ACTIONS = {
  cancelSubscription: 'support.subscription.cancel',
  grantDays: 'support.subscription.grantDays',
  signOutDevices: 'support.devices.signOut',
  addNote: 'support.note.add',
  revealContact: 'support.contact.reveal',
  /** Every subscriber search, with its query (issue 25). */
  search: 'support.subscriber.search',
} as const;

/** A reason the server accepts: trimmed, between the bounds. */
export function isValidReason(reason: string): boolean {
  const length = reason.trim().length;
  return length >= SUPPORT_LIMITS.minReasonLength && length <= SUPPORT_LIMITS.maxReasonLength;
}

export function isValidComplimentaryDays(days: number): boolean {
  return Number.isInteger(days) && days >= SUPPORT_LIMITS.minComplimentaryDays && days <= SUPPORT_LIMITS.maxComplimentaryDays;
}

export function isLiveSubscription(status: SubscriptionStatus): boolean {
  return LIVE_SUBSCRIPTION_STATUSES.includes(status);
}

/** Our own words for the Users area (not in the spec). */
export const SUPPORT_MESSAGES = {
  reasonRequired: `Give a reason (${SUPPORT_LIMITS.minReasonLength} to ${SUPPORT_LIMITS.maxReasonLength} characters).`,
  daysRange: `Complimentary days must be a whole number from ${SUPPORT_LIMITS.minComplimentaryDays} to ${SUPPORT_LIMITS.maxComplimentaryDays}.`,
  noteRequired: `Write the note (1 to ${SUPPORT_LIMITS.maxNoteLength} characters).`,
  queryTooLong: `The search may be at most ${SUPPORT_LIMITS.maxQueryLength} characters.`,
  badStatus: `status must be one of ${SUBSCRIBER_STATUSES.join(', ')}.`,
  badState: `state must be one of ${SUBSCRIPTION_STATES.join(', ')}.`,
  badPlan: 'plan is not a plan of this site.',
  badNetwork: 'network is not a network of this site.',
  badPage: `page must be a whole number from 1 to ${SUPPORT_LIMITS.maxPage}.`,
  badPageSize: `pageSize must be a whole number from 1 to ${SUPPORT_LIMITS.maxPageSize}.`,
  badCancelMode: `mode must be one of ${CANCEL_MODES.join(', ')}.`,
  badId: (what: string) => `${what} is not a valid id.`,
  badVersion: 'version must be a whole number of at least 1.',
  subscriberNotFound: 'Subscriber not found',
  subscriptionNotFound: 'Subscription not found',
  deviceNotFound: 'Device not found',
  subscriptionEnded: 'This subscription has already ended.',
  alreadyCancelling: 'This subscription is already set to cancel at the end of its period.',
  noDevicesSignedIn: 'No device is signed in.',
  conflict: 'Someone else changed this subscriber in the meantime. The page now shows the latest data; check it and try again.',
  loadFailed: 'The subscriber could not be loaded.',
  searchFailed: 'The search failed.',
  noResults: 'No subscribers match this search.',
  cancelledNow: 'Subscription cancelled; it has ended.',
  cancelledAtPeriodEnd: 'Subscription set to cancel at the end of its period.',
  daysGranted: (days: number) => `${days} complimentary ${days === 1 ? 'day' : 'days'} granted.`,
  signedOutAll: 'Signed out of all devices.',
  signedOutOne: 'Device signed out.',
  noteAdded: 'Note added.',
  contactRevealed: 'Full e-mail and phone shown; the reveal is in the audit log.',
  searchBudgetExceeded: 'You have searched a lot in the last few minutes. Please wait a moment before searching again.',
} as const;
