/**
 * The Users list's filters in the URL (issue 27): `/users?state=paying&plan=<id>&network=<identifier>`,
 * so a link (the Dashboard's "Paying subscribers") opens the list filtered. The router validates them
 * with `validateUsersSearch`: an invalid value is dropped, so a bad link still opens the list.
 */
import { isSubscriptionState, type SubscriptionState } from '../../../common/subscription-states';
import type { SubscriptionFilters } from '../../../common/support';

export interface UsersSearch {
  state?: SubscriptionState;
  /** A plan id. */
  plan?: string;
  /** A network identifier. */
  network?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NETWORK = /^[\w.-]{1,200}$/;

export function validateUsersSearch(raw: Record<string, unknown>): UsersSearch {
  const search: UsersSearch = {};
  if (isSubscriptionState(raw.state)) search.state = raw.state;
  if (typeof raw.plan === 'string' && UUID.test(raw.plan)) search.plan = raw.plan.toLowerCase();
  if (typeof raw.network === 'string' && NETWORK.test(raw.network)) search.network = raw.network;
  return search;
}

export function filtersOf(search: UsersSearch): SubscriptionFilters {
  return { state: search.state ?? null, plan: search.plan ?? null, network: search.network ?? null };
}

/** The search params of some filters: unset ones left out. */
export function searchOf(filters: SubscriptionFilters): UsersSearch {
  const search: UsersSearch = {};
  if (filters.state) search.state = filters.state;
  if (filters.plan) search.plan = filters.plan;
  if (filters.network) search.network = filters.network;
  return search;
}
