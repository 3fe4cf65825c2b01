/**
 * The Users list's filters in the URL (issue 27): `/users?state=paying&plan=<id>&network=<identifier>`,
 * so a link (the Dashboard's "Paying subscribers") opens the list filtered. The router validates them
 * with `validateUsersSearch`: an invalid value is dropped, so a bad link still opens the list.
 *
 * Issue 38 ("nothing lost"): the subscriber status filter and the page live there too, so Back from a
 * subscriber or a reload shows the same page. The typed search text never does, on purpose: it is an
 * e-mail, a name or a phone number, personal data that an address would put into the browser's history
 * and the servers' access logs. It stays in the search machine only (kept while the agent is in Users).
 */
import { isSubscriptionState, type SubscriptionState } from '../../../common/subscription-states';
import { SUBSCRIBER_STATUSES, type SubscriberStatus, type SubscriptionFilters } from '../../../common/support';
import type { ListInput, ListQuery } from '../../../machines/list.machine';
import { subscriberSearchInput } from '../../../machines/support-search.machine';

export interface UsersSearch {
  state?: SubscriptionState;
  /** A plan id. */
  plan?: string;
  /** A network identifier. */
  network?: string;
  /** The subscriber status filter (issue 38). */
  status?: SubscriberStatus;
  /** 1-based; left out for page 1 (issue 38). */
  page?: number;
}

/** The last page an address may name (a later one is dropped: page 1). */
export const USERS_MAX_PAGE = 100000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NETWORK = /^[\w.-]{1,200}$/;

export function validateUsersSearch(raw: Record<string, unknown>): UsersSearch {
  const search: UsersSearch = {};
  if (isSubscriptionState(raw.state)) search.state = raw.state;
  if (typeof raw.plan === 'string' && UUID.test(raw.plan)) search.plan = raw.plan.toLowerCase();
  if (typeof raw.network === 'string' && NETWORK.test(raw.network)) search.network = raw.network;
  const status = SUBSCRIBER_STATUSES.find((known) => known === raw.status);
  if (status) search.status = status;
  const page = typeof raw.page === 'number' ? raw.page : typeof raw.page === 'string' && raw.page.trim() !== '' ? Number(raw.page) : NaN;
  if (Number.isInteger(page) && page > 1 && page <= USERS_MAX_PAGE) search.page = page;
  return search;
}

export function filtersOf(search: UsersSearch): SubscriptionFilters {
  return { state: search.state ?? null, plan: search.plan ?? null, network: search.network ?? null };
}

/** The search params of some filters, a status and a page: unset ones and page 1 left out (never the typed text). */
export function searchOf(filters: SubscriptionFilters, status: SubscriberStatus | null = null, page = 1): UsersSearch {
  const search: UsersSearch = {};
  if (filters.state) search.state = filters.state;
  if (filters.plan) search.plan = filters.plan;
  if (filters.network) search.network = filters.network;
  if (status) search.status = status;
  if (page > 1) search.page = page;
  return search;
}

/** Where the subscriber search starts: the address's filters, status and page (the search machine's input). */
export function searchStartOf(search: UsersSearch): ListInput {
  return subscriberSearchInput({ filters: filtersOf(search), status: search.status ?? null, page: search.page ?? 1 });
}

/** The address of the search's query (its filters, status and page; never the typed text): the wiring writes a clamped page back (issue 38). */
export function usersSearchOf(query: ListQuery): UsersSearch {
  const filters = query.filters;
  const status = SUBSCRIBER_STATUSES.find((known) => known === filters.status) ?? null;
  return searchOf(filtersOf(validateUsersSearch(filters)), status, Math.floor(query.offset / query.limit) + 1);
}
