import { screen } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { RootActorContext } from '../../app-actor';
import { createTestRoot, settle } from '../../test-support/render-view';
import { SubscriberSearchPage } from './SubscriberSearchPage';
import { SupportLogicContext } from './support-logic';
import { UsersLayout } from './UsersLayout';
import { fakeSupportLogic, listItem, SUBSCRIBER_ID } from './test-fixtures';

describe('UsersLayout', () => {
  it('keeps one search for the whole area: coming back from a subscriber shows the same results without searching again', async () => {
    const fake = fakeSupportLogic();
    const { root } = createTestRoot();
    const rootRoute = createRootRoute();
    const users = createRoute({ getParentRoute: () => rootRoute, path: '/users', component: UsersLayout });
    const search = createRoute({ getParentRoute: () => users, path: '/', component: SubscriberSearchPage });
    const subscriber = createRoute({ getParentRoute: () => users, path: '$subscriberId', component: () => <p>Subscriber page</p> });
    const router = createRouter({
      routeTree: rootRoute.addChildren([users.addChildren([search, subscriber])]),
      history: createMemoryHistory({ initialEntries: ['/users'] }),
    });
    await router.load();
    render(
      <RootActorContext.Provider value={root}>
        <SupportLogicContext.Provider value={() => fake.logic}>
          <RouterProvider router={router} />
        </SupportLogicContext.Provider>
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
});
