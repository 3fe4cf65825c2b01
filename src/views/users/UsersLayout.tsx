/**
 * /users and its children: runs the subscriber search for as long as the agent stays in the Users
 * area, so the results are still there after opening a subscriber and coming back. The search starts
 * from the subscription filters in the URL (issue 27: a link opens the list filtered).
 */
import { Outlet, useSearch } from '@tanstack/react-router';
import { useContext, useState } from 'react';
import { filtersOf, validateUsersSearch } from './search';
import { SubscriberSearchContext, SupportLogicContext } from './support-logic';

export function UsersLayout() {
  const makeLogic = useContext(SupportLogicContext);
  const [logic] = useState(makeLogic);
  // Validated again: the merged search of a child route also holds the raw values.
  const search = validateUsersSearch(useSearch({ strict: false }));
  const [input] = useState(() => ({ filters: filtersOf(search) }));
  return (
    <SubscriberSearchContext.Provider logic={logic.search} options={{ input }}>
      <Outlet />
    </SubscriberSearchContext.Provider>
  );
}
