/**
 * Whether a page's logic is provided (src/page-actors.tsx). The browser provides every page; a view
 * test of another page (the header, a report page, the Dashboard) provides only its own, and then the
 * alerts' and saved views' small parts on those pages (the header's count, Save view, the Dashboard's
 * open incidents) are left out instead of failing that test.
 */
import { useContext } from 'react';
import { PageLogicContext, type PageName } from '../../../page-actors';

export function useHasPageLogic(name: PageName): boolean {
  const map = useContext(PageLogicContext);
  return map !== null && name in map;
}
