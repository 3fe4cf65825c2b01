/**
 * What the routed app adds around the router (issue 26): the page machines' context, each page's
 * logic read from its area's wiring file on first use (src/page-actors.tsx), and the guard that asks
 * before a reload or a closed tab drops an editor's unsaved changes (src/unsaved-edits.ts). Loaded by
 * src/main.tsx with the router, not in the sign-in page's first load (issue 39): no page machine or
 * editor runs before the router does.
 */
import type { ReactNode } from 'react';
import { PAGE_LOGIC_LOADERS } from './adapters/page-logic';
import { lazyPageLogic, PageLogicContext } from './page-actors';

// Page machines with their areas' real I/O, each area's wiring file loaded when one of its pages renders.
const pageLogic = lazyPageLogic(PAGE_LOGIC_LOADERS);

export function PageLogicProvider({ children }: { children: ReactNode }) {
  return <PageLogicContext.Provider value={pageLogic}>{children}</PageLogicContext.Provider>;
}

/** Reload or closing the tab asks first while any page's editor has unsaved changes (issue 28). */
export { installUnsavedEditsGuard } from './unsaved-edits';
