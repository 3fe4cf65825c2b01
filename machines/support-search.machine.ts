/**
 * The subscriber search of the Users area (issue 16): a query typed by the agent, a status filter and
 * a page; the matching subscribers (masked) with their total.
 *
 * Issue 39: it is the one list (./list.machine.ts `createListMachine`), typed with the subscriber rows
 * and what the search answers beside them (the site's plans and networks for the filters, whether the
 * total is capped): loading → ready | failed, typing waits `searchDebounce` (debouncing), a newer query
 * aborts the running read, Retry is `list.reload`. What is its own is the query: the list's filters
 * `status`, `state`, `plan` and `network` ('' for none) and its page, sent as the GraphQL request
 * (`subscriberSearchRequestOf`), and the answer read back as a list page (`subscriberFetchPage`: the
 * wiring, src/adapters/support-actors.ts, gives it the request's fetch). The events the Users page sends
 * are named here (`searchEvents`), so it speaks the search's words.
 *
 * The subscription filters (state, plan, network; issue 27) start from the machine's input, which the
 * Users layout reads from the URL's search params, so a link (the Dashboard's "Paying subscribers")
 * opens the list filtered; the page mirrors every later change back into the URL. The status filter and
 * the page start from the input too (issue 38); a page past the last one shows the last page, and the
 * wiring writes it back as the address (`queryChanged`, clamped). The typed query never reaches the
 * address (personal data: it stays out of it, src/views/support/search.ts).
 */
import { fromPromise } from 'xstate';
import type { FilterOption } from '../common/reports';
import { isSubscriptionState } from '../common/subscription-states';
import {
  SUBSCRIBER_STATUSES, SUPPORT_LIMITS, SUPPORT_MESSAGES,
  type SubscriberListItem, type SubscriberSearchPage, type SubscriberSearchRequest, type SubscriberStatus, type SubscriptionFilters,
} from '../common/support';
import { createListMachine, type ListEvent, type ListInput, type ListPage, type ListQuery, type ListView } from './list.machine';

/** What the search answers beside the rows. */
export interface SubscriberSearchMeta {
  plans: FilterOption[];
  networks: FilterOption[];
  /** The matches were more than common/support.ts SEARCH_TOTAL_CAP: the total is the cap (pages go up to it). */
  totalIsCapped: boolean;
}

/** No subscription filter: every subscriber. */
export const NO_FILTERS: SubscriptionFilters = { state: null, plan: null, network: null };

export const subscriberSearchMachine = createListMachine<SubscriberListItem, SubscriberSearchMeta>();

export type SubscriberSearchMachine = typeof subscriberSearchMachine;
export type SubscriberSearchSnapshot = ListView<SubscriberListItem, SubscriberSearchMeta>;

/** Where the search starts: filters, status and page (the Users address, issue 38). */
export interface SubscriberSearchStart {
  filters?: Partial<SubscriptionFilters>;
  status?: SubscriberStatus | null;
  /** 1-based. */
  page?: number;
}

/** The list's filters of the subscription filters and the status ('' for none). */
export function subscriberFiltersOf(filters: Partial<SubscriptionFilters>, status: SubscriberStatus | null = null): Record<string, string> {
  return { status: status ?? '', state: filters.state ?? '', plan: filters.plan ?? '', network: filters.network ?? '' };
}

/** The machine's input for a start. */
export function subscriberSearchInput(start: SubscriberSearchStart = {}): ListInput {
  const page = start.page !== undefined && Number.isInteger(start.page) && start.page > 1 ? start.page : 1;
  return {
    filters: subscriberFiltersOf(start.filters ?? {}, start.status ?? null),
    offset: (page - 1) * SUPPORT_LIMITS.pageSize,
    limit: SUPPORT_LIMITS.pageSize,
    failedMessage: SUPPORT_MESSAGES.searchFailed,
  };
}

function statusOf(value: string | undefined): SubscriberStatus | null {
  return SUBSCRIBER_STATUSES.find((known) => known === value) ?? null;
}

function subscriptionFiltersOf(filters: Readonly<Record<string, string>>): SubscriptionFilters {
  const state = filters.state;
  return { state: isSubscriptionState(state) ? state : null, plan: filters.plan || null, network: filters.network || null };
}

/** The 1-based page of a query. */
function pageOf(query: ListQuery): number {
  return Math.floor(query.offset / query.limit) + 1;
}

/** The GraphQL request of the list's query: the trimmed text, the status, the subscription filters and the page. */
export function subscriberSearchRequestOf(query: ListQuery): SubscriberSearchRequest {
  return {
    query: query.search.trim(), status: statusOf(query.filters.status), ...subscriptionFiltersOf(query.filters),
    page: pageOf(query), pageSize: query.limit,
  };
}

/** The list's `fetchPage` over the search's fetch (its signal passed on: an overtaken search is aborted). */
export function subscriberFetchPage(search: (request: SubscriberSearchRequest, signal: AbortSignal) => Promise<SubscriberSearchPage>) {
  return fromPromise<ListPage<SubscriberListItem, SubscriberSearchMeta>, ListQuery>(async ({ input, signal }) => {
    const answer = await search(subscriberSearchRequestOf(input), signal);
    return { items: answer.items, total: answer.total, meta: { plans: answer.plans, networks: answer.networks, totalIsCapped: answer.totalIsCapped } };
  });
}

/** The events the Users page sends, in the search's words. */
export const searchEvents = {
  /** Typed text: searched once typing pauses, from page 1. */
  type: (query: string): ListEvent => ({ type: 'list.search', search: query }),
  /** The status filter: at once, from page 1. */
  status: (status: SubscriberStatus | null): ListEvent => ({ type: 'list.filter', name: 'status', value: status ?? '' }),
  /** The subscription filters (with the status kept): at once, from page 1. */
  filters: (filters: SubscriptionFilters, status: SubscriberStatus | null): ListEvent => ({ type: 'list.filters', filters: subscriberFiltersOf(filters, status) }),
  /** A 1-based page (one that does not exist or is shown is ignored). */
  page: (page: number): ListEvent => ({ type: 'list.page', offset: Number.isInteger(page) ? (page - 1) * SUPPORT_LIMITS.pageSize : -1 }),
  retry: (): ListEvent => ({ type: 'list.reload' }),
};

export const selectQuery = (s: SubscriberSearchSnapshot): string => s.context.query.search;
export const selectStatus = (s: SubscriberSearchSnapshot): SubscriberStatus | null => statusOf(s.context.query.filters.status);
export const selectFilters = (s: SubscriberSearchSnapshot): SubscriptionFilters => subscriptionFiltersOf(s.context.query.filters);
/** The site's plans and networks from the last answer (empty until one arrives). */
export const selectPlanOptions = (s: SubscriberSearchSnapshot): FilterOption[] => s.context.meta?.plans ?? [];
export const selectNetworkOptions = (s: SubscriberSearchSnapshot): FilterOption[] => s.context.meta?.networks ?? [];
export const selectPage = (s: SubscriberSearchSnapshot): number => pageOf(s.context.query);
export const selectPageCount = (s: SubscriberSearchSnapshot): number => Math.max(1, Math.ceil(s.context.total / s.context.query.limit));
/** The total of the last answer; null until one arrives. */
export const selectTotal = (s: SubscriberSearchSnapshot): number | null => (s.context.meta ? s.context.total : null);
/** The matches were more than common/support.ts SEARCH_TOTAL_CAP: the total is the cap (pages go up to it). */
export const selectTotalIsCapped = (s: SubscriberSearchSnapshot): boolean => s.context.meta?.totalIsCapped ?? false;
export const selectItems = (s: SubscriberSearchSnapshot): SubscriberListItem[] => s.context.items;
/** Waiting for typing to pause or for the server: the list shows the previous answer, marked busy. */
export const selectIsBusy = (s: SubscriberSearchSnapshot): boolean => s.hasTag('loading');
export const selectError = (s: SubscriberSearchSnapshot): string | null => (s.hasTag('error') ? s.context.error : null);
export const selectHasNoMatches = (s: SubscriberSearchSnapshot): boolean => s.value === 'ready' && s.context.meta !== null && s.context.total === 0;
