/**
 * /users and its children: runs the subscriber search for as long as the agent stays in the Users
 * area, so the results are still there after opening a subscriber and coming back. The search starts
 * from the subscription filters in the URL (issue 27: a link opens the list filtered), its status filter
 * and page (issue 38); never from a typed search text (src/views/support/search.ts says why).
 */
import { getRouteApi, Outlet } from '@tanstack/react-router';
import { useState } from 'react';
import { searchStartOf, validateUsersSearch } from './search';
import { SubscriberSearchHost } from './support-logic';

/** The /users layout route (its search typed by validateUsersSearch in the router). */
const usersRoute = getRouteApi('/protected/users');

export function UsersLayout() {
  // Validated again: the router keeps a value its validator drops (e.g. ?plan=bogus) beside the validated ones.
  const search = usersRoute.useSearch({ select: validateUsersSearch });
  const [input] = useState(() => searchStartOf(search));
  return (
    <SubscriberSearchHost input={input}>
      <Outlet />
    </SubscriberSearchHost>
  );
}
