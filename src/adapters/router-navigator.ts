/**
 * The machines' navigate once the router is loaded (installed by src/main.tsx through the router's
 * module, so none of this is in the sign-in page's first load).
 */
import type { AnyRouter } from '@tanstack/react-router';

/**
 * Whether a machine's in-place correction of the address (a `replace`) would cancel the operator's
 * own navigation: the router is already on its way from the page shown (`shownPath`) to another one
 * (`goingToPath`), and the correction is for the page being left. Such a correction is not applied.
 * Under load the content library's list answered while a click on one of its rows (or on Media) was
 * still loading that page's code; its address write (a replace of /content?…) overtook the click and
 * the operator stayed on the library: a click that did nothing.
 */
export function cancelsNavigation(to: string, options: { replace?: boolean } | undefined, shownPath: string | undefined, goingToPath: string): boolean {
  if (!options?.replace || shownPath === undefined || shownPath === goingToPath) return false;
  return new URL(to, 'http://address.invalid').pathname === shownPath;
}

/** Navigates the router, except for a correction of the address of a page the operator is leaving. */
export function routerNavigator(router: AnyRouter): (to: string, options?: { replace?: boolean }) => void {
  return (to, options) => {
    if (cancelsNavigation(to, options, router.state.resolvedLocation?.pathname, router.latestLocation.pathname)) return;
    void router.navigate({ href: to, replace: options?.replace });
  };
}
