import { screen } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { RootActorContext } from '../../app-actor';
import { createTestRoot, settle } from '../../test-harness/render-view';
import { SubscriberSearchPage } from './SubscriberSearchPage';
import { PageLogicContext } from '../../page-actors';
import { UsersLayout } from './UsersLayout';
import { SUBSCRIPTION_STATE_RULES } from '../../../common/figures';
import { PLAN_FIGURES } from '../../../common/plan-figures';
import { validateUsersSearch } from './search';
import { fakeSupportLogic, listItem, PLAN_OPTIONS, SUBSCRIBER_ID } from '../../test-harness/support-fixtures';
import userEvent from '@testing-library/user-event';

describe('UsersLayout', () => {
  it('keeps one search for the whole area: coming back from a subscriber shows the same results without searching again', async () => {
    const fake = fakeSupportLogic();
    const { root } = createTestRoot();
    const rootRoute = createRootRoute();
    // The app's route ids (UsersLayout reads getRouteApi('/protected/users')).
    const signedIn = createRoute({ getParentRoute: () => rootRoute, id: 'protected' });
    const users = createRoute({ getParentRoute: () => signedIn, path: '/users', component: UsersLayout });
    const search = createRoute({ getParentRoute: () => users, path: '/', component: SubscriberSearchPage });
    const subscriber = createRoute({ getParentRoute: () => users, path: '$subscriberId', component: () => <p>Subscriber page</p> });
    const router = createRouter({
      routeTree: rootRoute.addChildren([signedIn.addChildren([users.addChildren([search, subscriber])])]),
      history: createMemoryHistory({ initialEntries: ['/users'] }),
    });
    await router.load();
    render(
      <RootActorContext.Provider value={root}>
        <PageLogicContext.Provider value={fake.pages}>
          <RouterProvider router={router} />
        </PageLogicContext.Provider>
      </RootActorContext.Provider>,
    );
    await settle();
    expect(screen.getByRole('link', { name: listItem(1).name })).toBeTruthy();
    await act(() => router.navigate({ to: '/users/$subscriberId', params: { subscriberId: SUBSCRIBER_ID } }));
    expect(screen.getByText('Subscriber page')).toBeTruthy();
    await act(() => router.navigate({ to: '/users' }));
    await settle();
    expect(screen.getByRole('link', { name: listItem(1).name })).toBeTruthy();
    expect(fake.searches).toHaveLength(1);
    root.stop();
  });

  it('opens filtered by the URL (the Dashboard link), explains the state, and keeps every filter change in the URL', async () => {
    const fake = fakeSupportLogic();
    const { root } = createTestRoot();
    const rootRoute = createRootRoute();
    // The app's route ids (UsersLayout reads getRouteApi('/protected/users')).
    const signedIn = createRoute({ getParentRoute: () => rootRoute, id: 'protected' });
    const users = createRoute({ getParentRoute: () => signedIn, path: '/users', component: UsersLayout, validateSearch: validateUsersSearch });
    const search = createRoute({ getParentRoute: () => users, path: '/', component: SubscriberSearchPage });
    const router = createRouter({
      routeTree: rootRoute.addChildren([signedIn.addChildren([users.addChildren([search])])]),
      history: createMemoryHistory({ initialEntries: ['/users?state=paying&network=sports-plus&plan=bogus'] }),
    });
    await router.load();
    render(
      <RootActorContext.Provider value={root}>
        <PageLogicContext.Provider value={fake.pages}>
          <RouterProvider router={router} />
        </PageLogicContext.Provider>
      </RootActorContext.Provider>,
    );
    await settle();
    expect(fake.searches).toEqual([{ query: '', status: null, state: 'paying', plan: null, network: 'sports-plus', page: 1, pageSize: 20 }]);
    const state = screen.getByLabelText<HTMLSelectElement>('Subscription');
    expect(state.value).toBe('paying');
    expect(screen.getByLabelText<HTMLSelectElement>('Network').value).toBe('sports-plus');
    const help = document.getElementById(state.getAttribute('aria-describedby')!);
    expect(help?.textContent).toBe(`Paying: ${SUBSCRIPTION_STATE_RULES.paying.help}`);
    expect(screen.getByText('2 subscribers')).toBeTruthy();
    expect(screen.getByLabelText('Plan').getAttribute('aria-describedby')).toBeNull();

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Plan'), 'Basic Monthly');
    await settle();
    // Issue 38: under a plan the count says it counts subscribers (people), not subscriptions.
    const planHelp = document.getElementById(screen.getByLabelText('Plan').getAttribute('aria-describedby')!);
    expect(planHelp?.textContent).toBe(`${PLAN_FIGURES.subscribersOnPlan.label}: ${PLAN_FIGURES.subscribersOnPlan.help}`);
    expect(fake.searches.at(-1)).toEqual({ query: '', status: null, state: 'paying', plan: PLAN_OPTIONS[0]!.value, network: 'sports-plus', page: 1, pageSize: 20 });
    expect(router.state.location.search).toEqual({ state: 'paying', plan: PLAN_OPTIONS[0]!.value, network: 'sports-plus' });
    await user.selectOptions(state, 'Any subscription');
    await user.selectOptions(screen.getByLabelText('Network'), 'All networks');
    await settle();
    expect(router.state.location.search).toEqual({ plan: PLAN_OPTIONS[0]!.value });
    expect(state.getAttribute('aria-describedby')).toBeNull();
    expect(fake.searches.at(-1)).toEqual({ query: '', status: null, state: null, plan: PLAN_OPTIONS[0]!.value, network: null, page: 1, pageSize: 20 });
    root.stop();
  });
});
