/**
 * The subscriber search of the Users area (issue 16): a query typed by the agent, a status filter and
 * a page; the matching subscribers (masked) with their total.
 *
 *   searching → ready | failed; typing waits `searchDebounce` (debouncing) before searching
 *
 * Every new query, filter or page leaves `searching`, which stops the running `search` actor: its
 * fetch is aborted through the actor's signal and a late answer can never land, so only the newest
 * request's answer is ever shown. Typing and the filters go back to the first page.
 * The subscription filters (state, plan, network; issue 27) start from the machine's input, which the
 * Users layout reads from the URL's search params, so a link (the Dashboard's "Paying subscribers")
 * opens the list filtered; the page mirrors every later change back into the URL. The status filter and
 * the page start from the input too (issue 38); the typed query never does (personal data: it stays
 * out of the address, src/views/support/search.ts).
 * The `search` actor is supplied by src/adapters/support-actors.ts.
 */
import { assign, setup, type SnapshotFrom } from 'xstate';
import type { FilterOption } from '../common/reports';
import {
  SUPPORT_LIMITS, SUPPORT_MESSAGES,
  type SubscriberListItem, type SubscriberSearchPage, type SubscriberSearchRequest, type SubscriberStatus, type SubscriptionFilters,
} from '../common/support';
import { failureMessage } from './notify';
import { typed } from './setup-types';
import { providedLater } from './unprovided';

export interface SubscriberSearchContext {
  query: string;
  status: SubscriberStatus | null;
  filters: SubscriptionFilters;
  page: number;
  pageSize: number;
  result: SubscriberSearchPage | null;
  error: string | null;
}

export type SubscriberSearchEvent =
  | { type: 'search.type'; query: string }
  | { type: 'search.status'; status: SubscriberStatus | null }
  | { type: 'search.filters'; filters: SubscriptionFilters }
  | { type: 'search.page'; page: number }
  | { type: 'search.retry' };

/** No subscription filter: every subscriber. */
export const NO_FILTERS: SubscriptionFilters = { state: null, plan: null, network: null };

export const subscriberSearchMachine = setup({
  types: {
    context: typed<SubscriberSearchContext>(),
    events: typed<SubscriberSearchEvent>(),
    input: typed<{ filters?: Partial<SubscriptionFilters>; status?: SubscriberStatus | null; page?: number } | undefined>(),
  },
  actors: {
    /** GraphQL subscriberSearch; aborted when the machine moves on. */
    search: providedLater<SubscriberSearchPage, SubscriberSearchRequest>('search'),
  },
  delays: {
    searchDebounce: SUPPORT_LIMITS.searchDebounceMs,
  },
  actions: {
    setQuery: assign((_, params: { query: string }) => ({ query: params.query, page: 1 })),
    setStatus: assign((_, params: { status: SubscriberStatus | null }) => ({ status: params.status, page: 1 })),
    setFilters: assign((_, params: { filters: SubscriptionFilters }) => ({ filters: params.filters, page: 1 })),
    setPage: assign((_, params: { page: number }) => ({ page: params.page })),
    setResult: assign((_, params: { result: SubscriberSearchPage }) => ({ result: params.result, error: null })),
    setError: assign((_, params: { error: unknown }) => ({ error: failureMessage(params.error, SUPPORT_MESSAGES.searchFailed) })),
  },
  guards: {
    /** A page that exists for the last answer (and is not the one shown). */
    isOtherPage: ({ context }, params: { page: number }) =>
      Number.isInteger(params.page) && params.page >= 1 && params.page <= pageCountOf(context) && params.page !== context.page,
  },
}).createMachine({
  id: 'subscriberSearch',
  description: 'Finds subscribers of the site by e-mail, name, phone or id prefix, with status and subscription filters and pages.',
  context: ({ input }) => ({
    query: '',
    status: input?.status ?? null,
    filters: { ...NO_FILTERS, ...input?.filters },
    page: input?.page ?? 1,
    pageSize: SUPPORT_LIMITS.pageSize,
    result: null,
    error: null,
  }),
  initial: 'searching',
  on: {
    'search.type': { target: '.debouncing', reenter: true, actions: { type: 'setQuery', params: ({ event }) => ({ query: event.query }) } },
    'search.status': { target: '.searching', reenter: true, actions: { type: 'setStatus', params: ({ event }) => ({ status: event.status }) } },
    'search.filters': { target: '.searching', reenter: true, actions: { type: 'setFilters', params: ({ event }) => ({ filters: event.filters }) } },
    'search.page': {
      guard: { type: 'isOtherPage', params: ({ event }) => ({ page: event.page }) },
      target: '.searching',
      reenter: true,
      actions: { type: 'setPage', params: ({ event }) => ({ page: event.page }) },
    },
  },
  states: {
    debouncing: {
      description: 'The agent is typing; the search starts once they pause (each keystroke restarts the wait).',
      after: { searchDebounce: 'searching' },
    },
    searching: {
      description: 'The search is with the server; a newer query, filter or page aborts it.',
      invoke: {
        id: 'search',
        src: 'search',
        input: ({ context }) => ({
          query: context.query.trim(), status: context.status, ...context.filters, page: context.page, pageSize: context.pageSize,
        }),
        onDone: { target: 'ready', actions: { type: 'setResult', params: ({ event }) => ({ result: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {
      description: 'The matches of the current query, filter and page are shown.',
    },
    failed: {
      description: 'The search failed; the message is shown with a Retry button.',
      on: { 'search.retry': 'searching' },
    },
  },
});

export type SubscriberSearchMachine = typeof subscriberSearchMachine;
export type SubscriberSearchSnapshot = SnapshotFrom<SubscriberSearchMachine>;

function pageCountOf(context: SubscriberSearchContext): number {
  return context.result ? Math.max(1, Math.ceil(context.result.total / context.pageSize)) : 1;
}

export const selectQuery = (s: SubscriberSearchSnapshot): string => s.context.query;
export const selectStatus = (s: SubscriberSearchSnapshot): SubscriberStatus | null => s.context.status;
export const selectFilters = (s: SubscriberSearchSnapshot): SubscriptionFilters => s.context.filters;
/** The site's plans and networks from the last answer (empty until one arrives). */
export const selectPlanOptions = (s: SubscriberSearchSnapshot): FilterOption[] => s.context.result?.plans ?? [];
export const selectNetworkOptions = (s: SubscriberSearchSnapshot): FilterOption[] => s.context.result?.networks ?? [];
export const selectPage = (s: SubscriberSearchSnapshot): number => s.context.page;
export const selectPageCount = (s: SubscriberSearchSnapshot): number => pageCountOf(s.context);
export const selectTotal = (s: SubscriberSearchSnapshot): number | null => s.context.result?.total ?? null;
/** The matches were more than common/support.ts SEARCH_TOTAL_CAP: the total is the cap (pages go up to it). */
export const selectTotalIsCapped = (s: SubscriberSearchSnapshot): boolean => s.context.result?.totalIsCapped ?? false;
export const selectItems = (s: SubscriberSearchSnapshot): SubscriberListItem[] => s.context.result?.items ?? [];
/** Waiting for typing to pause or for the server: the list shows the previous answer, marked busy. */
export const selectIsBusy = (s: SubscriberSearchSnapshot): boolean => s.matches('debouncing') || s.matches('searching');
export const selectError = (s: SubscriberSearchSnapshot): string | null => (s.matches('failed') ? s.context.error : null);
export const selectHasNoMatches = (s: SubscriberSearchSnapshot): boolean => s.matches('ready') && s.context.result?.total === 0;
