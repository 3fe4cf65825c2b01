/**
 * /users (issue 16): find a subscriber by e-mail, domain, name, phone or id (any case; what each
 * matches is SUBSCRIBER_SEARCH_HELP, shown under the box, issue 38), filter by
 * status and by their subscriptions' state, plan and network (issue 27; in the URL), page through the matches. E-mail and phone arrive masked. Renders the `subscriberSearch`
 * machine and sends it what the agent types and picks.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { SUBSCRIPTION_STATES, SUBSCRIPTION_STATE_RULES, isSubscriptionState } from '../../../common/figures';
import { PLAN_FIGURES } from '../../../common/plan-figures';
import {
  SEARCH_TOTAL_CAPPED_TEXT, SUBSCRIBER_SEARCH_HELP, SUBSCRIBER_STATUSES, SUPPORT_MESSAGES, type SubscriberStatus, type SubscriptionFilters,
} from '../../../common/support';
import {
  searchEvents, selectError, selectFilters, selectHasNoMatches, selectIsBusy, selectItems, selectNetworkOptions, selectPage, selectPageCount,
  selectPlanOptions, selectQuery, selectStatus, selectTotal, selectTotalIsCapped,
} from '../../../machines/support-search.machine';
import { SUBSCRIBER_STATUS_WORDS } from '../../../common/status-words';
import { button, errorText, field, input, label, page, pageTitle } from '../../theme/ui.css';
import { useDisplayDates } from '../shared/use-site-time-zone';
import { searchOf } from './search';
import { SubscriberSearchContext } from './support-logic';
import * as css from './support.css';

const countFormat = new Intl.NumberFormat('en-US');
const STATUS_TONE: Record<SubscriberStatus, keyof typeof css.badge> = { active: 'good', suspended: 'warn', closed: 'neutral' };

export function SubscriberStatusBadge({ status }: { status: SubscriberStatus }) {
  return <span className={css.badge[STATUS_TONE[status]]}>{SUBSCRIBER_STATUS_WORDS[status]}</span>;
}

function isStatus(value: string): value is SubscriberStatus {
  return SUBSCRIBER_STATUSES.some((status) => status === value);
}

export function SubscriberSearchPage() {
  const search = SubscriberSearchContext.useActorRef();
  const query = SubscriberSearchContext.useSelector(selectQuery);
  const status = SubscriberSearchContext.useSelector(selectStatus);
  const items = SubscriberSearchContext.useSelector(selectItems);
  const total = SubscriberSearchContext.useSelector(selectTotal);
  const totalIsCapped = SubscriberSearchContext.useSelector(selectTotalIsCapped);
  const currentPage = SubscriberSearchContext.useSelector(selectPage);
  const pageCount = SubscriberSearchContext.useSelector(selectPageCount);
  const busy = SubscriberSearchContext.useSelector(selectIsBusy);
  const error = SubscriberSearchContext.useSelector(selectError);
  const noMatches = SubscriberSearchContext.useSelector(selectHasNoMatches);
  const filters = SubscriberSearchContext.useSelector(selectFilters);
  const planOptions = SubscriberSearchContext.useSelector(selectPlanOptions);
  const networkOptions = SubscriberSearchContext.useSelector(selectNetworkOptions);
  const navigate = useNavigate();
  const { date } = useDisplayDates();
  /**
   * Mirrors the list's filters, status and page in the URL (replaced: Back leaves Users, as before).
   * Never the typed text: it is personal data (src/views/support/search.ts).
   */
  const mirror = (next: SubscriptionFilters, nextStatus: SubscriberStatus | null, nextPage: number) => {
    void navigate({ to: '/users', search: searchOf(next, nextStatus, nextPage), replace: true });
  };
  /** Searches with the new filters (back to page 1). */
  const filterBy = (change: Partial<SubscriptionFilters>) => {
    const next = { ...filters, ...change };
    search.send(searchEvents.filters(next, status));
    mirror(next, status, 1);
  };
  const statusBy = (next: SubscriberStatus | null) => {
    search.send(searchEvents.status(next));
    mirror(filters, next, 1);
  };
  const pageTo = (next: number) => {
    search.send(searchEvents.page(next));
    mirror(filters, status, next);
  };
  const stateRule = filters.state ? SUBSCRIPTION_STATE_RULES[filters.state] : null;
  // A network of the URL that the site does not list yet (before the first answer) still shows as chosen.
  const networks = filters.network && !networkOptions.some((n) => n.value === filters.network)
    ? [...networkOptions, { value: filters.network, label: filters.network }] : networkOptions;

  return (
    <main className={page}>
      <h1 className={pageTitle}>Users</h1>
      <div className={css.searchBar} role="search">
        <div className={field}>
          <label className={label} htmlFor="subscriber-query">Search subscribers</label>
          <input
            id="subscriber-query"
            className={input}
            type="search"
            placeholder={SUBSCRIBER_SEARCH_HELP.placeholder}
            aria-describedby="subscriber-query-help"
            autoComplete="off"
            value={query}
            onChange={(e) => {
              search.send(searchEvents.type(e.target.value));
              // Typing goes back to page 1: the address's page goes with it.
              if (currentPage > 1) mirror(filters, status, 1);
            }}
          />
        </div>
        <div className={field}>
          <label className={label} htmlFor="subscriber-status">Status</label>
          <select
            id="subscriber-status"
            className={input}
            value={status ?? ''}
            onChange={(e) => statusBy(isStatus(e.target.value) ? e.target.value : null)}
          >
            <option value="">All statuses</option>
            {SUBSCRIBER_STATUSES.map((s) => <option key={s} value={s}>{SUBSCRIBER_STATUS_WORDS[s]}</option>)}
          </select>
        </div>
      </div>
      <p id="subscriber-query-help" className={css.hint}>{SUBSCRIBER_SEARCH_HELP.help}</p>
      <div className={css.filterBar} role="group" aria-label="Subscription filters">
        <div className={field}>
          <label className={label} htmlFor="subscription-state">Subscription</label>
          <select
            id="subscription-state"
            className={input}
            value={filters.state ?? ''}
            aria-describedby={stateRule ? 'subscription-state-help' : undefined}
            onChange={(e) => filterBy({ state: isSubscriptionState(e.target.value) ? e.target.value : null })}
          >
            <option value="">Any subscription</option>
            {SUBSCRIPTION_STATES.map((s) => <option key={s} value={s}>{SUBSCRIPTION_STATE_RULES[s].label}</option>)}
          </select>
        </div>
        <div className={field}>
          <label className={label} htmlFor="subscription-plan">Plan</label>
          <select
            id="subscription-plan" className={input} value={filters.plan ?? ''} aria-describedby={filters.plan ? 'subscription-plan-help' : undefined}
            onChange={(e) => filterBy({ plan: e.target.value || null })}
          >
            <option value="">All plans</option>
            {planOptions.map((p) => <option key={p.value} value={p.value}>{p.label}</option>)}
          </select>
        </div>
        {networks.length > 1 || filters.network ? (
          <div className={field}>
            <label className={label} htmlFor="subscription-network">Network</label>
            <select id="subscription-network" className={input} value={filters.network ?? ''} onChange={(e) => filterBy({ network: e.target.value || null })}>
              <option value="">All networks</option>
              {networks.map((n) => <option key={n.value} value={n.value}>{n.label}</option>)}
            </select>
          </div>
        ) : null}
      </div>
      {stateRule && <p id="subscription-state-help" className={css.hint}>{stateRule.label}: {stateRule.help}</p>}
      {filters.plan && <p id="subscription-plan-help" className={css.hint}>{PLAN_FIGURES.subscribersOnPlan.label}: {PLAN_FIGURES.subscribersOnPlan.help}</p>}

      {error && (
        <div role="alert">
          <p className={errorText}>{error}</p>
          <button type="button" className={button.secondary} onClick={() => search.send(searchEvents.retry())}>Retry</button>
        </div>
      )}
      <p aria-live="polite" className={css.sectionNote}>
        {busy ? 'Searching…' : total === null || error ? '' : totalIsCapped ? SEARCH_TOTAL_CAPPED_TEXT
          : `${countFormat.format(total)} ${total === 1 ? 'subscriber' : 'subscribers'}`}
      </p>
      {noMatches ? (
        <p className={css.section}>{SUPPORT_MESSAGES.noResults}</p>
      ) : items.length > 0 && (
        <div className={`${css.tableWrap} ${busy ? css.busy : ''}`} aria-busy={busy}>
          <table className={css.table}>
            <thead>
              <tr>
                <th className={css.th} scope="col">Name</th>
                <th className={css.th} scope="col">E-mail</th>
                <th className={`${css.th} ${css.narrowHidden}`} scope="col">Phone</th>
                <th className={`${css.th} ${css.narrowHidden}`} scope="col">Country</th>
                <th className={css.th} scope="col">Plan</th>
                <th className={css.th} scope="col">Subscription</th>
                <th className={`${css.th} ${css.narrowHidden}`} scope="col">Status</th>
                <th className={`${css.th} ${css.narrowHidden}`} scope="col">Joined</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id}>
                  <td className={css.td}><Link to="/users/$subscriberId" params={{ subscriberId: item.id }}>{item.name}</Link></td>
                  <td className={`${css.td} ${css.nowrap}`}>{item.email}</td>
                  <td className={`${css.td} ${css.nowrap} ${css.narrowHidden}`}>{item.phone || '—'}</td>
                  <td className={`${css.td} ${css.narrowHidden}`}>{item.country}</td>
                  <td className={css.td}>{item.planName ?? '—'}</td>
                  <td className={css.td}>{item.subscriptionState ? SUBSCRIPTION_STATE_RULES[item.subscriptionState].label : 'None'}</td>
                  <td className={`${css.td} ${css.narrowHidden}`}><SubscriberStatusBadge status={item.status} /></td>
                  <td className={`${css.td} ${css.nowrap} ${css.narrowHidden}`}>{date(item.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pageCount > 1 && (
        <nav className={css.pager} aria-label="Pages">
          <span>Page {currentPage} of {pageCount}</span>
          <span className={css.pagerButtons}>
            <button type="button" className={button.secondary} disabled={currentPage <= 1}
              onClick={() => pageTo(currentPage - 1)}>Previous</button>
            <button type="button" className={button.secondary} disabled={currentPage >= pageCount}
              onClick={() => pageTo(currentPage + 1)}>Next</button>
          </span>
        </nav>
      )}
    </main>
  );
}
