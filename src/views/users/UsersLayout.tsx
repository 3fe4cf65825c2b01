/**
 * /users and its children: runs the subscriber search for as long as the agent stays in the Users
 * area, so the results are still there after opening a subscriber and coming back.
 */
import { Outlet } from '@tanstack/react-router';
import { useContext, useState } from 'react';
import { SubscriberSearchContext, SupportLogicContext } from './support-logic';

export function UsersLayout() {
  const makeLogic = useContext(SupportLogicContext);
  const [logic] = useState(makeLogic);
  return (
    <SubscriberSearchContext.Provider logic={logic.search}>
      <Outlet />
    </SubscriberSearchContext.Provider>
  );
}
